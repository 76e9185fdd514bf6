// Sparse LTL factorization A = Lᵀ L of a symmetric positive-definite matrix with branch-induced sparsity.
//
// Source: R. Featherstone, "Efficient Factorization of the Joint Space Inertia Matrix for Branched
// Kinematic Trees", IJRR 24(6), 2005 (docs/references.md), Section 2 (the
// algorithm listed after eq. 6, Fig. 3); notation: docs/notation.md.
//
// Contract
//   A       n×n, any storage order; only the lower triangle is read and written, and within it only
//           the diagonal and the ancestor entries A(k, j), j ∈ anc(k) (the paper's eq. 6). The strict
//           upper triangle is never touched.
//   lambda  regular parent array of size n (0-based, no_parent = -1, lambda[k] < k).
//   On success the lower triangle holds L (non-unit diagonal): A = Lᵀ L. It equals the Cholesky
//   factor of the reverse-permuted matrix, reversed (the paper's §3).
//   A lambda that is not regular returns FactorStatus::invalid_parent_array naming its first irregular
//   entry, before anything is touched; an A of the wrong size fails a TREEDYN_CHECK (detail/check.hpp).
//   Returns FactorStatus naming the first row (from the bottom) whose pivot is not > 0; no square
//   root of a non-positive number is ever taken.
//   Cost: n square roots + D1 divisions + D2 multiply-subtracts (the paper's Table 1). noexcept; never allocates.
//
// Indexing: the paper is 1-based with base 0; here "paper k ↔ code k−1; while i ≠ 0 ↔ while (i != no_parent)".
//
// Paper pseudo-code (labels are repeated on the code lines that implement them):
//   S1  for k = n to 1 do
//   S2    H_kk = sqrt(H_kk)
//   S3    j = λ(k)
//   S4    while j ≠ 0 do
//   S5      H_kj = H_kj / H_kk
//   S6      j = λ(j)
//   S7    end
//   S8    i = λ(k)
//   S9    while i ≠ 0 do
//   S10     j = i
//   S11     while j ≠ 0 do
//   S12       H_ij = H_ij − H_ki H_kj
//   S13       j = λ(j)
//   S14     end
//   S15     i = λ(i)
//   S16   end
//   S17 end
// Added to the paper: before S2, the pivot H_kk is checked to be > 0.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/status.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {

template <class Derived, class Parents>
FactorStatus ltl(Eigen::MatrixBase<Derived>& A, const Parents& lambda) noexcept {
  using std::sqrt;
  const int n = detail::node_count(lambda);
  if (const int bad = detail::first_irregular(lambda); bad >= 0) return FactorStatus::invalid_parent_array(bad, "ltl");
  if (!detail::shape_ok("ltl", "A", A, n, n, "lambda.size()")) return FactorStatus::invalid_argument("ltl");
  for (int k = n - 1; k >= 0; --k) {                                            // S1
    if (!detail::pivot_ok(A(k, k))) return FactorStatus::non_positive_pivot(k, "ltl");
    A(k, k) = sqrt(A(k, k));                                                    // S2
    for (int j = detail::parent_at(lambda, k); j != no_parent;                     // S3, S4
         j = detail::parent_at(lambda, j)) {                                        // S6
      A(k, j) /= A(k, k);                                                       // S5
    }
    for (int i = detail::parent_at(lambda, k); i != no_parent;                     // S8, S9
         i = detail::parent_at(lambda, i)) {                                        // S15
      for (int j = i; j != no_parent; j = detail::parent_at(lambda, j)) {          // S10, S11, S13
        A(i, j) -= A(k, i) * A(k, j);                                           // S12
      }
    }
  }
  return FactorStatus::success();
}

/// Overload for temporaries such as a block expression, an Eigen::Ref or an Eigen::Map.
template <class Derived, class Parents>
FactorStatus ltl(Eigen::MatrixBase<Derived>&& A, const Parents& lambda) noexcept {
  return ltl(A, lambda);
}

}  // namespace treedyn
