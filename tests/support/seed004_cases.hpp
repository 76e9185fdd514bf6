// robot_cases_and_seed004: the robots and random trees of robot_cases, plus two ill-conditioned chains of
// seed 004 (Ascher, Pai & Cloutier 1996): Table 1's two-link chain at r = 1e-3 and Example 2's collinear
// masses at m1 = 1e-4. For the tests that check a new route on badly scaled models too.
#pragma once

#include <vector>

#include "support/robot_cases.hpp"

namespace treedyn::test {

inline std::vector<RobotCase<double>> robot_cases_and_seed004(int random_trees) {
  std::vector<RobotCase<double>> c = robot_cases<double>(random_trees);
  c.push_back({"seed004-table1-r1e-3", robots::two_link<double>(0.999, 0.999, 0.001, 0.001, 0.1)});
  c.push_back({"seed004-ex2-m1e-4", robots::collinear_masses<double>(1.0, 1e-4, Eigen::Vector3d(0, 0, 1))});
  return c;
}

}  // namespace treedyn::test
