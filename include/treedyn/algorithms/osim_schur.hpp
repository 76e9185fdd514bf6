// osim_schur: Λ = 𝒮 + ℛᵀ𝒴⁻¹ℛ = (J M⁻¹ Jᵀ)⁻¹, Fijany's Schur form of the operational-space inertia, O(N).
//
// Source: A. Fijany, ICRA 1994 (docs/references.md), §III.D (Eq. 43, by the matrix
// inversion identity applied to Eq. 39; 𝒴 = 𝒲ᵀ𝒫𝓘'⁻¹𝒫ᵀ𝒲 with I'_N⁻¹ = 0) and §IV.A; notation:
// docs/notation.md. SIGN: the paper prints Λ = 𝒮 − ℛᵀ𝒴⁻¹ℛ; with 𝒴 the positive
// semidefinite matrix it defines, Woodbury on Λ⁻¹ = 𝒟 − ℰᵀ𝒜⁻¹ℰ with 𝒜 = 𝒴 + ℰ𝒟⁻¹ℰᵀ gives "+"
// (Λ ⪰ 𝒮: the rest of the arm adds apparent inertia to the tip body's own); tests/algorithms/oscm/test_oscm_schur.cpp
// shows the printed "−" fails. Naming: Λ is the operational-space inertia (OSIM), the inverse of the compliance J M⁻¹ Jᵀ, hence "osim".
// 𝒴 differs from 𝒜 only in the tip block: 𝒴_NN = 𝒜_NN − ℰ_N𝒟⁻¹ℰ_Nᵀ = 𝒜_NN − W_Nᵀ I_N⁻¹ W_N
// (OscmSchurWorkspace T5). Its leading blocks are 𝒜's (positive definite), so the block LDLᵀ can fail only at
// the last pivot Δ'_N, and ℛ being nonzero only in block N gives ℛᵀ𝒴⁻¹ℛ = ℛ_Nᵀ Δ'_N⁻¹ ℛ_N = UᵀU,
// U = C'_N⁻¹ℛ_N (the argument of oscm_schur.hpp). 𝒴 is singular exactly when J lacks full row rank (e.g. a
// chain with fewer than 6 DoFs): Λ does not exist; the last pivot is then zero up to cancellation noise.
//
// Pseudo-code (labels on the code; 𝒮, ℛ_N, W_NᵀI_N⁻¹W_N formed once by OscmSchurWorkspace, T2/T4/T5):
//   Y1  form 𝒜 at q                                                   (schur_operators)
//   Y2  𝒴 = 𝒜 with 𝒴_NN = 𝒜_NN − W_Nᵀ I_N⁻¹ W_N
//   Y3  𝒴 = L D' Lᵀ, block LDLᵀ base to tip; Δ'_N = C'_N C'_Nᵀ            (block_tridiagonal_factor)
//   Y4  U = C'_N⁻¹ ℛ_N
//   Y5  Λ = 𝒮 + UᵀU
// Contract: ws = OscmSchurWorkspace<Scalar>(model, frames). osim_schur(model, data, ws, q) returns ws.inertia,
// 6×6, in the frame's LOCAL coordinates (the inverse of oscm_schur's output). Writes data.Xup and ws. If 𝒴 is
// singular — a pivot entry of Δ'_N not above 64·N·ε times the matching diagonal entry of 𝒜_NN, i.e. zero to
// working precision — ws.status names its scalar row of 𝒴 and the output is NaN. Cost O(N). noexcept; never
// allocates.
#pragma once

#include "treedyn/algorithms/oscm_schur_workspace.hpp"

namespace treedyn {

template <class Scalar, int N, class Dq>
const Matrix6<Scalar>& osim_schur(const Model<Scalar, N>& model, Data<Scalar, N>& data, OscmSchurWorkspace<Scalar>& ws,
                                  const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!detail::schur_arguments_ok("osim_schur", model, data, ws.schur, q)) return ws.inertia;
  const bool factored = detail::oscm_schur_factor(model, data, ws, q, true);           // Y1, Y2, Y3
  return detail::oscm_schur_tip_form(ws, factored, ws.R_N, ws.S, false, ws.inertia);    // Y4, Y5: 𝒮 + UᵀU
}

}  // namespace treedyn
