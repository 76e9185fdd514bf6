// oscm_schur: Λ⁻¹ = 𝒟 − ℰᵀ𝒜⁻¹ℰ = J M⁻¹ Jᵀ, Fijany's Schur form of the OSCM for one frame on a chain, O(N).
//
// Source: A. Fijany, ICRA 1994 (docs/references.md), §III.C "Λ⁻¹ = 𝒟 − ℰᵀ𝒜⁻¹ℰ"
// (Eq. 39) and §IV.A (Eqs. 46–47: 𝒜⁻¹ℰ is an SPD block-tridiagonal solve with six right-hand sides, and
// "exploiting the sparse structure of ℰᵀ" only its N-th block is read); notation:
// docs/notation.md. Naming: Fijany's Λ⁻¹ (the inverse of the operational-space
// inertia Λ) is the compliance J M⁻¹ Jᵀ, Jain's operational space compliance matrix, hence "oscm".
// Derivation (q̇ = 0, g = 0, τ = 0, force F applied at E): 𝓘a = 𝒫ᵀ𝒲μ + βᵀF, 𝒲ᵀ𝒫a = 0 ⇒ 𝒜μ = −ℰF, and
// a_E = βa = (𝒟 − ℰᵀ𝒜⁻¹ℰ)F, with β = [0 … 0 ^EX_N].
// The solve with ℰ: ℰ is nonzero only in the tip block N, which the block LDLᵀ (base to tip) eliminates last.
// With 𝒜 = L D Lᵀ (L unit block lower bidiagonal, D = blockdiag(Δ_i), Δ_N = C_N C_Nᵀ), forward substitution
// leaves ℰ unchanged (L⁻¹ℰ = ℰ), and ℰᵀ reads only block N of the back substitution's result, so
// ℰᵀ𝒜⁻¹ℰ = ℰᵀL⁻ᵀD⁻¹L⁻¹ℰ = ℰ_Nᵀ Δ_N⁻¹ ℰ_N = VᵀV with V = C_N⁻¹ℰ_N: the six-column solve of Eq. (46)
// reduces exactly to one triangular solve with the last pivot, and Λ⁻¹ is symmetric by construction.
//
// Pseudo-code (labels on the code; 𝒟, ℰ_N formed once by OscmSchurWorkspace, T1/T3):
//   C1  form 𝒜 at q                                                   (schur_operators)
//   C2  𝒜 = L D Lᵀ, block LDLᵀ base to tip; Δ_N = C_N C_Nᵀ                (block_tridiagonal_factor)
//   C3  V = C_N⁻¹ ℰ_N                                                   (ℰᵀ𝒜⁻¹ℰ = VᵀV)
//   C4  Λ⁻¹ = 𝒟 − VᵀV
// Contract: ws = OscmSchurWorkspace<Scalar>(model, frames) (one frame on the tip of a chain; allocates once,
// may throw std::invalid_argument). oscm_schur(model, data, ws, q) returns ws.compliance, 6×6, in the frame's
// LOCAL coordinates (rows/columns [ω; v] of E, as frame_jacobian(…, ReferenceFrame::local)). Writes data.Xup
// and ws (operators, factor, status). If 𝒜 is not positive definite, ws.status names its first scalar row
// and the output is NaN. Cost O(N) (one block-tridiagonal factorization). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/oscm_schur_workspace.hpp"

namespace treedyn {

template <class Scalar, int N, class Dq>
const Matrix6<Scalar>& oscm_schur(const Model<Scalar, N>& model, Data<Scalar, N>& data, OscmSchurWorkspace<Scalar>& ws,
                                  const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!detail::schur_arguments_ok("oscm_schur", model, data, ws.schur, q)) return ws.compliance;
  const bool factored = detail::oscm_schur_factor(model, data, ws, q, false);          // C1, C2
  return detail::oscm_schur_tip_form(ws, factored, ws.E_N, ws.D, true, ws.compliance);  // C3, C4: 𝒟 − VᵀV
}

}  // namespace treedyn
