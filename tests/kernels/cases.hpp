// The parent arrays every kernel test runs over: each generator, Tree 1 and Fig. 2 of Featherstone (2005),
// and seeded random trees.
#pragma once

#include <string>
#include <vector>

#include "treedyn/topology/topology.hpp"

namespace treedyn::test {

struct TreeCase {
  std::string name;
  std::vector<int> lambda;
};

inline std::vector<TreeCase> kernel_cases() {
  namespace topo = treedyn::topologies;
  std::vector<TreeCase> cases;
  // Featherstone (2005) Fig. 1 (Tree 1) and its Fig. 2 expansion, 0-based
  cases.push_back({"tree1", {-1, 0, 0, 1, 1, 2, 2}});
  cases.push_back({"tree1-expanded", {-1, 0, 1, 2, 1, 3, 3, 4, 7, 8, 4}});
  // chain-100: rows deeper than ltdl_packed_push_depth take the gather path
  for (int n : {1, 2, 15, 30, 63, 100}) cases.push_back({"chain-" + std::to_string(n), topo::chain(n)});
  for (int m : {1, 4, 8, 16}) cases.push_back({"side-branches-" + std::to_string(2 * m), topo::short_side_branches(m)});
  for (int m : {1, 2, 4, 7}) cases.push_back({"binary-tree-m" + std::to_string(m), topo::binary_tree(m)});
  for (int m : {1, 3, 4, 8}) cases.push_back({"grid-m" + std::to_string(m), topo::grid_spanning_tree(m)});
  cases.push_back({"humanoid30",
                   treedyn::expand_parent_array(topo::humanoid(4, 6), topo::humanoid_dofs(4, 6, 6))});
  for (int k = 0; k < 8; ++k) {
    const int n = 5 + 25 * k;  // 5 … 180
    cases.push_back({"random-" + std::to_string(n) + "-seed" + std::to_string(k), topo::random_tree(n, 1000u + static_cast<unsigned>(k))});
  }
  cases.push_back({"random-200", topo::random_tree(200, 77u)});
  return cases;
}

}  // namespace treedyn::test
