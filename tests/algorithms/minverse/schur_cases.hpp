// The cases of the Schur-complement M⁻¹ tests (test_schur.cpp, test_schur_operators.cpp): the robot cases
// plus seeded random chains of every joint type list Fijany's method supports, and a loop that runs a
// check on each with its own Data, SchurWorkspace and random state.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "support/robot_cases.hpp"
#include "support/tree_matrices.hpp"  // MatrixX, VectorX
#include "treedyn/algorithms/minverse_schur.hpp"

namespace treedyn::test {

using JointList = std::initializer_list<JointType>;

/// The robot cases plus seeded random chains for every joint type list the method supports.
template <class T>
std::vector<RobotCase<T>> schur_cases(int random_trees = 50) {
  std::vector<RobotCase<T>> cases = robot_cases<T>(random_trees);
  // random_chain takes an initializer_list, whose array lives only as long as the call's full-expression:
  // pass each list straight into add().
  const auto add = [&cases](const std::string& name, JointList list) {
    for (const int n : {1, 2, 7, 20})
      cases.push_back({"random_chain(" + std::to_string(n) + ", " + name + ")",
                       robots::random_chain<double>(n, 900u + static_cast<unsigned>(n), list).template cast<T>()});
  };
  add("revolute", {JointType::revolute});
  add("prismatic", {JointType::prismatic});
  add("helical", {JointType::helical});
  add("1-dof", {JointType::revolute, JointType::prismatic, JointType::helical});
  add("spherical+planar", {JointType::spherical, JointType::planar});
  add("all", {JointType::revolute, JointType::prismatic, JointType::helical, JointType::spherical, JointType::planar,
              JointType::free_flyer});
  add("free_flyer", {JointType::free_flyer});
  return cases;
}

/// Runs f(case, data, workspace, random state) on every case, the state seeded from `seed` + case index.
template <class T, class F>
void for_each_case(int random_trees, unsigned seed, F&& f) {
  for_each_robot_state<T>(schur_cases<T>(random_trees), seed, [&f](const RobotCase<T>& c, const State<T>& s) {
    Data<T> data(c.model);
    SchurWorkspace<T> ws(c.model);
    f(c, data, ws, s);
  });
}

}  // namespace treedyn::test
