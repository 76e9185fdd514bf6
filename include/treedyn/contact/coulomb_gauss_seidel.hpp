// coulomb_gauss_seidel: the contact problem on the Coulomb cone itself — no polyhedral approximation — by the
// nonsmooth block Gauss–Seidel method of Moreau (1988) and Jean (1999), each contact's local problem solved
// exactly (the enumerative local solver of Acary, Brémond & Huber 2018, "On solving contact problems with
// Coulomb friction: formulations and numerical comparisons"); docs/contact.md#exact-friction-cone.
//
// Problem, in one world frame (contact_lcp's C2 has eliminated the bilateral rows): G (3n × 3n, symmetric
// positive semi-definite, block (i, j) how an impulse at contact j changes the relative velocity at i) and v
// (3n); find the impulses λ = col(λ_i) on the A sides and w = G λ + v such that at every contact, with unit
// normal n̂_i, λ_n = n̂ᵀλ_i, λ_t = λ_i − λ_n n̂, and w_n, w_t likewise (Signorini's condition with Coulomb's law):
//   take-off   λ_i = 0,                              w_n ≥ 0
//   stick      ‖λ_t‖ ≤ μ λ_n,  λ_n > 0,               w_i = 0
//   slide      λ_t = −μ λ_n w_t/‖w_t‖,  λ_n > 0,     w_n = 0, w_t ≠ 0
// Equivalently (De Saxcé & Feng 1998): λ_i ∈ K_μ, ŵ_i = w_i + μ‖w_t‖ n̂ ∈ K_μ* (the dual cone), λ_iᵀŵ_i = 0. The
// friction opposes the sliding in every direction with its full μ λ_n: the maximum-dissipation principle holds
// exactly (contact_metrics' `dissipation` is round-off), where an n_f-sided pyramid leaves up to
// μ λ_n ‖w_t‖ (1 − cos(π/n_f)).
//   G1  per contact, its frame R_i = [n̂, t̂_1, t̂_2] (t̂_1 the first friction direction of contact.hpp, t̂_2 = n̂ × t̂_1)
//       and its local Delassus block A_i = R_iᵀ G_ii R_i with (A_i + ε tr(A_i) 1)⁻¹ (A_i is singular for a contact
//       on a body with fewer than three DoFs below it, e.g. a pendulum's link); λ = 0.
//       λ = 0, or, warm-started (`warm`), the λ the caller wrote (e.g. the previous time step's impulses of the same
//       contacts: contact_step's warm start, docs/contact.md#warm-start).
//   G2  a sweep: for i = 1 … n: b = R_iᵀ (v_i + Σ_j G_ij λ_j) − A_i R_iᵀ λ_i (the other contacts' impulses
//       held), λ_i ← R_i local(A_i, b, μ_i) (G4).
//   G3  sweeps until the largest change of a contact's velocity in one sweep, max_i ‖A_i R_iᵀ Δλ_i‖_∞, is at most
//       `tolerance` × max(‖v‖_∞, ε) (converged), or `max_sweeps` sweeps (status pivot_cap, the last iterate kept).
//   G4  local(A, b, μ), coordinates (n̂, t̂_1, t̂_2), w = A λ + b:
//       b_n ≥ 0: take-off, λ = 0;  else λ = −A⁻¹ b when it lies in K_μ with λ_n > 0 and A λ + b = 0 to round-off:
//       stick;  else slide:
//       λ(φ) = λ_n(φ) a(φ), a = (1, −μ cos φ, −μ sin φ), λ_n = −b_n/(A a)_n (w_n = 0), and the angle φ of the
//       sliding direction u = (cos φ, sin φ) a root of g(φ) = u⊥ᵀ w_t(φ) with h(φ) = uᵀ w_t(φ) > 0 (w_t ∥ u) and
//       (A a)_n > 0, both taken times (A a)_n so that they stay smooth where λ_n grows without bound (a stiff block
//       can put the root there): Newton's method (analytic derivative) from the direction opposite the stick
//       impulse's tangential part (the root itself when A's tangential block is isotropic and decoupled from
//       the normal, as for a sphere on a plane), safeguarded by a scan of 64 angles and bisection; if no root is
//       found (a degenerate block), the stick impulse projected on K_μ.
// Result: λ (impulses()), w (velocities()), and the status: pivots = sweeps, residual = max_i of the natural-map
// residual ‖λ_i − P_K(λ_i − ρ_i ŵ_i)‖/ρ_i (a speed; 0 exactly when contact i meets the law above), ρ_i =
// 1/‖A_i‖_F, P_K the Euclidean projection on K_μ. Cost O(n²) per sweep. noexcept; never allocates (the
// workspace holds every buffer, sized once for `capacity` contacts).
#pragma once

#include <cmath>

#include <Eigen/Core>
#include <Eigen/LU>

#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/lemke.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn {

/// Which friction cone contact_lcp (and contact_step) solves on (docs/contact.md#exact-friction-cone).
enum class FrictionCone {
  pyramid,  ///< the n_f-sided polyhedral cone of each contact, Jain's LCP by Lemke's method (the default)
  exact,    ///< the Coulomb cone itself, by coulomb_gauss_seidel
};

/// The buffers of coulomb_gauss_seidel for up to `capacity` contacts, and its settings.
template <class Scalar>
struct CoulombGaussSeidelWorkspace {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  explicit CoulombGaussSeidelWorkspace(int capacity)
      : frames(Matrix::Zero(3, 3 * capacity)), blocks(Matrix::Zero(3, 3 * capacity)),
        block_inverses(Matrix::Zero(3, 3 * capacity)), friction(Vector::Zero(capacity)),
        lambda(Vector::Zero(3 * capacity)), w(Vector::Zero(3 * capacity)), max_contacts(capacity) {}

  /// λ of the last solve (3 per contact, world coordinates).
  [[nodiscard]] auto impulses() const noexcept { return lambda.head(3 * n); }
  /// w = G λ + v of the last solve.
  [[nodiscard]] auto velocities() const noexcept { return w.head(3 * n); }

  int max_sweeps = 5000;  ///< G3's cap on the sweeps
  /// G1: start the next solve from the λ in `lambda` (the caller wrote it) instead of 0; each solve resets it.
  /// The converged answer is the same to G3's tolerance where the problem's answer is unique (the velocities w
  /// always; the impulses where G is definite), only the sweeps differ (docs/contact.md#warm-start).
  bool warm = false;
  /// G3's relative tolerance on a sweep's largest velocity change: 10⁻¹⁰, or 64 ε where that is larger (float).
  /// The sweeps grow by a fixed number per decade (linear convergence): about 100 for a stack of three cubes.
  Scalar tolerance = Scalar(1e-10) > Scalar(64) * detail::epsilon<Scalar>() ? Scalar(1e-10)
                                                                            : Scalar(64) * detail::epsilon<Scalar>();
  Matrix frames;          ///< G1: R_i side by side (the caller writes n̂_i and t̂_1,i into columns 3i, 3i + 1)
  Matrix blocks;          ///< G1: A_i side by side
  Matrix block_inverses;  ///< G1: A_i⁻¹ side by side
  Vector friction;        ///< μ_i (the caller writes them)
  Vector lambda, w;       ///< λ and w = G λ + v
  int max_contacts;       ///< the capacity
  int n = 0;              ///< contacts of the last solve
};

namespace detail {

/// P_K(x): the Euclidean projection of x (coordinates n̂, t̂_1, t̂_2) on the cone ‖x_t‖ ≤ μ x_n.
template <class Scalar>
Vector3<Scalar> coulomb_cone_projection(const Vector3<Scalar>& x, const Scalar& mu) noexcept {
  const Scalar t = x.template tail<2>().norm();
  if (t <= mu * x(0)) return x;                                        // inside
  if (mu * t <= -x(0)) return Vector3<Scalar>::Zero();                 // in the polar cone: the apex
  const Scalar s = (x(0) + mu * t) / (Scalar(1) + mu * mu);            // on the ray (1, μ x_t/‖x_t‖)
  return Vector3<Scalar>(s, s * mu * x(1) / t, s * mu * x(2) / t);
}

/// G4's sliding branch at angle φ (file comment), with g and h multiplied by d = (A a)_n so that they stay smooth
/// where d passes 0 (there λ_n = −b_n/d grows without bound): d, λ_n (when d > 0), g̃ = d g, g̃′ and h̃ = d h.
template <class Scalar>
struct CoulombSlide {
  Scalar d, lambda_n, g, dg, h;
};

template <class Scalar>
CoulombSlide<Scalar> coulomb_slide_at(const Matrix3<Scalar>& A, const Vector3<Scalar>& b, const Scalar& mu,
                                      const Scalar& phi) noexcept {
  using std::cos;
  using std::sin;
  const Scalar c = cos(phi), s = sin(phi);
  const Vector3<Scalar> Aa = A * Vector3<Scalar>(Scalar(1), -mu * c, -mu * s);
  const Vector3<Scalar> Ada = A * Vector3<Scalar>(Scalar(0), mu * s, -mu * c);   // A a′(φ)
  CoulombSlide<Scalar> out;
  out.d = Aa(0);
  out.lambda_n = out.d > Scalar(0) ? -b(0) / out.d : Scalar(0);
  const Scalar wt1 = -b(0) * Aa(1) + out.d * b(1), wt2 = -b(0) * Aa(2) + out.d * b(2);  // d w_t
  const Scalar dwt1 = -b(0) * Ada(1) + Ada(0) * b(1), dwt2 = -b(0) * Ada(2) + Ada(0) * b(2);
  out.g = -s * wt1 + c * wt2;
  out.h = c * wt1 + s * wt2;
  out.dg = -out.h - s * dwt1 + c * dwt2;
  return out;
}

/// G4 (file comment): the impulse of one contact in its coordinates, given its block A (with A⁻¹), the velocity b
/// the other impulses leave, and μ.
template <class Scalar>
Vector3<Scalar> coulomb_local(const Matrix3<Scalar>& A, const Matrix3<Scalar>& A_inv, const Vector3<Scalar>& b,
                              const Scalar& mu) noexcept {
  using std::abs;
  using std::atan2;
  using std::cos;
  using std::sin;
  if (!(b(0) < Scalar(0))) return Vector3<Scalar>::Zero();                         // take-off
  const Scalar eps = epsilon<Scalar>();
  const Vector3<Scalar> stick = -(A_inv * b);
  const Scalar t = stick.template tail<2>().norm();
  const Scalar stick_error = (A * stick + b).cwiseAbs().maxCoeff();                // A may be singular (few DoFs)
  if (stick(0) > Scalar(0) && t <= mu * stick(0) &&
      stick_error <= Scalar(64) * eps * (b.cwiseAbs().maxCoeff() + A.cwiseAbs().maxCoeff() * stick.cwiseAbs().maxCoeff()))
    return stick;                                                                  // stick
  if (!(mu > Scalar(0)))                                                           // frictionless: slide
    return A(0, 0) > Scalar(0) ? Vector3<Scalar>(-b(0) / A(0, 0), Scalar(0), Scalar(0)) : Vector3<Scalar>::Zero();
  const Scalar g_tolerance = Scalar(64) * eps * A.cwiseAbs().maxCoeff() * (Scalar(1) + mu) * b.cwiseAbs().maxCoeff();
  const auto slides = [&](const CoulombSlide<Scalar>& e) {
    return e.d > Scalar(0) && e.h > Scalar(0) && abs(e.g) <= g_tolerance;
  };
  const auto impulse = [&mu](const Scalar& phi, const Scalar& lambda_n) {
    return Vector3<Scalar>(lambda_n, -mu * lambda_n * cos(phi), -mu * lambda_n * sin(phi));
  };
  const Scalar phi0 = t > Scalar(0) ? atan2(-stick(2), -stick(1)) : atan2(b(2), b(1));  // opposite the stick friction
  Scalar phi = phi0;
  for (int k = 0; k < 30; ++k) {                                                   // Newton on g̃
    const CoulombSlide<Scalar> e = coulomb_slide_at(A, b, mu, phi);
    if (slides(e)) return impulse(phi, e.lambda_n);
    if (e.dg == Scalar(0)) break;
    const Scalar step = e.g / e.dg;
    phi -= step;
    if (abs(step) <= Scalar(4) * eps) break;
  }
  constexpr int samples = 64;                                                      // safeguard: scan, bisect
  const Scalar width = Scalar(2) * Scalar(EIGEN_PI) / Scalar(samples);
  CoulombSlide<Scalar> lo = coulomb_slide_at(A, b, mu, phi0);
  for (int k = 1; k <= samples; ++k) {
    const Scalar phi_lo = phi0 + width * Scalar(k - 1), phi_hi = phi0 + width * Scalar(k);
    const CoulombSlide<Scalar> hi = coulomb_slide_at(A, b, mu, phi_hi);
    if ((lo.g <= Scalar(0)) != (hi.g <= Scalar(0))) {
      Scalar a = phi_lo, z = phi_hi;
      const bool lo_negative = lo.g <= Scalar(0);
      for (int it = 0; it < 200 && abs(z - a) > Scalar(2) * eps * (Scalar(1) + abs(a)); ++it) {
        const Scalar mid = (a + z) / Scalar(2);
        ((coulomb_slide_at(A, b, mu, mid).g <= Scalar(0)) == lo_negative ? a : z) = mid;
      }
      const Scalar root = (a + z) / Scalar(2);
      const CoulombSlide<Scalar> r = coulomb_slide_at(A, b, mu, root);
      if (r.d > Scalar(0) && r.h > Scalar(0)) return impulse(root, r.lambda_n);
    }
    lo = hi;
  }
  return coulomb_cone_projection(stick, mu);                                       // a degenerate block
}

/// Contact i's b (G2): its velocity with the other contacts' impulses held, in its coordinates.
template <class Scalar, class DG, class DV>
Vector3<Scalar> coulomb_local_velocity(const CoulombGaussSeidelWorkspace<Scalar>& ws, const Eigen::MatrixBase<DG>& G,
                                       const Eigen::MatrixBase<DV>& v, int i) noexcept {
  const int n = ws.n;
  const Matrix3<Scalar> R = ws.frames.template middleCols<3>(3 * i);
  Vector3<Scalar> wi = v.template segment<3>(3 * i);
  wi.noalias() += G.middleRows(3 * i, 3).leftCols(3 * n) * ws.lambda.head(3 * n);
  const Vector3<Scalar> lambda_i = ws.lambda.template segment<3>(3 * i);
  return R.transpose() * wi - ws.blocks.template middleCols<3>(3 * i) * (R.transpose() * lambda_i);
}

}  // namespace detail

/// Solves the contact problem of the file comment for the n contacts whose frames (columns 3i: n̂_i, 3i + 1: t̂_1,i)
/// and μ_i the caller wrote into ws.frames and ws.friction; returns pivots = sweeps and the residual (G1–G4).
template <class Scalar, class DG, class DV>
LcpStatus<Scalar> coulomb_gauss_seidel(CoulombGaussSeidelWorkspace<Scalar>& ws, int n, const Eigen::MatrixBase<DG>& G,
                                       const Eigen::MatrixBase<DV>& v) noexcept {
  using std::abs;
  LcpStatus<Scalar> status;
  ws.n = n;
  for (int i = 0; i < n; ++i) {                                                    // G1
    Matrix3<Scalar> R = ws.frames.template middleCols<3>(3 * i);                   // fixed size: no temporary
    R.col(2) = Vector3<Scalar>(R.col(0)).cross(Vector3<Scalar>(R.col(1)));
    ws.frames.template middleCols<3>(3 * i) = R;
    const Matrix3<Scalar> G_ii = G.template block<3, 3>(3 * i, 3 * i);
    const Matrix3<Scalar> A = R.transpose() * G_ii * R;
    ws.blocks.template middleCols<3>(3 * i) = A;
    const Scalar shift = detail::epsilon<Scalar>() * A.trace();                    // A is singular for a contact
    ws.block_inverses.template middleCols<3>(3 * i) = (A + shift * Matrix3<Scalar>::Identity()).inverse();  // on few DoFs
  }
  if (!ws.warm) ws.lambda.head(3 * n).setZero();
  ws.warm = false;
  const Scalar v_scale = n > 0 ? v.cwiseAbs().maxCoeff() : Scalar(0);
  const Scalar limit = ws.tolerance * (v_scale > detail::epsilon<Scalar>() ? v_scale : detail::epsilon<Scalar>());
  bool converged = n == 0;
  int sweeps = 0;
  while (!converged && sweeps < ws.max_sweeps) {                                   // G2, G3
    ++sweeps;
    Scalar change = Scalar(0);
    for (int i = 0; i < n; ++i) {
      const Matrix3<Scalar> R = ws.frames.template middleCols<3>(3 * i);
      const Matrix3<Scalar> A = ws.blocks.template middleCols<3>(3 * i);
      const Vector3<Scalar> b = detail::coulomb_local_velocity(ws, G, v, i);
      const Vector3<Scalar> local = detail::coulomb_local<Scalar>(A, ws.block_inverses.template middleCols<3>(3 * i), b,
                                                                  ws.friction(i));
      const Vector3<Scalar> old = R.transpose() * Vector3<Scalar>(ws.lambda.template segment<3>(3 * i));
      const Scalar moved = (A * (local - old)).cwiseAbs().maxCoeff();
      change = moved > change ? moved : change;
      ws.lambda.template segment<3>(3 * i) = R * local;
    }
    converged = change <= limit;
  }
  auto w = ws.w.head(3 * n);
  w = v;
  w.noalias() += G.topLeftCorner(3 * n, 3 * n) * ws.lambda.head(3 * n);
  Scalar residual = Scalar(0);
  for (int i = 0; i < n; ++i) {                                                    // the natural-map residual
    const Matrix3<Scalar> R = ws.frames.template middleCols<3>(3 * i);
    const Scalar mu = ws.friction(i);
    const Vector3<Scalar> lambda = R.transpose() * Vector3<Scalar>(ws.lambda.template segment<3>(3 * i));
    Vector3<Scalar> w_hat = R.transpose() * Vector3<Scalar>(w.template segment<3>(3 * i));
    w_hat(0) += mu * w_hat.template tail<2>().norm();
    const Scalar rho = Scalar(1) / ws.blocks.template middleCols<3>(3 * i).norm();
    const Scalar r = (lambda - detail::coulomb_cone_projection<Scalar>(lambda - rho * w_hat, mu)).norm() / rho;
    residual = r > residual ? r : residual;
  }
  status.pivots = sweeps;
  status.residual = residual;
  if (!converged) {
    status.code = Status::Code::pivot_cap;
    status.call = "coulomb_gauss_seidel";
  }
  return status;
}

}  // namespace treedyn
