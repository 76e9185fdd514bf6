// Forward-mode automatic differentiation helpers for the derivative tests: Eigen::AutoDiffScalar with a fixed
// number of directions (fixed-size derivative vectors, so no operation meets an empty one).
#pragma once

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

namespace treedyn::test {

/// An AutoDiffScalar over double with `Directions` derivative entries.
template <int Directions>
using ForwardAD = Eigen::AutoDiffScalar<Eigen::Matrix<double, Directions, 1>>;

/// x as constants (every derivative entry zero); seed entries with out(k).derivatives()(d) = 1.
template <class AD>
Eigen::Matrix<AD, Eigen::Dynamic, 1> constant_ad(const Eigen::Matrix<double, Eigen::Dynamic, 1>& x) {
  Eigen::Matrix<AD, Eigen::Dynamic, 1> out(x.size());
  for (Eigen::Index k = 0; k < x.size(); ++k) out(k) = AD(x(k));
  return out;
}

}  // namespace treedyn::test
