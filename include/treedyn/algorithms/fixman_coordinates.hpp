// fixman_coordinates: the six screw coordinates (α, β, γ, a, b, c) of a pose and their Lie derivatives by
// forward-mode autodiff, steps F1 and II–III of minverse_apply_fixman (Lee, Wang & Chirikjian, Robotica
// 2007, §3.5 eq. 16, §4 eqs. 22, 26 and 28; docs/references.md). Included by fixman_workspace.hpp and
// minverse_apply_fixman.hpp, whose header comment derives the mapping of our model onto these coordinates.
// Every call is noexcept; the dual numbers have a fixed-size derivative, so nothing allocates but the
// set-up helpers that build the D–H frames.
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "treedyn/spatial/transform.hpp"
#include "treedyn/spatial/types.hpp"

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

}  // namespace treedyn
