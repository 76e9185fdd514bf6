// frame_jacobian_time_variation and frame_jacobian_drift: J̇ = dJ/dt of a frame's Jacobian along q̇, in the
// three reference frames, and the drift J̇ q̇ alone without forming J̇
// (docs/frame-motion.md#the-jacobians-time-variation).
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, §2.9 (d/dt of a vector fixed in a body
// moving with velocity v is v × it) and §4.4 (column block j of the local Jacobian is ^F X_j S_j).
// With S_j constant in body j (c_J = 0, joint.hpp) the world column ^0 X_j S_j moves with body j, and
// ^F X_0 moves with −v_F:
//   D1  for j on the path b, λ(b), …, base (frame_jacobian.hpp K2, ^F X_j composed along the path):
//         c = ^F X_j S_j;   w_j = ^F X_j v_j − v_F   (v_F = ^F X_b v_b; body velocities data.v)
//         local:          J = c,         J̇ = w_j × c
//         world:          J = ^0X_F c,   J̇ = ^0X_F ((w_j + v_F) × c)        (= ^0 v_j × ^0 X_j S_j)
//         world_aligned:  J = R c,       J̇ = R (w_j × c + ω_F ×₃ c)         (R = ^0 R_F; ω_F ×₃ rotates both
//                                                                              halves of c by ω_F ×)
//   D2  J̇ q̇ = Σ_j w_j × ^F X_j (S_j q̇_j), then along `reference` as an acceleration: local δ, world ^0X_F δ,
//       world_aligned R [δ_ω; δ_v + ω_F × v_F]
// What a = J q̈ + J̇ q̇ is (the time derivative of J q̇ in fixed coordinates): the SPATIAL acceleration
// (frame_acceleration) in local and world axes, the CLASSICAL acceleration [ω̇; p̈]
// (frame_classical_acceleration) in world_aligned axes. J̇ q̇ is the same at q̈ = 0, without gravity.
// Contract: body_motion(model, data, q, q̇) ran for this (q, q̇) (data.Xup, data.X_world, data.v are read,
// not checked for being current). frame_jacobian_time_variation writes ws.J and ws.dJ (columns off the path
// zero) and returns ws.dJ; frame_jacobian_drift takes q̇ again and returns J̇ q̇. Arguments are checked
// (detail/check.hpp); a failed check leaves ws as it was (returns NaN for the drift). Cost O(depth of b).
// noexcept; never allocate.
#pragma once

#include <cstdint>

#include "treedyn/algorithms/frame_motion.hpp"

namespace treedyn {

/// The outputs of frame_jacobian_time_variation, sized once from the model (the only place that allocates).
template <class Scalar, int N = Dynamic>
struct FrameJacobianTimeVariation {
  explicit FrameJacobianTimeVariation(const Model<Scalar, N>& model)
      : J(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        dJ(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        model_id(model.id()) {}
  Eigen::Matrix<Scalar, 6, N> J;   ///< the frame's Jacobian (frame_jacobian's, same axes)
  Eigen::Matrix<Scalar, 6, N> dJ;  ///< its time derivative along q̇
  std::uint64_t model_id = 0;
};

namespace detail {

/// D1's and D2's frame quantities: ^F X_0 and v_F.
template <class Scalar>
struct FrameState {
  Transform<Scalar> X_F0;
  Motion<Scalar> v_F;
};

template <class Scalar, int N>
FrameState<Scalar> frame_state(const Data<Scalar, N>& data, int body, const Transform<Scalar>& placement) noexcept {
  return {placement * data.X_world[body], placement.apply_motion(data.v[body])};
}

/// Rotates both halves of m along the world axes (R = ^0 R_F = X_F0.Eᵀ).
template <class Scalar>
Motion<Scalar> rotate_halves(const Transform<Scalar>& X_F0, const Motion<Scalar>& m) noexcept {
  return motion_in(ReferenceFrame::world_aligned, X_F0, m);
}

/// ω ×₃ m: both halves of m crossed with ω.
template <class Scalar>
Motion<Scalar> cross_halves(const Vector3<Scalar>& w, const Motion<Scalar>& m) noexcept {
  Motion<Scalar> out;
  out << cross(w, Vector3<Scalar>(m.template head<3>())), cross(w, Vector3<Scalar>(m.template tail<3>()));
  return out;
}

}  // namespace detail

/// D1: J and J̇ of the frame ^F X_b = placement on `body` along `reference` into ws.J, ws.dJ; returns ws.dJ.
template <class Scalar, int N>
const Eigen::Matrix<Scalar, 6, N>& frame_jacobian_time_variation(const Model<Scalar, N>& model,
                                                                 const Data<Scalar, N>& data,
                                                                 FrameJacobianTimeVariation<Scalar, N>& ws, int body,
                                                                 const Transform<Scalar>& placement,
                                                                 ReferenceFrame reference = ReferenceFrame::local) noexcept {
  constexpr const char* fn = "frame_jacobian_time_variation";
  if (!(detail::frame_query_ok(fn, model, data, body) && detail::same_model(fn, "ws", ws.model_id, model.id())))
    return ws.dJ;
  ws.J.setZero();
  ws.dJ.setZero();
  const detail::FrameState<Scalar> F = detail::frame_state(data, body, placement);
  const Vector3<Scalar> wF = F.v_F.template head<3>();
  detail::for_each_path_body(model, data, body, placement, [&](int j, const Transform<Scalar>& X_Fj) {
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[j];
    const Motion<Scalar> vj = X_Fj.apply_motion(data.v[j]);                        // ^F X_j v_j
    const Motion<Scalar> w = vj - F.v_F;
    for (int c = 0; c < S.cols(); ++c) {
      const int k = model.v_offset(j) + c;
      const Motion<Scalar> col = X_Fj.apply_motion(S.col(c));
      switch (reference) {
        case ReferenceFrame::local:
          ws.J.col(k) = col;
          ws.dJ.col(k) = cross_motion(w, col);
          break;
        case ReferenceFrame::world_origin:
          ws.J.col(k) = F.X_F0.apply_inverse_motion(col);
          ws.dJ.col(k) = F.X_F0.apply_inverse_motion(Motion<Scalar>(cross_motion(vj, col)));
          break;
        case ReferenceFrame::world_aligned:
          ws.J.col(k) = detail::rotate_halves(F.X_F0, col);
          ws.dJ.col(k) = detail::rotate_halves(
              F.X_F0, Motion<Scalar>(cross_motion(w, col) + detail::cross_halves(wF, col)));
          break;
      }
    }
  });
  return ws.dJ;
}

/// D2: J̇ q̇ of the same frame along `reference` without forming J̇: the frame's acceleration at q̈ = 0 without
/// gravity (spatial in local and world axes, classical in world_aligned axes). qd as given to body_motion.
template <class Scalar, int N, class Dv>
Motion<Scalar> frame_jacobian_drift(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                                    const Eigen::MatrixBase<Dv>& qd, int body, const Transform<Scalar>& placement,
                                    ReferenceFrame reference = ReferenceFrame::local) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "frame_jacobian_drift";
  if (!(detail::frame_query_ok(fn, model, data, body) && detail::dof_vector_ok(fn, "qd", model, qd)))
    return detail::nan_motion<Scalar>();
  const detail::FrameState<Scalar> F = detail::frame_state(data, body, placement);
  Motion<Scalar> delta = Motion<Scalar>::Zero();
  detail::for_each_path_body(model, data, body, placement, [&](int j, const Transform<Scalar>& X_Fj) {
    const Motion<Scalar> vJ = detail::subspace_times(model.motion_subspaces()[j], qd, model.v_offset(j)).motion();
    delta += cross_motion(Motion<Scalar>(X_Fj.apply_motion(data.v[j]) - F.v_F), Motion<Scalar>(X_Fj.apply_motion(vJ)));
  });
  if (reference == ReferenceFrame::world_aligned) return detail::classical_from_spatial(
      detail::rotate_halves(F.X_F0, delta), detail::rotate_halves(F.X_F0, F.v_F));
  return detail::motion_in(reference, F.X_F0, delta);
}

}  // namespace treedyn
