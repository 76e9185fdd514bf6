// treedyn::detail parent-array access shared by the kernels: any container with operator[] and size().
//
// Kernels accept std::vector<int>, std::array<int, N> or Eigen integer vectors as the parent array;
// these two helpers hide the index-type differences. Never allocates.
#pragma once

#include <cstddef>

namespace treedyn::detail {

template <class Parents>
inline int parent(const Parents& lambda, int i) noexcept {
  return static_cast<int>(lambda[static_cast<std::size_t>(i)]);
}

template <class Parents>
inline int parent_count(const Parents& lambda) noexcept {
  return static_cast<int>(lambda.size());
}

}  // namespace treedyn::detail
