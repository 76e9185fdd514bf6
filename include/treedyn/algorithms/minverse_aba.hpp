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
// columns and B4 leaves Minv[vi(i), e_i …] = 0. Where the children's ranges [vi(c), e_c) are disjoint
// and fill [vi(i) + n_i, e_i) (every body of a depth-first numbering, and a body whose one child is
// numbered next), B7 assigns each child's rows and B1 zeroes nothing; elsewhere F_i is zeroed on that
// range and B7 accumulates (MinverseAbaWorkspace::children_tile, found once with the workspace). The forward pass computes only the columns ≥ vi(i) — the
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
// block products is one loop over the block's rows per output column (minverse_aba_columns_times, in
// detail/minverse_aba_kernels.hpp with the other tuned kernels), so the short dynamic columns vectorise
// in float as in double. For a 1-DoF joint below a parent (almost every
// body of a robot), B7, and B11 with B12, are each fused into one loop over the rows that reads every
// input entry and writes every output entry once (minverse_aba_parent_force_columns,
// minverse_aba_child_motion_columns): the same operations in the same order, the intermediate rank-1
// block kept in registers, each column a pointer of its own. For a free joint (S_i = 1₆: the floating
// base) B4 and B12's products with S_i are copies.
// Storage of the triangle. Row block vi(i) restricted to the columns ≥ vi(i) is kept transposed, as
// column block vi(i) of the LOWER triangle (contiguous in Eigen's column-major storage); at the end the
// lower triangle is mirrored into the upper one (in 8×8 tiles), so ws.Minv holds the FULL symmetric H⁻¹ (Pinocchio's
// computeMinverse returns only the upper triangle; here both are filled).
// Fixes against the sources: spatial_v2_extended's Hinverse.m adds inv(D{i}) at the scalar index i
// (wrong for multi-DoF joints); B5 adds D_i⁻¹ to the n_i×n_i diagonal block vi(i). P_i is formed only
// where it is read: not for a leaf, and only on the columns ≥ vi(i) + n_i (its children's).
// Shared steps: the ABA's articulated-inertia pass without bias (with q̇ = 0 and τ = 0 the velocity and
// bias terms vanish, so they are not formed): detail/articulated_body.hpp's aba_inertia_outward_pass (X_i,
// IA_i = I_i) and aba_inertia_step (B3's U_i, D_i, the pivot check and U_i D_i⁻¹, and B8, with the free
// and 1-DoF joints' own steps); D_i⁻¹ on a row block is joint_pivot.hpp's small Cholesky
// (factor_joint_pivot, then solve_joint_pivot's steps on each row of the block, the loop over the rows
// vectorised).
// Contract: q has model.nq() entries; gravity and velocities play no part (H does not depend on them).
// Writes data.Xup, IA, D, U, U_Dinv and the workspace
// ws (MinverseAbaWorkspace: F, status and Minv, returned). A joint pivot D_i that is not
// positive definite stops the backward pass: ws.status names that BODY (Index::body, as aba) and
// ws.Minv is NaN. noexcept; never allocates.
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include <algorithm>
#include <limits>
#include <type_traits>

#include "treedyn/algorithms/detail/articulated_body.hpp"
#include "treedyn/algorithms/detail/joint_block.hpp"
#include "treedyn/algorithms/detail/minverse_aba_kernels.hpp"
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
        children_tile(model.nbodies(), 0),
        model_id(model.id()) {
    const int nb = model.nbodies();
    for (int i = 0; i < nb; ++i) subtree_end[i] = first_child_row(model, i);
    for (int i = nb - 1; i >= 0; --i)
      if (model.parent(i) != no_parent)
        subtree_end[model.parent(i)] = std::max(subtree_end[model.parent(i)], subtree_end[i]);
    // the children in index order are their ranges by increasing vi(c): each must start where the
    // previous one ended (next: the first row not yet filled, −1 once a gap or an overlap is seen)
    detail::Array<int, N> next(nb, 0);
    for (int i = 0; i < nb; ++i) next[i] = first_child_row(model, i);
    for (int i = 0; i < nb; ++i) {
      const int p = model.parent(i);
      if (p != no_parent) next[p] = model.v_offset(i) == next[p] ? subtree_end[i] : -1;
    }
    for (int i = 0; i < nb; ++i) children_tile[i] = next[i] == subtree_end[i];
  }

  MatrixN<Scalar, N> Minv;  ///< output: H⁻¹, full symmetric (both triangles)
  FactorStatus status;      ///< a joint pivot D_i that is not positive definite: row = that body (Index::body)
  /// Per body, the 6×n coefficient block F_i (backward pass: pA_i = F_i τ), reused as P_i (forward pass:
  /// a_i = P_i τ), stored TRANSPOSED (n×6: row c is column c of F_i); only the rows of DoFs numbered
  /// from body i's first DoF are used.
  detail::Array<Eigen::Matrix<Scalar, N, 6>, N> F;
  detail::Array<int, N> subtree_end;  ///< e_i: one past the last DoF of body i's subtree
  /// Per body i, 1 when its children's ranges [vi(c), e_c) are disjoint and fill [vi(i) + n_i, e_i)
  /// exactly: then each child's B7 assigns its own rows of F_i and B1 zeroes nothing there. That holds
  /// for every body when the bodies are numbered depth first (chains, the built-in robots: every
  /// subtree's DoFs are then the contiguous range [vi(i), e_i)), and for a body with one child numbered
  /// next in any tree. Otherwise (0) the ranges may overlap or leave gaps, F_i is zeroed there and the
  /// children's B7 accumulate into it.
  detail::Array<unsigned char, N> children_tile;
  std::uint64_t model_id;  ///< Model::id() of the model it was built for (checked by minverse_aba)

  /// vi(i) + n_i: the first row of F_i that body i's children write (its subtree's range after its joint).
  static int first_child_row(const Model<Scalar, N>& model, int i) noexcept {
    return model.v_offset(i) + detail::joint_width<Eigen::Dynamic>(model, i);
  }
};

namespace detail {

/// B1 for the columns used: F_i = 0 on [vi(i) + n_i, e_i) unless the children's B7 assign those rows.
template <class Scalar, int N>
void minverse_aba_zero_columns(const Model<Scalar, N>& model, MinverseAbaWorkspace<Scalar, N>& ws) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) {  // the joint's own columns are never written or read: not zeroed
    if (ws.children_tile[i]) continue;
    // row by row (six stores each): the blocks are a few rows long, and a column-by-column fill pays
    // its setup six times per body for a handful of entries
    for (int r = ws.first_child_row(model, i); r < ws.subtree_end[i]; ++r) ws.F[i].row(r).setZero();
  }
}

/// True for a free joint (S_i = 1₆, joint_block.hpp): S_iᵀ x = x and S_i x = x, which B4 and B12 then copy
/// instead of multiplying by the identity (the same values: x·1 + y·0 = x for finite x, y).
template <class Scalar, int N>
bool minverse_aba_free_joint(const Model<Scalar, N>& model, int i) noexcept {
  if constexpr (fits_free_joint<N>) return model.joint(i).type == JointType::free_flyer;
  else return false;
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
  if (minverse_aba_free_joint(model, i))                    // S_i = 1₆: −S_iᵀ F_i is −F_i, exactly
    T.bottomRows(width - ni).noalias() = -G.bottomRows(width - ni);
  else
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
      Scalar c[ParentForceLayout::size];
      Eigen::Map<Vector6<Scalar>> u(c + ParentForceLayout::U);
      Eigen::Map<Matrix3<Scalar>> E(c + ParentForceLayout::E), Erx(c + ParentForceLayout::Erx);
      u = J.columns_of(data.U);
      E = data.Xup[i].E;
      Erx.noalias() = data.Xup[i].E * skew(data.Xup[i].r);  // E r×
      auto Fp = ws.F[p].middleRows(vi, width);
      const auto run = [&](auto add, auto with_f, int row, int rows) {
        minverse_aba_parent_force_columns<decltype(add)::value, decltype(with_f)::value>(
            rows, &T(row, 0), &G(row, 0), &G(row, 1), &G(row, 2), &G(row, 3), &G(row, 4), &G(row, 5), c, &Fp(row, 0),
            &Fp(row, 1), &Fp(row, 2), &Fp(row, 3), &Fp(row, 4), &Fp(row, 5));
      };
      if (ws.children_tile[p]) {
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
      if (ws.children_tile[p]) minverse_aba_add_force_to_parent<false>(data.Xup[i], G, ws.F[p].middleRows(vi, width));
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
  // B12 / B13 only where read: the children's columns start at vi(i) + n_i; a leaf needs no P_i
  const int rows = ws.subtree_end[i] > vi + ni ? width - ni : 0;
  if (p != no_parent) {                                     // B10
    // B11 as (X_iᵀ U_i D_i⁻¹)ᵀ P_λ(i): the joint's n_i columns go to the parent's coordinates once
    if constexpr (NI == 1) {
      // U_i D_i⁻¹ read in place: a copy stored as two halves and reloaded across them stalls every body
      const Vector6<Scalar> U_Dinv_up = X.apply_inverse_force(data.U_Dinv.template block<6, 1>(0, vi));
      if (rows > 0) {  // B11 on the joint's own row, then B11 and B12 in one pass over the children's rows
        minverse_aba_columns_times<Accumulate::subtract>(ws.F[p].middleRows(vi, 1), U_Dinv_up, T.topRows(1));
        Scalar c[ChildMotionLayout::size];
        Eigen::Map<Vector6<Scalar>> s_i(c + ChildMotionLayout::s), u(c + ChildMotionLayout::u);
        Eigen::Map<Matrix3<Scalar>> Et(c + ChildMotionLayout::Et), rxEt(c + ChildMotionLayout::rxEt);
        s_i = J.S;
        Et = X.E.transpose();
        rxEt.noalias() = skew(X.r) * Et;  // r× Eᵀ
        u = U_Dinv_up;
        auto P = ws.F[i].bottomRows(rows);
        const auto Pp = ws.F[p].bottomRows(rows);
        minverse_aba_child_motion_columns(rows, &T(1, 0), &Pp(0, 0), &Pp(0, 1), &Pp(0, 2), &Pp(0, 3), &Pp(0, 4),
                                          &Pp(0, 5), c, &P(0, 0), &P(0, 1), &P(0, 2), &P(0, 3), &P(0, 4), &P(0, 5));
        return;
      }
      minverse_aba_columns_times<Accumulate::subtract>(ws.F[p].middleRows(vi, width), U_Dinv_up, T);
    } else {
      const typename JointColumns<Scalar, NI>::Subspace U_Dinv_up = X.apply_inverse_force(J.columns_of(data.U_Dinv));
      minverse_aba_columns_times<Accumulate::subtract>(ws.F[p].middleRows(vi, width), U_Dinv_up, T);
    }
  }
  if (rows == 0) return;
  auto P = ws.F[i].bottomRows(rows);
  if (minverse_aba_free_joint(model, i)) P = T.bottomRows(rows);                            // S_i = 1₆, exactly
  else minverse_aba_columns_times<Accumulate::assign>(T.bottomRows(rows), J.S.transpose(), P);  // S_i Minv[vi(i), :]
  if (p != no_parent) minverse_aba_add_motion_to_child(X, ws.F[p].bottomRows(rows), P);  // + X_i P_λ(i)
}

/// Records a failed pivot at body i: status names the body, H⁻¹ is NaN.
template <class Scalar, int N>
const MatrixN<Scalar, N>& minverse_aba_fail(MinverseAbaWorkspace<Scalar, N>& ws, int i) noexcept {
  ws.status = FactorStatus::non_positive_joint_pivot(i, "minverse_aba");
  ws.Minv.setConstant(detail::nan<Scalar>());
  return ws.Minv;
}

}  // namespace detail

/// H(q)⁻¹, full symmetric, into ws.Minv by the O(n²) ABA-based inverse; status in ws.status (a body).
template <class Scalar, int N, class Dq>
const MatrixN<Scalar, N>& minverse_aba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                       MinverseAbaWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!(detail::model_data_q_ok("minverse_aba", model, data, q) &&
        detail::same_model("minverse_aba", "ws", ws.model_id, model.id())))
    return ws.Minv;
  if (!detail::aba_inertia_outward_pass(model, data, &q, "minverse_aba")) {                           // B1: X_i, IA_i = I_i
    ws.status = data.config_status;
    return detail::fill_nan(ws.Minv);
  }
  detail::minverse_aba_zero_columns(model, ws);                                      // B1: F_i = 0
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
