// Tests of treedyn/topology/parent_array.hpp: validation, expansion (Featherstone (2005) Fig. 2), depths,
// subtree sizes, is_ancestor and the ancestor ranges, on std::vector, std::array and Eigen vectors.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "treedyn/topology/topology.hpp"

namespace {

using treedyn::ParentArray;
using treedyn::no_parent;

// Paper (1-based, base 0) -> code (0-based, base -1): subtract one from every entry.
ParentArray from_one_based(const std::vector<int>& paper) {
  ParentArray code;
  for (const int p : paper) code.push_back(p - 1);
  return code;
}

// Tree 1 of Featherstone (2005) Fig. 1: lambda = (0,1,1,2,2,3,3) in the paper's numbering.
ParentArray tree1() { return from_one_based({0, 1, 1, 2, 2, 3, 3}); }

// A range over a temporary parent array would dangle, so the rvalue overloads are deleted.
template <class P, class = void>
struct can_take_ancestors : std::false_type {};
template <class P>
struct can_take_ancestors<P, std::void_t<decltype(treedyn::ancestors(std::declval<P>(), 0))>>
    : std::true_type {};
template <class P, class = void>
struct can_take_path : std::false_type {};
template <class P>
struct can_take_path<P, std::void_t<decltype(treedyn::path_to_root(std::declval<P>(), 0))>>
    : std::true_type {};
static_assert(can_take_ancestors<const ParentArray&>::value, "lvalues are accepted");
static_assert(can_take_ancestors<ParentArray&>::value, "lvalues are accepted");
static_assert(!can_take_ancestors<ParentArray>::value, "temporaries are refused");
static_assert(can_take_path<const ParentArray&>::value, "lvalues are accepted");
static_assert(!can_take_path<ParentArray>::value, "temporaries are refused");

template <class Range>
std::vector<int> collect(const Range& range) {
  std::vector<int> out;
  for (const int i : range) out.push_back(i);
  return out;
}

}  // namespace

TEST_CASE("validate_parent_array accepts regular arrays", "[topology][parent_array]") {
  CHECK_NOTHROW(treedyn::validate_parent_array(ParentArray{}));
  CHECK_NOTHROW(treedyn::validate_parent_array(ParentArray{-1}));
  CHECK_NOTHROW(treedyn::validate_parent_array(tree1()));
  CHECK_NOTHROW(treedyn::validate_parent_array(ParentArray{-1, -1, 1, 0, 2, -1, 5}));  // a forest
  CHECK_NOTHROW(treedyn::validate_parent_array(ParentArray{-1, 0, 1, 2, 3}));         // a chain

  const std::array<int, 7> a{-1, 0, 0, 1, 1, 2, 2};
  CHECK_NOTHROW(treedyn::validate_parent_array(a));
  Eigen::VectorXi e(7);
  e << -1, 0, 0, 1, 1, 2, 2;
  CHECK_NOTHROW(treedyn::validate_parent_array(e));
  Eigen::Matrix<long long, 3, 1> f(-1, 0, 1);
  CHECK_NOTHROW(treedyn::validate_parent_array(f));
  CHECK_NOTHROW(treedyn::validate_parent_array(e.head(4)));
}

TEST_CASE("validate_parent_array names the offending entry and the rule", "[topology][parent_array]") {
  using Catch::Contains;
  // A parent with a larger index than its child.
  CHECK_THROWS_AS(treedyn::validate_parent_array(ParentArray{-1, 0, 1, 2, 7, 3, 4, 5}),
                  std::invalid_argument);
  CHECK_THROWS_WITH(
      treedyn::validate_parent_array(ParentArray{-1, 0, 1, 2, 7, 3, 4, 5}),
      Contains("parent array: entry 4 has parent 7, but regular numbering requires -1 <= lambda[4] < 4"));
  // A body that is its own parent.
  CHECK_THROWS_WITH(treedyn::validate_parent_array(ParentArray{-1, 0, 2}),
                    Contains("entry 2 has parent 2") && Contains("-1 <= lambda[2] < 2"));
  // The first body must hang from the base.
  CHECK_THROWS_WITH(treedyn::validate_parent_array(ParentArray{0, 0}),
                    Contains("entry 0 has parent 0") && Contains("-1 <= lambda[0] < 0"));
  // Below the base.
  CHECK_THROWS_WITH(treedyn::validate_parent_array(ParentArray{-1, -2}),
                    Contains("entry 1 has parent -2") && Contains("-1 <= lambda[1] < 1"));
  // The first offender is reported when there are several.
  CHECK_THROWS_WITH(treedyn::validate_parent_array(ParentArray{-1, 0, 5, 9}),
                    Contains("entry 2 has parent 5") && Contains("regular numbering"));
  // Other containers report the same way; a value beyond int is not truncated.
  const std::array<int, 3> a{-1, 3, 0};
  CHECK_THROWS_WITH(treedyn::validate_parent_array(a),
                    Contains("entry 1 has parent 3") && Contains("-1 <= lambda[1] < 1"));
  Eigen::Matrix<long long, 3, 1> big(-1, 0, 1LL << 40);
  CHECK_THROWS_WITH(treedyn::validate_parent_array(big),
                    Contains("entry 2 has parent 1099511627776") && Contains("lambda[2] < 2"));
}

TEST_CASE("expand_parent_array reproduces seed 000 Fig. 2", "[topology][parent_array]") {
  // Tree 1 with joints 1, 2 and 6 having 2, 2 and 3 DoF: 11 rows.
  const ParentArray mu = treedyn::expand_parent_array(tree1(), {2, 2, 1, 1, 1, 3, 1});
  CHECK(mu == from_one_based({0, 1, 2, 3, 2, 4, 4, 5, 8, 9, 5}));
  CHECK_NOTHROW(treedyn::validate_parent_array(mu));

  // All 1-DoF: the array is unchanged.
  CHECK(treedyn::expand_parent_array(tree1(), std::vector<int>(7, 1)) == tree1());
  // The empty tree.
  CHECK(treedyn::expand_parent_array(ParentArray{}, {}).empty());
  // A 6-DoF root becomes a 6-chain and its child hangs from the last row.
  CHECK(treedyn::expand_parent_array(ParentArray{-1, 0}, {6, 1}) == ParentArray{-1, 0, 1, 2, 3, 4, 5});
}

TEST_CASE("expand_parent_array skips 0-DoF bodies", "[topology][parent_array]") {
  // body 1 is welded to body 0: its children attach to body 0's last row.
  CHECK(treedyn::expand_parent_array(ParentArray{-1, 0, 1, 1}, {1, 0, 2, 1}) ==
        ParentArray{-1, 0, 1, 0});
  // A welded root: its children attach to the base.
  CHECK(treedyn::expand_parent_array(ParentArray{-1, 0, 1}, {0, 2, 1}) == ParentArray{-1, 0, 1});
  CHECK(treedyn::expand_parent_array(ParentArray{-1, 0, 0}, {0, 1, 1}) == ParentArray{-1, -1});
  // Two welded bodies in a row: the grandchild reaches past both.
  CHECK(treedyn::expand_parent_array(ParentArray{-1, 0, 1, 2}, {2, 0, 0, 1}) == ParentArray{-1, 0, 1});
  // Everything welded.
  CHECK(treedyn::expand_parent_array(ParentArray{-1, 0}, {0, 0}).empty());
}

TEST_CASE("expand_parent_array rejects bad input", "[topology][parent_array]") {
  using Catch::Contains;
  CHECK_THROWS_WITH(treedyn::expand_parent_array(tree1(), {1, 1, 1}),
                    Contains("7 entries") && Contains("dofs_per_joint has 3"));
  CHECK_THROWS_WITH(treedyn::expand_parent_array(tree1(), {1, 1, 1, -1, 1, 1, 1}),
                    Contains("dofs_per_joint[3] = -1") && Contains(">= 0"));
  CHECK_THROWS_WITH(treedyn::expand_parent_array(ParentArray{-1, 1}, {1, 1}),
                    Contains("entry 1 has parent 1") && Contains("regular numbering"));
  CHECK_THROWS_AS(treedyn::expand_parent_array(ParentArray{-1, 0}, {2147483647, 1}),
                  std::invalid_argument);
}

TEST_CASE("depths and subtree sizes of Tree 1", "[topology][parent_array]") {
  // d = (1,2,2,3,3,3,3); nu(1) has 7 nodes, nu(2) = {2,4,5}, nu(3) = {3,6,7} (Featherstone (2005) §2).
  CHECK(treedyn::depths(tree1()) == std::vector<int>{1, 2, 2, 3, 3, 3, 3});
  CHECK(treedyn::subtree_sizes(tree1()) == std::vector<int>{7, 3, 3, 1, 1, 1, 1});

  const ParentArray forest{-1, -1, 1, 0, 2, -1};
  CHECK(treedyn::depths(forest) == std::vector<int>{1, 1, 2, 2, 3, 1});
  CHECK(treedyn::subtree_sizes(forest) == std::vector<int>{2, 3, 2, 1, 1, 1});

  CHECK(treedyn::depths(ParentArray{}).empty());
  CHECK_THROWS_WITH(treedyn::depths(ParentArray{-1, 3}), Catch::Contains("entry 1 has parent 3"));
  CHECK_THROWS_WITH(treedyn::subtree_sizes(ParentArray{-1, 3}), Catch::Contains("entry 1 has parent 3"));

  // The same on std::array and Eigen vectors.
  const std::array<int, 7> a{-1, 0, 0, 1, 1, 2, 2};
  Eigen::VectorXi e(7);
  e << -1, 0, 0, 1, 1, 2, 2;
  Eigen::Matrix<long long, 7, 1> f;
  f << -1, 0, 0, 1, 1, 2, 2;
  CHECK(treedyn::depths(a) == treedyn::depths(tree1()));
  CHECK(treedyn::depths(e) == treedyn::depths(tree1()));
  CHECK(treedyn::depths(f) == treedyn::depths(tree1()));
  CHECK(treedyn::subtree_sizes(a) == treedyn::subtree_sizes(tree1()));
  CHECK(treedyn::subtree_sizes(e) == treedyn::subtree_sizes(tree1()));
}

TEST_CASE("inward_order: deepest first, every node after its children, siblings by decreasing index",
          "[topology][parent_array]") {
  // Tree 1 is numbered by levels: its inward order is the plain sweep 6, …, 0
  CHECK(treedyn::inward_order(tree1()) == std::vector<int>{6, 5, 4, 3, 2, 1, 0});
  // two chains of two below a root, numbered depth first: the chains' nodes alternate
  CHECK(treedyn::inward_order(ParentArray{-1, 0, 1, 0, 3}) == std::vector<int>{4, 2, 3, 1, 0});
  // a forest: depths (1, 1, 2, 2, 3, 1)
  CHECK(treedyn::inward_order(ParentArray{-1, -1, 1, 0, 2, -1}) == std::vector<int>{4, 3, 2, 5, 1, 0});
  CHECK(treedyn::inward_order(ParentArray{}).empty());
  CHECK_THROWS_WITH(treedyn::inward_order(ParentArray{-1, 3}), Catch::Contains("entry 1 has parent 3"));
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const ParentArray lambda = treedyn::topologies::random_tree(200, seed);
    const std::vector<int> order = treedyn::inward_order(lambda), d = treedyn::depths(lambda);
    INFO("random tree seed " << seed);
    REQUIRE(order.size() == lambda.size());
    std::vector<int> position(order.size(), -1);
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t i = static_cast<std::size_t>(order[k]);
      REQUIRE(position[i] == -1);  // a permutation
      position[i] = static_cast<int>(k);
      if (k > 0) REQUIRE(d[i] <= d[static_cast<std::size_t>(order[k - 1])]);
    }
    for (std::size_t i = 0; i < lambda.size(); ++i) {
      if (lambda[i] == treedyn::no_parent) continue;
      CHECK(position[i] < position[static_cast<std::size_t>(lambda[i])]);  // child before parent
      for (std::size_t j = i + 1; j < lambda.size(); ++j)                    // a later sibling comes first
        if (lambda[j] == lambda[i]) CHECK(position[j] < position[i]);
    }
  }
}

TEST_CASE("is_ancestor on Tree 1", "[topology][parent_array]") {
  const ParentArray t = tree1();
  // 0-based: node 6 (paper 7) has ancestors 2 (paper 3) and 0 (paper 1).
  CHECK(treedyn::is_ancestor(t, 2, 6));
  CHECK(treedyn::is_ancestor(t, 0, 6));
  CHECK_FALSE(treedyn::is_ancestor(t, 6, 6));  // a node is not its own ancestor
  CHECK_FALSE(treedyn::is_ancestor(t, 1, 6));  // another branch
  CHECK_FALSE(treedyn::is_ancestor(t, 5, 6));  // a sibling
  CHECK_FALSE(treedyn::is_ancestor(t, 6, 2));  // a descendant
  CHECK_FALSE(treedyn::is_ancestor(t, no_parent, 6));  // the base is not a node
  CHECK_FALSE(treedyn::is_ancestor(t, 0, 0));

  // Exhaustively against the definition "a is on the path from i to the base".
  for (int i = 0; i < 7; ++i) {
    std::vector<bool> on_path(7, false);
    for (int j = t[static_cast<std::size_t>(i)]; j != no_parent; j = t[static_cast<std::size_t>(j)])
      on_path[static_cast<std::size_t>(j)] = true;
    for (int a = 0; a < 7; ++a) {
      INFO("a = " << a << ", i = " << i);
      CHECK(treedyn::is_ancestor(t, a, i) == on_path[static_cast<std::size_t>(a)]);
    }
  }
  // Node i has d_i - 1 proper ancestors, so Tree 1 has D1 = 0+1+1+2*4 = 10 ancestor pairs.
  int pairs = 0;
  for (int i = 0; i < 7; ++i)
    for (int a = 0; a < 7; ++a) pairs += treedyn::is_ancestor(t, a, i) ? 1 : 0;
  CHECK(pairs == 10);

  Eigen::VectorXi e(7);
  e << -1, 0, 0, 1, 1, 2, 2;
  CHECK(treedyn::is_ancestor(e, 1, 4));
  CHECK_FALSE(treedyn::is_ancestor(e, 2, 4));
}

TEST_CASE("ancestor ranges on Tree 1", "[topology][parent_array]") {
  const ParentArray t = tree1();
  CHECK(collect(treedyn::ancestors(t, 6)) == std::vector<int>{2, 0});
  CHECK(collect(treedyn::ancestors(t, 4)) == std::vector<int>{1, 0});
  CHECK(collect(treedyn::ancestors(t, 1)) == std::vector<int>{0});
  CHECK(collect(treedyn::ancestors(t, 0)).empty());
  CHECK(treedyn::ancestors(t, 0).empty());
  CHECK_FALSE(treedyn::ancestors(t, 1).empty());

  CHECK(collect(treedyn::path_to_root(t, 6)) == std::vector<int>{6, 2, 0});
  CHECK(collect(treedyn::path_to_root(t, 3)) == std::vector<int>{3, 1, 0});
  CHECK(collect(treedyn::path_to_root(t, 0)) == std::vector<int>{0});
  CHECK(collect(treedyn::path_to_root(t, no_parent)).empty());

  // The path length is the depth, for every node.
  const std::vector<int> d = treedyn::depths(t);
  for (int i = 0; i < 7; ++i) {
    CHECK(static_cast<int>(collect(treedyn::path_to_root(t, i)).size()) == d[static_cast<std::size_t>(i)]);
    CHECK(static_cast<int>(collect(treedyn::ancestors(t, i)).size()) == d[static_cast<std::size_t>(i)] - 1);
  }

  // std::array and Eigen containers, and a forest.
  const std::array<int, 7> a{-1, 0, 0, 1, 1, 2, 2};
  CHECK(collect(treedyn::ancestors(a, 5)) == std::vector<int>{2, 0});
  Eigen::VectorXi e(7);
  e << -1, 0, 0, 1, 1, 2, 2;
  CHECK(collect(treedyn::path_to_root(e, 3)) == std::vector<int>{3, 1, 0});
  const Eigen::Matrix<long long, 6, 1> forest = (Eigen::Matrix<long long, 6, 1>() << -1, -1, 1, 0, 2, -1).finished();
  CHECK(collect(treedyn::path_to_root(forest, 4)) == std::vector<int>{4, 2, 1});
  CHECK(collect(treedyn::ancestors(forest, 5)).empty());

  // The iterator can be used by hand as well.
  auto range = treedyn::ancestors(t, 6);
  auto it = range.begin();
  CHECK(*it == 2);
  CHECK(*it++ == 2);
  CHECK(*it == 0);
  ++it;
  CHECK(it == range.end());
}

TEST_CASE("closest_common_ancestor on Tree 1 and a forest", "[topology][parent_array]") {
  const ParentArray t = tree1();  // 0-based: -1, 0, 0, 1, 1, 2, 2
  CHECK(treedyn::closest_common_ancestor(t, 3, 4) == 1);  // siblings: their parent
  CHECK(treedyn::closest_common_ancestor(t, 3, 6) == 0);  // different branches: the root
  CHECK(treedyn::closest_common_ancestor(t, 6, 2) == 2);  // an ancestor of the other: itself
  CHECK(treedyn::closest_common_ancestor(t, 5, 5) == 5);
  // Exhaustively against the definition: the deepest node on both paths to the base (ancestor-or-self).
  const std::vector<int> d = treedyn::depths(t);
  for (int x = 0; x < 7; ++x)
    for (int y = 0; y < 7; ++y) {
      int best = no_parent;
      for (int c = 0; c < 7; ++c) {
        const bool on_x = c == x || treedyn::is_ancestor(t, c, x), on_y = c == y || treedyn::is_ancestor(t, c, y);
        if (on_x && on_y && (best == no_parent || d[static_cast<std::size_t>(c)] > d[static_cast<std::size_t>(best)]))
          best = c;
      }
      CHECK(treedyn::closest_common_ancestor(t, x, y) == best);
    }
  const ParentArray forest{-1, 0, -1, 2};  // two roots: nodes of different trees share no ancestor
  CHECK(treedyn::closest_common_ancestor(forest, 1, 3) == no_parent);
  CHECK(treedyn::closest_common_ancestor(forest, 3, 2) == 2);
}
