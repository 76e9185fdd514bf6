// treedyn::detail minverse_aba's kernels: the block products of B4–B12 as loops over a block's rows, the
// fused 1-DoF forms of B7 and of B11–B12, the row-by-row pivot solve of B5 and the final mirror of H⁻¹'s
// lower triangle. minverse_aba.hpp states the algorithm (Carpentier's B1–B13) and calls these; each kernel
// here does the operations of the step it names in the same order, so results are the same to the bit
// as the plain block products (a contracted multiply-add may round once less).
//
// Why loops over rows (docs/design-notes.md#minverse_aba-on-subtree-column-blocks): the blocks are the
// columns of a body's subtree, a few rows long and F_i stored transposed (n×6), so every spatial component
// runs contiguously over the columns. Eigen's own loops over such short dynamic columns peel scalars up to
// the packet alignment and leave the rest scalar; these loops vectorise with unaligned packets and a
// vectorised remainder. The fused kernels take every column as its own pointer, declared disjoint from the
// others, so the loop over the rows vectorises; their small constant operands (U_i, E, E r×, …) travel in
// one array whose layout is named below. Nothing here allocates.
#pragma once

#include <type_traits>

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn::detail {

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

/// The constant operands of minverse_aba_parent_force_columns in one array: U_i (6 entries), then E and
/// E r× (9 each, column-major), X_i = (E, r).
struct ParentForceLayout {
  static constexpr int U = 0, E = 6, Erx = 15, size = 24;
};

/// The constant operands of minverse_aba_child_motion_columns in one array: s_i (6 entries), Eᵀ and r× Eᵀ
/// (9 each, column-major), X_i = (E, r), then u = X_iᵀ U_i D_i⁻¹ (6 entries).
struct ChildMotionLayout {
  static constexpr int s = 0, Et = 6, rxEt = 15, u = 24, size = 30;
};

/// B7 for a 1-DoF joint below a parent, in one pass over the block's rows: F_λ(i) (=, or += with Add)
/// X_iᵀ (F_i + U_i Minv[vi(i), :]) column by column, i.e. G = Fᵀ + T U_iᵀ (G = T U_iᵀ without WithF: the
/// joint's own row, where F_i is 0) and then minverse_aba_add_force_to_parent's three products, with the
/// operations and their order of those two steps (a contracted multiply-add may round once less) and G kept
/// in registers instead of stored. Every column is its own pointer, declared disjoint from the others
/// (distinct columns of Minv, F_i and F_λ(i)), so the loop vectorises over the rows. c is laid out as
/// ParentForceLayout.
template <bool Add, bool WithF, class Scalar>
void minverse_aba_parent_force_columns(Eigen::Index w, const Scalar* TREEDYN_RESTRICT t, const Scalar* TREEDYN_RESTRICT g0,
                                       const Scalar* TREEDYN_RESTRICT g1, const Scalar* TREEDYN_RESTRICT g2,
                                       const Scalar* TREEDYN_RESTRICT g3, const Scalar* TREEDYN_RESTRICT g4,
                                       const Scalar* TREEDYN_RESTRICT g5, const Scalar* TREEDYN_RESTRICT c,
                                       Scalar* TREEDYN_RESTRICT F0, Scalar* TREEDYN_RESTRICT F1,
                                       Scalar* TREEDYN_RESTRICT F2, Scalar* TREEDYN_RESTRICT F3,
                                       Scalar* TREEDYN_RESTRICT F4, Scalar* TREEDYN_RESTRICT F5) noexcept {
  const Scalar* const U = c + ParentForceLayout::U;
  const Scalar* const E = c + ParentForceLayout::E;
  const Scalar* const Erx = c + ParentForceLayout::Erx;
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

/// B11 and B12 for a 1-DoF joint below a parent, in one pass over the block's rows: first
/// t ← t − Pp u (B11, u = X_iᵀ U_i D_i⁻¹), then P = t sᵀ + Pp Xᵀ (B12: P_i = S_i Minv[vi(i), :] + X_i P_λ(i)
/// column by column), with the operations and their order of minverse_aba_columns_times (subtract with u,
/// then assign with sᵀ) followed by minverse_aba_add_motion_to_child (a contracted multiply-add may round
/// once less). Each row of P_λ(i) is read once for both steps, and each entry of P written once, instead
/// of five passes over the columns. Every column is its own pointer, declared disjoint from the others
/// (distinct columns of P, of P_λ(i) and of Minv), so the loop vectorises over the rows. c is laid out as
/// ChildMotionLayout.
template <class Scalar>
void minverse_aba_child_motion_columns(Eigen::Index w, Scalar* TREEDYN_RESTRICT t, const Scalar* TREEDYN_RESTRICT w0,
                                       const Scalar* TREEDYN_RESTRICT w1, const Scalar* TREEDYN_RESTRICT w2,
                                       const Scalar* TREEDYN_RESTRICT v0, const Scalar* TREEDYN_RESTRICT v1,
                                       const Scalar* TREEDYN_RESTRICT v2, const Scalar* TREEDYN_RESTRICT c,
                                       Scalar* TREEDYN_RESTRICT P0, Scalar* TREEDYN_RESTRICT P1,
                                       Scalar* TREEDYN_RESTRICT P2, Scalar* TREEDYN_RESTRICT P3,
                                       Scalar* TREEDYN_RESTRICT P4, Scalar* TREEDYN_RESTRICT P5) noexcept {
  const Scalar* const s = c + ChildMotionLayout::s;
  const Scalar* const Et = c + ChildMotionLayout::Et;
  const Scalar* const R = c + ChildMotionLayout::rxEt;
  const Scalar* const u = c + ChildMotionLayout::u;
  for (Eigen::Index r = 0; r < w; ++r) {
    const Scalar a0 = w0[r], a1 = w1[r], a2 = w2[r], b0 = v0[r], b1 = v1[r], b2 = v2[r];
    const Scalar tr = t[r] - (a0 * u[0] + a1 * u[1] + a2 * u[2] + b0 * u[3] + b1 * u[4] + b2 * u[5]);
    t[r] = tr;
    P0[r] = tr * s[0] + (a0 * Et[0] + a1 * Et[1] + a2 * Et[2]);
    P1[r] = tr * s[1] + (a0 * Et[3] + a1 * Et[4] + a2 * Et[5]);
    P2[r] = tr * s[2] + (a0 * Et[6] + a1 * Et[7] + a2 * Et[8]);
    P3[r] = (tr * s[3] + (b0 * Et[0] + b1 * Et[1] + b2 * Et[2])) + (a0 * R[0] + a1 * R[1] + a2 * R[2]);
    P4[r] = (tr * s[4] + (b0 * Et[3] + b1 * Et[4] + b2 * Et[5])) + (a0 * R[3] + a1 * R[4] + a2 * R[5]);
    P5[r] = (tr * s[5] + (b0 * Et[6] + b1 * Et[7] + b2 * Et[8])) + (a0 * R[6] + a1 * R[7] + a2 * R[8]);
  }
}

/// T ← T D_i⁻¹ (every row x of T: x ← D_i⁻¹ x) for the K×K factor L of factor_joint_pivot (K = n_i,
/// 2…6): joint_pivot.hpp's solve_joint_pivot, step for step, on every row of T, the row's K entries held
/// in registers. Every column is its own pointer, declared disjoint from the others (x_k = column k of T;
/// those past K are null), so the loop vectorises over the rows.
template <int K, class Scalar>
void minverse_aba_solve_pivot_columns(Eigen::Index w, const PivotMatrix<Scalar>& L, Scalar* TREEDYN_RESTRICT x0,
                                      Scalar* TREEDYN_RESTRICT x1, Scalar* TREEDYN_RESTRICT x2,
                                      Scalar* TREEDYN_RESTRICT x3, Scalar* TREEDYN_RESTRICT x4,
                                      Scalar* TREEDYN_RESTRICT x5) noexcept {
  Scalar l[K][K];
  for (int j = 0; j < K; ++j)
    for (int i = j; i < K; ++i) l[i][j] = L(i, j);
  for (Eigen::Index r = 0; r < w; ++r) {
    Scalar x[6];
    x[0] = x0[r], x[1] = x1[r];  // K ≥ 2
    if constexpr (K > 2) x[2] = x2[r];
    if constexpr (K > 3) x[3] = x3[r];
    if constexpr (K > 4) x[4] = x4[r];
    if constexpr (K > 5) x[5] = x5[r];
    // unrolled completely (K ≤ 6), so that the loop over the rows is the one that vectorises
#pragma GCC unroll 6
    for (int i = 0; i < K; ++i) {  // L y = x
#pragma GCC unroll 6
      for (int j = 0; j < i; ++j) x[i] -= l[i][j] * x[j];
      x[i] /= l[i][i];
    }
#pragma GCC unroll 6
    for (int i = K - 1; i >= 0; --i) {  // Lᵀ z = y
#pragma GCC unroll 6
      for (int j = i + 1; j < K; ++j) x[i] -= l[j][i] * x[j];
      x[i] /= l[i][i];
    }
    x0[r] = x[0], x1[r] = x[1];
    if constexpr (K > 2) x2[r] = x[2];
    if constexpr (K > 3) x3[r] = x[3];
    if constexpr (K > 4) x4[r] = x[4];
    if constexpr (K > 5) x5[r] = x[5];
  }
}

/// minverse_aba_solve_pivot_columns for the width of L, read at run time.
template <class Scalar, class DstBlock>
void minverse_aba_solve_pivot_rows(const PivotMatrix<Scalar>& L, DstBlock T) noexcept {
  const Eigen::Index w = T.rows();
  Scalar* x[6] = {};
  for (Eigen::Index k = 0; k < T.cols(); ++k) x[k] = &T(0, k);
  const auto solve = [&](auto width) {
    minverse_aba_solve_pivot_columns<decltype(width)::value>(w, L, x[0], x[1], x[2], x[3], x[4], x[5]);
  };
  switch (L.rows()) {
    case 2: solve(std::integral_constant<int, 2>{}); break;
    case 3: solve(std::integral_constant<int, 3>{}); break;
    case 4: solve(std::integral_constant<int, 4>{}); break;
    case 5: solve(std::integral_constant<int, 5>{}); break;
    default: solve(std::integral_constant<int, 6>{}); break;
  }
}

/// The strictly lower triangle of M copied into the strictly upper one, in 8×8 tiles: each tile's 8
/// columns are read contiguously and written as 8 rows, so the strided stores go 8 entries at a time to
/// lines the previous tile left in cache (a row-by-row copy writes a whole row of the upper triangle,
/// one line per entry, and costs twice as long at n = 30–40).
template <class Derived>
void mirror_lower_to_upper(Eigen::MatrixBase<Derived>& M) noexcept {
  constexpr int B = 8;
  const Eigen::Index n = M.rows();
  const auto mirror_square = [&M](Eigen::Index begin, Eigen::Index end) {  // the diagonal square [begin, end)²
    for (Eigen::Index j = begin; j < end; ++j)
      for (Eigen::Index i = j + 1; i < end; ++i) M(j, i) = M(i, j);
  };
  Eigen::Index j0 = 0;
  for (; j0 + B <= n; j0 += B) {
    mirror_square(j0, j0 + B);
    Eigen::Index i0 = j0 + B;
    for (; i0 + B <= n; i0 += B) M.template block<B, B>(j0, i0) = M.template block<B, B>(i0, j0).transpose();
    for (Eigen::Index i = i0; i < n; ++i) M.template block<B, 1>(j0, i) = M.template block<1, B>(i, j0).transpose();
  }
  mirror_square(j0, n);  // the last n mod 8 columns
}

}  // namespace treedyn::detail
