// The models every algorithm test runs over: the ready-made robots and seeded random trees, each with a
// seeded random state (for_each_robot_state).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <Eigen/Core>

#include "support/random.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"

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

/// Runs f(case, state) on every case, the state drawn by random_state(case.model, seed + index) where
/// index counts the cases from 0; f may take the index as a third argument. The case's name is INFO.
template <class T, class F>
void for_each_robot_state(const std::vector<RobotCase<T>>& cases, std::uint64_t seed, F&& f) {
  int index = 0;
  for (const RobotCase<T>& c : cases) {
    INFO(c.name);
    const State<T> s = random_state(c.model, seed + static_cast<std::uint64_t>(index));
    if constexpr (std::is_invocable_v<F&, const RobotCase<T>&, const State<T>&, int>)
      f(c, s, index);
    else
      f(c, s);
    ++index;
  }
}

/// for_each_robot_state over robot_cases<T>(random_trees).
template <class T, class F>
void for_each_robot_state(int random_trees, std::uint64_t seed, F&& f) {
  for_each_robot_state<T>(robot_cases<T>(random_trees), seed, std::forward<F>(f));
}

}  // namespace treedyn::test
