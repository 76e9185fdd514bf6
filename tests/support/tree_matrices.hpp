// Test matrices with branch-induced sparsity, and dense views of sparse triangular factors.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "support/random.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/kernels/random_tree_matrix.hpp"

namespace treedyn::test {

template <class Scalar>
using MatrixX = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
template <class Scalar>
using VectorX = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

inline int parent_at(const std::vector<int>& lambda, int i) { return lambda[static_cast<std::size_t>(i)]; }

/// true when j lies on the path from i to the base, i itself included.
inline bool on_path(const std::vector<int>& lambda, int i, int j) {
  for (int a = i; a != no_parent; a = parent_at(lambda, a))
    if (a == j) return true;
  return false;
}

/// Pattern of a tree-sparse lower triangle: (i, j), j <= i, is structurally nonzero iff j ∈ {i} ∪ anc(i).
inline Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> lower_pattern(const std::vector<int>& lambda) {
  const int n = static_cast<int>(lambda.size());
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> p =
      Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>::Constant(n, n, false);
  for (int i = 0; i < n; ++i)
    for (int j = i; j != no_parent; j = parent_at(lambda, j)) p(i, j) = true;
  return p;
}

/// A symmetric positive-definite matrix with exactly the branch-induced pattern of lambda
/// (treedyn::random_tree_spd, drawing from the test's generator).
template <class Scalar>
MatrixX<Scalar> random_tree_spd(const std::vector<int>& lambda, Rng& rng) {
  return treedyn::random_tree_spd<Scalar>(lambda, rng.generator());
}

/// Dense lower-triangular matrix holding the factor stored in the lower triangle of F on lambda's
/// pattern; unit = true puts ones on the diagonal (LTDL), otherwise the stored diagonal (LTL).
template <class Derived>
MatrixX<typename Derived::Scalar> dense_factor(const Eigen::MatrixBase<Derived>& F, const std::vector<int>& lambda,
                                               bool unit) {
  using Scalar = typename Derived::Scalar;
  const int n = static_cast<int>(lambda.size());
  MatrixX<Scalar> L = MatrixX<Scalar>::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    L(i, i) = unit ? Scalar(1) : F(i, i);
    for (int j = parent_at(lambda, i); j != no_parent; j = parent_at(lambda, j)) L(i, j) = F(i, j);
  }
  return L;
}

/// The full symmetric matrix whose lower triangle is stored in A.
template <class Derived>
MatrixX<typename Derived::Scalar> symmetric_from_lower(const Eigen::MatrixBase<Derived>& A) {
  MatrixX<typename Derived::Scalar> S = A.template triangularView<Eigen::Lower>();
  S.template triangularView<Eigen::StrictlyUpper>() = S.transpose();
  return S;
}

}  // namespace treedyn::test
