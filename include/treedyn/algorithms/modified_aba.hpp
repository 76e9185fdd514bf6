// modified_aba: forward dynamics by the modified articulated-body method of Ascher, Pai and Cloutier.
//
// Reference: U. Ascher, D. Pai, B. Cloutier, "Forward Dynamics, Elimination Methods, and Formulation
// Stiffness in Robot Simulation", 1996 (../shared/seeds/004_e893982f8fa227f9.txt), eq. (11), generalised to
// trees and multi-DoF joints as algorithms.md §3.2 states. S4 shows that the ABA pivot D_k is the pivot of
// Gaussian elimination on H; the difference lies in the order in which large and small terms are added.
// The modified method never reads the pivot off the summed articulated inertia IA_i (where a heavy
// subtree's terms swamp the light body's own); it accumulates D_i from separately formed quadratic forms:
//   M1  D_i = S_iᵀ I_i S_i                                   (before pass 2, every body)
//   M2  for i = N..1:                                         (pass 2; otherwise as aba.hpp A6–A9)
//   M3     U_i = IA_i S_i;  u_i = τ_i − S_iᵀ pA_i;  factor D_i
//   M4     if λ(i) ≠ 0:
//   M5        Ia = IA_i − U_i (D_i⁻¹ U_iᵀ);  pa = pA_i + Ia c_i + U_i D_i⁻¹ u_i
//   M6        IA_λ(i) += X_iᵀ Ia X_i;  pA_λ(i) += X_iᵀ pa
//   M7        D_λ(i) += (X_i S_λ(i))ᵀ Ia (X_i S_λ(i))         (the parent's joint moved into child coordinates)
// For a chain numbered tip → base as in S4, M1 + M7 is D_{k+1} = H_{k+1} M_{k+1} H*_{k+1} + H_{k+1} M̃_{k+1} H*_{k+1}
// with M̃_{k+1} = Φ M̄_k Φ* and M̄_k = M̂_k − M̂_k H_kᵀ D_k⁻¹ H_k M̂_k (S4 eq. 11; "k + 1" is our parent).
// U_i and the propagated IA_i still use the summed inertia (the parent's projection needs them). Ia is
// formed as U·(D⁻¹Uᵀ), D⁻¹Uᵀ first and by division, so an axis-aligned projection is exactly m − m·1 = 0.
// Passes 1 and 3 are those of aba.hpp. Cost: aba plus one quadratic form per tree edge, O(N).
// Contract, outputs and failure reporting as aba (data.aba_status names the body); data.D[i] holds the
// accumulated pivot. noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/aba.hpp"

namespace treedyn {
namespace detail {

/// M7: D_λ(i) += (X_i S_λ(i))ᵀ Ia (X_i S_λ(i)), evaluated as Wᵀ (IA_i W − U_i (D_i⁻¹ (U_iᵀ W))) with W = X_i S_λ(i):
/// the projection acts on W through U·(D⁻¹(UᵀW)), the division first. When W is the child's own axis (S4's
/// worst case: collinear joints, Φ = 1), UᵀW reproduces D_i bit for bit, the quotient is exactly 1 and the
/// bracket is exactly U − U = 0 in any precision and any coordinates. (Forming the 6×6 Ia first and then
/// the quadratic form gave D = 1.044 instead of 1 in float for S4's case 2 at m1 = 1e6.)
template <class Scalar, int N>
void add_child_pivot_term(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i) noexcept {
  const int p = model.parent(i), vi = model.v_offset(i), ni = static_cast<int>(data.D[i].rows());
  const MotionSubspace<Scalar>& Sp = model.motion_subspace(p);
  if (ni == 1 && Sp.cols() == 1) {  // both joints 1-DoF: fixed-size 6-vectors throughout
    const Motion<Scalar> w = data.Xup[i].apply_motion(Sp.col(0));
    Force<Scalar> Ia_w = data.IA[i].M * w;
    Ia_w -= data.U.col(vi) * (data.U.col(vi).dot(w) / data.D[i](0, 0));
    data.D[p](0, 0) += w.dot(Ia_w);
    return;
  }
  const MotionSubspace<Scalar> W = data.Xup[i].apply_motion(Sp);
  MotionSubspace<Scalar> IaW = data.IA[i].M * W;
  if (ni == 1) {
    const Eigen::Matrix<Scalar, 1, Eigen::Dynamic, Eigen::RowMajor, 1, 6> UtW = data.U.col(vi).transpose() * W;
    IaW.noalias() -= data.U.col(vi) * (UtW / data.D[i](0, 0));
  } else {
    const PivotMatrix<Scalar> Dinv_UtW = data.U_Dinv.middleCols(vi, ni).transpose() * W;  // (U D⁻¹)ᵀ W
    IaW.noalias() -= data.U.middleCols(vi, ni) * Dinv_UtW;
  }
  data.D[p].noalias() += W.transpose() * IaW;
}

template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext>
const VectorN<Scalar, N>& modified_aba_impl(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                            const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                            const Eigen::MatrixBase<Dt>& tau, const Fext& f_ext) noexcept {
  aba_outward_pass(model, data, q, qd, f_ext);                                    // aba A1–A4
  for (int i = 0; i < model.nbodies(); ++i) {                                     // M1
    const MotionSubspace<Scalar>& S = model.motion_subspace(i);
    if (S.cols() == 1) {
      data.D[i](0, 0) = S.col(0).dot(model.inertia(i).apply(S.col(0)));
    } else {
      const MotionSubspace<Scalar> IS = model.inertia(i).apply(S);
      data.D[i].noalias() = S.transpose() * IS;
    }
  }
  for (int i = model.nbodies() - 1; i >= 0; --i) {                                // M2
    aba_joint_terms(model, data, tau, i);                                         // M3
    if (!aba_solve_pivot(model, data, i)) return aba_fail(data, i);
    if (model.parent(i) != no_parent) {                                           // M4
      aba_project_to_parent(model, data, i);                                      // M5, M6
      add_child_pivot_term(model, data, i);                                       // M7
    }
  }
  data.aba_status = FactorStatus::success();
  aba_accelerations(model, data);                                                 // aba A10–A11
  return data.qdd;
}

}  // namespace detail

/// q̈ = FD(q, q̇, τ) by the modified articulated-body method; status in data.aba_status. Returns data.qdd.
template <class Scalar, int N, class Dq, class Dv, class Dt>
const VectorN<Scalar, N>& modified_aba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                       const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                       const Eigen::MatrixBase<Dt>& tau) noexcept {
  return detail::modified_aba_impl(model, data, q, qd, tau, detail::NoExternalForces<Scalar>{});
}

/// As above with external forces f_ext[i] (body-i coordinates).
template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext>
const VectorN<Scalar, N>& modified_aba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                       const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                       const Eigen::MatrixBase<Dt>& tau, const Fext& f_ext) noexcept {
  return detail::modified_aba_impl(model, data, q, qd, tau, f_ext);
}

}  // namespace treedyn
