// modified_aba: forward dynamics by the modified articulated-body method of Ascher, Pai and Cloutier.
//
// Reference: U. Ascher, D. Pai, B. Cloutier, "Forward Dynamics, Elimination Methods, and Formulation
// Stiffness in Robot Simulation", 1996 (docs/references.md), eq. (11), generalised here to
// trees and multi-DoF joints. The paper shows that the ABA pivot D_k is the pivot of
// Gaussian elimination on H; the difference lies in the order in which large and small terms are added.
// The modified method never reads the pivot off the summed articulated inertia IA_i (where a heavy
// subtree's terms swamp the light body's own); it accumulates D_i from separately formed quadratic forms:
//   M1  D_i = S_iᵀ I_i S_i                                   (before pass 2, every body)
//   M2  for i = N..1:                                         (pass 2; otherwise as aba.hpp A6–A9)
//   M3     U_i = IA_i S_i;  u_i = τ_i − S_iᵀ pA_i;  factor D_i
//   M4     if λ(i) ≠ 0:
//   M5        Ia = IA_i − U_i (D_i⁻¹ U_iᵀ);  pa = pA_i + Ia c_i + U_i D_i⁻¹ u_i
//   M6        IA_λ(i) += X_iᵀ Ia X_i;  pA_λ(i) += X_iᵀ pa
//   M7        D_λ(i) += (X_i S_λ(i))ᵀ Ia (X_i S_λ(i))         (the parent's joint moved into child coordinates;
//                                                              evaluated without its component along S_i, see below)
// For a chain numbered tip → base as in the paper, M1 + M7 is D_{k+1} = H_{k+1} M_{k+1} H*_{k+1} + H_{k+1} M̃_{k+1} H*_{k+1}
// with M̃_{k+1} = Φ M̄_k Φ* and M̄_k = M̂_k − M̂_k H_kᵀ D_k⁻¹ H_k M̂_k (the paper's eq. 11; "k + 1" is our parent).
// U_i and the propagated IA_i still use the summed inertia (the parent's projection needs them). Ia is
// formed as U·(D⁻¹Uᵀ), D⁻¹Uᵀ first and by division, so an axis-aligned projection is exactly m − m·1 = 0
// in any precision.
// A free joint (S_i = 1₆) is the exception: M1 + M7 with S_i = 1₆ and W = X_j for each child j sum exactly
// the terms A9 sums into IA_i (I_i + Σ X_jᵀ Ia_j X_j, with W'ᵀ Ia_j W' = Wᵀ Ia_j W since Ia_j S_j = 0), so its
// accumulated pivot IS its articulated inertia, with no small pivot read off a large sum to protect: such a
// body takes aba.hpp's free-joint step (Featherstone 2008, Table 9.6, D_i = IA_i by a 6×6 Cholesky of fixed
// size), its children add no M7 term, and its own Ia = 0 adds none to its parent
// (docs/design-notes.md#modified_aba-takes-abas-free-joint-step).
// Passes 1 and 3 are those of aba.hpp. Cost: aba plus one quadratic form per tree edge, O(N).
// Contract, outputs and failure reporting as aba (data.aba_status names the body); data.D[i] holds the
// accumulated pivot. noexcept; never allocates.
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include "treedyn/algorithms/detail/articulated_body.hpp"

namespace treedyn {
namespace detail {

/// D_λ(i) += W'ᵀ Ia W' for a multi-column W = X_i S_λ(i) (see add_child_pivot_term below), with
/// W' = W − S_i (S_iᵀS_i)⁻¹ S_iᵀ W, on coefficients (one function per scalar; W has at most 6 columns).
template <class Scalar, int N>
void add_projected_form(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i,
                        const ArticulatedInertia<Scalar>& Ia, const MotionSubspace<Scalar>& W) noexcept {
  const MotionSubspace<Scalar>& Si = model.motion_subspaces()[i];
  const int ni = static_cast<int>(Si.cols()), m = static_cast<int>(W.cols());
  const auto column_dot = [](const auto& A, int a, const auto& B, int b) {  // column a of A · column b of B
    Scalar t(0);
    for (int k = 0; k < 6; ++k) t += A(k, a) * B(k, b);
    return t;
  };
  PivotMatrix<Scalar> G(ni, ni);  // S_iᵀS_i: SPD, S_i has full column rank
  Matrix6<Scalar> beta = Matrix6<Scalar>::Zero();  // S_iᵀ W in the first n_i rows and m columns
  for (int b = 0; b < ni; ++b)
    for (int a = 0; a < ni; ++a) G(a, b) = column_dot(Si, a, Si, b);
  for (int c = 0; c < m; ++c)
    for (int a = 0; a < ni; ++a) beta(a, c) = column_dot(Si, a, W, c);
  factor_joint_pivot(G);
  solve_joint_pivot(G, beta);
  Matrix6<Scalar> Wp, Ia_Wp;  // W' and Ia W' in the first m columns
  for (int c = 0; c < m; ++c)
    for (int r = 0; r < 6; ++r) {
      Scalar t(0);
      for (int a = 0; a < ni; ++a) t += Si(r, a) * beta(a, c);
      Wp(r, c) = W(r, c) - t;
    }
  for (int c = 0; c < m; ++c)
    for (int r = 0; r < 6; ++r) {
      Scalar t(0);
      for (int k = 0; k < 6; ++k) t += Ia.M(r, k) * Wp(k, c);
      Ia_Wp(r, c) = t;
    }
  PivotMatrix<Scalar>& Dp = data.D[model.parent(i)];
  for (int b = 0; b < m; ++b)
    for (int a = 0; a < m; ++a) Dp(a, b) += column_dot(Wp, a, Ia_Wp, b);
}

/// M7: D_λ(i) += Wᵀ Ia W with W = X_i S_λ(i) (the parent's joint in child coordinates) and Ia the child's
/// projected inertia, formed as IA_i − U_i (D_i⁻¹U_iᵀ). Since Ia S_i = 0, the quadratic form is unchanged
/// when W loses its component along the child's own joint: W' = W − S_i β, β = (S_iᵀS_i)⁻¹ S_iᵀ W
/// (Euclidean least squares; β = 1 exactly when W is S_i bit for bit). We evaluate W'ᵀ Ia W'. This matters
/// in float: when the parent's and child's axes (nearly) coincide, W is dominated by S_i and Wᵀ Ia W sums
/// O(|IA|) terms that cancel to a small pivot, losing its digits (the paper's Examples 1–3). With W' the
/// annihilated part is removed exactly beforehand: the paper's Table 2 cases 1 and 2 give D = 1 exactly, and in
/// its Example 1 the modified ABA is as accurate as the ABA in its aligned coordinates. (The obvious
/// alternatives, Wᵀ(Ia W) on the full W and Wᵀ(IA W − U (UᵀW / D)), each lost accuracy in one of these
/// examples; the measurements are in
/// docs/design-notes.md#modified_aba-removes-the-childs-own-joint-direction-before-forming-the-pivot-term.)
template <class Scalar, int N>
void add_child_pivot_term(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i,
                          const ArticulatedInertia<Scalar>& Ia) noexcept {
  const int p = model.parent(i);
  const MotionSubspace<Scalar>& Si = model.motion_subspaces()[i];
  const MotionSubspace<Scalar>& Sp = model.motion_subspaces()[p];
  if (Si.cols() == 1 && Sp.cols() == 1) {  // both joints 1-DoF: fixed-size 6-vectors throughout
    const Motion<Scalar> s = Si.col(0);
    Motion<Scalar> w = data.Xup[i].apply_motion(Sp.col(0));
    w -= s * (s.dot(w) / s.dot(s));
    const Force<Scalar> Ia_w = Ia.M * w;
    data.D[p](0, 0) += w.dot(Ia_w);
    return;
  }
  add_projected_form(model, data, i, Ia, data.Xup[i].apply_motion(Sp));
}

/// M2–M7 for body i through S_i (any joint but a free one): U_i, u_i and the accumulated pivot D_i factored
/// and solved (M3), then Ia and pa carried to the parent (M5–M6) and, unless the parent is a free joint (its
/// pivot is its articulated inertia, see the header), the parent's pivot term (M7). False if D_i is not
/// positive definite.
template <class Scalar, int N, class Dt>
bool modified_aba_inward_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dt>& tau,
                              int i, GeneralJoint) noexcept {
  aba_joint_terms(model, data, tau, i);                                           // M3
  if (!aba_solve_pivot(model, data, i)) return false;
  const int p = model.parent(i);
  if (p == no_parent) return true;                                                // M4
  const ArticulatedInertia<Scalar> Ia = aba_carry_to_parent(model, data, i);      // M5, M6
  if (model.joint(p).type != JointType::free_flyer) add_child_pivot_term(model, data, i, Ia);  // M7
  return true;
}

/// M2–M7 for a free joint: aba.hpp's free-joint step (D_i = IA_i; Ia = 0, so no M7 term for the parent).
template <class Scalar, int N, class Dt>
bool modified_aba_inward_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dt>& tau,
                              int i, FreeJoint kind) noexcept {
  return aba_inward_step(model, data, tau, i, kind);
}

}  // namespace detail

/// q̈ = FD(q, q̇, τ) by the modified articulated-body method; status in data.aba_status. External forces
/// f_ext[i] (body-i coordinates; default none) act on the bodies. Returns data.qdd.
template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext = detail::NoExternalForces<Scalar>>
const VectorN<Scalar, N>& modified_aba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                       const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                       const Eigen::MatrixBase<Dt>& tau, const Fext& f_ext = Fext{}) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Dt, "tau");
  if (!detail::forward_dynamics_arguments_ok("modified_aba", model, data, q, qd, tau, f_ext)) return data.qdd;
  if (!detail::aba_outward_pass(model, data, q, qd, f_ext, "modified_aba") ||           // aba A1–A4
      !detail::finite_ok("modified_aba", "tau", tau, data.config_status))
    return detail::aba_fail(data, data.config_status);
  constexpr bool free_joints = detail::fits_free_joint<N, Dv::SizeAtCompileTime, Dt::SizeAtCompileTime>;
  for (int i = 0; i < model.nbodies(); ++i) {                                     // M1
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    if (S.cols() == 1) {
      data.D[i](0, 0) = S.col(0).dot(model.inertia(i).apply(S.col(0)));
    } else if (model.joint(i).type != JointType::free_flyer) {                    // a free joint's: its IA_i
      const MotionSubspace<Scalar> IS = model.inertia(i).apply(S);
      data.D[i].noalias() = S.transpose() * IS;
    }
  }
  for (const int i : model.inward_order()) {                                      // M2
    bool pivot_ok = true;
    detail::with_joint_kind<free_joints>(model.joint(i), [&](auto kind) {         // M3–M7
      pivot_ok = detail::modified_aba_inward_step(model, data, tau, i, kind);
    });
    if (!pivot_ok) return detail::aba_fail(data, i, "modified_aba");
  }
  data.aba_status = FactorStatus::success();
  detail::aba_accelerations(model, data, detail::ByJointKind<free_joints>{});     // aba A10–A11
  detail::nan_whole_failed_lanes(data.qdd);  // over lanes: a failing state is NaN throughout (docs/lanes.md)
  return data.qdd;
}

}  // namespace treedyn
