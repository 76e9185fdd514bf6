// body_motion, frame_velocity, frame_acceleration, frame_classical_acceleration: the spatial velocity and
// the spatial or classical acceleration of a frame fixed on a body, in local, world-aligned or world
// coordinates (docs/frame-motion.md#frame-velocity-and-acceleration).
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 5.1 (the RNEA's outward pass, rnea.hpp
// R1–R6 with a_0 = 0: no gravity) and §2.11 (spatial and classical acceleration: the classical acceleration of
// the point at the origin is the spatial one plus ω × v).
//   V1  for i = 1..N:  ^i X_λ(i), ^i X_0                              (forward_kinematics)
//   V2                 v_i = X_i v_λ(i) + S_i q̇_i                    (rnea.hpp R4–R5)
//   V3                 a_i = X_i a_λ(i) + S_i q̈_i + v_i × S_i q̇_i   (rnea.hpp R6, a_0 = 0)
//   V4  frame F on body b, ^F X_b = placement:  v_F = ^F X_b v_b,  a_F = ^F X_b a_b   (frame coordinates;
//       the frame is fixed on b, so its spatial acceleration transforms like its velocity)
//   V5  along `reference` (frame_jacobian.hpp K3): local m_F; world ^0 X_F m_F; world_aligned the halves
//       rotated by ^0 R_F
//   V6  classical = spatial + [0; ω × v], ω and v the velocity's halves in the same axes
// In world_aligned axes V6 is [ω̇; p̈], p the frame's origin; in local axes it is p̈ in frame coordinates;
// in world axes it is the classical acceleration of the body point passing through the world origin
// (Pinocchio's getFrameClassicalAcceleration, the same in each of its three reference frames).
// Contract: body_motion(model, data, q, q̇[, q̈]) writes data.Xup, data.X_world, data.v and, with q̈,
// data.a (body coordinates, gravity NOT included, unlike rnea's data.a) and returns the status: a zero
// quaternion or a non-finite input sets data.v and data.a to NaN. The three queries read those fields
// (frame_velocity: X_world and v; the accelerations: also a) for the q, q̇, q̈ of the last body_motion and
// do not check that they are current. Arguments are checked (detail/check.hpp): a failed check returns
// NaN. Cost: body_motion O(N), a query O(1). noexcept; never allocate.
#pragma once

#include "treedyn/algorithms/detail/body_acceleration.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"

namespace treedyn {
namespace detail {

/// V1–V3 after the argument checks; qdd = nullptr: velocities only.
template <class Scalar, int N, class Dq, class Dv, class Da>
Status body_motion_checked(const char* fn, const Model<Scalar, N>& model, Data<Scalar, N>& data,
                           const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                           const Eigen::MatrixBase<Da>* qdd) noexcept {
  if (!joint_transforms(model, data, q, fn) || !finite_ok(fn, "qd", qd, data.config_status) ||
      (qdd != nullptr && !finite_ok(fn, "qdd", *qdd, data.config_status))) {
    for (int i = 0; i < model.nbodies(); ++i) {
      data.v[i].setConstant(nan<Scalar>());
      data.a[i].setConstant(nan<Scalar>());
    }
    return data.config_status;
  }
  world_placements(model, data);                                                  // V1
  for (int i = 0; i < model.nbodies(); ++i) {
    const BodyVelocity<Scalar> bv = body_velocity(model, data, qd, i);            // V2
    if (qdd != nullptr) body_acceleration(model, data, *qdd, i, bv);              // V3
  }
  return data.config_status;
}

/// The checks every frame query makes: data built for model, body a body index.
template <class Scalar, int N>
bool frame_query_ok(const char* fn, const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body) noexcept {
  return same_model(fn, "data", data.model_id, model.id()) &&
         index_ok(fn, "body", body, model.nbodies(), "a body index below model.nbodies()");
}

/// A motion of NaN entries: what a failed query returns.
template <class Scalar>
Motion<Scalar> nan_motion() noexcept {
  return Motion<Scalar>::Constant(nan<Scalar>());
}

/// V6 on a spatial acceleration a and the velocity v in the same axes.
template <class Scalar>
Motion<Scalar> classical_from_spatial(const Motion<Scalar>& a, const Motion<Scalar>& v) noexcept {
  Motion<Scalar> out = a;
  out.template tail<3>() += cross(Vector3<Scalar>(v.template head<3>()), Vector3<Scalar>(v.template tail<3>()));
  return out;
}

/// V4–V5 for data.v (velocity) or data.a (acceleration).
template <class Scalar, int N>
Motion<Scalar> frame_motion_of(const Data<Scalar, N>& data, const detail::Array<Motion<Scalar>, N>& body_motions,
                               int body, const Transform<Scalar>& placement, ReferenceFrame reference) noexcept {
  return motion_in(reference, Transform<Scalar>(placement * data.X_world[body]),
                   Motion<Scalar>(placement.apply_motion(body_motions[body])));
}

}  // namespace detail

/// V1–V2: data.Xup, data.X_world and the body velocities data.v for (q, q̇). Returns the status.
template <class Scalar, int N, class Dq, class Dv>
Status body_motion(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                   const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "body_motion";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd)))
    return Status::invalid_argument(fn);
  const Eigen::MatrixBase<Dv>* no_qdd = nullptr;
  return detail::body_motion_checked(fn, model, data, q, qd, no_qdd);
}

/// V1–V3: the same and the body accelerations data.a without gravity for (q, q̇, q̈). Returns the status.
template <class Scalar, int N, class Dq, class Dv, class Da>
Status body_motion(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                   const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>& qdd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Da, "qdd");
  constexpr const char* fn = "body_motion";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd) &&
        detail::dof_vector_ok(fn, "qdd", model, qdd)))
    return Status::invalid_argument(fn);
  return detail::body_motion_checked(fn, model, data, q, qd, &qdd);
}

/// The spatial velocity [ω; v] of the frame ^F X_b = placement on `body` along `reference` (V4–V5): J q̇ for
/// frame_jacobian(model, data, body, placement, reference). Reads data.X_world, data.v (body_motion first).
template <class Scalar, int N>
Motion<Scalar> frame_velocity(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                              const Transform<Scalar>& placement,
                              ReferenceFrame reference = ReferenceFrame::local) noexcept {
  if (!detail::frame_query_ok("frame_velocity", model, data, body)) return detail::nan_motion<Scalar>();
  return detail::frame_motion_of(data, data.v, body, placement, reference);
}

/// The spatial acceleration [ω̇; a] of the same frame along `reference` (V4–V5; no gravity). Reads
/// data.X_world, data.a (body_motion with q̈ first).
template <class Scalar, int N>
Motion<Scalar> frame_acceleration(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                                  const Transform<Scalar>& placement,
                                  ReferenceFrame reference = ReferenceFrame::local) noexcept {
  if (!detail::frame_query_ok("frame_acceleration", model, data, body)) return detail::nan_motion<Scalar>();
  return detail::frame_motion_of(data, data.a, body, placement, reference);
}

/// The classical acceleration [ω̇; a + ω × v] of the same frame along `reference` (V6; no gravity): in
/// world_aligned axes [ω̇; p̈], p the frame's origin. Reads data.X_world, data.v, data.a.
template <class Scalar, int N>
Motion<Scalar> frame_classical_acceleration(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                                            const Transform<Scalar>& placement,
                                            ReferenceFrame reference = ReferenceFrame::local) noexcept {
  if (!detail::frame_query_ok("frame_classical_acceleration", model, data, body)) return detail::nan_motion<Scalar>();
  return detail::classical_from_spatial(detail::frame_motion_of(data, data.a, body, placement, reference),
                                        detail::frame_motion_of(data, data.v, body, placement, reference));
}

}  // namespace treedyn
