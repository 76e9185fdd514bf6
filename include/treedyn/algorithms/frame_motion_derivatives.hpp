// frame_velocity_derivatives, frame_acceleration_derivatives: the partial derivatives of a frame's spatial
// velocity v_F and spatial acceleration a_F (frame_motion.hpp: body_motion's, gravity not included) with
// respect to q, q̇ and q̈, in local, world-aligned or world axes (docs/derivatives.md#kinematics-derivatives).
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, §2.9 (a quantity fixed in a body turning by a
// motion m changes by m ×) and Table 5.1 (the outward pass V2–V3 of frame_motion.hpp:
// v_i = X_i v_λ(i) + S_i q̇_i, a_i = X_i a_λ(i) + S_i q̈_i + v_i × S_i q̇_i); Carpentier & Mansard, RSS 2018 (the
// same derivatives in a fixed frame: Ψ̇_j, Ψ̈_j). Tangent convention (docs/derivatives.md#tangent-convention):
// ∂/∂q is along δ with ^λ(j)X_j(q ⊕ δ) = ^λ(j)X_j(q) exp(S_j δ_j), so ^jX_λ(j) turns by −S_j δ_j ×.
// Notation: frame F on body b, path j ⪯ b (b and its ancestors); ^F X_j composed along the path
// (frame_jacobian.hpp K2); vᵖ_j = X_j v_λ(j), aᵖ_j = X_j a_λ(j) (0 at a root: the base does not move);
// Ψ̇_j = vᵖ_j × S_j. Unrolling V2–V3: v_b = Σ_{l⪯b} ^bX_l S_l q̇_l and a_b = Σ_{l⪯b} ^bX_l c_l with
// c_l = S_l q̈_l + vᵖ_l × S_l q̇_l. Under δ_j only ^bX_l for l ≺ j changes: ∂^bX_l = −^bX_j (S_j ×) ^jX_l.
//   E1  ∂v_F/∂δ_j = ^FX_j (−S_j × vᵖ_j) = ^FX_j Ψ̇_j                                     (from the l ≺ j terms)
//   E2  ∂v_F/∂q̇_j = ^FX_j S_j = J_j                                                     (the local Jacobian)
//   E3  ∂vᵖ_l/∂δ_j = ^lX_j Ψ̇_j for l ⪰ j (E1 with b → l), so, with Σ_{j⪯l⪯b} ^FX_l S_l q̇_l = v_F − ^FX_j vᵖ_j,
//       ∂a_F/∂δ_j = ^FX_j (aᵖ_j × S_j) + (^FX_j Ψ̇_j) × (v_F − ^FX_j vᵖ_j)
//       (first term: the l ≺ j terms, −^FX_j (S_j × aᵖ_j); second: vᵖ_l's change in c_l for l ⪰ j)
//   E4  ∂a_F/∂q̇_j = ^FX_j Ψ̇_j + J_j × (v_F − ^FX_j v_j)
//       (c_j's own vᵖ_j × S_j, and ∂vᵖ_l/∂q̇_j = ^lX_j S_j for l ≻ j, summed over l as in E3)
//   E5  ∂a_F/∂q̈_j = J_j
//   E6  other axes: m_ref = T_ref m_F with T_local = 1, T_world_aligned = blockdiag(^0R_F, ^0R_F),
//       T_world = ^0X_F. Under δ_j the frame itself turns by J_j (^0X_F(q ⊕ δ) = ^0X_F exp(J_j δ_j)), so
//       ∂m_ref/∂δ_j = T_ref (∂m_F/∂δ_j + turn_ref(J_j, m_F)): turn_local = 0, turn_world = J_j × m_F,
//       turn_world_aligned = ω(J_j) ×₃ m_F (both halves crossed with J_j's angular part). ∂/∂q̇, ∂/∂q̈: T_ref only.
// Identity (tested): in local axes E4 = E1 + J̇ (frame_jacobian_time_variation.hpp D1, J̇_j = (^FX_j v_j − v_F) × J_j):
// a_F = J q̈ + J̇ q̇ with J̇ = Σ_k ∂J/∂δ_k q̇_k linear in q̇, so ∂(J̇ q̇)/∂q̇ = J̇ + (∂J/∂δ_k q̇)_k = J̇ + ∂v_F/∂q.
// Contract: the calls taking q run body_motion(model, data, q, q̇[, q̈]) (data.Xup, X_world, v[, a] are written);
// the calls without q read the last body_motion's data (several frames at one state: one outward pass). Outputs are any
// writable 6 × nv Eigen matrices (column k: tangent increment / DoF k; columns off the path written 0).
// Arguments are checked (detail/check.hpp): a wrong size, a foreign data or a bad body index returns
// Status::invalid_argument (outputs of the right shape NaN); a zero quaternion or a non-finite input returns
// data.config_status with every output NaN. Cost: body_motion O(N), then O(depth of b · n_j) transforms.
// noexcept; never allocate (no workspace: every column is formed from the path's data).
#pragma once

#include <utility>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/algorithms/frame_jacobian_time_variation.hpp"
#include "treedyn/algorithms/frame_motion.hpp"

namespace treedyn {
namespace detail {

/// E1–E5 for one DoF of one path body, local axes.
template <class Scalar>
struct FrameDerivativeColumn {
  Motion<Scalar> J;       ///< ∂v_F/∂q̇ = ∂a_F/∂q̈ (E2, E5)
  Motion<Scalar> dv_dq;   ///< E1
  Motion<Scalar> da_dq;   ///< E3
  Motion<Scalar> da_dqd;  ///< E4
};

/// Calls column(k, FrameDerivativeColumn) for every DoF k on the path of `body`; the acceleration columns
/// only when `acceleration` (data.a is read then). F: the frame's ^F X_0 and v_F.
template <class Scalar, int N, class Column>
void frame_derivative_columns(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                              const Transform<Scalar>& placement, const FrameState<Scalar>& F, bool acceleration,
                              Column&& column) noexcept {
  for_each_path_body(model, data, body, placement, [&](int j, const Transform<Scalar>& X_Fj) {
    const int p = model.parent(j);
    const Motion<Scalar> vp = p == no_parent ? Motion<Scalar>::Zero() : Motion<Scalar>(data.Xup[j].apply_motion(data.v[p]));
    const Motion<Scalar> ap = !acceleration || p == no_parent ? Motion<Scalar>::Zero()
                                                              : Motion<Scalar>(data.Xup[j].apply_motion(data.a[p]));
    const Motion<Scalar> rel_p = F.v_F - X_Fj.apply_motion(vp);                         // v_F − ^FX_j vᵖ_j
    const Motion<Scalar> rel = F.v_F - X_Fj.apply_motion(data.v[j]);                     // v_F − ^FX_j v_j
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[j];
    for (int c = 0; c < S.cols(); ++c) {
      const Motion<Scalar> s = S.col(c);
      FrameDerivativeColumn<Scalar> out;
      out.J = X_Fj.apply_motion(s);                                                       // E2
      out.dv_dq = X_Fj.apply_motion(Motion<Scalar>(cross_motion(vp, s)));                // E1
      if (acceleration) {
        out.da_dq = X_Fj.apply_motion(Motion<Scalar>(cross_motion(ap, s))) + cross_motion(out.dv_dq, rel_p);  // E3
        out.da_dqd = out.dv_dq + cross_motion(out.J, rel);                                // E4
      }
      column(model.v_offset(j) + c, static_cast<const FrameDerivativeColumn<Scalar>&>(out));
    }
  });
}

/// E6 for a derivative in q: T_ref (d + turn_ref(J, m)), m the differentiated quantity in frame axes.
template <class Scalar>
Motion<Scalar> dq_in(ReferenceFrame reference, const Transform<Scalar>& X_F0, const Motion<Scalar>& d,
                     const Motion<Scalar>& J, const Motion<Scalar>& m) noexcept {
  if (reference == ReferenceFrame::local) return d;
  if (reference == ReferenceFrame::world_origin) return motion_in(reference, X_F0, Motion<Scalar>(d + cross_motion(J, m)));
  return motion_in(reference, X_F0, Motion<Scalar>(d + cross_halves(Vector3<Scalar>(J.template head<3>()), m)));
}

/// The checks of both calls besides body_motion's: ws-free, so the frame and the output shapes.
template <class Scalar, int N, class... Out>
bool frame_derivatives_ok(const char* fn, const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                          const Out&... out) noexcept {
  return frame_query_ok(fn, model, data, body) && (shape_ok(fn, "output", out, 6, model.nv(), "6 x model.nv()") && ...);
}

/// A failed call: every output of the right shape NaN.
template <class... Out>
void fill_nan_outputs(long long nv, Out&... out) noexcept {
  ((out.rows() == 6 && out.cols() == nv ? (void)fill_nan(out) : (void)0), ...);
}

}  // namespace detail

/// ∂v_F/∂q (tangent increments) into dv_dq and ∂v_F/∂q̇ = J into dv_dqd, both 6 × nv, of the spatial velocity
/// of the frame ^F X_b = placement on `body` along `reference` (E1, E2, E6), at the (q, q̇) of the last
/// body_motion(model, data, q, q̇[, q̈]): one outward pass serves every frame (Pinocchio's
/// computeForwardKinematicsDerivatives, then one getFrameVelocityDerivatives per frame). Reads data.Xup,
/// X_world and v and, like frame_velocity, does not check that they are current. Returns data.config_status
/// (body_motion's status; when it is a failure, every output is NaN), or invalid_argument.
template <class Scalar, int N, class O1, class O2>
Status frame_velocity_derivatives(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                                  const Transform<Scalar>& placement, ReferenceFrame reference, O1&& dv_dq,
                                  O2&& dv_dqd) noexcept {
  constexpr const char* fn = "frame_velocity_derivatives";
  if (!detail::frame_derivatives_ok(fn, model, data, body, dv_dq, dv_dqd)) {
    detail::fill_nan_outputs(model.nv(), dv_dq, dv_dqd);
    return Status::invalid_argument(fn);
  }
  if (!data.config_status) {
    detail::fill_nan_outputs(model.nv(), dv_dq, dv_dqd);
    return data.config_status;
  }
  dv_dq.setZero();
  dv_dqd.setZero();
  const detail::FrameState<Scalar> F = detail::frame_state(data, body, placement);
  detail::frame_derivative_columns(model, data, body, placement, F, false,
                                   [&](int k, const detail::FrameDerivativeColumn<Scalar>& col) {
                                     dv_dq.col(k) = detail::dq_in(reference, F.X_F0, col.dv_dq, col.J, F.v_F);
                                     dv_dqd.col(k) = detail::motion_in(reference, F.X_F0, col.J);
                                   });
  detail::nan_whole_failed_lanes(dv_dq, dv_dqd);  // over lanes: a failing state is NaN throughout (docs/lanes.md)
  return data.config_status;
}

/// The same at (q, q̇): runs body_motion(model, data, q, q̇) first. Returns the status.
template <class Scalar, int N, class Dq, class Dv, class O1, class O2>
Status frame_velocity_derivatives(const Model<Scalar, N>& model, Data<Scalar, N>& data, int body,
                                  const Transform<Scalar>& placement, const Eigen::MatrixBase<Dq>& q,
                                  const Eigen::MatrixBase<Dv>& qd, ReferenceFrame reference, O1&& dv_dq,
                                  O2&& dv_dqd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "frame_velocity_derivatives";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd) &&
        detail::frame_derivatives_ok(fn, model, data, body, dv_dq, dv_dqd))) {
    detail::fill_nan_outputs(model.nv(), dv_dq, dv_dqd);
    return Status::invalid_argument(fn);
  }
  const Eigen::MatrixBase<Dv>* no_qdd = nullptr;
  const Status status = detail::body_motion_checked(fn, model, data, q, qd, no_qdd);
  if (!status.ok()) {
    detail::fill_nan_outputs(model.nv(), dv_dq, dv_dqd);
    return status;
  }
  return frame_velocity_derivatives(model, std::as_const(data), body, placement, reference, dv_dq, dv_dqd);
}

/// ∂v_F/∂q into dv_dq, and ∂a_F/∂q, ∂a_F/∂q̇, ∂a_F/∂q̈ = J into da_dq, da_dqd, da_dqdd (each 6 × nv) of the
/// spatial acceleration (frame_acceleration's: no gravity) of the frame ^F X_b = placement on `body` along
/// `reference` (E1–E6; ∂v_F/∂q̇ = da_dqdd), at the (q, q̇, q̈) of the last body_motion(model, data, q, q̇, q̈):
/// one outward pass for every frame, as the velocity's form above (Pinocchio's
/// getFrameAccelerationDerivatives). Reads data.Xup, X_world, v and a, not checked to be current. Returns
/// data.config_status, or invalid_argument.
template <class Scalar, int N, class O1, class O2, class O3, class O4>
Status frame_acceleration_derivatives(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int body,
                                      const Transform<Scalar>& placement, ReferenceFrame reference, O1&& dv_dq,
                                      O2&& da_dq, O3&& da_dqd, O4&& da_dqdd) noexcept {
  constexpr const char* fn = "frame_acceleration_derivatives";
  if (!detail::frame_derivatives_ok(fn, model, data, body, dv_dq, da_dq, da_dqd, da_dqdd)) {
    detail::fill_nan_outputs(model.nv(), dv_dq, da_dq, da_dqd, da_dqdd);
    return Status::invalid_argument(fn);
  }
  if (!data.config_status) {
    detail::fill_nan_outputs(model.nv(), dv_dq, da_dq, da_dqd, da_dqdd);
    return data.config_status;
  }
  dv_dq.setZero();
  da_dq.setZero();
  da_dqd.setZero();
  da_dqdd.setZero();
  const detail::FrameState<Scalar> F = detail::frame_state(data, body, placement);
  const Motion<Scalar> a_F = placement.apply_motion(data.a[body]);
  detail::frame_derivative_columns(model, data, body, placement, F, true,
                                   [&](int k, const detail::FrameDerivativeColumn<Scalar>& col) {
                                     dv_dq.col(k) = detail::dq_in(reference, F.X_F0, col.dv_dq, col.J, F.v_F);
                                     da_dq.col(k) = detail::dq_in(reference, F.X_F0, col.da_dq, col.J, a_F);
                                     da_dqd.col(k) = detail::motion_in(reference, F.X_F0, col.da_dqd);
                                     da_dqdd.col(k) = detail::motion_in(reference, F.X_F0, col.J);
                                   });
  detail::nan_whole_failed_lanes(dv_dq, da_dq, da_dqd, da_dqdd);  // over lanes (docs/lanes.md)
  return data.config_status;
}

/// The same at (q, q̇, q̈): runs body_motion(model, data, q, q̇, q̈) first. Returns the status.
template <class Scalar, int N, class Dq, class Dv, class Da, class O1, class O2, class O3, class O4>
Status frame_acceleration_derivatives(const Model<Scalar, N>& model, Data<Scalar, N>& data, int body,
                                      const Transform<Scalar>& placement, const Eigen::MatrixBase<Dq>& q,
                                      const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>& qdd,
                                      ReferenceFrame reference, O1&& dv_dq, O2&& da_dq, O3&& da_dqd,
                                      O4&& da_dqdd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Da, "qdd");
  constexpr const char* fn = "frame_acceleration_derivatives";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd) &&
        detail::dof_vector_ok(fn, "qdd", model, qdd) &&
        detail::frame_derivatives_ok(fn, model, data, body, dv_dq, da_dq, da_dqd, da_dqdd))) {
    detail::fill_nan_outputs(model.nv(), dv_dq, da_dq, da_dqd, da_dqdd);
    return Status::invalid_argument(fn);
  }
  const Status status = detail::body_motion_checked(fn, model, data, q, qd, &qdd);
  if (!status.ok()) {
    detail::fill_nan_outputs(model.nv(), dv_dq, da_dq, da_dqd, da_dqdd);
    return status;
  }
  return frame_acceleration_derivatives(model, std::as_const(data), body, placement, reference, dv_dq, da_dq,
                                        da_dqd, da_dqdd);
}

}  // namespace treedyn
