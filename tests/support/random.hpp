// Deterministic test randomness: the library's SplitMix64, identical on every platform (no std distributions).
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "treedyn/topology/generators.hpp"

namespace treedyn::test {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}

  std::uint64_t next() { return gen_.next(); }
  /// Uniform in [lo, hi), 53 random bits.
  double uniform(double lo = -1.0, double hi = 1.0) {
    const double u = static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

  template <class Scalar>
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> matrix(int rows, int cols) {
    Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> m(rows, cols);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) m(i, j) = static_cast<Scalar>(uniform());
    return m;
  }

 private:
  treedyn::detail::SplitMix64 gen_;
};

}  // namespace treedyn::test
