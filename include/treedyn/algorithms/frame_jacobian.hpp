// frame_jacobian: the 6×n Jacobian of a frame fixed on a body, in local or world-aligned coordinates.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, §4.4 (body Jacobians: column block j
// is ^F X_j S_j for every joint j on the path from the frame's body to the base, zero elsewhere).
//   K1  ^F X_b = placement                                              (b = the frame's body)
//   K2  for j on the path b, λ(b), …, base:   J[:, vi(j)] = ^F X_j S_j;   ^F X_λ(j) = ^F X_j · ^j X_λ(j)
//   K3  world-aligned: rotate both 3-vector halves by ^0 R_F = (E_placement · ^b E_0)ᵀ (frame origin,
//       world axes)
// The frame's spatial velocity is J q̇: [ω; v] of the frame's origin, in frame coordinates (local) or
// along the world axes (world_aligned).
// Why K2 composes the joint transforms along the path instead of forming ^F X_0 (^j X_0)⁻¹ from the
// world placements: the latter takes the moment arm from F to joint j as a difference of two positions
// measured from the world origin, so it carries an absolute error of ε times the distance to the world
// origin (a robot 100 m out lost three digits in the linear rows against a 50-digit reference); the
// composition sums the relative offsets between neighbouring bodies, each exact to ε of its own size.
// K3 uses only the rotation of the world placement, which has no such term.
// Contract: forward_kinematics(model, data, q) must have run for this q (data.Xup and data.X_world are
// read). placement = ^F X_b. Writes data.J (returned); columns off the path are zero. Cost O(depth).
// noexcept; never allocates.
#pragma once

#include "treedyn/detail/check.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {

enum class ReferenceFrame { local, world_aligned };

template <class Scalar, int N>
const Eigen::Matrix<Scalar, 6, N>& frame_jacobian(const Model<Scalar, N>& model, Data<Scalar, N>& data, int body,
                                                  const Transform<Scalar>& placement,
                                                  ReferenceFrame reference = ReferenceFrame::local) noexcept {
  if (!(detail::same_model("frame_jacobian", "data", data.model_id, model.id()) &&
        detail::index_ok("frame_jacobian", "body", body, model.nbodies(), "a body index below model.nbodies()")))
    return data.J;
  data.J.setZero();
  Transform<Scalar> X_Fj = placement;                                                // K1
  for (int j = body;;) {                                                             // K2
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[j];
    data.J.middleCols(model.v_offset(j), S.cols()) = X_Fj.apply_motion(S);
    const int p = model.parent(j);
    if (p == no_parent) break;                                                       // no transform past the root
    X_Fj = X_Fj * data.Xup[j];
    j = p;
  }
  if (reference == ReferenceFrame::world_aligned) {                                  // K3
    const Matrix3<Scalar> Rt = detail::rotate<false>(placement.E, data.X_world[body].E);  // Rᵀ
    for (int j = body; j != no_parent; j = model.parent(j))  // only path columns are nonzero
      for (int k = model.v_offset(j); k < model.v_offset(j) + model.joint(j).nv(); ++k) {
        const Vector3<Scalar> w = detail::rotate<true>(Rt, Vector3<Scalar>(data.J(0, k), data.J(1, k), data.J(2, k)));
        const Vector3<Scalar> v = detail::rotate<true>(Rt, Vector3<Scalar>(data.J(3, k), data.J(4, k), data.J(5, k)));
        for (int l = 0; l < 3; ++l) {
          data.J(l, k) = w(l);
          data.J(3 + l, k) = v(l);
        }
      }
  }
  return data.J;
}

/// The Jacobian of a named frame of the model (model.frame(name)); throws if there is no such frame. A
/// frame fixed on the base (body = no_parent, e.g. a world-fixed link merged by the URDF loader) does not
/// move with q: its Jacobian is zero.
template <class Scalar, int N>
const Eigen::Matrix<Scalar, 6, N>& frame_jacobian(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                  const std::string& frame_name,
                                                  ReferenceFrame reference = ReferenceFrame::local) {
  const Frame<Scalar>& f = model.frame(frame_name);
  if (f.body == no_parent) {
    if (detail::same_model("frame_jacobian", "data", data.model_id, model.id())) data.J.setZero();
    return data.J;
  }
  return frame_jacobian(model, data, f.body, f.placement, reference);
}

}  // namespace treedyn
