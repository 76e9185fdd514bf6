// treedyn parent arrays: validation, expansion to degrees of freedom, depths, subtrees, ancestor ranges.
//
// Citation: Featherstone, "Efficient factorization of the joint-space inertia matrix for branched
// kinematic trees", IJRR 24(6) 2005 (docs/references.md): §2, eq. 2 (regular numbering 0 <= lambda(i) < i),
// Fig. 2 (expanded parent array for multi-DoF joints), §4.1 (depth d_i), §5 (subtree nu(i), eq. 19).
// Notation (regular numbering, the expanded per-DoF parent array μ): docs/notation.md.
//
// Indexing: paper k <-> code k-1; the paper's base 0 is `no_parent` (-1) here, so eq. 2 reads
// -1 <= lambda[i] < i, and `while i != 0` becomes `while (i != no_parent)`.
//
// Containers: every function templated on `Parents` accepts any random-access container of integers
// with `size()` and `operator[]`: std::vector<int>, std::array<int, N>, Eigen integer vectors
// (Eigen::VectorXi, Eigen::Matrix<long long, N, 1>, maps and segments of them).
//
// Costs and allocation:
//   validate_parent_array   O(n), never allocates (except the message of the exception it throws).
//   expand_parent_array     O(N + n), allocates the returned array and one scratch array of N ints.
//   depths, subtree_sizes   O(n), allocate only the returned array.
//   is_ancestor             O(d_i), noexcept, never allocates.
//   ancestors, path_to_root O(1) to create, O(d_i) to iterate, noexcept, never allocate.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/fwd.hpp"

namespace treedyn {

/// A parent array: entry i is the parent of node i, or `no_parent` for a node attached to the base.
using ParentArray = std::vector<int>;

namespace detail {

/// The element type of a parent container (int for std::vector<int>, the Scalar of an Eigen vector).
template <class Parents>
using parent_value_t =
    std::remove_cv_t<std::remove_reference_t<decltype(std::declval<const Parents&>()[0])>>;

template <class Parents>
constexpr void check_parent_container() noexcept {
  static_assert(std::is_integral<parent_value_t<Parents>>::value &&
                    std::is_signed<parent_value_t<Parents>>::value,
                "treedyn: a parent array must hold signed integers (the base is -1)");
}

/// Number of nodes, as int. Callers that accept untrusted input check the size first
/// (validate_parent_array does).
template <class Parents>
constexpr int node_count(const Parents& lambda) noexcept {
  return static_cast<int>(lambda.size());
}

/// lambda[i] as int, for 0 <= i < node_count(lambda).
template <class Parents>
constexpr int parent_at(const Parents& lambda, int i) noexcept {
  using Index = decltype(lambda.size());
  return static_cast<int>(lambda[static_cast<Index>(i)]);
}

/// The first entry i that breaks regularity (lambda[i] < -1 or lambda[i] >= i), or -1 when every entry is
/// regular. O(n), noexcept, never allocates: the kernels call it at entry, since a regular array is what
/// guarantees that their walks up the tree stay in range and end.
template <class Parents>
int first_irregular(const Parents& lambda) noexcept {
  const int n = node_count(lambda);
  for (int i = 0; i < n; ++i) {
    const int p = parent_at(lambda, i);
    if (p < no_parent || p >= i) return i;
  }
  return -1;
}

/// The entry checks of a product or solve on a parent array: lambda is regular (else the handler gets the
/// first irregular entry), the matrix A is n×n and x has n rows.
template <class Parents, class DA, class X>
bool tree_kernel_arguments_ok(const char* function, const Parents& lambda, const DA& A, const X& x) noexcept {
  const int n = node_count(lambda), bad = first_irregular(lambda);
  TREEDYN_CHECK(bad < 0, function, "lambda", "a regular parent array (-1 <= lambda[i] < i)", -1, bad, return false);
  TREEDYN_CHECK(x.rows() == n, function, "x", "x.rows() = lambda.size()", n, x.rows(), return false);
  return shape_ok(function, "A", A, n, n, "lambda.size()");
}

/// Iterator over i, lambda(i), lambda(lambda(i)), ... stopping before the base. An input iterator:
/// dereferencing yields an index by value.
template <class Parents>
class AncestorIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = int;
  using difference_type = std::ptrdiff_t;
  using pointer = const int*;
  using reference = int;

  constexpr AncestorIterator() noexcept = default;
  constexpr AncestorIterator(const Parents* lambda, int node) noexcept : lambda_(lambda), node_(node) {}

  constexpr int operator*() const noexcept { return node_; }
  constexpr AncestorIterator& operator++() noexcept {
    node_ = parent_at(*lambda_, node_);
    return *this;
  }
  constexpr AncestorIterator operator++(int) noexcept {
    AncestorIterator old = *this;
    ++*this;
    return old;
  }
  friend constexpr bool operator==(const AncestorIterator& a, const AncestorIterator& b) noexcept {
    return a.node_ == b.node_;
  }
  friend constexpr bool operator!=(const AncestorIterator& a, const AncestorIterator& b) noexcept {
    return a.node_ != b.node_;
  }

 private:
  const Parents* lambda_ = nullptr;
  int node_ = no_parent;
};

/// A range over a path towards the base: begins at `first`, ends before `no_parent`. Holds a pointer
/// to the parent array, which must outlive the range.
template <class Parents>
class AncestorRange {
 public:
  using iterator = AncestorIterator<Parents>;
  using const_iterator = iterator;

  constexpr AncestorRange(const Parents* lambda, int first) noexcept : lambda_(lambda), first_(first) {}

  constexpr iterator begin() const noexcept { return iterator(lambda_, first_); }
  constexpr iterator end() const noexcept { return iterator(lambda_, no_parent); }
  constexpr bool empty() const noexcept { return first_ == no_parent; }

 private:
  const Parents* lambda_;
  int first_;
};

}  // namespace detail

/// Throws std::invalid_argument unless `lambda` is a regular parent array (Featherstone (2005), eq. 2; 0-based):
/// -1 <= lambda[i] < i for every i. The message names the first offending entry and the rule.
/// An empty array is valid (no bodies). O(n); never allocates unless it throws.
template <class Parents>
void validate_parent_array(const Parents& lambda) {
  detail::check_parent_container<Parents>();
  const auto size = static_cast<long long>(lambda.size());
  if (size > static_cast<long long>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("parent array: " + std::to_string(size) +
                                " entries, but treedyn indexes nodes with int (at most " +
                                std::to_string(std::numeric_limits<int>::max()) + ")");
  }
  using Index = decltype(lambda.size());
  for (long long i = 0; i < size; ++i) {
    const auto parent = static_cast<long long>(lambda[static_cast<Index>(i)]);
    if (parent < static_cast<long long>(no_parent) || parent >= i) {
      const std::string idx = std::to_string(i);
      throw std::invalid_argument("parent array: entry " + idx + " has parent " +
                                  std::to_string(parent) +
                                  ", but regular numbering requires -1 <= lambda[" + idx + "] < " +
                                  idx);
    }
  }
}

/// Expanded parent array over degrees of freedom (Featherstone (2005) §2, Fig. 2; μ in docs/notation.md).
/// Body i with dofs_per_joint[i] = n_i DoF becomes a serial chain of n_i rows (its velocity indices,
/// numbered consecutively in body order); the first row's parent is the last row of the nearest
/// ancestor body that has a row, or `no_parent`. A 0-DoF body contributes no row: its children attach
/// where it would have attached. The result is regular and has sum(n_i) entries.
/// Throws std::invalid_argument if lambda_bodies is not regular, the sizes differ, some n_i < 0, or the
/// total does not fit in int. O(N + n); allocates the result and N ints of scratch.
inline ParentArray expand_parent_array(const ParentArray& lambda_bodies,
                                       const std::vector<int>& dofs_per_joint) {
  validate_parent_array(lambda_bodies);
  if (lambda_bodies.size() != dofs_per_joint.size()) {
    throw std::invalid_argument("expand_parent_array: the parent array has " +
                                std::to_string(lambda_bodies.size()) +
                                " entries but dofs_per_joint has " +
                                std::to_string(dofs_per_joint.size()) +
                                "; one DoF count per body (joint) is required");
  }
  long long total = 0;
  for (std::size_t i = 0; i < dofs_per_joint.size(); ++i) {
    if (dofs_per_joint[i] < 0) {
      throw std::invalid_argument("expand_parent_array: dofs_per_joint[" + std::to_string(i) +
                                  "] = " + std::to_string(dofs_per_joint[i]) +
                                  ", but a joint's DoF count must be >= 0");
    }
    total += dofs_per_joint[i];
  }
  if (total > static_cast<long long>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("expand_parent_array: " + std::to_string(total) +
                                " DoF in total, but treedyn indexes DoF with int");
  }

  const int N = detail::node_count(lambda_bodies);
  ParentArray mu;
  mu.reserve(static_cast<std::size_t>(total));
  // last_row[i]: the last expanded row of body i, or of its nearest ancestor with a row, or no_parent.
  std::vector<int> last_row(static_cast<std::size_t>(N), no_parent);
  for (int i = 0; i < N; ++i) {
    const int p = lambda_bodies[static_cast<std::size_t>(i)];
    int prev = (p == no_parent) ? no_parent : last_row[static_cast<std::size_t>(p)];
    for (int k = 0; k < dofs_per_joint[static_cast<std::size_t>(i)]; ++k) {
      const int row = static_cast<int>(mu.size());
      mu.push_back(prev);
      prev = row;
    }
    last_row[static_cast<std::size_t>(i)] = prev;
  }
  return mu;
}

/// Depths d_i (Featherstone (2005) §4.1): the number of joints between node i and the base, so a node attached
/// to the base has depth 1. Throws std::invalid_argument if lambda is not regular. O(n); allocates the
/// result only.
template <class Parents>
std::vector<int> depths(const Parents& lambda) {
  validate_parent_array(lambda);
  const int n = detail::node_count(lambda);
  std::vector<int> d(static_cast<std::size_t>(n), 1);
  for (int i = 0; i < n; ++i) {
    const int p = detail::parent_at(lambda, i);
    if (p != no_parent) d[static_cast<std::size_t>(i)] = d[static_cast<std::size_t>(p)] + 1;
  }
  return d;
}

/// An inward (tips-to-base) visiting order: the nodes by decreasing depth, ties by decreasing index. Every
/// node comes after all its children, and the children of each node (all of one depth) come in decreasing
/// index order, as in the plain sweep i = n−1, …, 0; so a pass that adds each node's contribution into its
/// parent forms every sum in the same order with either sweep, to the bit. Where the tree branches,
/// consecutive nodes of one depth lie on different branches: their steps do not wait on each other, and
/// a processor executing out of order overlaps them (on a chain the order is the plain sweep). Throws
/// std::invalid_argument if lambda is not regular. O(n log n); allocates the result only.
template <class Parents>
std::vector<int> inward_order(const Parents& lambda) {
  const std::vector<int> d = depths(lambda);
  std::vector<int> order(d.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(order.size() - 1 - k);
  std::stable_sort(order.begin(), order.end(), [&d](int a, int b) {
    return d[static_cast<std::size_t>(a)] > d[static_cast<std::size_t>(b)];
  });
  return order;
}

/// Subtree sizes |nu(i)| (Featherstone (2005) eq. 5, §5): the number of nodes in the subtree rooted at i,
/// i included. Throws std::invalid_argument if lambda is not regular. O(n); allocates the result only.
template <class Parents>
std::vector<int> subtree_sizes(const Parents& lambda) {
  validate_parent_array(lambda);
  const int n = detail::node_count(lambda);
  std::vector<int> size(static_cast<std::size_t>(n), 1);
  for (int i = n - 1; i >= 0; --i) {
    const int p = detail::parent_at(lambda, i);
    if (p != no_parent) size[static_cast<std::size_t>(p)] += size[static_cast<std::size_t>(i)];
  }
  return size;
}

/// True if node a lies on the path from node i to the base, a != i (a is a proper ancestor of i).
/// The base itself is not a node: is_ancestor(lambda, no_parent, i) is false, matching ancestors().
/// Preconditions: lambda regular (not checked: O(n)); 0 <= i < n and -1 <= a < n (checked in every build:
/// out of range goes to the check handler of detail/check.hpp, and a returning handler gets false).
/// O(d_i) (it stops as soon as the path passes below a, since parents have smaller indices);
/// noexcept, never allocates.
template <class Parents>
constexpr bool is_ancestor(const Parents& lambda, int a, int i) noexcept {
  detail::check_parent_container<Parents>();
  const int n = detail::node_count(lambda);
  TREEDYN_CHECK(i >= 0 && i < n, "is_ancestor", "i", "a node index below lambda.size()", n, i, return false);
  TREEDYN_CHECK(a >= no_parent && a < n, "is_ancestor", "a", "no_parent or a node index below lambda.size()", n, a,
                return false);
  if (a == no_parent) return false;
  int j = detail::parent_at(lambda, i);
  while (j > a) j = detail::parent_at(lambda, j);
  return j == a;
}

/// The closest common ancestor-or-self of nodes x and y (x itself if x is an ancestor of y), or no_parent
/// when they hang from different roots. Walks up from the larger index (parents have smaller indices):
/// while x != y, replace the larger of the two by its parent. Preconditions: lambda regular (not checked);
/// 0 <= x, y < n (checked in every build; a returning check handler gets no_parent). O(d_x + d_y);
/// noexcept, never allocates.
template <class Parents>
constexpr int closest_common_ancestor(const Parents& lambda, int x, int y) noexcept {
  detail::check_parent_container<Parents>();
  const int n = detail::node_count(lambda);
  TREEDYN_CHECK(x >= 0 && x < n, "closest_common_ancestor", "x", "a node index below lambda.size()", n, x,
                return no_parent);
  TREEDYN_CHECK(y >= 0 && y < n, "closest_common_ancestor", "y", "a node index below lambda.size()", n, y,
                return no_parent);
  while (x != y) {
    if (x > y) x = detail::parent_at(lambda, x);
    else y = detail::parent_at(lambda, y);
  }
  return x;
}

/// Range over the proper ancestors of i: lambda(i), lambda(lambda(i)), ..., excluding i and the base
/// (the paper's anc(i) without i). Usable in range-for. Preconditions: lambda regular (not checked);
/// 0 <= i < n (checked; a returning check handler gets an empty range). The range refers to `lambda`, which
/// must outlive it. noexcept, never allocates.
template <class Parents>
constexpr detail::AncestorRange<Parents> ancestors(const Parents& lambda, int i) noexcept {
  detail::check_parent_container<Parents>();
  const int n = detail::node_count(lambda);
  TREEDYN_CHECK(i >= 0 && i < n, "ancestors", "i", "a node index below lambda.size()", n, i,
                return detail::AncestorRange<Parents>(&lambda, no_parent));
  return detail::AncestorRange<Parents>(&lambda, detail::parent_at(lambda, i));
}

/// Range over the path from i to the base: i, lambda(i), lambda(lambda(i)), ..., excluding the base
/// (the paper's anc(i), of length d_i). path_to_root(lambda, no_parent) is empty. Preconditions: lambda
/// regular (not checked); -1 <= i < n (checked; a returning check handler gets an empty range). The range
/// refers to `lambda`, which must outlive it. noexcept, never allocates.
template <class Parents>
constexpr detail::AncestorRange<Parents> path_to_root(const Parents& lambda, int i) noexcept {
  detail::check_parent_container<Parents>();
  const int n = detail::node_count(lambda);
  TREEDYN_CHECK(i >= no_parent && i < n, "path_to_root", "i", "no_parent or a node index below lambda.size()", n, i,
                return detail::AncestorRange<Parents>(&lambda, no_parent));
  return detail::AncestorRange<Parents>(&lambda, i);
}

// A range over a temporary parent array would dangle: refuse rvalues.
template <class Parents>
void ancestors(const Parents&& lambda, int i) = delete;
template <class Parents>
void path_to_root(const Parents&& lambda, int i) = delete;

}  // namespace treedyn
