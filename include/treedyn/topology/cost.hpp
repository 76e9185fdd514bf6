// treedyn cost metrics of a kinematic tree: D0, D1, D2 and the operation counts built from them.
//
// Citation: Featherstone, IJRR 24(6) 2005 (docs/references.md): eq. 8 (D1 = sum(d_i - 1), also the number of
// nonzeros below the diagonal of H), eq. 9 (D2 = sum d_i(d_i - 1)/2), eq. 15 (D0 = #{i : lambda(i) !=
// base}), Table 1 (factorization costs), §4.2 and Table 2 (the LTDL operation count D1 + 2 D2 used for
// dense/sparse ratios), §6 (2 D1 + n nonzeros). Notation: docs/notation.md.
//
// Apply cost_metrics to the expanded parent array (one entry per DoF) for factorization costs, and to
// the body parent array for CRBA costs (Featherstone (2005) §6 uses both).
//
// Costs and allocation: cost_metrics is O(n) and allocates one scratch array of n ints;
// dense_cost_metrics is O(1); dense_to_sparse_ratio is O(n) with the same scratch array.
// Counts are exact 64-bit integers; a count that would not fit throws std::overflow_error
// (an unbranched chain overflows D2 beyond about 3.8 million nodes).
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "treedyn/fwd.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {

/// Topology cost numbers of Featherstone (2005): D0, D1, D2 as in eqs. 15, 8, 9; n = number of nodes (rows of H
/// when computed on the expanded array).
struct CostMetrics {
  long long D0 = 0;  ///< nodes not attached to the base (eq. 15)
  long long D1 = 0;  ///< sum of (d_i - 1): nonzeros below the diagonal of H, divisions of LTDL (eq. 8)
  long long D2 = 0;  ///< sum of d_i (d_i - 1) / 2: multiply-adds of LTDL (eq. 9)
  int n = 0;         ///< number of nodes

  /// Structural nonzeros of the n x n matrix H (or of L + L^T): n + 2 D1 (Featherstone (2005) §6).
  constexpr long long nonzeros() const noexcept { return static_cast<long long>(n) + 2 * D1; }
  /// Operation count of an LTDL factorization, D1 + 2 D2 (Featherstone (2005) §4.2, Fig. 5, Table 2 ratios).
  constexpr long long ltdl_ops() const noexcept { return D1 + 2 * D2; }

  friend constexpr bool operator==(const CostMetrics& a, const CostMetrics& b) noexcept {
    return a.D0 == b.D0 && a.D1 == b.D1 && a.D2 == b.D2 && a.n == b.n;
  }
  friend constexpr bool operator!=(const CostMetrics& a, const CostMetrics& b) noexcept {
    return !(a == b);
  }
};

namespace detail {

inline long long checked_add(long long a, long long b, const char* what) {
  // Both operands are non-negative here.
  if (a > std::numeric_limits<long long>::max() - b) {
    throw std::overflow_error(std::string("cost metrics: ") + what + " overflows 64-bit integers");
  }
  return a + b;
}

inline long long checked_mul(long long a, long long b, const char* what) {
  // Both operands are non-negative here.
  if (b != 0 && a > std::numeric_limits<long long>::max() / b) {
    throw std::overflow_error(std::string("cost metrics: ") + what + " overflows 64-bit integers");
  }
  return a * b;
}

}  // namespace detail

/// D0, D1, D2 and n of a parent array (Featherstone (2005), eqs. 8, 9, 15). Throws std::invalid_argument if lambda
/// is not regular, std::overflow_error if a count does not fit in 64 bits. O(n); allocates n ints.
template <class Parents>
CostMetrics cost_metrics(const Parents& lambda) {
  const std::vector<int> d = depths(lambda);  // validates
  CostMetrics c;
  c.n = static_cast<int>(d.size());
  for (const int di : d) {
    const long long dm1 = static_cast<long long>(di) - 1;
    if (dm1 > 0) ++c.D0;
    c.D1 = detail::checked_add(c.D1, dm1, "D1");
    // d (d - 1) / 2 <= (2^31)^2 / 2 fits; only the sum can overflow.
    c.D2 = detail::checked_add(c.D2, static_cast<long long>(di) * dm1 / 2, "D2");
  }
  return c;
}

/// The metrics of an unbranched chain of n nodes (a dense H): D0 = n - 1, D1 = (n^2 - n)/2,
/// D2 = (n^3 - n)/6 (Featherstone (2005) Table 2, first row; eqs. 10, 11 upper bounds). Throws
/// std::invalid_argument if n < 0, std::overflow_error if D2 does not fit in 64 bits. O(1).
inline CostMetrics dense_cost_metrics(int n) {
  if (n < 0) {
    throw std::invalid_argument("dense_cost_metrics: n = " + std::to_string(n) +
                                ", but a matrix size must be >= 0");
  }
  CostMetrics c;
  c.n = n;
  if (n == 0) return c;
  // (n - 1) n (n + 1) / 6 without overflowing the intermediate product: take the factor 2 and the
  // factor 3 out of the three consecutive integers first.
  long long f[3] = {static_cast<long long>(n) - 1, static_cast<long long>(n),
                    static_cast<long long>(n) + 1};
  for (long long& x : f) {
    if (x % 2 == 0) {
      x /= 2;
      break;
    }
  }
  for (long long& x : f) {
    if (x % 3 == 0) {
      x /= 3;
      break;
    }
  }
  c.D0 = static_cast<long long>(n) - 1;
  c.D1 = (static_cast<long long>(n) - 1) * static_cast<long long>(n) / 2;
  c.D2 = detail::checked_mul(detail::checked_mul(f[0], f[1], "D2"), f[2], "D2");
  return c;
}

/// How many times cheaper an LTDL factorization exploiting the branch-induced sparsity of `lambda` is
/// than a dense factorization of the same size, counted as Featherstone (2005) §4.2 does:
/// dense_cost_metrics(n).ltdl_ops() / cost_metrics(lambda).ltdl_ops(). The paper prints 7.8 and 430 for
/// balanced binary trees of 15 and 255 nodes, 5.3 and 74 for grid spanning trees of 16 and 256 nodes.
/// Returns 1 when both counts are zero (n <= 1) and +infinity when only the sparse count is zero (every
/// node attached to the base). Throws as cost_metrics does. O(n); allocates n ints.
/// Real is the floating type of the result, chosen by the caller (e.g. dense_to_sparse_ratio<double>(λ)):
/// a ratio of integer op counts, independent of any model's Scalar.
template <class Real, class Parents>
Real dense_to_sparse_ratio(const Parents& lambda) {
  const CostMetrics sparse = cost_metrics(lambda);
  const CostMetrics dense = dense_cost_metrics(sparse.n);
  if (sparse.ltdl_ops() == 0) return dense.ltdl_ops() == 0 ? Real(1) : std::numeric_limits<Real>::infinity();
  return static_cast<Real>(dense.ltdl_ops()) / static_cast<Real>(sparse.ltdl_ops());
}

}  // namespace treedyn
