// minverse_aba: the inverse joint-space inertia matrix H(q)⁻¹ in O(n²) by the articulated-body method.
//
// Reference: Carpentier, "Analytical inverse of the joint space inertia matrix", LAAS report
// hal-01790934, 2018, in the corrected form of P. Wensing's notes (docs/references.md), on the
// ABA of aba.hpp (Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 7.1).
// Idea: run the ABA with q̇ = 0, g = 0 and a symbolic τ. Every ABA quantity is then linear in τ, so it is
// carried as a coefficient matrix: F_i (6×n) with pA_i = F_i τ, P_i (6×n) with a_i = P_i τ, and row block
// vi(i) of H⁻¹, which holds D_i⁻¹u_i after the backward pass and q̈_i after the forward pass.
//   B1  IA_i = I_i;  F_i = 0 (6×n) for all i;  Minv = 0 (n×n)
//   B2  for i = N..1:                                                     (backward)
//   B3     U_i = IA_i S_i;  D_i = S_iᵀ U_i;  Dinv_i = D_i⁻¹
//   B4     Minv[vi(i), :] = −Dinv_i S_iᵀ F_i
//   B5     Minv[vi(i), vi(i)] += Dinv_i                     (the BLOCK index vi(i): see "Fixes" below)
//   B6     if λ(i) ≠ 0:
//   B7        F_λ(i) += X_iᵀ (F_i + U_i Minv[vi(i), :])
//   B8        IA_λ(i) += X_iᵀ (IA_i − U_i Dinv_i U_iᵀ) X_i
//   B9  for i = 1..N:                                                     (forward)
//   B10    if λ(i) ≠ 0:
//   B11       Minv[vi(i), :] −= Dinv_i U_iᵀ X_i P_λ(i)
//   B12       P_i = X_i P_λ(i) + S_i Minv[vi(i), :]
//   B13    else  P_i = S_i Minv[vi(i), :]
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent"; vi(i) = the n_i columns
// model.v_offset(i) … + n_i − 1.
// Sparsity (what makes it O(n²)). F_i is nonzero only in the columns of ν(i), the DoFs of i's subtree;
// with regular numbering they all lie in [vi(i), e_i), e_i = one past the subtree's last DoF (exactly
// ν(i)'s columns when bodies are numbered depth first), so B1's zeroing and B4–B7 touch only those
// columns and B4 leaves Minv[vi(i), e_i …] = 0. The forward pass computes only the columns ≥ vi(i) — the
// upper triangle in Pinocchio's terms — and P_i is needed by the children only there. F_i is dead once
// body i's backward step is done, so P_i reuses its storage. Cost: 6·Σ_i n_i·(e_i − vi(i)) + 6·Σ_i
// n_i·(n − vi(i)) multiply-adds plus the O(N) ABA, i.e. O(n²) on any tree.
// Storage of the triangle. Row block vi(i) restricted to the columns ≥ vi(i) is kept transposed, as
// column block vi(i) of the LOWER triangle (contiguous in Eigen's column-major storage); at the end the
// lower triangle is mirrored into the upper one, so ws.Minv holds the FULL symmetric H⁻¹ (Pinocchio's
// computeMinverse returns only the upper triangle; here both are filled).
// Fixes against the sources: spatial_v2_extended's Hinverse.m adds inv(D{i}) at the scalar index i
// (wrong for multi-DoF joints); B5 adds D_i⁻¹ to the n_i×n_i diagonal block vi(i). X_i P_λ is formed
// once per column and shared by B11 and B12.
// Shared steps: aba.hpp's outward pass (X_i, IA_i = I_i; with q̇ = 0 the bias terms vanish), U_i, D_i,
// the pivot check and U_i D_i⁻¹ (aba_joint_terms, aba_form_pivot, aba_solve_pivot) and B8
// (aba_project_to_parent); D_i⁻¹ on a row block is joint_pivot.hpp's small Cholesky.
// Contract: q has model.nq() entries; gravity and velocities play no part (H does not depend on them).
// Writes data.Xup, v, c, IA, pA, D, U, U_Dinv, Dinv_u (as aba with q̇ = 0, τ = 0) and the workspace
// ws (MinverseAbaWorkspace: F, subtree_end, status and Minv, returned). A joint pivot D_i that is not
// positive definite stops the backward pass: ws.status names that BODY (Index::body, as aba) and
// ws.Minv is NaN. noexcept; never allocates.
#pragma once

#include <algorithm>
#include <limits>

#include "treedyn/algorithms/detail/articulated_body.hpp"
#include "treedyn/algorithms/detail/joint_block.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {

/// The workspace and outputs of minverse_aba, sized once from the model (allocates; with a fixed N it
/// holds fixed-size blocks and does not). One per thread, like Data.
template <class Scalar, int N = Dynamic>
struct MinverseAbaWorkspace {
  explicit MinverseAbaWorkspace(const Model<Scalar, N>& model)
      : Minv(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        F(model.nbodies(), Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        subtree_end(model.nbodies(), 0),
        zero(VectorN<Scalar, N>::Zero(model.nv())),
        model_id(model.id()) {}

  MatrixN<Scalar, N> Minv;  ///< output: H⁻¹, full symmetric (both triangles)
  FactorStatus status;      ///< a joint pivot D_i that is not positive definite: row = that body (Index::body)
  /// Per body, the 6×n coefficient block F_i (backward pass: pA_i = F_i τ), reused as P_i (forward pass:
  /// a_i = P_i τ); only the columns of DoFs numbered from body i's first DoF are used.
  detail::Array<Eigen::Matrix<Scalar, 6, N>, N> F;
  detail::Array<int, N> subtree_end;  ///< one past the last DoF of body i's subtree
  /// q̇ = 0 and τ = 0 for the shared ABA steps, stored (not an Eigen zero expression) so those steps
  /// are the very instantiations aba compiles for VectorN inputs rather than a second copy
  VectorN<Scalar, N> zero;
  std::uint64_t model_id;  ///< Model::id() of the model it was built for (checked by minverse_aba)
};

namespace detail {

/// B1 for the columns used: e_i, and F_i = 0 on [vi(i), e_i).
template <class Scalar, int N>
void minverse_aba_subtree_columns(const Model<Scalar, N>& model, MinverseAbaWorkspace<Scalar, N>& ws) noexcept {
  const int nb = model.nbodies();
  for (int i = 0; i < nb; ++i)
    ws.subtree_end[i] = model.v_offset(i) + static_cast<int>(model.motion_subspaces()[i].cols());
  for (int i = nb - 1; i >= 0; --i) {
    const int p = model.parent(i);
    if (p != no_parent) ws.subtree_end[p] = std::max(ws.subtree_end[p], ws.subtree_end[i]);
  }
  for (int i = 0; i < nb; ++i) {
    const int vi = model.v_offset(i);
    ws.F[i].middleCols(vi, ws.subtree_end[i] - vi).setZero();
  }
}

/// B4–B7 for body i (pivot D_i already checked): column block vi(i) of the lower triangle of Minv and,
/// below a parent, F_λ(i).
template <int NI, class Scalar, int N>
void minverse_aba_backward_step(const Model<Scalar, N>& model, const Data<Scalar, N>& data, MinverseAbaWorkspace<Scalar, N>& ws,
                                int i) noexcept {
  const JointColumns<Scalar, NI> J(model, i);
  const int vi = J.vi, ni = J.ni, p = J.parent, width = ws.subtree_end[i] - vi;
  const auto& S = J.S;
  const auto U = J.columns_of(data.U);
  PivotMatrix<Scalar> L = data.D[i];
  if constexpr (NI != 1) factor_joint_pivot(L);            // succeeded in aba_solve_pivot: D_i > 0
  auto T = ws.Minv.block(vi, vi, width, ni);               // T = (Minv[vi(i), vi(i) … e_i))ᵀ
  for (int c = 0; c < width; ++c) {
    auto F_c = ws.F[i].col(vi + c);
    typename JointBlock<Scalar, NI>::Vector r = -(S.transpose() * F_c);  // B4: −S_iᵀ F_i
    if (c < ni) r(c) += Scalar(1);                            // B5: (1 − S_iᵀ F_i), then D_i⁻¹ below
    if constexpr (NI == 1) r(0) /= L(0, 0);                   // a 1×1 pivot: one division
    else solve_joint_pivot(L, r);
    T.row(c) = r.transpose();
    if (p != no_parent) {                                     // B6
      F_c.noalias() += U * r;                                 // B7: F_i + U_i Minv[vi(i), :]
      ws.F[p].col(vi + c) += data.Xup[i].apply_inverse_force(F_c);
    }
  }
  ws.Minv.block(vi + width, vi, model.nv() - vi - width, ni).setZero();  // outside the subtree: 0
}

/// B10–B13 for body i: the columns ≥ vi(i) of row block vi(i) (stored as column block vi(i)) and P_i.
template <int NI, class Scalar, int N>
void minverse_aba_forward_step(const Model<Scalar, N>& model, const Data<Scalar, N>& data, MinverseAbaWorkspace<Scalar, N>& ws,
                               int i) noexcept {
  const JointColumns<Scalar, NI> J(model, i);
  const int vi = J.vi, ni = J.ni, p = J.parent, width = model.nv() - vi;
  const auto& S = J.S;
  const auto U_Dinv = J.columns_of(data.U_Dinv);
  auto T = ws.Minv.block(vi, vi, width, ni);
  for (int c = 0; c < width; ++c) {
    auto P_c = ws.F[i].col(vi + c);
    typename JointBlock<Scalar, NI>::Vector r = T.row(c).transpose();
    if (p != no_parent) {                                     // B10
      const Motion<Scalar> XP = data.Xup[i].apply_motion(ws.F[p].col(vi + c));  // X_i P_λ(i)
      r.noalias() -= U_Dinv.transpose() * XP;                 // B11
      T.row(c) = r.transpose();
      P_c = XP;                                               // B12
      P_c.noalias() += S * r;
    } else {
      P_c.noalias() = S * r;                                  // B13
    }
  }
}

/// Records a failed pivot at body i: status names the body, H⁻¹ is NaN.
template <class Scalar, int N>
const MatrixN<Scalar, N>& minverse_aba_fail(MinverseAbaWorkspace<Scalar, N>& ws, int i) noexcept {
  ws.status = FactorStatus::non_positive_joint_pivot(i);
  ws.Minv.setConstant(detail::nan<Scalar>());
  return ws.Minv;
}

/// The strictly lower triangle of M copied into the strictly upper one.
template <class Derived>
void mirror_lower_to_upper(Eigen::MatrixBase<Derived>& M) noexcept {
  const Eigen::Index n = M.rows();
  for (Eigen::Index j = 0; j + 1 < n; ++j) M.row(j).tail(n - j - 1) = M.col(j).tail(n - j - 1).transpose();
}

}  // namespace detail

/// H(q)⁻¹, full symmetric, into ws.Minv by the O(n²) ABA-based inverse; status in ws.status (a body).
template <class Scalar, int N, class Dq>
const MatrixN<Scalar, N>& minverse_aba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                       MinverseAbaWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q) noexcept {
  if (!(detail::model_data_q_ok("minverse_aba", model, data, q) &&
        detail::same_model("minverse_aba", "ws", ws.model_id, model.id())))
    return ws.Minv;
  const VectorN<Scalar, N>& zero = ws.zero;                                          // q̇ = 0, τ = 0
  if (!detail::aba_outward_pass(model, data, q, zero, detail::NoExternalForces<Scalar>{})) {  // B1: X_i, IA_i = I_i
    ws.status = data.config_status;
    return detail::fill_nan(ws.Minv);
  }
  detail::minverse_aba_subtree_columns(model, ws);                                   // B1: F_i = 0
  for (int i = model.nbodies() - 1; i >= 0; --i) {                                   // B2
    detail::aba_joint_terms(model, data, zero, i);                                   // B3: U_i
    detail::aba_form_pivot(model, data, i);                                          // B3: D_i
    if (!detail::aba_solve_pivot(model, data, i)) return detail::minverse_aba_fail(ws, i);  // B3: U_i D_i⁻¹
    detail::with_joint_width(model.motion_subspaces()[i].cols(), [&](auto width) {      // B4–B7
      detail::minverse_aba_backward_step<decltype(width)::value>(model, data, ws, i);
    });
    if (model.parent(i) != no_parent) detail::aba_project_to_parent(model, data, i); // B8
  }
  ws.status = FactorStatus::success();
  for (int i = 0; i < model.nbodies(); ++i) {                                        // B9
    detail::with_joint_width(model.motion_subspaces()[i].cols(), [&](auto width) {      // B10–B13
      detail::minverse_aba_forward_step<decltype(width)::value>(model, data, ws, i);
    });
  }
  detail::mirror_lower_to_upper(ws.Minv);
  return ws.Minv;
}

}  // namespace treedyn
