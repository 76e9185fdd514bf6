// Shared set-up for the mass-matrix inverse benchmarks (bench_minverse): the models every route runs on,
// so the routes are compared on identical inputs in one run. Names: Kernel/model/scalar, with model
// "chain<n>" (a random revolute chain on a fixed base, robots::random_chain(n, 1)) or "humanoid30".
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "treedyn/model/model.hpp"
#include "treedyn/model/robots/robots.hpp"

namespace minverse_bench {

/// Chain lengths for the log-log slopes (Lee, Wang & Chirikjian (2007) Fig. 3 goes to n = 400).
inline const std::vector<int>& chain_lengths() {
  static const std::vector<int> n = {6, 12, 25, 50, 100, 200, 400, 1000};
  return n;
}

/// The chain of n revolute links every route is timed on, and its benchmark name "chain<n>".
template <class Scalar>
std::pair<std::string, treedyn::Model<Scalar>> chain(int n) {
  return {"chain" + std::to_string(n), treedyn::robots::random_chain<Scalar>(n, 1)};
}

}  // namespace minverse_bench
