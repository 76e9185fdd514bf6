// forward_kinematics: body placements ^i X_λ(i) and ^i X_0 from the joint configuration q.
//
// Reference: the joint models (joint.hpp) and the first lines of the RNEA outward pass; Featherstone, Rigid
// Body Dynamics Algorithms, 2008, §4.
//   for i = 1..N:  ^i X_λ(i) = XJ(q_i) · X_T(i);   ^i X_0 = ^i X_λ(i) · ^λ(i) X_0   (^0 X_0 = 1)
// Indexing: paper body i ↔ code i−1; "λ(i) = 0" ↔ "parent == no_parent".
// Contract: q has model.nq() entries. Writes data.Xup and data.X_world. Cost: N joint transforms and
// N compositions. noexcept; never allocates.
#pragma once

#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {
namespace detail {

/// ^i X_λ(i) = XJ(q_i) · X_T(i) for every body (the outward kinematics shared by RNEA, CRBA and FK).
template <class Scalar, int N, class Dq>
void joint_transforms(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) {
    const JointPlacement<Scalar>& placement = model.joint_placement(i);
    if (placement.is_one_dof()) {
      data.Xup[i] = placement.transform(q(model.q_offset(i)));  // XJ(q_i) X_T(i), folded
    } else {
      const Joint<Scalar>& joint = model.joint(i);
      data.Xup[i] = joint.transform(q.segment(model.q_offset(i), joint.nq())) * model.tree_transform(i);
    }
  }
}

}  // namespace detail

/// Body placements: data.Xup[i] = ^i X_λ(i) and data.X_world[i] = ^i X_0 (world → body i coordinates;
/// body i's origin in world coordinates is X_world[i].r, its axes are the columns of X_world[i].Eᵀ).
template <class Scalar, int N, class Dq>
const detail::Array<Transform<Scalar>, N>& forward_kinematics(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                              const Eigen::MatrixBase<Dq>& q) noexcept {
  detail::joint_transforms(model, data, q);
  for (int i = 0; i < model.nbodies(); ++i) {
    const int p = model.parent(i);
    data.X_world[i] = (p == no_parent) ? data.Xup[i] : data.Xup[i] * data.X_world[p];
  }
  return data.X_world;
}

}  // namespace treedyn
