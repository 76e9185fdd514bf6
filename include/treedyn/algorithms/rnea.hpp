// rnea / bias: inverse dynamics by the recursive Newton–Euler algorithm, and the bias force C(q, q̇).
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 5.1 (docs/references.md).
// Gravity enters as a fictitious base acceleration a_0 = −[0; g]; external forces f_ext,i are in body-i
// coordinates. Joint velocity and acceleration terms use the constant S_i (c_J = 0, joint.hpp).
//   R1  v_0 = 0;  a_0 = −[0; g]
//   R2  for i = 1..N:
//   R3     X_i = XJ(q_i) X_T(i)                                  (^i X_λ(i))
//   R4     vJ = S_i q̇_i
//   R5     v_i = X_i v_λ(i) + vJ
//   R6     a_i = X_i a_λ(i) + S_i q̈_i + crm(v_i) vJ
//   R7     f_i = I_i a_i + crf(v_i) I_i v_i − f_ext,i
//   R8  for i = N..1:
//   R9     τ_i = S_iᵀ f_i
//   R10    if λ(i) ≠ 0:  f_λ(i) += X_iᵀ f_i
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent".
// Contract: q (nq), q̇, q̈ (nv) any Eigen vectors; f_ext any container of Force<Scalar> indexed by body.
// rnea writes data.tau (returned), bias (C = RNEA(q, q̇, 0), gravity and f_ext included) writes data.C;
// both also fill data.Xup, v, a, f. Cost O(N). noexcept; never allocates. Arguments are checked
// (detail/check.hpp); a zero quaternion, or a NaN or an infinity in q, q̇, q̈ or f_ext, sets
// data.config_status (invalid_configuration / non_finite_input) and a NaN result.
// Implementation: each body's step works on the 3-vector halves (angular, linear) of v, a and f, kept in
// registers, and stores each half once. Whole 6-vector Eigen arithmetic on values just written half by
// half reloads them as SIMD packets that straddle two earlier stores, which x86 cannot forward (a
// store-forwarding stall each): the halves form avoids those stalls with the same operations in the
// same order, and is markedly faster in float and double (docs/design-notes.md#rnea-works-on-3-vector-halves).
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"

namespace treedyn {
namespace detail {

/// R8–R10: τ_i = S_iᵀ f_i from the body forces data.f, each added into its parent's (deepest first).
template <class Scalar, int N, class Out>
void rnea_inward_pass(const Model<Scalar, N>& model, Data<Scalar, N>& data, Out& tau) noexcept {
  using V3 = Vector3<Scalar>;
  for (const int i : model.inward_order()) {                                     // R8
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    const V3 fn = data.f[i].template head<3>(), ff = data.f[i].template tail<3>();
    if (S.cols() == 1)
      tau(model.v_offset(i)) = S.col(0).template head<3>().dot(fn) + S.col(0).template tail<3>().dot(ff);  // R9
    else tau.segment(model.v_offset(i), S.cols()).noalias() = S.transpose() * data.f[i];
    const int p = model.parent(i);
    if (p != no_parent) {                                                        // R10
      const Transform<Scalar>& X = data.Xup[i];
      const V3 Etf = rotate<true>(X.E, ff);
      data.f[p].template head<3>() += rotate<true>(X.E, fn) + cross(X.r, Etf);
      data.f[p].template tail<3>() += Etf;
    }
  }
}

/// R1–R10 with R3 already done (data.Xup set by joint_transforms): a composite route that ran the
/// CRBA on the same q calls this directly, so the joint transforms are computed once.
template <class Scalar, int N, class Dv, class Da, class Fext, class Out>
void rnea_given_transforms(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dv>& qd,
                           const Eigen::MatrixBase<Da>* qdd, const Fext& f_ext, Out& tau) noexcept {
  using V3 = Vector3<Scalar>;
  const V3 a0w = V3::Zero(), a0v = -model.gravity();                             // R1
  for (int i = 0; i < model.nbodies(); ++i) {                                    // R2 (R3: data.Xup)
    const int p = model.parent(i);
    const Transform<Scalar>& X = data.Xup[i];
    const BodyVelocity<Scalar> bv = body_velocity(model, data, qd, i);            // R4, R5
    const V3& w = bv.v.w;
    const V3& vl = bv.v.v;
    const MotionHalves<Scalar>& vJ = bv.vJ;
    V3 aw, al;                                                                    // R6: X_i a_λ(i)
    if (p == no_parent) {
      aw = rotate<false>(X.E, a0w);
      al = rotate<false>(X.E, V3(a0v - cross(X.r, a0w)));
    } else {
      const V3 awp = data.a[p].template head<3>(), alp = data.a[p].template tail<3>();
      aw = rotate<false>(X.E, awp);
      al = rotate<false>(X.E, V3(alp - cross(X.r, awp)));
    }
    aw += cross(w, vJ.w);                                                         //     + v_i × vJ
    al += cross(w, vJ.v) + cross(vl, vJ.w);
    if (qdd != nullptr) {                                                         //     + S_i q̈_i
      const MotionHalves<Scalar> sa = subspace_times(model.motion_subspaces()[i], *qdd, model.v_offset(i));
      aw += sa.w;
      al += sa.v;
    }
    const RigidInertia<Scalar>& I = model.inertia(i);                            // R7
    const V3 hw = I.I * w + cross(I.h, vl), hv = I.m * vl - cross(I.h, w);
    const Force<Scalar> fe = f_ext[i];
    data.a[i].template head<3>() = aw;
    data.a[i].template tail<3>() = al;
    data.f[i].template head<3>() = I.I * aw + cross(I.h, al) + cross(w, hw) + cross(vl, hv) - fe.template head<3>();
    data.f[i].template tail<3>() = I.m * al - cross(I.h, aw) + cross(w, hv) - fe.template tail<3>();
  }
  rnea_inward_pass(model, data, tau);                                            // R8–R10
}

}  // namespace detail

/// τ = RNEA(q, q̇, q̈[, f_ext]): the joint forces that produce q̈ (gravity included), with external forces
/// f_ext[i] (body-i coordinates; default none) acting on the bodies. Returns data.tau.
template <class Scalar, int N, class Dq, class Dv, class Da, class Fext = detail::NoExternalForces<Scalar>>
const VectorN<Scalar, N>& rnea(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>& qdd,
                               const Fext& f_ext = Fext{}) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Da, "qdd");
  constexpr const char* fn = "rnea";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd) &&
        detail::dof_vector_ok(fn, "qdd", model, qdd) && detail::external_forces_ok(fn, model, f_ext)))
    return data.tau;
  using detail::CheckQ;
  if (!detail::joint_transforms<CheckQ::by_caller>(model, data, q, fn)) return detail::fill_nan(data.tau);  // R3
  detail::rnea_given_transforms(model, data, qd, &qdd, f_ext, data.tau);
  return detail::finite_inputs_after(fn, data, q, qd, &qdd, f_ext, data.tau);
}

/// C(q, q̇[, f_ext]) = RNEA(q, q̇, 0): Coriolis, centrifugal and gravity forces (and f_ext, default none).
/// Returns data.C.
template <class Scalar, int N, class Dq, class Dv, class Fext = detail::NoExternalForces<Scalar>>
const VectorN<Scalar, N>& bias(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd, const Fext& f_ext = Fext{}) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "bias";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd) &&
        detail::external_forces_ok(fn, model, f_ext)))
    return data.C;
  using detail::CheckQ;
  if (!detail::joint_transforms<CheckQ::by_caller>(model, data, q, fn)) return detail::fill_nan(data.C);  // R3
  const Eigen::MatrixBase<Dv>* no_qdd = nullptr;
  detail::rnea_given_transforms(model, data, qd, no_qdd, f_ext, data.C);
  return detail::finite_inputs_after(fn, data, q, qd, no_qdd, f_ext, data.C);
}

}  // namespace treedyn
