// forward_kinematics: body placements ^i X_λ(i) and ^i X_0 from the joint configuration q.
//
// Reference: the joint models (joint.hpp) and the first lines of the RNEA outward pass; Featherstone, Rigid
// Body Dynamics Algorithms, 2008, §4.
//   for i = 1..N:  ^i X_λ(i) = XJ(q_i) · X_T(i);   ^i X_0 = ^i X_λ(i) · ^λ(i) X_0   (^0 X_0 = 1)
// Indexing: paper body i ↔ code i−1; "λ(i) = 0" ↔ "parent == no_parent".
// Contract: q has model.nq() entries (checked, detail/check.hpp). Writes data.Xup and data.X_world (NaN,
// with data.config_status naming the body, for a zero or non-finite quaternion). Cost: N joint transforms and
// N compositions. noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"

namespace treedyn {

/// Body placements: data.Xup[i] = ^i X_λ(i) and data.X_world[i] = ^i X_0 (world → body i coordinates;
/// body i's origin in world coordinates is X_world[i].r, its axes are the columns of X_world[i].Eᵀ).
template <class Scalar, int N, class Dq>
const detail::Array<Transform<Scalar>, N>& forward_kinematics(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                              const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!detail::model_data_q_ok("forward_kinematics", model, data, q)) return data.X_world;
  if (!detail::joint_transforms(model, data, q, "forward_kinematics")) {
    const Transform<Scalar> nan = detail::nan_transform<Scalar>();
    for (int i = 0; i < model.nbodies(); ++i) data.X_world[i] = data.Xup[i] = nan;
    return data.X_world;
  }
  detail::world_placements(model, data);
  return data.X_world;
}

}  // namespace treedyn
