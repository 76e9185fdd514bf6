// treedyn Transform: a Plücker coordinate transform stored as (E, r), never as a 6x6 matrix.
//
// Reference: docs/notation.md (Transform); Featherstone, Rigid Body Dynamics Algorithms, Springer
// 2008, §2.8 and Table 2.8 (operations on (E, r)), eqs. 2.24-2.29 (rotx/roty/rotz, xlt).
//
// X = (E, r) is the motion transform ^B X_A from A coordinates to B coordinates:
//   E = ^B R_A (rotation taking A coordinates to B coordinates),
//   r = position of B's origin relative to A's origin, expressed in A coordinates,
//   dense ^B X_A = [E 0; -E r× E],  dense ^B X*_A = (^B X_A)^{-T} = [E -E r×; 0 E].
//
// Costs per column of the argument (24 multiplications and 18 additions each):
//   apply_motion            X m   = [E w; E (v - r × w)]
//   apply_force             X* f  = [E (n - r × f); E f]
//   apply_inverse_force     X^T f = [E^T n + r × E^T f; E^T f]   (= ^A X*_B f: a force back to A)
//   apply_inverse_motion    X^-1 m = [E^T w; E^T v + r × E^T w]  (= ^A X_B m)
// inverse: 9 multiplications; compose: 36 multiplications. The four apply functions accept a 6-vector or a
// 6×k block (k fixed or Dynamic) and return a matrix with the argument's column count; they never form a
// 6x6 matrix. Everything is inline and fixed-size: nothing allocates unless the caller passes a block with a
// run-time column count (whose result then has that many columns).
// Numerical caveat: rounding accumulates in E; re-orthonormalise E after long products, or compose few.
#pragma once

#include <treedyn/spatial/types.hpp>

#include <cmath>

namespace treedyn {

template <class Scalar>
struct Transform {
  Matrix3<Scalar> E;  ///< ^B R_A
  Vector3<Scalar> r;  ///< B's origin in A coordinates

  static Transform identity() noexcept { return Transform{Matrix3<Scalar>::Identity(), Vector3<Scalar>::Zero()}; }

  /// X m: a motion vector (or 6×k block of them) from A to B coordinates.
  template <class Derived>
  detail::SpatialBlock<Scalar, Derived> apply_motion(const Eigen::MatrixBase<Derived>& m) const
      noexcept(detail::fixed_columns<Derived>) {
    return detail::map_spatial_columns<Scalar>(m, [this](const auto& w, const auto& v, auto& top, auto& bottom) {
      top = detail::rotate<false>(E, w);                                             // E w
      bottom = detail::rotate<false>(E, Vector3<Scalar>(v - detail::cross(r, w)));   // E (v − r × w)
    });
  }

  /// X* f: a force vector (or 6×k block) from A to B coordinates.
  template <class Derived>
  detail::SpatialBlock<Scalar, Derived> apply_force(const Eigen::MatrixBase<Derived>& f) const
      noexcept(detail::fixed_columns<Derived>) {
    return detail::map_spatial_columns<Scalar>(f, [this](const auto& n, const auto& lin, auto& top, auto& bottom) {
      top = detail::rotate<false>(E, Vector3<Scalar>(n - detail::cross(r, lin)));    // E (n − r × f)
      bottom = detail::rotate<false>(E, lin);                                        // E f
    });
  }

  /// X^T f = ^A X*_B f: a force vector (or 6×k block) expressed in B coordinates, brought back to A.
  template <class Derived>
  detail::SpatialBlock<Scalar, Derived> apply_inverse_force(const Eigen::MatrixBase<Derived>& f) const
      noexcept(detail::fixed_columns<Derived>) {
    return detail::map_spatial_columns<Scalar>(f, [this](const auto& n, const auto& lin, auto& top, auto& bottom) {
      const Vector3<Scalar> Etf = detail::rotate<true>(E, lin);
      top = detail::rotate<true>(E, n) + detail::cross(r, Etf);                      // Eᵀn + r × Eᵀf
      bottom = Etf;                                                                  // Eᵀf
    });
  }

  /// X^-1 m = ^A X_B m: a motion vector (or 6×k block) from B coordinates back to A.
  template <class Derived>
  detail::SpatialBlock<Scalar, Derived> apply_inverse_motion(const Eigen::MatrixBase<Derived>& m) const
      noexcept(detail::fixed_columns<Derived>) {
    return detail::map_spatial_columns<Scalar>(m, [this](const auto& w, const auto& v, auto& top, auto& bottom) {
      const Vector3<Scalar> Etw = detail::rotate<true>(E, w);
      top = Etw;                                                                     // Eᵀw
      bottom = detail::rotate<true>(E, v) + detail::cross(r, Etw);                   // Eᵀv + r × Eᵀw
    });
  }

  /// ^A X_B = (E^T, -E r).
  Transform inverse() const noexcept { return Transform{E.transpose(), -(E * r)}; }

  /// Composition: (*this) = ^C X_B, X1 = ^B X_A  ->  ^C X_A = (E2 E1, r1 + E1^T r2).
  Transform operator*(const Transform& X1) const noexcept {
    return Transform{detail::rotate<false>(E, X1.E), X1.r + detail::rotate<true>(X1.E, r)};
  }

  /// Dense ^B X_A = [E 0; -E r× E] (for tests and diagnostics; the algorithms never call it).
  Matrix6<Scalar> motion_matrix() const noexcept {
    Matrix6<Scalar> X;
    X.template topLeftCorner<3, 3>() = E;
    X.template topRightCorner<3, 3>().setZero();
    X.template bottomLeftCorner<3, 3>() = -detail::rotate<false>(E, skew(r));
    X.template bottomRightCorner<3, 3>() = E;
    return X;
  }

  /// Dense ^B X*_A = [E -E r×; 0 E] (for tests and diagnostics).
  Matrix6<Scalar> force_matrix() const noexcept {
    Matrix6<Scalar> X;
    X.template topLeftCorner<3, 3>() = E;
    X.template topRightCorner<3, 3>() = -detail::rotate<false>(E, skew(r));
    X.template bottomLeftCorner<3, 3>().setZero();
    X.template bottomRightCorner<3, 3>() = E;
    return X;
  }

  template <class NewScalar>
  Transform<NewScalar> cast() const noexcept {
    return Transform<NewScalar>{E.template cast<NewScalar>(), r.template cast<NewScalar>()};
  }
};

/// Pure rotation rot(E) = (E, 0); E = ^B R_A.
template <class Derived>
inline Transform<typename Derived::Scalar> rot(const Eigen::MatrixBase<Derived>& E) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_MATRIX_SPECIFIC_SIZE(Derived, 3, 3)
  return Transform<Scalar>{E, Vector3<Scalar>::Zero()};
}

/// Pure translation xlt(p) = (1, p): B's origin at p (A coordinates), axes parallel.
template <class Derived>
inline Transform<typename Derived::Scalar> xlt(const Eigen::MatrixBase<Derived>& p) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 3)
  return Transform<Scalar>{Matrix3<Scalar>::Identity(), p};
}

namespace detail {

/// The coordinate rotation by angle about axis Axis (0 = x, 1 = y, 2 = z), E = R_Axis(angle)^T: 1 at
/// (Axis, Axis) and, on the other two axes (a, b) = (Axis + 1, Axis + 2) mod 3, [c s; -s c].
template <int Axis, class Scalar>
inline Transform<Scalar> coordinate_rotation(const Scalar& angle) noexcept {
  using std::cos;
  using std::sin;
  constexpr int a = (Axis + 1) % 3;
  constexpr int b = (Axis + 2) % 3;
  const Scalar c = cos(angle);
  const Scalar s = sin(angle);
  Matrix3<Scalar> E = Matrix3<Scalar>::Zero();
  E(Axis, Axis) = Scalar(1);
  E(a, a) = c;
  E(a, b) = s;
  E(b, a) = -s;
  E(b, b) = c;
  return Transform<Scalar>{E, Vector3<Scalar>::Zero()};
}

}  // namespace detail

/// Coordinate rotation by angle about x (Featherstone eq. 2.24): E = Rx(angle)^T = [1 0 0; 0 c s; 0 -s c].
template <class Scalar>
inline Transform<Scalar> rotx(const Scalar& angle) noexcept {
  return detail::coordinate_rotation<0>(angle);
}

/// Coordinate rotation by angle about y: E = Ry(angle)^T = [c 0 -s; 0 1 0; s 0 c].
template <class Scalar>
inline Transform<Scalar> roty(const Scalar& angle) noexcept {
  return detail::coordinate_rotation<1>(angle);
}

/// Coordinate rotation by angle about z: E = Rz(angle)^T = [c s 0; -s c 0; 0 0 1].
template <class Scalar>
inline Transform<Scalar> rotz(const Scalar& angle) noexcept {
  return detail::coordinate_rotation<2>(angle);
}

/// A frame placed at p and rotated by R relative to its parent (columns of R = child axes in parent
/// coordinates): X = rot(R^T) · xlt(p) = (R^T, p).
template <class DerivedR, class DerivedP>
inline Transform<typename DerivedR::Scalar> transform_from(const Eigen::MatrixBase<DerivedR>& R,
                                                           const Eigen::MatrixBase<DerivedP>& p) noexcept {
  using Scalar = typename DerivedR::Scalar;
  EIGEN_STATIC_ASSERT_MATRIX_SPECIFIC_SIZE(DerivedR, 3, 3)
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(DerivedP, 3)
  static_assert(std::is_same<Scalar, typename DerivedP::Scalar>::value, "transform_from: mixed scalars");
  return Transform<Scalar>{R.transpose(), p};
}

}  // namespace treedyn
