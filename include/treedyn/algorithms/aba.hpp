// aba: forward dynamics q̈ = FD(q, q̇, τ[, f_ext]) by the articulated-body method, O(N).
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008 (docs/references.md), Table 7.1 (trees,
// multi-DoF joints). Gravity enters as the base acceleration a_0 = −[0; g]; f_ext,i in body-i coordinates.
//   A1  v_0 = 0;  a_0 = −[0; g]
//   A2  for i = 1..N:                                                    (pass 1, outward)
//   A3     X_i = XJ(q_i) X_T(i);  vJ = S_i q̇_i;  v_i = X_i v_λ(i) + vJ;  c_i = crm(v_i) vJ
//   A4     IA_i = I_i;  pA_i = crf(v_i) I_i v_i − f_ext,i
//   A5  for i = N..1:                                                    (pass 2, inward)
//   A6     U_i = IA_i S_i;  D_i = S_iᵀ U_i;  u_i = τ_i − S_iᵀ pA_i
//   A7     if λ(i) ≠ 0:
//   A8        Ia = IA_i − U_i (D_i⁻¹ U_iᵀ);  pa = pA_i + Ia c_i + U_i D_i⁻¹ u_i
//   A9        IA_λ(i) += X_iᵀ Ia X_i;  pA_λ(i) += X_iᵀ pa
//   A10 for i = 1..N:                                                    (pass 3, outward)
//   A11    a' = X_i a_λ(i) + c_i;  q̈_i = D_i⁻¹ u_i − (U_i D_i⁻¹)ᵀ a';  a_i = a' + S_i q̈_i
// Joint kinds (detail/joint_block.hpp): each body's pass-2 and pass-3 steps are picked once by its joint's
// kind. A free joint (S_i = 1₆) takes Featherstone (2008) Table 9.6's floating-base form: U_i = D_i = IA_i,
// u_i = τ_i − pA_i, U_i D_i⁻¹ = 1, Ia = 0 and pa = τ_i, a_i = D_i⁻¹ u_i; every other joint the steps above.
// D_i (n_i×n_i) is factored by a small Cholesky (detail/joint_pivot.hpp); the projection is formed as
// U·(D⁻¹Uᵀ) with D⁻¹Uᵀ computed first by division, never by a reciprocal (exact m − m·1 = 0; modified_aba.hpp).
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent".
// Contract: q (nq), q̇, τ (nv), f_ext (nbodies), checked (detail/check.hpp); a zero or non-finite
// quaternion gives data.aba_status = invalid_configuration naming the body and q̈ = NaN; a NaN or an
// infinity in q, q̇, τ or f_ext gives non_finite_input naming the argument and entry (docs/errors.md). Writes data.Xup,
// v, a, c, IA, pA, D, U, U_Dinv, Dinv_u, aba_status and data.qdd (returned). A joint pivot D_i that is not
// positive definite stops pass 2: data.aba_status names that BODY (row = body index) and data.qdd is NaN. Cost O(N). noexcept; never allocates.
// The pieces below are shared with modified_aba.hpp, which differs only in how D_i is formed.
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include "treedyn/algorithms/detail/articulated_body.hpp"

namespace treedyn {

/// q̈ = FD(q, q̇, τ) by the articulated-body method; status in data.aba_status. External forces
/// f_ext[i] (body-i coordinates; default none) act on the bodies. Returns data.qdd.
template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext = detail::NoExternalForces<Scalar>>
const VectorN<Scalar, N>& aba(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                              const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Dt>& tau,
                              const Fext& f_ext = Fext{}) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Dt, "tau");
  if (!detail::forward_dynamics_arguments_ok("aba", model, data, q, qd, tau, f_ext)) return data.qdd;
  constexpr bool free_joints = detail::fits_free_joint<N, Dv::SizeAtCompileTime, Dt::SizeAtCompileTime>;
  using detail::CheckQ;
  if (!detail::aba_outward_pass<CheckQ::by_caller>(model, data, q, qd, f_ext, "aba"))  // A1–A4
    return detail::aba_fail(data, data.config_status);
  for (const int i : model.inward_order()) {                                      // A5
    bool pivot_ok = true;
    detail::with_joint_kind<free_joints>(model.joint(i), [&](auto kind) {         // A6–A9
      pivot_ok = detail::aba_inward_step(model, data, tau, i, kind);
    });
    if (!pivot_ok)  // a NaN in q reaches D_i: it is named as the input it is, not as a pivot
      return detail::name_non_finite_input("aba", data, q, qd, f_ext, &tau, "tau")
                 ? detail::aba_fail(data, i, "aba")
                 : detail::aba_fail(data, data.config_status);
  }
  data.aba_status = FactorStatus::success();
  detail::aba_accelerations(model, data, detail::ByJointKind<free_joints>{});     // A10–A11
  detail::nan_whole_failed_lanes(data.qdd);  // over lanes: a failing state is NaN throughout (docs/lanes.md)
  // The inputs are checked here, once, on the output (as rnea does, detail/outward_pass.hpp): pass 2's only
  // branch is on D_i, which q alone forms, so a NaN or an infinity in q̇, τ or f_ext reaches q̈.
  if (TREEDYN_CHECK_LIKELY(detail::all_finite(data.qdd)) ||
      detail::name_non_finite_input("aba", data, q, qd, f_ext, &tau, "tau"))
    return data.qdd;
  return detail::aba_fail(data, data.config_status);
}

}  // namespace treedyn
