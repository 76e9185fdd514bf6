// compute_all_terms: a controller tick's quantities at (q, q̇) in one call, each computed once and left in Data.
//
// Reference: the calls it chains (each header cites its paper); Pinocchio's computeAllTerms plays the
// same role (docs/dynamics.md#a-controller-tick-compute_all_terms).
//   T1  data.Xup, data.H = crba(q)                       (crba.hpp; the joint transforms, once)
//   T2  data.X_world = ^i X_0                             (forward_kinematics.hpp, from T1's transforms)
//   T3  data.X_frame = ^f X_0 of every named frame       (frame_placements.hpp)
//   T4  data.C = C(q, q̇) = RNEA(q, q̇, 0)                (rnea.hpp, from T1's transforms)
//   T5  data.g = g(q) = RNEA(q, 0, 0)                    (gravity_torques.hpp, from T1's transforms)
//   T6  data.H_factor = Lᵀ D L of H, data.factor_status  (factor_h.hpp; then solve_H(model, data, x))
// Each output is the separate call's, to the bit (tested): the tick only skips recomputing the joint
// transforms (four times) and the placements. After it, frame_jacobian reads T1–T2 (no further
// forward_kinematics), frame_placement reads T2, solve_H reads T6, and oscm / osim called without q reuse
// T1's joint transforms (their own work, the articulated-body inertia pass with q̇ = 0, is none of T1–T6).
// It does not form frame Jacobians (one per frame would be 6 × nv each; frame_jacobian forms the one asked
// for) (docs/dynamics.md#a-controller-tick-compute_all_terms).
// Contract: q (nq) and q̇ (nv) checked (detail/check.hpp). Returns data.factor_status: a failed pivot of
// H (the row), invalid_configuration naming the body whose quaternion is zero, or non_finite_input naming
// "q" or "qd" and the entry that is NaN or infinite (then H, C, g and the placements are NaN and the
// factor is not formed; data.config_status holds the same status). Cost: CRBA + RNEA + the gravity pass +
// the factorization + N + n_frames compositions. noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/frame_placements.hpp"
#include "treedyn/algorithms/gravity_torques.hpp"
#include "treedyn/algorithms/rnea.hpp"

namespace treedyn {

/// Kinematics, frame placements, H and its factor, C(q, q̇) and g(q) at (q, q̇) into data (see above).
/// Returns data.factor_status.
template <class Scalar, int N, class Dq, class Dv>
FactorStatus compute_all_terms(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "compute_all_terms";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd)))
    return FactorStatus::invalid_argument(fn);
  crba(model, data, q);                                                             // T1
  if (data.config_status && detail::finite_ok(fn, "qd", qd, data.config_status)) {
    detail::world_placements(model, data);                                          // T2
    detail::frame_placements_given_world(model, data);                              // T3
    detail::rnea_given_transforms(model, data, qd, static_cast<const Eigen::MatrixBase<Dv>*>(nullptr),
                                  detail::NoExternalForces<Scalar>{}, data.C);      // T4
    detail::gravity_given_transforms(model, data, data.g);                          // T5
  } else {
    const Transform<Scalar> nan = detail::nan_transform<Scalar>();
    for (int i = 0; i < model.nbodies(); ++i) data.X_world[i] = nan;
    for (Transform<Scalar>& X : data.X_frame) X = nan;
    detail::fill_nan(data.H);
    detail::fill_nan(data.C);
    detail::fill_nan(data.g);
  }
  return factor_H(model, data);                                                     // T6
}

}  // namespace treedyn
