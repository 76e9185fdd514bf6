// impulse_aba: the velocity change Δq̇ = M(q)⁻¹ Σ_i J_iᵀ p_i of impulses p_i on the bodies, O(N), by the
// articulated-body method with q̇ = 0, g = 0 and τ = 0, reusing the articulated inertias a preceding aba
// (or oscm) left in Data at the same q — M⁻¹ is never formed.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 7.1 (docs/references.md), passes 2
// and 3 with every velocity term, gravity and τ zero; Jain (n.d.) §6 applies contact impulses to the joint
// velocities this way (θ̇⁺ = θ̇ + M⁻¹ J* p, its eq. 55). With p_i the impulse on body i (body-i coordinates):
//   I1  for i = N..1:  pA_i = −p_i + Σ_{children j} X_jᵀ pa_j;   x_i = D_i⁻¹ (−S_iᵀ pA_i);
//   I2                 pa_i = pA_i + U_i x_i                          (IA_i, U_i, D_i as the ABA left them)
//   I3  for i = 1..N:  a' = X_i a_λ(i) (a_0 = 0);  Δq̇_i = x_i − (U_i D_i⁻¹)ᵀ a';  a_i = a' + S_i Δq̇_i
// The articulated inertias carried to the parent are not needed again (the ABA already summed them); only
// its U_i, U_i D_i⁻¹, D_i and X_i are read. D_i of a multi-DoF joint is refactored (a ≤ 6×6 Cholesky).
// Contract: data holds Xup, U, U_Dinv, D of an aba / modified_aba / oscm call on this model at the q the
// impulses refer to (not checked beyond the model id). p is indexed by body (p[i] a Force, body-i
// coordinates); dqd has nv entries (checked). Writes data.pA, data.a (scratch) and dqd. A pivot that does not
// factor (it factored in the ABA that formed it, so only for non-finite input) gives NaN. An impulse holding a
// NaN or an infinity gives dqd = NaN and data.config_status = non_finite_input naming "p" and the body (it
// has no status of its own; docs/errors.md). noexcept; never allocates.
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include "treedyn/algorithms/detail/articulated_body.hpp"

namespace treedyn {

/// dqd = M(q)⁻¹ Σ_i J_iᵀ p[i] (file comment): p[i] the impulse on body i in its own coordinates.
template <class Scalar, int N, class Impulses, class Dout>
void impulse_aba(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Impulses& p,
                 Eigen::MatrixBase<Dout>& dqd) noexcept {
  if (!(detail::same_model("impulse_aba", "data", data.model_id, model.id()) &&
        detail::dof_vector_ok("impulse_aba", "dqd", model, dqd)))
    return;
  if (!detail::forces_finite_ok<Scalar>("impulse_aba", "p", p, data.config_status)) {
    dqd.setConstant(detail::nan<Scalar>());
    return;
  }
  for (int i = 0; i < model.nbodies(); ++i) data.pA[i] = -p[i];
  for (const int i : model.inward_order()) {                                       // I1–I2
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    const int vi = model.v_offset(i), ni = static_cast<int>(S.cols()), parent = model.parent(i);
    Force<Scalar> pa = data.pA[i];
    if (ni == 1) {
      const Scalar x = -S.col(0).dot(data.pA[i]) / data.D[i](0, 0);
      dqd(vi) = x;
      pa += data.U.col(vi) * x;
    } else {
      detail::PivotMatrix<Scalar> L = data.D[i];
      Eigen::Matrix<Scalar, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1> x = -(S.transpose() * data.pA[i]);
      if (detail::factor_joint_pivot(L)) detail::solve_joint_pivot(L, x);
      else x.setConstant(detail::nan<Scalar>());
      dqd.segment(vi, ni) = x;
      pa.noalias() += data.U.middleCols(vi, ni) * x;
    }
    if (parent != no_parent) data.pA[parent] += data.Xup[i].apply_inverse_force(pa);
  }
  for (int i = 0; i < model.nbodies(); ++i) {                                      // I3
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    const int vi = model.v_offset(i), ni = static_cast<int>(S.cols()), parent = model.parent(i);
    const Motion<Scalar> a_prime =
        parent == no_parent ? Motion<Scalar>::Zero().eval() : Motion<Scalar>(data.Xup[i].apply_motion(data.a[parent]));
    if (ni == 1) {
      dqd(vi) -= data.U_Dinv.col(vi).dot(a_prime);
      data.a[i] = a_prime + S.col(0) * dqd(vi);
    } else {
      dqd.segment(vi, ni).noalias() -= data.U_Dinv.middleCols(vi, ni).transpose() * a_prime;
      data.a[i] = a_prime;
      data.a[i].noalias() += S * dqd.segment(vi, ni);
    }
  }
}

}  // namespace treedyn
