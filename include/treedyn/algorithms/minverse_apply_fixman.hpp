// minverse_apply_fixman: M⁻¹b in O(n) for a serial chain by Fixman's soft/hard variables on (SE(3))ⁿ.
//
// Citation: K. Lee, Y. Wang, G. S. Chirikjian, "O(n) mass matrix inversion for serial manipulators and
// polypeptide chains using Lie derivatives", Robotica 2007 (docs/references.md):
// §2.2 steps I–V and eq. 7 (M⁻¹b = H11 b − H12 H22⁻¹ H21 b), §3.5 eq. 16 (the Lie derivative
// ∂f/∂ξ^i = d/dε f(T·(1 + εẼ_i)) at ε = 0), §3.6 eq. 20 (H = 𝒥⊕⁻¹ 𝓘⁻¹ 𝒥⊕⁻ᵀ), §4 eq. 21 (T_k^{k−1} =
// Q_{k−1}(T_{k−1}^c)⁻¹T_k^c Q_k⁻¹), eq. 22 (its Lie derivatives), eq. 26 (the "C" screw convention) and
// eq. 28 (the coordinate-extraction formulas); our notation: docs/notation.md.
//
// Contract
//   Model   a serial chain on a fixed base (λ(i) = i − 1, body 0 on the base) of revolute and prismatic
//           joints, every body with mass > 0 and a positive-definite rotational inertia about its centre
//           of mass (body 0 on a revolute joint excepted, see "Setup" F4). Anything else is rejected when
//           FixmanWorkspace is built: std::invalid_argument naming the body and the reason
//           (fixman_supported(model) asks the same question without throwing).
//   In      q (nq = n), b (n).  Out: ws.Minv_b = M(q)⁻¹ b (returned by reference), ws.status;
//           data.Xup holds the joint transforms ^iX_λ(i) of q.
//   Status  a block pivot of H22 that is not positive definite stops the factorization: ws.status
//           names the first scalar row of the failed 5×5 block of H22 (5·body), and ws.Minv_b is set to zero (no NaN).
//   Aliasing b may not alias ws.Minv_b. Cost O(n): per body one 6×6 Jacobian pair by forward-mode
//           autodiff, a few 6×6 products, one 5×5 block LDLᵀ step. noexcept; never allocates (the
//           workspace, built once, holds every buffer; the dual numbers have a fixed-size derivative).
// Indexing: paper body k = 1..n ↔ code body k−1; the paper's frame 0 (the base) ↔ code "body −1".
//
// Mapping our model onto the paper's coordinates (derivation; the paper's §4.1, eq. 26)
//   Our body i is placed by ^iX_{i−1} = XJ(q_i) X_T(i). For each body pick a body-fixed "D–H" frame F_i
//   with origin at body i's origin and axes R_i (columns in body-i coordinates) such that
//     z_i = a_i (the joint axis; constant in body-i coordinates, S_i = [a_i; 0] or [0; a_i]),
//     x_i ⟂ z_i and x_i ⟂ z_{i+1} (the next joint's axis seen from body i: E_T(i+1)ᵀ a_{i+1}).
//   For the fixed base choose F_{−1} with z along joint 0's axis E_T(0)ᵀa_0 (base coordinates), any x ⟂ z.
//   Then, with P_i = (R_i, 0) the pose of F_i in body i, the pose of F_i in F_{i−1} is
//     revolute:  P_{i−1}⁻¹ X_T-pose · R(a_i, q) · P_i = C_i · screw(e3, 0, q)   since R(a,q)R_i = R_i Rz(q),
//     prismatic: P_{i−1}⁻¹ X_T-pose · (1, q a_i) · P_i = C_i · screw(e3, q, 0)   since q a_i = R_i (q e3),
//   with C_i constant. Writing C_i = screw(e1,b,β)·screw(e2,a,α)·screw(e3,c0,γ0) (eq. 26), the joint
//   moves exactly one coordinate: γ = γ0 + q (revolute) or c = c0 + q (prismatic) — the soft variable,
//   with ∂s/∂q = 1 — and leaves (α, β, a, b, c | γ) constant: the five hard variables. Because the z axis
//   of F_i seen from F_{i−1} is (sin α, −sin β cos α, cos β cos α) and x_{i−1} ⟂ z_i by construction,
//   α ≡ 0: the chart (det 𝒥 = cos²α, the paper's §4.1) is non-singular at every configuration.
//   CoM frames (the paper's Fig. 1): T_k^c = T_k Q_k with Q_k = (1, c_k), c_k the centre of mass in F_k
//   coordinates (axes of F_k), so 𝓘_k = diag(Ī_C, m 1) in those axes, 𝓘_k⁻¹ = diag(Ī_C⁻¹, m⁻¹ 1).
//   A twist ξ_k = (ω; v) (angular first, our order and the paper's Ẽ_1..6) is a right perturbation
//   T_k^c ← T_k^c exp(εẼ) of the CoM frame, so ½ ξᵀ𝓘ξ is body k's kinetic energy and G = 𝒥ᵀ𝓘𝒥 with
//   G11 = M, the JSIM in our q (the paper's §2.2).
//
// Pseudo-code (labels repeated on the code lines that implement them)
//   Setup (FixmanWorkspace, once per model):
//   F1  per body k: F_k axes R_k: z = a_k, x ⟂ z_k, z_{k+1}; base frame F_{−1}: z = E_T(0)ᵀa_0
//   F2  soft index: γ (revolute) or c (prismatic); hard = the other five of (α, β, γ, a, b, c)
//   F3  CoM frame: c_k = R_kᵀ h/m; 𝓘_k⁻¹ = diag((R_kᵀ Ī_C R_k)⁻¹, m⁻¹ 1)
//   F4  body 0 on a revolute joint with a singular 𝓘 (e.g. a massless first link): add a point mass on
//       its axis at its origin and a rod inertia ν(1 − a aᵀ) about it — they never move, so M is unchanged
//       (ΔI S_0 = 0) while 𝓘_0 becomes invertible.
//   Apply:
//   I   T_k = ^{F_k}X_{F_{k−1}} = ^{F_k}X_k · ^kX_{k−1}(q_k) · ^{k−1}X_{F_{k−1}}        (eq. 21)
//   II  q_k = extract(T_k) = (α, β, γ, a, b, c)                                       (eq. 28)
//   III D_k⁺ = ∂q_k/∂ξ_k   = d/dε extract(T_k Q_k (1 + εẼ) Q_k⁻¹)                       (eq. 22, j = k)
//       D_k⁻ = ∂q_k/∂ξ_{k−1} = d/dε extract(Q_{k−1}(1 − εẼ)Q_{k−1}⁻¹ T_k)    (k > 1)    (eq. 22, j = k − 1)
//       — forward-mode autodiff (dual ε, 6 directions at once) through extract()
//   IV  H_kk = D_k⁺𝓘_k⁻¹D_k⁺ᵀ + D_k⁻𝓘_{k−1}⁻¹D_k⁻ᵀ;  H_{k,k−1} = D_k⁻𝓘_{k−1}⁻¹D_{k−1}⁺ᵀ       (eq. 20)
//       H22 ← the hard×hard parts (5×5 blocks, block tridiagonal); factor by block LDLᵀ
//   V   y_k = (b_k on the soft row, 0 on the hard rows);  u = H y;  c = u_hard = H21 b     (step V)
//       d = H22⁻¹ c
//       y_hard = −d;  u = H y;  x = u_soft = H11 b − H12 d                               (eq. 7)
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <unsupported/Eigen/AutoDiff>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/status.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

/// Forward-mode dual number with six derivative directions (one per twist component), fixed-size.
template <class Scalar>
using FixmanDual = Eigen::AutoDiffScalar<Vector6<Scalar>>;

namespace detail {

/// atan2 for the plain scalars.
template <class T>
T fixman_atan2(const T& y, const T& x) noexcept {
  using std::atan2;
  return atan2(y, x);
}

/// atan2 for a dual number with a fixed-size derivative: Eigen's own AutoDiff atan2 returns a
/// dynamic-size derivative (a heap allocation), so the chain rule d atan2(y, x) = (x dy − y dx)/(x² + y²)
/// is applied here, keeping the derivative type.
template <class Der>
Eigen::AutoDiffScalar<Der> fixman_atan2(const Eigen::AutoDiffScalar<Der>& y, const Eigen::AutoDiffScalar<Der>& x) noexcept {
  using std::atan2;
  const auto r2 = x.value() * x.value() + y.value() * y.value();
  return Eigen::AutoDiffScalar<Der>(atan2(y.value(), x.value()),
                                    (x.value() * y.derivatives() - y.value() * x.derivatives()) / r2);
}

}  // namespace detail

/// The paper's eq. 28: the six coordinates (α, β, γ, a, b, c) of the pose T = screw(e1,b,β)·screw(e2,a,α)·
/// screw(e3,c,γ) (eq. 26/27) of frame F_k in frame F_{k−1}, given as X = ^{F_k}X_{F_{k−1}} (so the pose's
/// rotation is Xᵀ.E and its translation X.r). Valid for α ∈ (−π/2, π/2). Written once for any scalar:
/// plain (float, double, long double) and FixmanDual, which yields the Lie derivatives.
template <class T>
Eigen::Matrix<T, 6, 1> fixman_coordinates(const Transform<T>& X) noexcept {
  using std::sqrt;
  // T_ij = R(i−1, j−1) = E(j−1, i−1) for the rotation, T_i4 = r(i−1).
  const T T11 = X.E(0, 0), T12 = X.E(1, 0), T13 = X.E(2, 0);
  const T T23 = X.E(2, 1), T33 = X.E(2, 2);
  const T T14 = X.r(0), T24 = X.r(1), T34 = X.r(2);
  const T s = T11 * T11 + T12 * T12;  // cos²α
  const T root = sqrt(s);
  const T along_z = T24 * T23 + T34 * T33;
  const T minus_T23 = -T23, minus_T12 = -T12;
  Eigen::Matrix<T, 6, 1> q;
  q(0) = detail::fixman_atan2(T13, root);       // α = atan(T13 / √(T11² + T12²))
  q(1) = detail::fixman_atan2(minus_T23, T33);  // β (the common factor 1/√(T11² + T12²) > 0 dropped)
  q(2) = detail::fixman_atan2(minus_T12, T11);  // γ
  q(3) = (T24 * T33 - T34 * T23) / root;        // a
  q(4) = T14 - T13 * along_z / s;               // b
  q(5) = along_z / s;                           // c
  return q;
}

namespace detail {

/// Index of γ and c in fixman_coordinates' (α, β, γ, a, b, c).
inline constexpr int fixman_gamma = 2;
inline constexpr int fixman_c = 5;

/// Unit vector ⟂ z and ⟂ w (z unit); any unit vector ⟂ z when w is (nearly) parallel to z.
template <class Scalar>
Vector3<Scalar> fixman_common_normal(const Vector3<Scalar>& z, const Vector3<Scalar>& w) {
  using std::abs;
  using std::sqrt;
  const Vector3<Scalar> x = z.cross(w);
  const Scalar threshold = sqrt(std::numeric_limits<Scalar>::epsilon()) * w.norm();
  if (x.norm() > threshold) return x.normalized();
  Eigen::Index k = 0;                          // the coordinate axis least aligned with z
  z.cwiseAbs().minCoeff(&k);
  const Vector3<Scalar> e = Vector3<Scalar>::Unit(k);
  return (e - z * z(k)).normalized();
}

/// ^F X_body for the D–H frame F with z axis z and x axis ⟂ z, w (F1): E = R_Fᵀ, r = 0.
template <class Scalar>
Transform<Scalar> fixman_dh_frame(const Vector3<Scalar>& z, const Vector3<Scalar>& w) {
  Matrix3<Scalar> R;
  R.col(2) = z.normalized();
  R.col(0) = fixman_common_normal<Scalar>(R.col(2), w);
  R.col(1) = R.col(2).cross(R.col(0));
  return Transform<Scalar>{R.transpose(), Vector3<Scalar>::Zero()};
}

/// The dual pose (1 + sign·Σ ε_i Ẽ_i) as X = (Rᵀ, p) = (1 − sign ε_ω×, sign ε_v), ε_i seeded in direction i.
template <class Scalar>
Transform<FixmanDual<Scalar>> fixman_perturbation(const Scalar& sign) noexcept {
  using Dual = FixmanDual<Scalar>;
  Vector3<Dual> w, v;
  for (int i = 0; i < 3; ++i) {
    w(i) = Dual(Scalar(0), Vector6<Scalar>::Unit(i) * sign);
    v(i) = Dual(Scalar(0), Vector6<Scalar>::Unit(3 + i) * sign);
  }
  return Transform<Dual>{Matrix3<Dual>::Identity() - skew(w), v};
}

/// d/dε extract(after · P(sign ε) · before) at ε = 0 (Plücker order: `before` acts first), 6×6:
/// row j = coordinate j, column i = twist direction i (the paper's eq. 16 with eq. 22).
template <class Scalar>
Matrix6<Scalar> fixman_lie_derivative(const Transform<Scalar>& after, const Scalar& sign,
                                      const Transform<Scalar>& before) noexcept {
  using Dual = FixmanDual<Scalar>;
  const Transform<Dual> X =
      after.template cast<Dual>() * fixman_perturbation<Scalar>(sign) * before.template cast<Dual>();
  const Eigen::Matrix<Dual, 6, 1> q = fixman_coordinates(X);
  Matrix6<Scalar> D;
  for (int j = 0; j < 6; ++j) D.row(j) = q(j).derivatives().transpose();
  return D;
}

}  // namespace detail

/// Whether minverse_apply_fixman can handle `model`; if not and `reason` is given, *reason names the body
/// and the rule broken. Allocates (strings); for set-up only.
template <class Scalar, int N>
bool fixman_supported(const Model<Scalar, N>& model, std::string* reason = nullptr);

/// Everything minverse_apply_fixman needs, sized once from the model (the only place that allocates).
template <class Scalar>
class FixmanWorkspace {
 public:
  using VectorX = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using Index5 = Eigen::Array<int, 5, 1>;

  /// Builds the per-body constants (F1–F4); std::invalid_argument naming the body when the model is not
  /// a fixed-base serial chain of revolute / prismatic joints with invertible body inertias.
  template <int N>
  explicit FixmanWorkspace(const Model<Scalar, N>& model) {
    std::string reason;
    if (!fixman_supported(model, &reason)) throw std::invalid_argument("treedyn::FixmanWorkspace: " + reason);
    const int n = model.nbodies();
    nbodies_ = n;
    model_id = model.id();
    auto axis_in_parent = [&](int i) {  // joint i's axis in body (i−1) coordinates
      return Vector3<Scalar>(model.tree_transform(i).E.transpose() * model.joint(i).axis);
    };
    X_dh_base = detail::fixman_dh_frame<Scalar>(axis_in_parent(0), axis_in_parent(0));      // F1 (base)
    for (int k = 0; k < n; ++k) {
      const Vector3<Scalar>& a = model.joint(k).axis;
      const Vector3<Scalar> next = (k + 1 < n) ? axis_in_parent(k + 1) : a;
      X_dh.push_back(detail::fixman_dh_frame<Scalar>(a, next));                               // F1
      soft.push_back(model.joint(k).type == JointType::revolute ? detail::fixman_gamma        // F2
                                                                : detail::fixman_c);
      Index5 h;
      for (int j = 0; j < 5; ++j) h(j) = j < soft.back() ? j : j + 1;
      hard.push_back(h);
      const RigidInertia<Scalar> I = invertible_inertia(model, k);                            // F4
      const Matrix3<Scalar> R = X_dh.back().E.transpose();                                    // F3
      const Vector3<Scalar> c = I.h / I.m;
      const Matrix3<Scalar> Ic = I.I.matrix() + I.m * skew(c) * skew(c);  // Ī_C = Ī_O + m c×c×
      com.push_back(R.transpose() * c);
      Ic_inv.push_back((R.transpose() * Ic * R).inverse());
      m_inv.push_back(Scalar(1) / I.m);
    }
    T.assign(static_cast<std::size_t>(n), Transform<Scalar>::identity());
    D_plus.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    D_minus.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    H_diag.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    H_lower.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    H22 = BlockTridiagonal<Scalar, 5>(std::vector<int>(static_cast<std::size_t>(n), 5));
    y = VectorX::Zero(6 * n);
    u = VectorX::Zero(6 * n);
    d = VectorX::Zero(5 * n);
    Minv_b = VectorX::Zero(n);
  }

  [[nodiscard]] int nbodies() const noexcept { return nbodies_; }

  // constants (setup)
  Transform<Scalar> X_dh_base;              ///< ^{F_{−1}}X_base
  std::vector<Transform<Scalar>> X_dh;      ///< ^{F_k}X_k = (R_kᵀ, 0)
  std::vector<int> soft;                    ///< index of the soft variable in (α, β, γ, a, b, c)
  std::vector<Index5> hard;                 ///< indices of the five hard variables
  std::vector<Vector3<Scalar>> com;         ///< c_k: centre of mass in F_k coordinates (Q_k = (1, c_k))
  std::vector<Matrix3<Scalar>> Ic_inv;      ///< Ī_C⁻¹ in F_k axes
  std::vector<Scalar> m_inv;                ///< 1 / m_k
  // per call
  std::vector<Transform<Scalar>> T;         ///< I: ^{F_k}X_{F_{k−1}}
  std::vector<Matrix6<Scalar>> D_plus;      ///< III: ∂q_k/∂ξ_k
  std::vector<Matrix6<Scalar>> D_minus;     ///< III: ∂q_k/∂ξ_{k−1} (zero for k = 0: the base is fixed)
  std::vector<Matrix6<Scalar>> H_diag;      ///< IV: H_kk (6×6, coordinate set k)
  std::vector<Matrix6<Scalar>> H_lower;     ///< IV: H_{k,k−1}
  BlockTridiagonal<Scalar, 5> H22{std::vector<int>{}};  ///< IV: hard×hard part, then its block LDLᵀ
  VectorX y, u, d;                          ///< V: 6n, 6n and 5n scratch
  VectorX Minv_b;                           ///< output M⁻¹ b
  FactorStatus status;                      ///< status of the last H22 factorization

  /// Model::id() of the model it was built for; the algorithms taking it check it (detail/check.hpp).
  std::uint64_t model_id = 0;

 private:
  /// F4: model.inertia(k), or for body 0 on a revolute joint with a singular 𝓘 the same inertia plus
  /// a point mass μ at the origin and a rod ν(1 − a aᵀ) about the axis (invisible to M).
  template <int N>
  static RigidInertia<Scalar> invertible_inertia(const Model<Scalar, N>& model, int k) {
    RigidInertia<Scalar> I = model.inertia(k);
    if (k != 0 || inertia_invertible(I)) return I;
    const Vector3<Scalar>& a = model.joint(0).axis;
    Scalar total = Scalar(0);
    for (int i = 0; i < model.nbodies(); ++i) total += model.inertia(i).m;
    const Scalar mu = total > Scalar(0) ? Scalar(total / Scalar(model.nbodies())) : Scalar(1);
    const Scalar nu = a.dot(I.I.matrix() * a);
    I.m += mu;
    const Matrix3<Scalar> rod = nu * (Matrix3<Scalar>::Identity() - a * a.transpose());
    I.I = I.I + Symmetric3<Scalar>::from_matrix(rod);
    return I;
  }

 public:
  /// m > 0 and Ī_C positive definite (relative to its largest eigenvalue).
  static bool inertia_invertible(const RigidInertia<Scalar>& I) {
    if (!(I.m > Scalar(0))) return false;
    const Vector3<Scalar> c = I.h / I.m;
    const Matrix3<Scalar> Ic = I.I.matrix() + I.m * skew(c) * skew(c);
    const Vector3<Scalar> ev = Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>>(Ic, Eigen::EigenvaluesOnly).eigenvalues();
    return ev(0) > Scalar(64) * std::numeric_limits<Scalar>::epsilon() * ev(2);
  }

 private:
  int nbodies_ = 0;
};

template <class Scalar, int N>
bool fixman_supported(const Model<Scalar, N>& model, std::string* reason) {
  auto fail = [&](int i, const std::string& why) {
    if (reason) {
      *reason = "Fixman's method cannot handle this model: ";
      if (i >= 0) *reason += "body " + std::to_string(i) + " ('" + model.name(i) + "') ";
      *reason += why;
    }
    return false;
  };
  if (model.nbodies() == 0) return fail(-1, "it has no bodies");
  for (int i = 0; i < model.nbodies(); ++i) {
    const Joint<Scalar>& j = model.joint(i);
    if (i == 0 && j.type == JointType::free_flyer)
      return fail(i, "has a free_flyer joint: the method needs a fixed base (soft variables = joint coordinates)");
    if (model.parent(i) != i - 1)
      return fail(i, "has parent " + std::to_string(model.parent(i)) + ", not " + std::to_string(i - 1) +
                         ": the method needs a serial chain (λ(i) = i − 1)");
    if (j.type != JointType::revolute && j.type != JointType::prismatic)
      return fail(i, std::string("has a ") + j.type_name() +
                         " joint: only revolute and prismatic joints move exactly one screw coordinate");
    const bool augmentable = i == 0 && j.type == JointType::revolute &&
                             j.axis.dot(model.inertia(0).I.matrix() * j.axis) > Scalar(0);
    if (!augmentable && !FixmanWorkspace<Scalar>::inertia_invertible(model.inertia(i)))
      return fail(i, "has a singular spatial inertia about its centre of mass (mass or rotational inertia not "
                     "positive definite): H = G⁻¹ needs every free body's 𝓘 invertible");
  }
  return true;
}

namespace detail {

/// A 𝓘_k⁻¹ Bᵀ with 𝓘_k⁻¹ = diag(Ī_C⁻¹, m⁻¹ 1) (IV).
template <class Scalar>
Matrix6<Scalar> fixman_weighted(const FixmanWorkspace<Scalar>& ws, const Matrix6<Scalar>& A, int k,
                                const Matrix6<Scalar>& B) noexcept {
  const std::size_t kk = static_cast<std::size_t>(k);
  Matrix6<Scalar> AW;
  AW.template leftCols<3>().noalias() = A.template leftCols<3>() * ws.Ic_inv[kk];
  AW.template rightCols<3>() = ws.m_inv[kk] * A.template rightCols<3>();
  Matrix6<Scalar> out;
  out.noalias() = AW * B.transpose();
  return out;
}

/// u = H y for the block-tridiagonal H of IV (6×6 blocks).
template <class Scalar>
void fixman_apply_h(FixmanWorkspace<Scalar>& ws) noexcept {
  const int n = ws.nbodies();
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    auto out = ws.u.template segment<6>(6 * k);
    out.noalias() = ws.H_diag[kk] * ws.y.template segment<6>(6 * k);
    if (k > 0) out.noalias() += ws.H_lower[kk] * ws.y.template segment<6>(6 * k - 6);
    if (k + 1 < n) out.noalias() += ws.H_lower[kk + 1].transpose() * ws.y.template segment<6>(6 * k + 6);
  }
}

}  // namespace detail

/// x = M(q)⁻¹ b by Fixman's method (see the header comment). Returns ws.Minv_b; ws.status
/// reports a failed H22 pivot (x is then zero). noexcept; never allocates.
template <class Scalar, int N, class Dq, class Db>
const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& minverse_apply_fixman(const Model<Scalar, N>& model,
                                                                      Data<Scalar, N>& data,
                                                                      FixmanWorkspace<Scalar>& ws,
                                                                      const Eigen::MatrixBase<Dq>& q,
                                                                      const Eigen::MatrixBase<Db>& b) noexcept {
  const int n = model.nbodies();
  constexpr const char* fn = "minverse_apply_fixman";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::same_model(fn, "ws", ws.model_id, model.id()) &&
        detail::dof_vector_ok(fn, "b", model, b)))
    return ws.Minv_b;
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    data.Xup[k] = model.joint_placement(k).transform(Scalar(q(model.q_offset(k))));             // ^kX_λ(k)
    const Transform<Scalar> X_prev_dh = (k == 0) ? ws.X_dh_base : ws.X_dh[kk - 1];
    ws.T[kk] = ws.X_dh[kk] * data.Xup[k] * X_prev_dh.inverse();                                         // I
    const Transform<Scalar> to_com{Matrix3<Scalar>::Identity(), ws.com[kk]};                     // ^{c}X_F
    const Transform<Scalar> from_com{Matrix3<Scalar>::Identity(), -ws.com[kk]};                  // ^{F}X_c
    ws.D_plus[kk] = detail::fixman_lie_derivative(from_com, Scalar(1), to_com * ws.T[kk]);       // II, III
    if (k > 0) {
      const Transform<Scalar> to_prev_com{Matrix3<Scalar>::Identity(), ws.com[kk - 1]};
      const Transform<Scalar> from_prev_com{Matrix3<Scalar>::Identity(), -ws.com[kk - 1]};
      ws.D_minus[kk] = detail::fixman_lie_derivative(ws.T[kk] * from_prev_com, Scalar(-1), to_prev_com);  // III
    }
  }
  for (int k = 0; k < n; ++k) {                                                                  // IV
    const std::size_t kk = static_cast<std::size_t>(k);
    ws.H_diag[kk] = detail::fixman_weighted(ws, ws.D_plus[kk], k, ws.D_plus[kk]);
    if (k > 0) {
      ws.H_diag[kk] += detail::fixman_weighted(ws, ws.D_minus[kk], k - 1, ws.D_minus[kk]);
      ws.H_lower[kk] = detail::fixman_weighted(ws, ws.D_minus[kk], k - 1, ws.D_plus[kk - 1]);
      ws.H22.lower(k) = ws.H_lower[kk](ws.hard[kk], ws.hard[kk - 1]);
    }
    ws.H22.diag(k) = ws.H_diag[kk](ws.hard[kk], ws.hard[kk]);
  }
  ws.status = block_tridiagonal_factor(ws.H22);                                                  // IV
  if (!ws.status.ok()) {
    ws.Minv_b.setZero();
    return ws.Minv_b;
  }
  ws.y.setZero();                                                                                // V
  for (int k = 0; k < n; ++k) ws.y(6 * k + ws.soft[static_cast<std::size_t>(k)]) = b(k);
  detail::fixman_apply_h(ws);                                                                    // V: u = H y
  for (int k = 0; k < n; ++k)
    ws.d.template segment<5>(5 * k) = ws.u.template segment<6>(6 * k)(ws.hard[static_cast<std::size_t>(k)]);
  block_tridiagonal_solve(ws.H22, ws.d);                                                         // V: d = H22⁻¹ c
  for (int k = 0; k < n; ++k)
    ws.y.template segment<6>(6 * k)(ws.hard[static_cast<std::size_t>(k)]) = -ws.d.template segment<5>(5 * k);
  detail::fixman_apply_h(ws);                                                                    // V: u = H y
  for (int k = 0; k < n; ++k) ws.Minv_b(k) = ws.u(6 * k + ws.soft[static_cast<std::size_t>(k)]);     // eq. 7
  return ws.Minv_b;
}

}  // namespace treedyn
