// minverse_schur / minverse_apply_schur: M⁻¹ = 𝒢 − ℬᵀ𝒜⁻¹ℬ, Fijany's Schur-complement factorization of the inverse JSIM.
//
// Source: A. Fijany, ICRA 1994 (docs/references.md), §IV.B, Eq. (31) "M⁻¹ = 𝒢 − ℬᵀ𝒜⁻¹ℬ"
// with Eqs. (18)–(30); O(N) serial evaluation by block LDLᵀ of 𝒜 (§IV.D, §V.B); docs/notation.md for the
// notation; trees: kernels/sibling_block_ldlt.hpp (leaves-first, fill-free). The operators are formed by
// schur_operators.hpp, which states the three exact adaptations made (Ŝ_i = S_i(S_iᵀS_i)⁻¹ for any joint,
// an orthonormal W_i, regularised inertia of a singular body on the fixed base).
// Derivation (q̇ = 0, g = 0): 𝓘a = 𝒫ᵀf, f = 𝒮τ + 𝒲μ, 𝒲ᵀ𝒫a = 0 ⇒ μ = −𝒜⁻¹ℬτ, q̈ = 𝒮ᵀ𝒫a = 𝒢τ + ℬᵀμ.
//
// Pseudo-code (labels on the code):
//   M1  form K̃, 𝒜 at q                                            (schur_operators)
//   M2  𝒜 = L D Lᵀ      chain: block_tridiagonal_factor; tree: sibling_block_ldlt (leaves first)
//   M3  y = ℬτ
//   M4  μ = −𝒜⁻¹y
//   M5  q̈ = 𝒢τ + ℬᵀμ
//   minverse_schur: M1, M2 once, then M3–M5 with τ = e_j for every DoF j (column j of M⁻¹).
//
// Contract: ws = SchurWorkspace<Scalar>(model), built once (allocates; may throw std::invalid_argument).
//   minverse_apply_schur(model, data, ws, q, tau) -> ws.Minv_b = M⁻¹τ, and ws.mu = μ (W_iᵀ f_i: the constraint
//     forces of the interbody forces f_i, body-i coordinates). Cost O(N) for bounded branching
//     (O(N + Σ children²)).
//   minverse_schur(model, data, ws, q) -> ws.Minv = M⁻¹ (full, both triangles computed). Cost O(N·n).
//   Both write data.Xup and ws (operators, factors, status). If 𝒜 is not positive definite ws.status names
//   its first scalar row and the output is NaN. noexcept; never allocate.
#pragma once

#include <limits>

#include "treedyn/algorithms/schur_operators.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/kernels/sibling_block_ldlt.hpp"

namespace treedyn {
namespace detail {

/// M1–M2. False (and ws.status set) if 𝒜 is not positive definite.
template <class Scalar, int N, class Dq>
bool schur_factor(const Model<Scalar, N>& model, Data<Scalar, N>& data, SchurWorkspace<Scalar>& ws,
                  const Eigen::MatrixBase<Dq>& q) noexcept {
  if (!schur_operators(model, data, ws, q)) {                                      // M1
    ws.status = data.config_status;
    return false;
  }
  ws.status = ws.is_chain() ? block_tridiagonal_factor(ws.A_chain) : sibling_block_ldlt(ws.A_tree);  // M2
  return ws.status.ok();
}

/// M3–M5 for one right-hand side: qdd = M⁻¹ tau, ws.mu = μ.
template <class Scalar, class Dt, class Dq>
void schur_apply_inverse(SchurWorkspace<Scalar>& ws, const Eigen::MatrixBase<Dt>& tau,
                         Eigen::MatrixBase<Dq>& qdd) noexcept {
  ws.mu.setZero();
  schur_apply(ws, SchurPart::joint, SchurPart::constraint, tau, ws.mu);          // M3
  if (ws.is_chain()) block_tridiagonal_solve(ws.A_chain, ws.mu);                  // M4
  else sibling_block_ldlt_solve(ws.A_tree, ws.mu);
  ws.mu = -ws.mu;
  qdd.setZero();
  schur_apply(ws, SchurPart::joint, SchurPart::joint, tau, qdd);                 // M5
  schur_apply(ws, SchurPart::constraint, SchurPart::joint, ws.mu, qdd);
}

}  // namespace detail

/// M⁻¹τ in O(N): returns ws.Minv_b; ws.mu holds the multipliers μ.
template <class Scalar, int N, class Dq, class Dt>
const typename SchurWorkspace<Scalar>::VectorX& minverse_apply_schur(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                                 SchurWorkspace<Scalar>& ws,
                                                                 const Eigen::MatrixBase<Dq>& q,
                                                                 const Eigen::MatrixBase<Dt>& tau) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dt, "tau");
  if (!(detail::schur_arguments_ok("minverse_apply_schur", model, data, ws, q) &&
        detail::dof_vector_ok("minverse_apply_schur", "tau", model, tau)))
    return ws.Minv_b;
  if (!detail::schur_factor(model, data, ws, q) || !detail::finite_ok("minverse_apply_schur", "tau", tau, ws.status)) {
    ws.Minv_b.setConstant(detail::nan<Scalar>());
    return ws.Minv_b;
  }
  detail::schur_apply_inverse(ws, tau, ws.Minv_b);
  return ws.Minv_b;
}

/// The full M⁻¹ in O(N·n): returns ws.Minv.
template <class Scalar, int N, class Dq>
const typename SchurWorkspace<Scalar>::MatrixX& minverse_schur(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                               SchurWorkspace<Scalar>& ws,
                                                               const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!detail::schur_arguments_ok("minverse_schur", model, data, ws, q)) return ws.Minv;
  if (!detail::schur_factor(model, data, ws, q)) {
    ws.Minv.setConstant(detail::nan<Scalar>());
    return ws.Minv;
  }
  for (int j = 0; j < ws.nv(); ++j) {
    ws.column.setZero();
    ws.column(j) = Scalar(1);
    auto out = ws.Minv.col(j);
    detail::schur_apply_inverse(ws, ws.column, out);
  }
  return ws.Minv;
}

}  // namespace treedyn
