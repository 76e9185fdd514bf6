// ltdl_inverse: the full symmetric inverse A⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ of a matrix factorized by the sparse LTDL.
//
// Source: H⁻¹ via LTDL (solve H X = I, exploiting that L⁻ᵀe_j is
// supported on anc(j)), on the factor of R. Featherstone, IJRR 24(6), 2005
// (docs/references.md), Appendix A, and its x ← L⁻¹x routine (tree_products.hpp P1–P8).
//
// Derivation. A = Lᵀ D L with L unit lower triangular, L_ik ≠ 0 (k < i) only for k ∈ anc(i). Then
// X = A⁻¹ satisfies L X = D⁻¹ L⁻ᵀ. L⁻ᵀ is unit upper triangular and column j of it is supported on
// anc(j) ∪ {j} ⊂ {0 … j} (the ancestor sparsity of L⁻¹), so row i of D⁻¹L⁻ᵀ vanishes left of the
// diagonal and equals 1/D_i on it. Row i of L X = D⁻¹L⁻ᵀ, read in columns j ≤ i, is therefore
//     X_ij = δ_ij / D_i − Σ_{k ∈ anc(i), k < i} L_ik X_kj          (j ≤ i),
// which needs only X_kj with k, j < i (or X_ki = X_ik for the diagonal): rows are finished top down, and
// each finished row is mirrored into its column so that X_kj is read as column k of the leading block.
// This is "solve H X = I" with L⁻ᵀe_j's sparsity and the symmetry of X both used: half the
// right-hand sides' work, no copy of L⁻¹ and no workspace.
//   I1  for i = 1..n:                                       (paper index; code i−1)
//   I2    X_{1..i−1, i} = 0
//   I3    for k ∈ anc(i) \ {i}:  X_{1..i−1, i} −= L_ik X_{1..i−1, k}     (column k, already symmetric)
//   I4    X_ii = 1/D_i − Σ_{k ∈ anc(i) \ {i}} L_ik X_ki
//   I5    X_{i, 1..i−1} = X_{1..i−1, i}ᵀ                    (mirror: row i, so column i is complete too)
// Indexing: paper k ↔ code k−1; "k ∈ anc(i) \ {i}" is the walk k = λ(i), λ(λ(i)), … while k ≠ no_parent.
//
// Contract
//   ltdl_inverse(A, lambda, out): A is the dense-storage result of a SUCCESSFUL kernels::ltdl(A, lambda)
//     (A(k, k) = D_k > 0, A(k, j) = L_kj for j ∈ anc(k); only those entries are read). lambda is the
//     regular parent array of the factorization (0-based, no_parent = -1). out is any writable n×n Eigen
//     object (Matrix, Block, Ref, Map) and receives the FULL symmetric A⁻¹, both triangles; every entry of
//     out is written. out must not alias A.
//   ltdl_inverse_packed(values, pattern, out): the same from the packed factor of ltdl_packed.
//   Cost: Σ_i (d_i − 1)(i + 1) multiply-adds and n divisions (d_i = depth of i), ≤ n·D1 + D1 — for an
//   unbranched chain n³/3, the cost of a dense SPD inverse after its factorization. The result is dense
//   in general (X_ij ≠ 0 whenever i and j share an ancestor), so Ω(n²) is unavoidable.
//   noexcept; never allocates (out is the only workspace).
#pragma once

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {
namespace detail {

/// I1–I5 for one storage layout of the factor: pivot(i) returns D_i; for_each_ancestor(i, f) calls
/// f(k, L_ik) for every strict ancestor k of i.
template <class Out, class Pivot, class ForEachAncestor>
void ltdl_inverse_rows(Out& X, int n, const Pivot& pivot, const ForEachAncestor& for_each_ancestor) noexcept {
  using Scalar = typename Out::Scalar;
  for (int i = 0; i < n; ++i) {                                                 // I1
    auto x_i = X.col(i).head(i);                                                // X_{0..i−1, i}
    x_i.setZero();                                                              // I2
    // I3, four ancestors per pass over x_i (x_i is read and written once per four columns k)
    int k4[4];
    Scalar L4[4];
    int pending = 0;
    for_each_ancestor(i, [&](int k, const Scalar& L_ik) {
      k4[pending] = k;
      L4[pending++] = L_ik;
      if (pending < 4) return;
      x_i.noalias() -= L4[0] * X.col(k4[0]).head(i) + L4[1] * X.col(k4[1]).head(i) +
                       L4[2] * X.col(k4[2]).head(i) + L4[3] * X.col(k4[3]).head(i);
      pending = 0;
    });
    for (int m = 0; m < pending; ++m) x_i.noalias() -= L4[m] * X.col(k4[m]).head(i);
    Scalar x_ii = Scalar(1) / pivot(i);                                         // I4
    for_each_ancestor(i, [&](int k, const Scalar& L_ik) { x_ii -= L_ik * X(k, i); });
    X(i, i) = x_ii;
    X.row(i).head(i) = x_i.transpose();                                         // I5
  }
}

}  // namespace detail

/// out ← A⁻¹ (full symmetric) from the dense in-place LTDL factor of A (kernels/ltdl.hpp).
template <class DA, class Parents, class Out>
void ltdl_inverse(const Eigen::MatrixBase<DA>& A, const Parents& lambda, Out&& out) noexcept {
  using Scalar = typename DA::Scalar;
  const int n = detail::node_count(lambda);
  if (!(detail::tree_kernel_arguments_ok("ltdl_inverse", lambda, A, out) &&
        detail::shape_ok("ltdl_inverse", "out", out, n, n, "lambda.size()")))
    return;
  detail::ltdl_inverse_rows(
      out, n, [&](int i) { return A(i, i); },
      [&](int i, const auto& f) {
        for (int k = detail::parent_at(lambda, i); k != no_parent; k = detail::parent_at(lambda, k)) f(k, Scalar(A(i, k)));
      });
}

/// out ← A⁻¹ (full symmetric) from the packed LTDL factor of A (kernels/ltdl_packed.hpp).
template <class DV, class Out>
void ltdl_inverse_packed(const Eigen::MatrixBase<DV>& values, const AncestorPattern& pattern, Out&& out) noexcept {
  const int n = pattern.size();
  if (!(detail::size_ok("ltdl_inverse_packed", "values", values, pattern.nonzeros(), "pattern.nonzeros()") &&
        detail::shape_ok("ltdl_inverse_packed", "out", out, n, n, "pattern.size()")))
    return;
  const auto* v = values.derived().data();
  detail::ltdl_inverse_rows(
      out, n, [&](int i) { return v[pattern.row_start(i)]; },
      [&](int i, const auto& f) {
        for (int t = pattern.row_start(i) + 1; t < pattern.row_start(i + 1); ++t) f(pattern.column(t), v[t]);
      });
}

}  // namespace treedyn
