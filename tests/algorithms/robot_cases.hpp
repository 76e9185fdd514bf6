// The models every algorithm test runs over: the ready-made robots and 50 seeded random trees.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "support/random.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/robots/robots.hpp"

namespace treedyn::test {

template <class T>
struct RobotCase {
  std::string name;
  Model<T> model;
};

/// Every robot, built in double and cast to T (so float and double runs share one model).
template <class T>
std::vector<RobotCase<T>> robot_cases(int random_trees = 50) {
  std::vector<RobotCase<double>> d;
  d.push_back({"humanoid30", robots::humanoid30<double>()});
  d.push_back({"chain30", robots::chain30<double>()});
  d.push_back({"arm7", robots::arm7<double>()});
  d.push_back({"puma560", robots::puma560<double>()});
  d.push_back({"two_link", robots::two_link<double>(0.9, 0.9, 0.1, 0.1, 0.1)});
  d.push_back({"pendulum6", robots::pendulum<double>(6)});
  for (int s = 0; s < random_trees; ++s)
    d.push_back({"random_tree-seed" + std::to_string(s), robots::random_tree<double>(2 + s % 11, 100u + static_cast<unsigned>(s))});
  std::vector<RobotCase<T>> out;
  for (const auto& c : d) out.push_back({c.name, c.model.template cast<T>()});
  return out;
}

/// A random state (q on the manifold, q̇, q̈ in [−1, 1]) generated in double and rounded to T.
template <class T>
struct State {
  Eigen::Matrix<T, Eigen::Dynamic, 1> q, qd, qdd;
};

template <class T, int N>
State<T> random_state(const Model<T, N>& model, std::uint64_t seed) {
  Rng rng(seed);
  State<T> s;
  s.q = random_configuration(model, seed);
  s.qd = rng.matrix<T>(model.nv(), 1);
  s.qdd = rng.matrix<T>(model.nv(), 1);
  return s;
}

}  // namespace treedyn::test
