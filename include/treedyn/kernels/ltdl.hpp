// Sparse LTDL factorization A = Lᵀ D L of a symmetric positive-definite matrix with branch-induced sparsity.
//
// Source: R. Featherstone, "Efficient Factorization of the Joint Space Inertia Matrix for Branched
// Kinematic Trees", IJRR 24(6), 2005 (docs/references.md), Appendix A,
// "LTDL factorization"; notation: docs/notation.md.
//
// Contract
//   A       n×n, any storage order; only the lower triangle (diagonal included) is read and written.
//           Its lower-triangle nonzeros must lie in ancestor columns: A(k, j) ≠ 0, j < k ⇒ j ∈ anc(k)
//           (the paper's eq. 6). Entries of the lower triangle outside that pattern are never touched,
//           and the strict upper triangle is never read or written.
//   lambda  regular parent array of size n (0-based, no_parent = -1, lambda[k] < k); the expanded
//           per-DoF array for a JSIM (topology/parent_array.hpp, expand_parent_array).
//   On success A(k, k) = D_k and A(k, j) = L_kj for j ∈ anc(k); L's unit diagonal is implied.
//   A lambda that is not regular returns FactorStatus::invalid_parent_array naming its first irregular
//   entry, before anything is touched; an A of the wrong size fails a TREEDYN_CHECK (detail/check.hpp).
//   Returns FactorStatus naming the first row (from the bottom) whose pivot D_k is not > 0; the
//   factorization stops there (see factor_status.hpp).
//   Cost: D1 divisions + D2 multiply-subtracts (the paper's Table 1). noexcept; never allocates.
//
// Indexing: the paper is 1-based with base 0; here "paper k ↔ code k−1; while i ≠ 0 ↔ while (i != no_parent)".
//
// Paper pseudo-code (labels are repeated on the code lines that implement them):
//   T1  for k = n to 1 do
//   T2    i = λ(k)
//   T3    while i ≠ 0 do
//   T4      a = A_ki / A_kk
//   T5      j = i
//   T6      while j ≠ 0 do
//   T7        A_ij = A_ij − A_kj a
//   T8        j = λ(j)
//   T9      end
//   T10     A_ki = a
//   T11     i = λ(i)
//   T12   end
//   T13 end
// Added to the paper: before T2, row k's pivot A_kk (final at this point) is checked to be > 0.
#pragma once

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/status.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {

template <class Derived, class Parents>
FactorStatus ltdl(Eigen::MatrixBase<Derived>& A, const Parents& lambda) noexcept {
  using Scalar = typename Derived::Scalar;
  const int n = detail::node_count(lambda);
  if (const int bad = detail::first_irregular(lambda); bad >= 0) return FactorStatus::invalid_parent_array(bad, "ltdl");
  if (!detail::shape_ok("ltdl", "A", A, n, n, "lambda.size()")) return FactorStatus::invalid_argument("ltdl");
  for (int k = n - 1; k >= 0; --k) {                                   // T1
    if (!detail::pivot_ok(A(k, k))) return FactorStatus::non_positive_pivot(k, "ltdl");
    for (int i = detail::parent_at(lambda, k); i != no_parent;            // T2, T3
         i = detail::parent_at(lambda, i)) {                               // T11
      const Scalar a = A(k, i) / A(k, k);                               // T4
      for (int j = i; j != no_parent; j = detail::parent_at(lambda, j)) {  // T5, T6, T8
        A(i, j) -= A(k, j) * a;                                         // T7
      }
      A(k, i) = a;                                                      // T10
    }
  }
  return FactorStatus::success();
}

/// Overload for temporaries such as `ltdl(H.topLeftCorner(n, n), lambda)` or an Eigen::Ref/Map.
template <class Derived, class Parents>
FactorStatus ltdl(Eigen::MatrixBase<Derived>&& A, const Parents& lambda) noexcept {
  return ltdl(A, lambda);
}

}  // namespace treedyn
