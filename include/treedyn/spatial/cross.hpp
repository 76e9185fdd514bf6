// treedyn spatial cross products: crm(v) (motion × motion) and crf(v) (motion × force).
//
// Reference: docs/notation.md (crm, crf); Featherstone, Rigid Body Dynamics Algorithms, Springer
// 2008, eqs. 2.31-2.33 and Table 2.8.
//
//   crm(v) = [w× 0; v_O× w×]            v ×  m = crm(v) m
//   crf(v) = [w× v_O×; 0 w×] = -crm(v)^T v ×* f = crf(v) f
//
// crm/crf build the dense 6x6 matrix (for tests and for the rare place where it is the natural object);
// cross_motion/cross_force apply it with three 3-vector cross products per column (18 multiplications
// and 12 additions per column) and never form a 6x6 matrix. Fixed-size, inline; allocation happens only
// when the caller passes a block with a run-time column count (the result then has that many columns).
#pragma once

#include <treedyn/spatial/types.hpp>

namespace treedyn {

namespace detail {

/// crm(v) (Force = false) or crf(v) = -crm(v)^T (Force = true): w× in both diagonal blocks, v_O× in the
/// lower-left (crm) or upper-right (crf) block, 0 in the other.
template <bool Force, class Derived>
inline Matrix6<typename Derived::Scalar> cross_matrix(const Eigen::MatrixBase<Derived>& v) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 6)
  const Matrix3<Scalar> wx = skew(v.template head<3>());
  Matrix6<Scalar> out = Matrix6<Scalar>::Zero();
  out.template topLeftCorner<3, 3>() = wx;
  out.template block<3, 3>(Force ? 0 : 3, Force ? 3 : 0) = skew(v.template tail<3>());
  out.template bottomRightCorner<3, 3>() = wx;
  return out;
}

/// crm(v) m (Force = false) or crf(v) f (Force = true) per column. Both are the one map
/// (a, b) -> (w × a, w × b + v_O × a): crm on (a, b) = (m_w, m_v) with the result in that order, crf on the
/// swapped halves (a, b) = (f, n) with the result swapped back ([w × n + v_O × f; w × f]).
template <bool Force, class DerivedV, class DerivedM>
inline SpatialBlock<typename DerivedV::Scalar, DerivedM> cross_apply(
    const Eigen::MatrixBase<DerivedV>& v, const Eigen::MatrixBase<DerivedM>& m) noexcept(fixed_columns<DerivedM>) {
  using Scalar = typename DerivedV::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(DerivedV, 6)
  const Vector3<Scalar> w = v.template head<3>();
  const Vector3<Scalar> vO = v.template tail<3>();
  return map_spatial_columns<Scalar>(m, [&w, &vO](const auto& top_in, const auto& bottom_in, auto& top, auto& bottom) {
    const auto& a = Force ? bottom_in : top_in;  // m_w, or f
    const auto& b = Force ? top_in : bottom_in;  // m_v, or n
    auto& turned = Force ? bottom : top;         // w × a
    auto& mixed = Force ? top : bottom;          // w × b + v_O × a
    turned = cross(w, a);
    mixed = cross(w, b) + cross(vO, a);
  });
}

}  // namespace detail

/// The 6x6 motion cross-product matrix of a spatial motion vector v = [w; v_O].
template <class Derived>
inline Matrix6<typename Derived::Scalar> crm(const Eigen::MatrixBase<Derived>& v) noexcept {
  return detail::cross_matrix<false>(v);
}

/// The 6x6 force cross-product matrix of a spatial motion vector v = [w; v_O]; crf(v) = -crm(v)^T.
template <class Derived>
inline Matrix6<typename Derived::Scalar> crf(const Eigen::MatrixBase<Derived>& v) noexcept {
  return detail::cross_matrix<true>(v);
}

/// crm(v) * m for a 6-vector or a 6×k block m: [w × m_w; w × m_v + v_O × m_w] per column.
template <class DerivedV, class DerivedM>
inline detail::SpatialBlock<typename DerivedV::Scalar, DerivedM> cross_motion(
    const Eigen::MatrixBase<DerivedV>& v,
    const Eigen::MatrixBase<DerivedM>& m) noexcept(detail::fixed_columns<DerivedM>) {
  return detail::cross_apply<false>(v, m);
}

/// crf(v) * f for a 6-vector or a 6×k block f: [w × f_n + v_O × f_f; w × f_f] per column.
template <class DerivedV, class DerivedF>
inline detail::SpatialBlock<typename DerivedV::Scalar, DerivedF> cross_force(
    const Eigen::MatrixBase<DerivedV>& v,
    const Eigen::MatrixBase<DerivedF>& f) noexcept(detail::fixed_columns<DerivedF>) {
  return detail::cross_apply<true>(v, f);
}

}  // namespace treedyn
