// frame_jacobian: the 6×n Jacobian of a frame fixed on a body, in local, world-aligned or world coordinates.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, §4.4 (body Jacobians: column block j
// is ^F X_j S_j for every joint j on the path from the frame's body to the base, zero elsewhere).
//   K1  ^F X_b = placement                                              (b = the frame's body)
//   K2  for j on the path b, λ(b), …, base:   J[:, vi(j)] = ^F X_j S_j;   ^F X_λ(j) = ^F X_j · ^j X_λ(j)
//   K3  world_aligned: rotate both 3-vector halves by ^0 R_F = (E_placement · ^b E_0)ᵀ (frame origin,
//       world axes); world: ^0 X_F = (^F X_0)⁻¹ applied to each column (world origin, world axes)
// The frame's spatial velocity is J q̇: [ω; v] of the frame's origin, in frame coordinates (local), along
// the world axes (world_aligned), or of the body point at the world origin along the world axes (world)
// (docs/frame-motion.md#three-reference-frames).
// Why K2 composes the joint transforms along the path instead of forming ^F X_0 (^j X_0)⁻¹ from the
// world placements: the latter takes the moment arm from F to joint j as a difference of two positions
// measured from the world origin, so it carries an absolute error of ε times the distance to the world
// origin (a robot 100 m out lost three digits in the linear rows against a 50-digit reference); the
// composition sums the relative offsets between neighbouring bodies, each exact to ε of its own size.
// K3 world_aligned uses only the rotation of the world placement, which has no such term; world rows are
// about the world origin and carry it by definition.
// Contract: forward_kinematics(model, data, q) must have run for this q (data.Xup and data.X_world are
// read). placement = ^F X_b. Writes data.J (returned); columns off the path are zero. Cost O(depth).
// noexcept; never allocates.
#pragma once

#include "treedyn/detail/check.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {

/// The axes (and origin) a frame's motion and Jacobian are expressed in (docs/frame-motion.md#three-reference-frames):
/// `local` = frame origin, frame axes (Pinocchio's LOCAL); `world_aligned` = frame origin, world axes
/// (LOCAL_WORLD_ALIGNED); `world_origin` = world origin, world axes (WORLD).
enum class ReferenceFrame { local, world_aligned, world_origin };

namespace detail {

/// K2: calls step(j, ^F X_j) for every body j on the path from `body` to its root, starting at `body`
/// with ^F X_body = placement.
template <class Scalar, int N, class Step>
void for_each_path_body(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                        const Transform<Scalar>& placement, Step&& step) noexcept {
  Transform<Scalar> X_Fj = placement;
  for (int j = body;;) {
    step(j, static_cast<const Transform<Scalar>&>(X_Fj));
    const int p = model.parent(j);
    if (p == no_parent) break;                                                       // no transform past the root
    X_Fj = X_Fj * data.Xup[j];
    j = p;
  }
}

/// K3 for one motion vector m given in frame coordinates: the same motion along `reference`'s axes, with
/// X_F0 = ^F X_0 the frame's world placement.
template <class Scalar>
Motion<Scalar> motion_in(ReferenceFrame reference, const Transform<Scalar>& X_F0, const Motion<Scalar>& m) noexcept {
  if (reference == ReferenceFrame::local) return m;
  if (reference == ReferenceFrame::world_origin) return X_F0.apply_inverse_motion(m);
  Motion<Scalar> out;
  out << rotate<true>(X_F0.E, Vector3<Scalar>(m.template head<3>())),
      rotate<true>(X_F0.E, Vector3<Scalar>(m.template tail<3>()));
  return out;
}

}  // namespace detail

template <class Scalar, int N>
const Eigen::Matrix<Scalar, 6, N>& frame_jacobian(const Model<Scalar, N>& model, Data<Scalar, N>& data, int body,
                                                  const Transform<Scalar>& placement,
                                                  ReferenceFrame reference = ReferenceFrame::local) noexcept {
  if (!(detail::same_model("frame_jacobian", "data", data.model_id, model.id()) &&
        detail::index_ok("frame_jacobian", "body", body, model.nbodies(), "a body index below model.nbodies()")))
    return data.J;
  data.J.setZero();
  detail::for_each_path_body(model, data, body, placement, [&](int j, const Transform<Scalar>& X_Fj) {  // K1, K2
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[j];
    data.J.middleCols(model.v_offset(j), S.cols()) = X_Fj.apply_motion(S);
  });
  if (reference != ReferenceFrame::local) {                                          // K3
    const Transform<Scalar> X_F0 = placement * data.X_world[body];
    for (int j = body; j != no_parent; j = model.parent(j))  // only path columns are nonzero
      for (int k = model.v_offset(j); k < model.v_offset(j) + model.joint(j).nv(); ++k)
        data.J.col(k) = detail::motion_in(reference, X_F0, Motion<Scalar>(data.J.col(k)));
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
