// random_tree_spd: a deterministic symmetric positive-definite matrix with exactly the branch-induced
// sparsity of a parent array, the input the factorization and product kernels expect. A setup utility
// for tests, benchmarks and examples, not a kernel: it allocates its result and O(n²) scratch.
//
// The matrix is A = Jᵀ J + I, formed in Scalar, with J lower triangular on the ancestor pattern
// (J(k, j) ≠ 0 only for j = k or j ∈ anc(k)), so A fits Featherstone (2005) eq. 6 (docs/references.md):
// A(k, j) ≠ 0, j < k ⇒ j ∈ anc(k). J's diagonal is drawn from [0.5, 1.5), its ancestor entries from
// [−0.5, 0.5), row by row (k ascending, each row's ancestors from the parent to the root), by
// SplitMix64, so the same seed gives the same matrix on every platform. J's entries are the
// generator's 53-bit draws rounded once to Scalar (exact in double and wider types); entries outside the
// pattern are exact zeros.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "treedyn/fwd.hpp"
#include "treedyn/topology/generators.hpp"

namespace treedyn {

/// A = Jᵀ J + I on lambda's pattern, drawing J's entries from rng (which advances by one draw per
/// structural nonzero of J). lambda: a regular parent array (−1 <= lambda[k] < k).
template <class Scalar>
Eigen::Matrix<Scalar, Dynamic, Dynamic> random_tree_spd(const std::vector<int>& lambda, SplitMix64& rng) {
  using Matrix = Eigen::Matrix<Scalar, Dynamic, Dynamic>;
  const auto n = static_cast<Eigen::Index>(lambda.size());
  const auto parent = [&lambda](Eigen::Index k) { return lambda[static_cast<std::size_t>(k)]; };
  Matrix J = Matrix::Zero(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    J(k, k) = Scalar(rng.uniform(0.5, 1.5));
    for (int j = parent(k); j != no_parent; j = parent(j)) J(k, j) = Scalar(rng.uniform(-0.5, 0.5));
  }
  Matrix A = J.transpose() * J;
  A.diagonal().array() += Scalar(1);
  // Off-pattern entries are sums of products with a zero factor; clear them so none is a signed zero.
  std::vector<char> on_path(lambda.size());
  for (Eigen::Index k = 0; k < n; ++k) {
    for (Eigen::Index j = 0; j < n; ++j) on_path[static_cast<std::size_t>(j)] = 0;
    for (Eigen::Index j = k; j != no_parent; j = parent(j)) on_path[static_cast<std::size_t>(j)] = 1;
    for (Eigen::Index j = 0; j < k; ++j)
      if (!on_path[static_cast<std::size_t>(j)]) A(k, j) = A(j, k) = Scalar(0);
  }
  return A;
}

/// The same matrix from a fresh SplitMix64 seeded with `seed`.
template <class Scalar>
Eigen::Matrix<Scalar, Dynamic, Dynamic> random_tree_spd(const std::vector<int>& lambda, std::uint64_t seed) {
  SplitMix64 rng(seed);
  return random_tree_spd<Scalar>(lambda, rng);
}

}  // namespace treedyn
