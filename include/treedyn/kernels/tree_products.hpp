// Products and solves with the sparse triangular factors of LTL / LTDL: L·x, Lᵀ·x, L⁻¹·x, L⁻ᵀ·x, and A⁻¹·x.
//
// Source: R. Featherstone, IJRR 24(6), 2005 (docs/references.md), Appendix A,
// "Algorithm for y = Lx / y = Lᵀx / x = L⁻¹x / x = L⁻ᵀx"; notation: docs/notation.md.
//
// Contract
//   L       n×n factor in the lower triangle of a matrix factorized by ltl (non-unit diagonal) or by
//           ltdl (the *_unit forms: L_ii = 1 is implied and the diagonal, which holds D, is not read).
//           Only the diagonal and ancestor entries L(i, j), j ∈ anc(i), are read.
//   lambda  the regular parent array the factor was computed with. Checked at entry with the sizes
//           (detail/check.hpp): an irregular lambda or a size mismatch fails a TREEDYN_CHECK and, if the
//           handler returns, the call returns without touching x or y.
//   x, y    n-vectors or n×m matrices of right-hand sides (row i of a matrix plays the role of x_i).
//           Any writable Eigen expression: a Matrix, a Block, a Ref, a Map.
//   mul_l and the solves work in place on x. mul_lt writes y = Lᵀx and needs y distinct from x
//   (the paper: "It does not work in situ").
//   Cost per column (LTL; the unit forms drop the n diagonal operations): L·x and Lᵀ·x n mul + D1
//   multiply-adds; L⁻¹·x and L⁻ᵀ·x n div + D1 multiply-subtracts (the paper's Table 1).
//   noexcept; never allocates.
//
// Indexing: the paper is 1-based with base 0; here "paper k ↔ code k−1; while j ≠ 0 ↔ while (j != no_parent)".
//
// Paper pseudo-code, labels repeated on the code lines that implement them:
//   y = L x                  y = Lᵀ x                  x = L⁻¹ x                  x = L⁻ᵀ x
//   M1 for i = n to 1 do     N1 for i = 1 to n do      P1 for i = 1 to n do       Q1 for i = n to 1 do
//   M2   y_i = L_ii x_i      N2   y_i = L_ii x_i       P2   j = λ(i)              Q2   x_i = x_i / L_ii
//   M3   j = λ(i)            N3   j = λ(i)             P3   while j ≠ 0 do        Q3   j = λ(i)
//   M4   while j ≠ 0 do      N4   while j ≠ 0 do       P4     x_i = x_i − L_ij x_j Q4   while j ≠ 0 do
//   M5     y_i += L_ij x_j   N5     y_j += L_ij x_i    P5     j = λ(j)            Q5     x_j = x_j − L_ij x_i
//   M6     j = λ(j)          N6     j = λ(j)           P6   end                   Q6     j = λ(j)
//   M7   end                 N7   end                  P7   x_i = x_i / L_ii      Q7   end
//   M8 end                   N8 end                    P8 end                     Q8 end
// Lᵀx is correct only in this sequential order: y_i is assigned (N2) before any descendant (larger
// index) accumulates into it (N5).
#pragma once

#include <utility>

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {
namespace detail {

// One body per routine; `Unit` selects the LTDL form (L_ii = 1 implied, the diagonal is not read).

template <bool Unit, class DL, class Parents, class X>
void mul_l(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X& x) noexcept {
  const int n = node_count(lambda);
  if (!tree_kernel_arguments_ok("mul_l", lambda, L, x)) return;
  for (int i = n - 1; i >= 0; --i) {                                            // M1
    if (!Unit) x.row(i) *= L(i, i);                                             // M2 (in situ)
    for (int j = parent_at(lambda, i); j != no_parent; j = parent_at(lambda, j)) {    // M3, M4, M6
      x.row(i) += L(i, j) * x.row(j);                                           // M5
    }
  }
}

template <bool Unit, class DL, class Parents, class X, class Y>
void mul_lt(const Eigen::MatrixBase<DL>& L, const Parents& lambda, const X& x, Y& y) noexcept {
  const int n = node_count(lambda);
  if (!(tree_kernel_arguments_ok("mul_lt", lambda, L, x) && shape_ok("mul_lt", "y", y, n, x.cols(), "x's shape")))
    return;
  for (int i = 0; i < n; ++i) {                                                 // N1
    if (Unit) {
      y.row(i) = x.row(i);                                                      // N2
    } else {
      y.row(i) = L(i, i) * x.row(i);                                            // N2
    }
    for (int j = parent_at(lambda, i); j != no_parent; j = parent_at(lambda, j)) {    // N3, N4, N6
      y.row(j) += L(i, j) * x.row(i);                                           // N5
    }
  }
}

template <bool Unit, class DL, class Parents, class X>
void solve_l(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X& x) noexcept {
  const int n = node_count(lambda);
  if (!tree_kernel_arguments_ok("solve_l", lambda, L, x)) return;
  for (int i = 0; i < n; ++i) {                                                 // P1
    for (int j = parent_at(lambda, i); j != no_parent; j = parent_at(lambda, j)) {    // P2, P3, P5
      x.row(i) -= L(i, j) * x.row(j);                                           // P4
    }
    if (!Unit) x.row(i) /= L(i, i);                                             // P7
  }
}

template <bool Unit, class DL, class Parents, class X>
void solve_lt(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X& x) noexcept {
  const int n = node_count(lambda);
  if (!tree_kernel_arguments_ok("solve_lt", lambda, L, x)) return;
  for (int i = n - 1; i >= 0; --i) {                                            // Q1
    if (!Unit) x.row(i) /= L(i, i);                                             // Q2
    for (int j = parent_at(lambda, i); j != no_parent; j = parent_at(lambda, j)) {    // Q3, Q4, Q6
      x.row(j) -= L(i, j) * x.row(i);                                           // Q5
    }
  }
}

// x_i ← x_i / D_i, D on the diagonal of an LTDL-factorized matrix.
template <class DA, class X>
void solve_d(const Eigen::MatrixBase<DA>& A, X& x) noexcept {
  for (Eigen::Index i = 0; i < x.rows(); ++i) x.row(i) /= A(i, i);
}

}  // namespace detail

// ---- LTL factors (non-unit diagonal) ----------------------------------------------------------

/// x ← L x, in place.
template <class DL, class Parents, class X>
void mul_l(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X&& x) noexcept {
  detail::mul_l<false>(L, lambda, x);
}
/// y ← Lᵀ x; y must not alias x.
template <class DL, class Parents, class DX, class Y>
void mul_lt(const Eigen::MatrixBase<DL>& L, const Parents& lambda, const Eigen::MatrixBase<DX>& x,
            Y&& y) noexcept {
  detail::mul_lt<false>(L, lambda, x, y);
}
/// x ← L⁻¹ x, in place.
template <class DL, class Parents, class X>
void solve_l(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X&& x) noexcept {
  detail::solve_l<false>(L, lambda, x);
}
/// x ← L⁻ᵀ x, in place.
template <class DL, class Parents, class X>
void solve_lt(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X&& x) noexcept {
  detail::solve_lt<false>(L, lambda, x);
}

// ---- LTDL factors (unit diagonal implied) -----------------------------------------------------

/// x ← L x, in place, L unit lower triangular (LTDL).
template <class DL, class Parents, class X>
void mul_l_unit(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X&& x) noexcept {
  detail::mul_l<true>(L, lambda, x);
}
/// y ← Lᵀ x, L unit lower triangular (LTDL); y must not alias x.
template <class DL, class Parents, class DX, class Y>
void mul_lt_unit(const Eigen::MatrixBase<DL>& L, const Parents& lambda, const Eigen::MatrixBase<DX>& x,
                 Y&& y) noexcept {
  detail::mul_lt<true>(L, lambda, x, y);
}
/// x ← L⁻¹ x, in place, L unit lower triangular (LTDL).
template <class DL, class Parents, class X>
void solve_l_unit(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X&& x) noexcept {
  detail::solve_l<true>(L, lambda, x);
}
/// x ← L⁻ᵀ x, in place, L unit lower triangular (LTDL).
template <class DL, class Parents, class X>
void solve_lt_unit(const Eigen::MatrixBase<DL>& L, const Parents& lambda, X&& x) noexcept {
  detail::solve_lt<true>(L, lambda, x);
}

// ---- solves with the factorized matrix ---------------------------------------------------------

/// x ← A⁻¹ x for A = Lᵀ L factorized in place by ltl: x ← L⁻ᵀ x, then x ← L⁻¹ x.
template <class DA, class Parents, class X>
void ltl_solve(const Eigen::MatrixBase<DA>& A, const Parents& lambda, X&& x) noexcept {
  if (!detail::tree_kernel_arguments_ok("ltl_solve", lambda, A, x)) return;
  detail::solve_lt<false>(A, lambda, x);
  detail::solve_l<false>(A, lambda, x);
}

/// x ← A⁻¹ x for A = Lᵀ D L factorized in place by ltdl: x ← L⁻ᵀ x, x_i ← x_i / D_i, x ← L⁻¹ x
/// (the paper's back-substitution, Table 1). Cost per column: n div + 2·D1 multiply-subtracts.
template <class DA, class Parents, class X>
void ltdl_solve(const Eigen::MatrixBase<DA>& A, const Parents& lambda, X&& x) noexcept {
  if (!detail::tree_kernel_arguments_ok("ltdl_solve", lambda, A, x)) return;
  detail::solve_lt<true>(A, lambda, x);
  detail::solve_d(A, x);
  detail::solve_l<true>(A, lambda, x);
}

}  // namespace treedyn
