// treedyn::detail joint blocks: the one place where a step chooses between the 1-DoF fast path and the
// general multi-DoF joint.
//
// A joint's quantities with one column per DoF (S_i, U_i, U_i D_i⁻¹, a row block of a joint-space matrix)
// are 6×n_i with n_i ≤ 6. A step written once as a template on NI runs either with NI = 1 (a width known
// at compile time: what almost every robot joint is, and what the compiler unrolls) or NI = Dynamic (2…6
// columns, n_i read at run time, stored inline, no heap). with_joint_width(n_i, step) picks the
// instantiation at run time, so callers never spell out the branch, and joint_width<NI>(model, i) is the
// n_i the step then loops over (the steps written on coefficients, oscm.hpp's, read only that);
// JointColumns is body i's joint as a step on Eigen blocks sees it (minverse_aba.hpp's). Nothing here
// allocates.
//
// Joint kinds. A step that can do better for one joint type than through S_i is overloaded on a kind tag,
// and with_joint_kind(joint, step) picks the overload once per body. The one special kind is the free
// joint (joint.hpp: S_i = 1₆ in body coordinates, v = [ω; v_O]), for which U_i = IA_i S_i = IA_i,
// D_i = S_iᵀ U_i = IA_i and S_iᵀ x = x: the floating base of Featherstone, Rigid Body Dynamics Algorithms,
// 2008, Chapter 9 (free-floating bases; the floating-base ABA, Table 9.6), whose pivot is the base's
// articulated inertia itself. Every other joint is the general kind, which reads S_i (and takes the 1-DoF
// fast path by width).
#pragma once

#include <type_traits>

#include <Eigen/Core>

#include "treedyn/model/joint.hpp"

namespace treedyn::detail {

/// Body i's n_i as a step of width NI sees it: NI when fixed, else read from S_i at run time.
template <int NI, class Model>
int joint_width(const Model& model, int i) noexcept {
  if constexpr (NI == Eigen::Dynamic) {
    return static_cast<int>(model.motion_subspaces()[i].cols());
  } else {
    static_cast<void>(model);
    static_cast<void>(i);
    return NI;
  }
}

/// Body i's joint as a step of width NI sees it: its first DoF vi, its n_i, its parent and S_i.
template <class Scalar, int NI>
struct JointColumns {
  /// S_i, U_i, U_i D_i⁻¹ (6×n_i, at most 6 columns stored inline)
  using Subspace = Eigen::Matrix<Scalar, 6, NI, Eigen::ColMajor, 6, (NI == Eigen::Dynamic ? 6 : NI)>;

  template <class Model>
  JointColumns(const Model& model, int i) noexcept
      : vi(model.v_offset(i)), ni(joint_width<NI>(model, i)), parent(model.parent(i)), S(model.motion_subspaces()[i]) {}

  /// The joint's n_i columns vi(i) of a 6×n matrix (U, U D⁻¹), copied.
  template <class Derived>
  Subspace columns_of(const Eigen::MatrixBase<Derived>& M) const noexcept {
    return M.middleCols(vi, ni);
  }

  int vi, ni, parent;
  Subspace S;
};

/// The compile-time width a step is instantiated for: 1 or Eigen::Dynamic.
template <int NI>
using JointWidth = std::integral_constant<int, NI>;

/// Calls step(JointWidth<1>{}) for a 1-DoF joint and step(JointWidth<Eigen::Dynamic>{}) otherwise; the
/// step reads the width as decltype(width)::value.
template <class Step>
EIGEN_ALWAYS_INLINE void with_joint_width(Eigen::Index ni, Step&& step) noexcept {
  if (ni == 1) step(JointWidth<1>{});
  else step(JointWidth<Eigen::Dynamic>{});
}

/// The joint kinds a step is overloaded on (see the header comment).
enum class JointKind : unsigned char { general, free };
template <JointKind K>
using JointKindTag = std::integral_constant<JointKind, K>;
using GeneralJoint = JointKindTag<JointKind::general>;  ///< any joint, through its S_i
using FreeJoint = JointKindTag<JointKind::free>;        ///< a free joint: S_i = 1₆

/// True when vectors of these compile-time sizes can hold a free joint's six entries: a fixed size below 6
/// cannot (its model has fewer than 6 DoFs), and the free-joint steps are then not even instantiated.
template <int... Sizes>
inline constexpr bool fits_free_joint = ((Sizes == Eigen::Dynamic || Sizes >= 6) && ...);

/// Calls step(FreeJoint{}) for a free-flyer joint and step(GeneralJoint{}) otherwise (always the latter
/// when FreeJointsPossible is false: see fits_free_joint).
template <bool FreeJointsPossible = true, class Scalar, class Step>
EIGEN_ALWAYS_INLINE void with_joint_kind(const Joint<Scalar>& joint, Step&& step) noexcept {
  if constexpr (FreeJointsPossible) {
    if (joint.type == JointType::free_flyer) {
      step(FreeJoint{});
      return;
    }
  } else {
    static_cast<void>(joint);
  }
  step(GeneralJoint{});
}

/// The kind dispatch by joint type (with_joint_kind).
template <bool FreeJointsPossible = true>
struct ByJointKind {
  template <class Scalar, class Step>
  EIGEN_ALWAYS_INLINE void operator()(const Joint<Scalar>& joint, Step&& step) const noexcept {
    with_joint_kind<FreeJointsPossible>(joint, static_cast<Step&&>(step));
  }
};

}  // namespace treedyn::detail
