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

/// The 6x6 motion cross-product matrix of a spatial motion vector v = [w; v_O].
template <class Derived>
inline Matrix6<typename Derived::Scalar> crm(const Eigen::MatrixBase<Derived>& v) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 6)
  const Matrix3<Scalar> wx = skew(v.template head<3>());
  Matrix6<Scalar> out;
  out.template topLeftCorner<3, 3>() = wx;
  out.template topRightCorner<3, 3>().setZero();
  out.template bottomLeftCorner<3, 3>() = skew(v.template tail<3>());
  out.template bottomRightCorner<3, 3>() = wx;
  return out;
}

/// The 6x6 force cross-product matrix of a spatial motion vector v = [w; v_O]; crf(v) = -crm(v)^T.
template <class Derived>
inline Matrix6<typename Derived::Scalar> crf(const Eigen::MatrixBase<Derived>& v) noexcept {
  using Scalar = typename Derived::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 6)
  const Matrix3<Scalar> wx = skew(v.template head<3>());
  Matrix6<Scalar> out;
  out.template topLeftCorner<3, 3>() = wx;
  out.template topRightCorner<3, 3>() = skew(v.template tail<3>());
  out.template bottomLeftCorner<3, 3>().setZero();
  out.template bottomRightCorner<3, 3>() = wx;
  return out;
}

/// crm(v) * m for a 6-vector or a 6×k block m: [w × m_w; w × m_v + v_O × m_w] per column.
template <class DerivedV, class DerivedM>
inline detail::SpatialBlock<typename DerivedV::Scalar, DerivedM> cross_motion(
    const Eigen::MatrixBase<DerivedV>& v,
    const Eigen::MatrixBase<DerivedM>& m) noexcept(detail::fixed_columns<DerivedM>) {
  using Scalar = typename DerivedV::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(DerivedV, 6)
  const Vector3<Scalar> w = v.template head<3>();
  const Vector3<Scalar> vO = v.template tail<3>();
  return detail::map_spatial_columns<Scalar>(m, [&w, &vO](const auto& mw, const auto& mv, auto& top, auto& bottom) {
    top.noalias() = w.cross(mw);                               // ω × m_ω
    bottom.noalias() = w.cross(mv) + vO.cross(mw);             // ω × m_v + v_O × m_ω
  });
}

/// crf(v) * f for a 6-vector or a 6×k block f: [w × f_n + v_O × f_f; w × f_f] per column.
template <class DerivedV, class DerivedF>
inline detail::SpatialBlock<typename DerivedV::Scalar, DerivedF> cross_force(
    const Eigen::MatrixBase<DerivedV>& v,
    const Eigen::MatrixBase<DerivedF>& f) noexcept(detail::fixed_columns<DerivedF>) {
  using Scalar = typename DerivedV::Scalar;
  EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(DerivedV, 6)
  const Vector3<Scalar> w = v.template head<3>();
  const Vector3<Scalar> vO = v.template tail<3>();
  return detail::map_spatial_columns<Scalar>(f, [&w, &vO](const auto& fn, const auto& ff, auto& top, auto& bottom) {
    top.noalias() = w.cross(fn) + vO.cross(ff);                // ω × n + v_O × f
    bottom.noalias() = w.cross(ff);                            // ω × f
  });
}

}  // namespace treedyn
