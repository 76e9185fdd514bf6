// treedyn::detail body_acceleration: one body's step of the outward acceleration pass without gravity.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 5.1, line R6 of rnea.hpp with
// a_0 = 0 (no gravity) and c_J = 0 (constant S_i, joint.hpp):
//   a_i = X_i a_λ(i) + S_i q̈_i + v_i × S_i q̇_i
// Used by center_of_mass (c̈, docs/centroidal.md#centre-of-mass) and body_motion
// (docs/frame-motion.md#frame-velocity-and-acceleration). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"

namespace treedyn::detail {

/// a_i for body i into data.a[i] (data.Xup[i] and the parent's data.a set; bv from body_velocity for i),
/// returned as halves.
template <class Scalar, int N, class Da>
EIGEN_ALWAYS_INLINE MotionHalves<Scalar> body_acceleration(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                           const Eigen::MatrixBase<Da>& qdd, int i,
                                                           const BodyVelocity<Scalar>& bv) noexcept {
  using V3 = Vector3<Scalar>;
  const V3& w = bv.v.w;
  const V3& v = bv.v.v;
  const MotionHalves<Scalar> sa = subspace_times(model.motion_subspaces()[i], qdd, model.v_offset(i));
  V3 aw = sa.w + cross(w, bv.vJ.w), al = sa.v + cross(w, bv.vJ.v) + cross(v, bv.vJ.w);
  const int p = model.parent(i);
  if (p != no_parent) {                                                            // + X_i a_λ(i)
    const Transform<Scalar>& X = data.Xup[i];
    const V3 awp = data.a[p].template head<3>(), alp = data.a[p].template tail<3>();
    aw += rotate<false>(X.E, awp);
    al += rotate<false>(X.E, V3(alp - cross(X.r, awp)));
  }
  data.a[i].template head<3>() = aw;
  data.a[i].template tail<3>() = al;
  return {aw, al};
}

}  // namespace treedyn::detail
