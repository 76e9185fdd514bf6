// log6: the exponential and logarithm of SE(3) and SO(3) on treedyn's Transform, and the Jacobian of the
// logarithm (the placement error e = log6(X) of inverse kinematics and task-space control, and de = Jlog6 dδ).
//
// References (docs/references.md): Murray, Li & Sastry (1994) §2.2 (eq. 2.14, Rodrigues' formula; Prop. 2.5,
// the logarithm of SO(3)) and §2.3 (eq. 2.36, the exponential of a twist); Solà, Deray & Atchuthan (2018)
// Appendix B (SO(3): Exp, Log, the right Jacobian J_r and its inverse) and Appendix D (SE(3): Exp with V, Log,
// the right Jacobian and its block Q); the closed form of Q is Barfoot & Furgale (2014), which Appendix D quotes.
//
// Convention. A twist ξ = [ω; v] is a motion vector, angular first (docs/conventions.md#spatial-vectors).
// Its homogeneous exponential is M = exp([ω× v; 0 0]) = (R, p) with R = exp(ω×) (Rodrigues) and
// p = V(ω) v, V = I + B ω× + C ω×² (L1-L3 below). M is a placement: the axes (R) and origin (p) of a frame
// B in frame A, A's coordinates. treedyn's Transform ^B X_A = (E, r) holds that placement as E = Rᵀ, r = p
// (docs/conventions.md#transforms-e-r-and-pinocchios-omf), so
//   exp6(ξ) = ^B X_A = (exp(ω×)ᵀ, V(ω) v):  B is A displaced by the constant body velocity ξ for unit time,
//   and as a dense motion transform exp6(ξ) = exp(−crm(ξ)); exp6([θ x̂; 0]) = rotx(θ), exp6([0; p]) = xlt(p).
//   log6(X) = ξ with exp6(ξ) = X and |ω| ≤ π (at |ω| = π both ±ω are logarithms; either may be returned).
// Transform products run the other way from placement products: X2 * X1 ↔ M(X1) M(X2). Pinocchio's error
// log6(M_des⁻¹ M(q)) is therefore log6(X(q) * X_des.inverse()) here, X(q) = ^F X_0 from frame_placement.
//
// jlog6(X) = ∂ log6(exp6(δ) * X) / ∂δ at δ = 0 — in placement form ∂ log6(M · exp(δ^)) / ∂δ, the right
// (local) perturbation: the frame B moves by the twist δ in B's own coordinates. It is the inverse right
// Jacobian J_r⁻¹(ξ) at ξ = log6(X) (Solà App. D with its rows and columns reordered to [ω; v]):
//   jlog6 = [ J3⁻¹  0 ; −J3⁻¹ Q(−v, −ω) J3⁻¹  J3⁻¹ ],   J3⁻¹ = jlog3 = J_r⁻¹(ω) = I + ½ ω× + K ω×².
// Hence, for a frame with frame_jacobian(…, ReferenceFrame::local) J: d/dq log6(X(q) * X_des⁻¹) = jlog6 · J.
// jlog3(R) = ∂ log3(R exp(δ×)) / ∂δ at δ = 0 = J_r⁻¹(log3(R)).
//
//   L1  exp3(ω) = I + A ω× + B ω×²,   A = sin θ / θ, B = (1 − cos θ)/θ² = 2 sin²(θ/2)/θ²       (θ = |ω|)
//   L2  exp6(ξ) = (exp3(ω)ᵀ, V v),    V = I + B ω× + C ω×²,  C = (θ − sin θ)/θ³
//   L3  log3(R): c = (tr R − 1)/2 = cos θ, a = (R − Rᵀ)^∨ / 2 = sin θ n, s = |a|, θ = atan2(s, c);
//       θ < π/2: ω = (θ / s) a;  θ ≥ π/2: n from the symmetric part ½(R + Rᵀ) − c I = (1 − c) n nᵀ (its
//       largest diagonal entry first), signed so that n·a ≥ 0, ω = θ n  (a alone loses n as sin θ → 0)
//   L4  log6(X) = [ω; V⁻¹ r],  ω = log3(Eᵀ),  V⁻¹ = I − ½ ω× + K ω×²,  K = (1 − (θ/2) cot(θ/2)) / θ²
//   L5  Q(ρ, ϑ) = ½ ρ× + C (ϑ×ρ× + ρ×ϑ× + ϑ×ρ×ϑ×) + D (ϑ×²ρ× + ρ×ϑ×² − 3 ϑ×ρ×ϑ×)
//                 + F (ϑ×ρ×ϑ×² + ϑ×²ρ×ϑ×),   D = (θ² + 2 cos θ − 2)/(2θ⁴), F = (2θ − 3 sin θ + θ cos θ)/(2θ⁵)
// Numerics: below θ² = √ε each coefficient of L1-L4 is its Taylor series to θ⁴ (truncation ~θ⁶ ≤ ε^1.5, and no
// θ = 0 division: the series are in θ², so AutoDiff derivatives stay finite at ω = 0); above it the closed forms
// lose relative accuracy ~ε/θ^k in a coefficient that multiplies a term of size θ^k, an absolute error of ε
// times the term's other factors. L5's C and F multiply terms of lower order (ϑ×ρ× is of size θ), so their
// closed forms would leave ε|v|/θ in jlog6: below θ = 1 they are summed from their series to ε (q_coefficients).
// log3 takes θ from atan2 (accurate at 0 and π alike) and n from the symmetric part past π/2, so θ = π − 1e-6
// and θ = π lose nothing. At θ = π, K = 1/π², and V⁻¹ and jlog6 are finite.
// Contract: R (E) must be a rotation, to the scalar's rounding; nothing is checked (for a matrix far from
// orthonormal the results mean nothing). noexcept, fixed-size, never allocates.
// Cost (counted from the code, not timed): exp6 and log6 a few sin/cos/atan2/sqrt and a few dozen flops; jlog6
// that plus ten 3×3 products (~500 flops) and, below θ = 1, a series of at most ~10 (double) to ~20 (50 digits)
// terms. Templated on the scalar: float, double, long double, Eigen::AutoDiffScalar, boost::multiprecision
// (numeric scalars only: the series/closed-form switch is an `if`, so a symbolic scalar such as treedyn::Lanes
// is not supported).
#pragma once

#include <treedyn/spatial/transform.hpp>

#include <cmath>
#include <limits>

namespace treedyn {
namespace detail {

/// The squared angle below which every coefficient is its series: √ε (the switch lie_group.hpp uses too).
template <class Scalar>
Scalar log6_series_below() noexcept {
  using std::sqrt;
  return sqrt(Scalar(std::numeric_limits<Scalar>::epsilon()));
}

/// A, B, C of L1-L2 from t2 = θ².
template <class Scalar>
Vector3<Scalar> exp_coefficients(const Scalar& t2) noexcept {
  using std::sin;
  using std::sqrt;
  if (t2 < log6_series_below<Scalar>())
    return Vector3<Scalar>(Scalar(1) - t2 / Scalar(6) + t2 * t2 / Scalar(120),
                           Scalar(0.5) - t2 / Scalar(24) + t2 * t2 / Scalar(720),
                           Scalar(1) / Scalar(6) - t2 / Scalar(120) + t2 * t2 / Scalar(5040));
  const Scalar t = sqrt(t2);
  const Scalar st = sin(t);
  const Scalar sh = sin(t / Scalar(2));
  return Vector3<Scalar>(st / t, Scalar(2) * sh * sh / t2, (t - st) / (t2 * t));
}

/// K of L4 (= the ω×² coefficient of V⁻¹ and of J_r⁻¹) from t2 = θ², θ ≤ π.
template <class Scalar>
Scalar log_coefficient(const Scalar& t2) noexcept {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (t2 < log6_series_below<Scalar>()) return Scalar(1) / Scalar(12) + t2 / Scalar(720) + t2 * t2 / Scalar(30240);
  const Scalar half = sqrt(t2) / Scalar(2);
  return (Scalar(1) - half * cos(half) / sin(half)) / t2;  // cot(θ/2) = cos/sin: finite at θ = π
}

/// C, D, F of L5 from t2 = θ². C and F multiply terms of size θ (ϑ×ρ×) and θ³, while their closed forms lose
/// ε/θ² and ε/θ⁴ to cancellation: an absolute error ε|v|/θ in jlog6. Below θ = 1 they are therefore summed
/// from their series, with u_k = (−θ²)^(k−2) / (2k+1)!, k ≥ 2, until the terms fall below ε:
///   C = 1/6 − θ² Σ u_k,   D = Σ (2k+1) u_k,   F = Σ (k−1) u_k
/// (from sin and cos term by term: 2θ − 3 sin θ + θ cos θ = Σ_k≥2 (−1)^k (2k−2) θ^(2k+1) / (2k+1)!).
template <class Scalar>
Vector3<Scalar> q_coefficients(const Scalar& t2) noexcept {
  using std::abs;
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (t2 < Scalar(1)) {
    const Scalar eps = Scalar(std::numeric_limits<Scalar>::epsilon());
    Scalar u = Scalar(1) / Scalar(120), sum = Scalar(0), sum_k = Scalar(0);
    for (int k = 2; k < 64; ++k) {  // |u_k| ≤ 1/(2k+1)!: 18 terms reach 50 digits
      sum += u;
      sum_k += Scalar(k) * u;
      if (abs(u) * Scalar(k) * Scalar(1000) < eps) break;
      u *= -t2 / Scalar((2 * k + 2) * (2 * k + 3));
    }
    return Vector3<Scalar>(Scalar(1) / Scalar(6) - t2 * sum, Scalar(2) * sum_k + sum, sum_k - sum);
  }
  const Scalar t = sqrt(t2);
  const Scalar st = sin(t);
  const Scalar sh = sin(t / Scalar(2));
  return Vector3<Scalar>((t - st) / (t2 * t),
                         (t2 - Scalar(4) * sh * sh) / (Scalar(2) * t2 * t2),  // 2 cos θ − 2 = −4 sin²(θ/2)
                         (Scalar(2) * t - Scalar(3) * st + t * cos(t)) / (Scalar(2) * t2 * t2 * t));
}

/// a + k1 w×a + k2 w×(w×a) as a 3×3 matrix: I + k1 w× + k2 w×².
template <class Scalar>
Matrix3<Scalar> rodrigues_form(const Vector3<Scalar>& w, const Scalar& k1, const Scalar& k2) noexcept {
  const Matrix3<Scalar> W = skew(w);
  return Matrix3<Scalar>::Identity() + k1 * W + k2 * (W * W);
}

}  // namespace detail

/// L1: R = exp(ω×), the rotation by |ω| about ω/|ω| (Murray-Li-Sastry eq. 2.14). A Transform's E is its transpose.
template <class Derived>
Matrix3<typename Derived::Scalar> exp3(const Eigen::MatrixBase<Derived>& omega) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 3)
  const Vector3<Scalar> w = omega;
  const Vector3<Scalar> k = detail::exp_coefficients(Scalar(w.squaredNorm()));
  return detail::rodrigues_form(w, k(0), k(1));
}

/// L3: ω with exp3(ω) = R, |ω| ≤ π (Murray-Li-Sastry Prop. 2.5; near π from the symmetric part).
template <class Derived>
Vector3<typename Derived::Scalar> log3(const Eigen::MatrixBase<Derived>& R) noexcept {
  using Scalar = typename Derived::Scalar;
  using std::atan2;
  using std::sqrt;
  EIGEN_STATIC_ASSERT_MATRIX_SPECIFIC_SIZE(Derived, 3, 3)
  const Scalar c = (R(0, 0) + R(1, 1) + R(2, 2) - Scalar(1)) / Scalar(2);
  const Vector3<Scalar> a((R(2, 1) - R(1, 2)) / Scalar(2), (R(0, 2) - R(2, 0)) / Scalar(2), (R(1, 0) - R(0, 1)) / Scalar(2));
  const Scalar s2 = a.squaredNorm();
  if (c > Scalar(0) && s2 < detail::log6_series_below<Scalar>())
    return (Scalar(1) + s2 / Scalar(6) + Scalar(3) * s2 * s2 / Scalar(40)) * a;  // θ/sin θ = asin(s)/s, s → 0
  const Scalar s = sqrt(s2);
  const Scalar theta = atan2(s, c);
  if (c >= Scalar(0)) return (theta / s) * a;
  int i = 0;  // the largest diagonal entry of (1 − c) n nᵀ: |n_i|² ≥ 1/3
  for (int k = 1; k < 3; ++k)
    if (R(k, k) > R(i, i)) i = k;
  const Scalar one_minus_c = Scalar(1) - c;
  Vector3<Scalar> n;
  n(i) = sqrt((R(i, i) - c) / one_minus_c);
  for (int k = 0; k < 3; ++k)
    if (k != i) n(k) = (R(i, k) + R(k, i)) / (Scalar(2) * one_minus_c * n(i));
  if (n.dot(a) < Scalar(0)) n = -n;
  return theta * n;
}

/// J_r⁻¹(ω) = I + ½ ω× + K ω×² (Solà App. B): ∂ log3(exp3(ω) exp3(δ)) / ∂δ at δ = 0, |ω| ≤ π.
template <class Derived>
Matrix3<typename Derived::Scalar> jlog3_of_log(const Eigen::MatrixBase<Derived>& omega) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 3)
  const Vector3<Scalar> w = omega;
  return detail::rodrigues_form(w, Scalar(0.5), detail::log_coefficient(Scalar(w.squaredNorm())));
}

/// ∂ log3(R exp(δ×)) / ∂δ at δ = 0 = J_r⁻¹(log3(R)).
template <class Derived>
Matrix3<typename Derived::Scalar> jlog3(const Eigen::MatrixBase<Derived>& R) noexcept {
  return jlog3_of_log(log3(R));
}

/// L2: exp6(ξ) = ^B X_A = (exp3(ω)ᵀ, V(ω) v) for the twist ξ = [ω; v] (Murray-Li-Sastry eq. 2.36; Solà App. D).
template <class Derived>
Transform<typename Derived::Scalar> exp6(const Eigen::MatrixBase<Derived>& xi) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 6)
  const Vector3<Scalar> w = xi.template head<3>();
  const Vector3<Scalar> v = xi.template tail<3>();
  const Vector3<Scalar> k = detail::exp_coefficients(Scalar(w.squaredNorm()));
  const Vector3<Scalar> wxv = w.cross(v);
  return Transform<Scalar>{detail::rodrigues_form(w, Scalar(-k(0)), k(1)),  // exp3(ω)ᵀ = exp3(−ω)
                           Vector3<Scalar>(v + k(1) * wxv + k(2) * w.cross(wxv))};
}

/// L4: the twist ξ = [ω; v], |ω| ≤ π, with exp6(ξ) = X (Solà App. D).
template <class Scalar>
Motion<Scalar> log6(const Transform<Scalar>& X) noexcept {
  const Vector3<Scalar> w = log3(Matrix3<Scalar>(X.E.transpose()));
  const Scalar K = detail::log_coefficient(Scalar(w.squaredNorm()));
  const Vector3<Scalar> wxr = w.cross(X.r);
  Motion<Scalar> xi;
  xi << w, X.r - wxr / Scalar(2) + K * w.cross(wxr);
  return xi;
}

/// J_r⁻¹(ξ) for ξ = [ω; v] = log6(X), |ω| ≤ π: the 6×6 of L5 (Solà App. D).
template <class Derived>
Matrix6<typename Derived::Scalar> jlog6_of_log(const Eigen::MatrixBase<Derived>& xi) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 6)
  const Vector3<Scalar> w = xi.template head<3>();
  const Scalar t2 = w.squaredNorm();
  const Matrix3<Scalar> Ji = jlog3_of_log(w);
  const Vector3<Scalar> CDF = detail::q_coefficients(t2);
  const Scalar C = CDF(0), D = CDF(1), F = CDF(2);
  const Matrix3<Scalar> T = skew(Vector3<Scalar>(-w));  // Q(−v, −ω): ϑ = −ω, ρ = −v
  const Matrix3<Scalar> P = skew(Vector3<Scalar>(-xi.template tail<3>()));
  const Matrix3<Scalar> TP = T * P, PT = P * T, TT = T * T;
  const Matrix3<Scalar> TPT = TP * T;
  const Matrix3<Scalar> Q = P / Scalar(2) + C * (TP + PT + TPT) + D * (TT * P + PT * T - Scalar(3) * TPT) +
                            F * (TPT * T + T * TPT);
  Matrix6<Scalar> J;
  J.template topLeftCorner<3, 3>() = Ji;
  J.template topRightCorner<3, 3>().setZero();
  J.template bottomLeftCorner<3, 3>() = -(Ji * Q * Ji);
  J.template bottomRightCorner<3, 3>() = Ji;
  return J;
}

/// ∂ log6(exp6(δ) * X) / ∂δ at δ = 0 (placement form ∂ log6(M exp(δ^)) / ∂δ, the local perturbation) = J_r⁻¹(log6(X)).
template <class Scalar>
Matrix6<Scalar> jlog6(const Transform<Scalar>& X) noexcept {
  return jlog6_of_log(log6(X));
}

}  // namespace treedyn
