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
// body i's backward step is done, so P_i reuses its storage. Cost: about (12·n_i + 27)·(e_i − vi(i))
// multiply-adds per body backward and (12·n_i + 27)·(n − vi(i)) forward, plus the O(N) ABA: O(n²) on
// any tree.
// Block form (Carpentier's formulation on subtree column blocks): each step acts on body i's whole
// block of columns at once, with ONE transform per body, never per column. F_i and P_i are stored
// transposed (n×6, row c = column c), so every spatial component runs contiguously over the columns and
// each step is a few vectorised products over the block: B4 the block times S_i, B5 one division per
// entry (1-DoF) or the pivot solve on the n_i×w block, B7 a rank-n_i update with U_iᵀ and X_iᵀ applied as
// three 3×3 products (E, E r×), B11 the block times X_iᵀ U_i D_i⁻¹ (the joint's n_i columns brought to
// the parent's coordinates once, instead of X_i applied to every column of P_λ(i)), B12 the block times
// S_iᵀ plus X_i as three 3×3 products. Everything stays in body coordinates (no world frame): the
// transforms are the ABA's; only the order of the products differs from a per-column form. Each of those
// block products is one loop over the block's rows per output column (minverse_aba_columns_times), so the
// short dynamic columns vectorise in float as in double. For a 1-DoF joint below a parent (almost every
// body of a robot), B7 and B12 are each fused into one loop over the rows that writes every output entry
// once (minverse_aba_parent_force_columns, minverse_aba_child_motion_columns): the same operations in the
// same order, the intermediate rank-1 block kept in registers, each column a pointer of its own.
// Storage of the triangle. Row block vi(i) restricted to the columns ≥ vi(i) is kept transposed, as
// column block vi(i) of the LOWER triangle (contiguous in Eigen's column-major storage); at the end the
// lower triangle is mirrored into the upper one, so ws.Minv holds the FULL symmetric H⁻¹ (Pinocchio's
// computeMinverse returns only the upper triangle; here both are filled).
// Fixes against the sources: spatial_v2_extended's Hinverse.m adds inv(D{i}) at the scalar index i
// (wrong for multi-DoF joints); B5 adds D_i⁻¹ to the n_i×n_i diagonal block vi(i). P_i is formed only
// where it is read: not for a leaf, and only on the columns ≥ vi(i) + n_i (its children's).
// Shared steps: the ABA's articulated-inertia pass without bias (with q̇ = 0 and τ = 0 the velocity and
// bias terms vanish, so they are not formed): detail/articulated_body.hpp's aba_inertia_outward_pass (X_i,
// IA_i = I_i) and aba_inertia_step (B3's U_i, D_i, the pivot check and U_i D_i⁻¹, and B8, with the free
// and 1-DoF joints' own steps); D_i⁻¹ on a row block is joint_pivot.hpp's small Cholesky
// (factor_joint_pivot, then solve_joint_pivot's steps run on whole columns of the block).
// Contract: q has model.nq() entries; gravity and velocities play no part (H does not depend on them).
// Writes data.Xup, IA, D, U, U_Dinv and the workspace
// ws (MinverseAbaWorkspace: F, subtree_end, status and Minv, returned). A joint pivot D_i that is not
// positive definite stops the backward pass: ws.status names that BODY (Index::body, as aba) and
// ws.Minv is NaN. noexcept; never allocates.
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

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
        F(model.nbodies(), Eigen::Matrix<Scalar, N, 6>::Zero(model.nv(), 6)),
        subtree_end(model.nbodies(), 0),
        depth_first(numbered_depth_first(model)),
        model_id(model.id()) {}

  MatrixN<Scalar, N> Minv;  ///< output: H⁻¹, full symmetric (both triangles)
  FactorStatus status;      ///< a joint pivot D_i that is not positive definite: row = that body (Index::body)
  /// Per body, the 6×n coefficient block F_i (backward pass: pA_i = F_i τ), reused as P_i (forward pass:
  /// a_i = P_i τ), stored TRANSPOSED (n×6: row c is column c of F_i); only the rows of DoFs numbered
  /// from body i's first DoF are used.
  detail::Array<Eigen::Matrix<Scalar, N, 6>, N> F;
  detail::Array<int, N> subtree_end;  ///< one past the last DoF of body i's subtree
  /// Every subtree's DoFs are the contiguous range [vi(i), e_i) (bodies numbered depth first: chains,
  /// the built-in robots): children's ranges are then disjoint, so B7 assigns into F_λ(i) and B1 zeroes
  /// nothing; otherwise ranges may overlap and B7 accumulates into a zeroed F_λ(i).
  bool depth_first;
  std::uint64_t model_id;  ///< Model::id() of the model it was built for (checked by minverse_aba)

 private:
  static bool numbered_depth_first(const Model<Scalar, N>& model) {
    const int nb = model.nbodies();
    std::vector<int> dofs(static_cast<std::size_t>(nb)), end(static_cast<std::size_t>(nb));
    for (int i = 0; i < nb; ++i) {
      dofs[i] = static_cast<int>(model.motion_subspaces()[i].cols());
      end[i] = model.v_offset(i) + dofs[i];
    }
    for (int i = nb - 1; i >= 0; --i)
      if (model.parent(i) != no_parent) {
        dofs[model.parent(i)] += dofs[i];
        end[model.parent(i)] = std::max(end[model.parent(i)], end[i]);
      }
    for (int i = 0; i < nb; ++i)
      if (end[i] - model.v_offset(i) != dofs[i]) return false;
    return true;
  }
};

namespace detail {

/// B1 for the columns used: e_i, and F_i = 0 on [vi(i) + n_i, e_i) unless B7 assigns them.
template <class Scalar, int N>
void minverse_aba_subtree_columns(const Model<Scalar, N>& model, MinverseAbaWorkspace<Scalar, N>& ws) noexcept {
  const int nb = model.nbodies();
  for (int i = 0; i < nb; ++i)
    ws.subtree_end[i] = model.v_offset(i) + static_cast<int>(model.motion_subspaces()[i].cols());
  for (int i = nb - 1; i >= 0; --i) {
    const int p = model.parent(i);
    if (p != no_parent) ws.subtree_end[p] = std::max(ws.subtree_end[p], ws.subtree_end[i]);
  }
  if (ws.depth_first) return;     // B7 assigns every row that is read
  for (int i = 0; i < nb; ++i) {  // the joint's own columns are never written or read: not zeroed
    const int first = model.v_offset(i) + static_cast<int>(model.motion_subspaces()[i].cols());
    ws.F[i].middleRows(first, ws.subtree_end[i] - first).setZero();
  }
}

/// Dst (=, = −, +=, −=) A M for a w×K block A of contiguous columns and a small K×J matrix M (K, J ≤ 6):
/// Dst(r, j) = Σ_k A(r, k) M(k, j), one loop over the w rows per output column, written on the raw
/// column pointers so that the compiler vectorises it over the rows with unaligned packets and a
/// vectorised remainder. Eigen's own loops over these short dynamic columns (a lazy product, or a sum of
/// scaled columns) first peel scalars up to the packet alignment and leave the remainder scalar: with
/// AVX-512 a float packet holds 16 entries, more than most blocks, so float ran almost entirely scalar
/// and no faster than double. Blocks may not alias one another except Dst with itself.
enum class Accumulate { assign, assign_negated, add, subtract };
template <Accumulate Op, class DerivedA, class DerivedM, class DstBlock>
EIGEN_STRONG_INLINE void minverse_aba_columns_times(const Eigen::MatrixBase<DerivedA>& A, const Eigen::MatrixBase<DerivedM>& M,
                                                    DstBlock&& Dst) noexcept {
  using Scalar = typename DerivedA::Scalar;
  constexpr int K = DerivedM::RowsAtCompileTime;
  const Eigen::Index w = A.rows(), ka = A.derived().outerStride(), kd = Dst.outerStride(), kM = M.rows();
  const Scalar* const a = A.derived().data();
  for (Eigen::Index j = 0; j < M.cols(); ++j) {
    Scalar m[6];
    for (Eigen::Index k = 0; k < kM; ++k) m[k] = M(k, j);
    Scalar* const d = Dst.data() + j * kd;
    for (Eigen::Index r = 0; r < w; ++r) {
      Scalar s = a[r] * m[0];
      if constexpr (K == Eigen::Dynamic) {
        for (Eigen::Index k = 1; k < kM; ++k) s += a[r + k * ka] * m[k];
      } else {
        for (int k = 1; k < K; ++k) s += a[r + k * ka] * m[k];
      }
      if constexpr (Op == Accumulate::assign) d[r] = s;
      else if constexpr (Op == Accumulate::assign_negated) d[r] = -s;
      else if constexpr (Op == Accumulate::add) d[r] += s;
      else d[r] -= s;
    }
  }
}

/// B7's transform on a block of stored-transposed forces: Fp += G X, i.e. F_λ += X_iᵀ G column by
/// column, X = (E, r) = ^i X_λ(i). With a row gᵀ = [nᵀ fᵀ] of G, (X_iᵀ g)ᵀ = [nᵀE − fᵀE r×, fᵀE]
/// (transform.hpp's apply_inverse_force, transposed): three 3×3 products over the whole block. With
/// Add = false, Fp = G X.
template <bool Add, class Scalar, class DerivedG, class DstBlock>
void minverse_aba_add_force_to_parent(const Transform<Scalar>& X, const Eigen::MatrixBase<DerivedG>& G,
                                      DstBlock Fp) noexcept {
  constexpr Accumulate first = Add ? Accumulate::add : Accumulate::assign;
  const Matrix3<Scalar> Erx = X.E * skew(X.r);  // E r×
  minverse_aba_columns_times<first>(G.template leftCols<3>(), X.E, Fp.template leftCols<3>());
  minverse_aba_columns_times<Accumulate::subtract>(G.template rightCols<3>(), Erx, Fp.template leftCols<3>());
  minverse_aba_columns_times<first>(G.template rightCols<3>(), X.E, Fp.template rightCols<3>());
}

/// B12's transform on a block of stored-transposed motions: P += Pp Xᵀ, i.e. P_i += X_i P_λ column by
/// column. With a row pᵀ = [wᵀ vᵀ] of Pp, (X_i p)ᵀ = [wᵀEᵀ, (v − r × w)ᵀEᵀ] = [wᵀEᵀ, vᵀEᵀ + wᵀ r× Eᵀ]
/// (transform.hpp's apply_motion, transposed).
template <class Scalar, class DerivedP, class DstBlock>
void minverse_aba_add_motion_to_child(const Transform<Scalar>& X, const Eigen::MatrixBase<DerivedP>& Pp,
                                      DstBlock P) noexcept {
  const Matrix3<Scalar> Et = X.E.transpose();
  const Matrix3<Scalar> rxEt = skew(X.r) * Et;  // r× Eᵀ
  minverse_aba_columns_times<Accumulate::add>(Pp.template leftCols<3>(), Et, P.template leftCols<3>());
  minverse_aba_columns_times<Accumulate::add>(Pp.template rightCols<3>(), Et, P.template rightCols<3>());
  minverse_aba_columns_times<Accumulate::add>(Pp.template leftCols<3>(), rxEt, P.template rightCols<3>());
}

/// B7 for a 1-DoF joint below a parent, in one pass over the block's rows: F_λ(i) (=, or += with Add)
/// X_iᵀ (F_i + U_i Minv[vi(i), :]) column by column, i.e. G = Fᵀ + T U_iᵀ (G = T U_iᵀ without WithF: the
/// joint's own row, where F_i is 0) and then minverse_aba_add_force_to_parent's three products, with the
/// operations and their order of those two steps (a contracted multiply-add may round once less) and G kept
/// in registers instead of stored. Every column is its own pointer, declared disjoint from the others
/// (distinct columns of Minv, F_i and F_λ(i)), so the loop vectorises over the rows. c holds U_i (6 entries),
/// E and E r× (9 each, column-major).
template <bool Add, bool WithF, class Scalar>
void minverse_aba_parent_force_columns(Eigen::Index w, const Scalar* TREEDYN_RESTRICT t, const Scalar* TREEDYN_RESTRICT g0,
                                       const Scalar* TREEDYN_RESTRICT g1, const Scalar* TREEDYN_RESTRICT g2,
                                       const Scalar* TREEDYN_RESTRICT g3, const Scalar* TREEDYN_RESTRICT g4,
                                       const Scalar* TREEDYN_RESTRICT g5, const Scalar* TREEDYN_RESTRICT c,
                                       Scalar* TREEDYN_RESTRICT F0, Scalar* TREEDYN_RESTRICT F1,
                                       Scalar* TREEDYN_RESTRICT F2, Scalar* TREEDYN_RESTRICT F3,
                                       Scalar* TREEDYN_RESTRICT F4, Scalar* TREEDYN_RESTRICT F5) noexcept {
  const Scalar* const U = c;
  const Scalar* const E = c + 6;
  const Scalar* const Erx = c + 15;
  for (Eigen::Index r = 0; r < w; ++r) {
    const Scalar tr = t[r];
    Scalar a0 = tr * U[0], a1 = tr * U[1], a2 = tr * U[2], a3 = tr * U[3], a4 = tr * U[4], a5 = tr * U[5];
    if constexpr (WithF) {
      a0 = g0[r] + a0, a1 = g1[r] + a1, a2 = g2[r] + a2, a3 = g3[r] + a3, a4 = g4[r] + a4, a5 = g5[r] + a5;
    }
    Scalar n0 = a0 * E[0] + a1 * E[1] + a2 * E[2], n1 = a0 * E[3] + a1 * E[4] + a2 * E[5],
           n2 = a0 * E[6] + a1 * E[7] + a2 * E[8];
    Scalar f0 = a3 * E[0] + a4 * E[1] + a5 * E[2], f1 = a3 * E[3] + a4 * E[4] + a5 * E[5],
           f2 = a3 * E[6] + a4 * E[7] + a5 * E[8];
    if constexpr (Add) {
      n0 = F0[r] + n0, n1 = F1[r] + n1, n2 = F2[r] + n2, f0 = F3[r] + f0, f1 = F4[r] + f1, f2 = F5[r] + f2;
    }
    F0[r] = n0 - (a3 * Erx[0] + a4 * Erx[1] + a5 * Erx[2]);
    F1[r] = n1 - (a3 * Erx[3] + a4 * Erx[4] + a5 * Erx[5]);
    F2[r] = n2 - (a3 * Erx[6] + a4 * Erx[7] + a5 * Erx[8]);
    F3[r] = f0;
    F4[r] = f1;
    F5[r] = f2;
  }
}

/// B12 for a 1-DoF joint below a parent, in one pass over the block's rows: P = T sᵀ + Pp Xᵀ, i.e.
/// P_i = S_i Minv[vi(i), :] + X_i P_λ(i) column by column, with the operations and their order of
/// minverse_aba_columns_times (assign with sᵀ) followed by minverse_aba_add_motion_to_child (a contracted
/// multiply-add may round once less); each entry of P is written once instead of read and written in four
/// passes. Every column is its own pointer, declared disjoint from the others (distinct columns of P, of
/// P_λ(i) and of Minv), so the loop vectorises over the rows.
template <class Scalar>
void minverse_aba_child_motion_columns(Eigen::Index w, const Scalar* TREEDYN_RESTRICT t, const Scalar* TREEDYN_RESTRICT w0,
                                       const Scalar* TREEDYN_RESTRICT w1, const Scalar* TREEDYN_RESTRICT w2,
                                       const Scalar* TREEDYN_RESTRICT v0, const Scalar* TREEDYN_RESTRICT v1,
                                       const Scalar* TREEDYN_RESTRICT v2, const Scalar* TREEDYN_RESTRICT c,
                                       Scalar* TREEDYN_RESTRICT P0, Scalar* TREEDYN_RESTRICT P1,
                                       Scalar* TREEDYN_RESTRICT P2, Scalar* TREEDYN_RESTRICT P3,
                                       Scalar* TREEDYN_RESTRICT P4, Scalar* TREEDYN_RESTRICT P5) noexcept {
  // c: s (6), Eᵀ (9, column-major), r× Eᵀ (9, column-major)
  const Scalar* const s = c;
  const Scalar* const Et = c + 6;
  const Scalar* const R = c + 15;
  for (Eigen::Index r = 0; r < w; ++r) {
    const Scalar tr = t[r], a0 = w0[r], a1 = w1[r], a2 = w2[r], b0 = v0[r], b1 = v1[r], b2 = v2[r];
    P0[r] = tr * s[0] + (a0 * Et[0] + a1 * Et[1] + a2 * Et[2]);
    P1[r] = tr * s[1] + (a0 * Et[3] + a1 * Et[4] + a2 * Et[5]);
    P2[r] = tr * s[2] + (a0 * Et[6] + a1 * Et[7] + a2 * Et[8]);
    P3[r] = (tr * s[3] + (b0 * Et[0] + b1 * Et[1] + b2 * Et[2])) + (a0 * R[0] + a1 * R[1] + a2 * R[2]);
    P4[r] = (tr * s[4] + (b0 * Et[3] + b1 * Et[4] + b2 * Et[5])) + (a0 * R[3] + a1 * R[4] + a2 * R[5]);
    P5[r] = (tr * s[5] + (b0 * Et[6] + b1 * Et[7] + b2 * Et[8])) + (a0 * R[6] + a1 * R[7] + a2 * R[8]);
  }
}

/// T ← T D_i⁻¹ (every row x of T: x ← D_i⁻¹ x) for the factor L of factor_joint_pivot: joint_pivot.hpp's
/// solve_joint_pivot, step for step, run on whole columns of T so that it vectorises over the rows.
template <class DerivedL, class DstBlock>
void minverse_aba_solve_pivot_rows(const Eigen::MatrixBase<DerivedL>& L, DstBlock T) noexcept {
  const Eigen::Index n = L.rows();
  for (Eigen::Index i = 0; i < n; ++i) {  // L y = x
    for (Eigen::Index j = 0; j < i; ++j) T.col(i) -= L(i, j) * T.col(j);
    T.col(i) /= L(i, i);
  }
  for (Eigen::Index i = n - 1; i >= 0; --i) {  // Lᵀ z = y
    for (Eigen::Index j = i + 1; j < n; ++j) T.col(i) -= L(j, i) * T.col(j);
    T.col(i) /= L(i, i);
  }
}

/// B4–B7 for body i (pivot D_i already checked) on the whole subtree block at once: column block vi(i)
/// of the lower triangle of Minv and, below a parent, F_λ(i).
template <int NI, class Scalar, int N>
void minverse_aba_backward_step(const Model<Scalar, N>& model, const Data<Scalar, N>& data, MinverseAbaWorkspace<Scalar, N>& ws,
                                int i) noexcept {
  const JointColumns<Scalar, NI> J(model, i);
  const int vi = J.vi, ni = J.ni, p = J.parent, width = ws.subtree_end[i] - vi;
  auto T = ws.Minv.block(vi, vi, width, ni);               // T = (Minv[vi(i), vi(i) … e_i))ᵀ
  auto G = ws.F[i].middleRows(vi, width);                  // G = F_iᵀ on those columns
  // B4: −S_iᵀ F_i; F_i is 0 on the joint's own columns (no child writes them), and a leaf's is all 0
  T.template topRows<NI>(ni).setZero();
  minverse_aba_columns_times<Accumulate::assign_negated>(G.bottomRows(width - ni), J.S, T.bottomRows(width - ni));
  T.template topRows<NI>(ni).diagonal().array() += Scalar(1);  // B5: (1 − S_iᵀ F_i), then D_i⁻¹ below
  if constexpr (NI == 1) {
    T /= data.D[i](0, 0);                                   // a 1×1 pivot: one division per column
  } else {
    PivotMatrix<Scalar> L = data.D[i];
    factor_joint_pivot(L);                                  // succeeded in aba_inertia_step: D_i > 0
    minverse_aba_solve_pivot_rows(L, T);
  }
  if (p != no_parent) {                                     // B6
    // B7: F_i + U_i Minv[vi(i), :]; F_i is 0 on the joint's own columns (never written there)
    if constexpr (NI == 1) {
      Scalar c[24];
      Eigen::Map<Vector6<Scalar>> u(c);
      Eigen::Map<Matrix3<Scalar>> E(c + 6), Erx(c + 15);
      u = J.columns_of(data.U);
      E = data.Xup[i].E;
      Erx.noalias() = data.Xup[i].E * skew(data.Xup[i].r);  // E r×
      auto Fp = ws.F[p].middleRows(vi, width);
      const auto run = [&](auto add, auto with_f, int row, int rows) {
        minverse_aba_parent_force_columns<decltype(add)::value, decltype(with_f)::value>(
            rows, &T(row, 0), &G(row, 0), &G(row, 1), &G(row, 2), &G(row, 3), &G(row, 4), &G(row, 5), c, &Fp(row, 0),
            &Fp(row, 1), &Fp(row, 2), &Fp(row, 3), &Fp(row, 4), &Fp(row, 5));
      };
      if (ws.depth_first) {
        run(std::false_type{}, std::false_type{}, 0, 1);          // the joint's own row: F_i is 0 there
        if (width > 1) run(std::false_type{}, std::true_type{}, 1, width - 1);
      } else {
        run(std::true_type{}, std::false_type{}, 0, 1);
        if (width > 1) run(std::true_type{}, std::true_type{}, 1, width - 1);
      }
    } else {
      const typename JointColumns<Scalar, NI>::Subspace U = J.columns_of(data.U);
      G.template topRows<NI>(ni).noalias() = T.template topRows<NI>(ni).lazyProduct(U.transpose());
      minverse_aba_columns_times<Accumulate::add>(T.bottomRows(width - ni), U.transpose(), G.bottomRows(width - ni));
      if (ws.depth_first) minverse_aba_add_force_to_parent<false>(data.Xup[i], G, ws.F[p].middleRows(vi, width));
      else minverse_aba_add_force_to_parent<true>(data.Xup[i], G, ws.F[p].middleRows(vi, width));
    }
  }
  ws.Minv.block(vi + width, vi, model.nv() - vi - width, ni).setZero();  // outside the subtree: 0
}

/// B10–B13 for body i on the whole block of columns ≥ vi(i): row block vi(i) (stored as column block
/// vi(i)) and, if body i has children, P_i on the columns they read.
template <int NI, class Scalar, int N>
void minverse_aba_forward_step(const Model<Scalar, N>& model, const Data<Scalar, N>& data, MinverseAbaWorkspace<Scalar, N>& ws,
                               int i) noexcept {
  const JointColumns<Scalar, NI> J(model, i);
  const int vi = J.vi, ni = J.ni, p = J.parent, width = model.nv() - vi;
  const Transform<Scalar>& X = data.Xup[i];
  auto T = ws.Minv.block(vi, vi, width, ni);
  if (p != no_parent) {                                     // B10
    // B11 as (X_iᵀ U_i D_i⁻¹)ᵀ P_λ(i): the joint's n_i columns go to the parent's coordinates once
    const typename JointColumns<Scalar, NI>::Subspace U_Dinv_up = X.apply_inverse_force(J.columns_of(data.U_Dinv));
    minverse_aba_columns_times<Accumulate::subtract>(ws.F[p].middleRows(vi, width), U_Dinv_up, T);
  }
  // B12 / B13 only where read: the children's columns start at vi(i) + n_i; a leaf needs no P_i
  const int rows = ws.subtree_end[i] > vi + ni ? width - ni : 0;
  if (rows == 0) return;
  auto P = ws.F[i].bottomRows(rows);
  if constexpr (NI == 1) {
    if (p != no_parent) {                                   // S_i Minv[vi(i), :] + X_i P_λ(i), one pass
      Scalar c[24];
      Eigen::Map<Vector6<Scalar>> s_i(c);
      Eigen::Map<Matrix3<Scalar>> Et(c + 6), rxEt(c + 15);
      s_i = J.S;
      Et = X.E.transpose();
      rxEt.noalias() = skew(X.r) * Et;  // r× Eᵀ
      const Scalar* const t = T.bottomRows(rows).data();
      const auto Pp = ws.F[p].bottomRows(rows);
      minverse_aba_child_motion_columns(rows, t, &Pp(0, 0), &Pp(0, 1), &Pp(0, 2), &Pp(0, 3), &Pp(0, 4), &Pp(0, 5), c,
                                        &P(0, 0), &P(0, 1), &P(0, 2), &P(0, 3), &P(0, 4), &P(0, 5));
      return;
    }
  }
  minverse_aba_columns_times<Accumulate::assign>(T.bottomRows(rows), J.S.transpose(), P);  // S_i Minv[vi(i), :]
  if (p != no_parent) minverse_aba_add_motion_to_child(X, ws.F[p].bottomRows(rows), P);  // + X_i P_λ(i)
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
  if (!detail::aba_inertia_outward_pass(model, data, q)) {                           // B1: X_i, IA_i = I_i
    ws.status = data.config_status;
    return detail::fill_nan(ws.Minv);
  }
  detail::minverse_aba_subtree_columns(model, ws);                                   // B1: F_i = 0
  for (const int i : model.inward_order()) {                                         // B2
    // B3 (U_i, D_i, U_i D_i⁻¹) and B8 (reads only IA_i, U_i, U_i D_i⁻¹; writes only IA_λ(i))
    if (!detail::aba_inertia_step(model, data, i)) return detail::minverse_aba_fail(ws, i);
    detail::with_joint_width(model.motion_subspaces()[i].cols(), [&](auto width) {      // B4–B7
      detail::minverse_aba_backward_step<decltype(width)::value>(model, data, ws, i);
    });
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
