// treedyn spatial types: fixed-size Eigen aliases, spatial motion/force vectors and the 3x3 skew matrix.
//
// Reference: docs/notation.md (Plücker coordinates, angular part first, Transform and RigidInertia);
// Featherstone, Rigid Body Dynamics Algorithms, Springer 2008, §2.2-2.4 and Table 2.8.
//
// Conventions: a motion vector is [w; v_O] (angular velocity, then the linear velocity of the body-fixed
// point at the frame origin O); a force vector is [n_O; f] (moment about O, then force); m^T f = power.
// Everything here is fixed-size and inline; nothing allocates. skew() costs 3 negations.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <treedyn/fwd.hpp>

#include <type_traits>

namespace treedyn {

template <class Scalar> using Vector3 = Eigen::Matrix<Scalar, 3, 1>;
template <class Scalar> using Matrix3 = Eigen::Matrix<Scalar, 3, 3>;
template <class Scalar> using Vector6 = Eigen::Matrix<Scalar, 6, 1>;
template <class Scalar> using Matrix6 = Eigen::Matrix<Scalar, 6, 6>;

/// Spatial motion vector [w; v_O] (angular part first).
template <class Scalar> using Motion = Vector6<Scalar>;
/// Spatial force vector [n_O; f] (moment part first).
template <class Scalar> using Force = Vector6<Scalar>;

/// The 3x3 cross-product matrix a× of a 3-vector: skew(a) * b = a × b.
template <class Derived>
inline Matrix3<typename Derived::Scalar> skew(const Eigen::MatrixBase<Derived>& a) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 3)
  Matrix3<Scalar> out;
  out(0, 0) = Scalar(0);
  out(0, 1) = -a(2);
  out(0, 2) = a(1);
  out(1, 0) = a(2);
  out(1, 1) = Scalar(0);
  out(1, 2) = -a(0);
  out(2, 0) = -a(1);
  out(2, 1) = a(0);
  out(2, 2) = Scalar(0);
  return out;
}

namespace detail {

/// The result type of a spatial operator applied to a 6×k block: 6 rows, the columns of the argument
/// (1..6 fixed, or Dynamic), never more storage than the argument may need.
template <class Scalar, class Derived>
using SpatialBlock = Eigen::Matrix<Scalar, 6, Derived::ColsAtCompileTime, Eigen::ColMajor, 6,
                                   Derived::MaxColsAtCompileTime>;

/// True when the argument's column count is fixed, so the result lives on the stack (no allocation).
template <class Derived>
inline constexpr bool fixed_columns = Derived::ColsAtCompileTime != Eigen::Dynamic;

/// Compile-time checks shared by every spatial operator that accepts a 6×k block.
template <class Scalar, class Derived>
inline constexpr bool is_spatial_block =
    (Derived::RowsAtCompileTime == 6 || Derived::RowsAtCompileTime == Eigen::Dynamic) &&
    std::is_same<typename Derived::Scalar, Scalar>::value;

/// E a (Transposed = false) or Eᵀ a (Transposed = true), written out coefficient by coefficient, each a
/// left-to-right sum of three products: no Eigen expression, no call (rotate's float path, and the per-body
/// loops where GCC 12 left even double's Eigen product out of line: center_of_mass.hpp's joint_offset_world).
template <bool Transposed, class Scalar, int Cols>
inline Eigen::Matrix<Scalar, 3, Cols> rotate_written_out(const Matrix3<Scalar>& E, const Eigen::Matrix<Scalar, 3, Cols>& a) noexcept {
  Eigen::Matrix<Scalar, 3, Cols> out;  // a 3-vector (Cols = 1) or each column of a 3x3 (Cols = 3)
  for (int j = 0; j < Cols; ++j)
    for (int k = 0; k < 3; ++k) {
      if constexpr (Transposed) out(k, j) = E(0, k) * a(0, j) + E(1, k) * a(1, j) + E(2, k) * a(2, j);
      else out(k, j) = E(k, 0) * a(0, j) + E(k, 1) * a(1, j) + E(k, 2) * a(2, j);
    }
  return out;
}

/// 3-vector kernels on concrete types: E a (Transposed = false) or Eᵀ a (Transposed = true) for a 3x3 E and
/// a 3-vector or 3x3 a, and the cross product a × b. The spatial operators and the algorithms'
/// per-body steps are composed of these, so that each Eigen product inside is instantiated once per scalar
/// type, where a composed expression at a call site (E * (v − r.cross(w)), …) instantiates its own family
/// of expression types at every call (compile time; docs/design-notes.md#kernels-written-once-per-scalar-compile-time).
/// Same arithmetic as the expressions. In double, Eigen's product (its two-lane packets vectorize a 3-vector);
/// in every other scalar, rotate_written_out: Eigen has no packet narrow enough for a float 3-vector, and
/// GCC 12 left its scalar loop out of line, its result stored in 4-byte pieces and reloaded in 8 by the
/// caller, a store-forwarding stall per rotation (docs/design-notes.md#rotations-written-out-except-in-double).
template <bool Transposed, class Scalar, int Cols>
inline Eigen::Matrix<Scalar, 3, Cols> rotate(const Matrix3<Scalar>& E, const Eigen::Matrix<Scalar, 3, Cols>& a) noexcept {
  if constexpr (std::is_same<Scalar, double>::value) {
    Eigen::Matrix<Scalar, 3, Cols> out;
    if constexpr (Transposed) out.noalias() = E.transpose() * a;
    else out.noalias() = E * a;
    return out;
  } else {
    return rotate_written_out<Transposed>(E, a);
  }
}

template <class Scalar>
inline Vector3<Scalar> cross(const Vector3<Scalar>& a, const Vector3<Scalar>& b) noexcept {
  return a.cross(b);
}

/// Applies a spatial operator column by column to a 6-vector or 6×k block `in`: for column j with
/// top / bottom halves (a, b), op(a, b, top_out, bottom_out) writes the two halves of the result (all
/// four are Vector3s, so the operator is instantiated once per scalar whatever the argument's type). The
/// one place where the spatial operators check their argument and loop over its columns.
template <class Scalar, class Derived, class Op>
inline SpatialBlock<Scalar, Derived> map_spatial_columns(const Eigen::MatrixBase<Derived>& in, Op&& op) noexcept(
    fixed_columns<Derived>) {
  static_assert(is_spatial_block<Scalar, Derived>, "spatial operator: the argument must have 6 rows and the operator's scalar");
  eigen_assert(in.rows() == 6 && "spatial operator: the argument must have 6 rows");
  SpatialBlock<Scalar, Derived> out;
  out.resize(6, in.cols());
  for (Eigen::Index j = 0; j < in.cols(); ++j) {
    const Vector3<Scalar> a = in.col(j).template head<3>();
    const Vector3<Scalar> b = in.col(j).template tail<3>();
    Vector3<Scalar> top, bottom;
    op(a, b, top, bottom);
    out.col(j).template head<3>() = top;
    out.col(j).template tail<3>() = bottom;
  }
  return out;
}

/// d× M (Transposed = false) or d× Mᵀ (Transposed = true) for a 3x3 M: one 3-vector cross product per
/// column (18 multiplications), entry by entry, no skew matrix formed.
template <bool Transposed, class Scalar>
inline Matrix3<Scalar> cross_columns(const Vector3<Scalar>& d, const Matrix3<Scalar>& M) noexcept {
  Matrix3<Scalar> out;
  for (int j = 0; j < 3; ++j) {
    const Scalar& a0 = Transposed ? M(j, 0) : M(0, j);
    const Scalar& a1 = Transposed ? M(j, 1) : M(1, j);
    const Scalar& a2 = Transposed ? M(j, 2) : M(2, j);
    out(0, j) = d(1) * a2 - d(2) * a1;
    out(1, j) = d(2) * a0 - d(0) * a2;
    out(2, j) = d(0) * a1 - d(1) * a0;
  }
  return out;
}

}  // namespace detail
}  // namespace treedyn
