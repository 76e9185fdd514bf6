// Tests of treedyn/topology/cost.hpp against Featherstone (2005): Table 2's closed forms, the §6 humanoid,
// and the dense/sparse ratios printed in §4.2.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include <Eigen/Core>

#include "treedyn/topology/topology.hpp"

namespace {

namespace topo = treedyn::topologies;
using treedyn::CostMetrics;
using treedyn::ParentArray;

// Brute force D0, D1, D2 straight from the definitions, by walking every path to the base
// (independent of depths() and cost_metrics()).
CostMetrics brute_force(const ParentArray& lambda) {
  CostMetrics c;
  c.n = static_cast<int>(lambda.size());
  for (std::size_t i = 0; i < lambda.size(); ++i) {
    long long d = 0;
    for (int j = static_cast<int>(i); j != treedyn::no_parent; j = lambda[static_cast<std::size_t>(j)]) ++d;
    if (lambda[i] != treedyn::no_parent) ++c.D0;
    c.D1 += d - 1;
    c.D2 += d * (d - 1) / 2;
  }
  return c;
}

long long pow2(int k) { return 1LL << k; }

}  // namespace

TEST_CASE("cost_metrics of Tree 1 and small cases", "[topology][cost]") {
  // Tree 1: depths (1,2,2,3,3,3,3): D0 = 6, D1 = 0+1+1+2*4 = 10, D2 = 0+1+1+3*4 = 14.
  const ParentArray t{-1, 0, 0, 1, 1, 2, 2};
  const CostMetrics c = treedyn::cost_metrics(t);
  CHECK(c.n == 7);
  CHECK(c.D0 == 6);
  CHECK(c.D1 == 10);
  CHECK(c.D2 == 14);
  CHECK(c.nonzeros() == 27);  // the 27 crosses of Featherstone (2005) eq. 4
  CHECK(c.ltdl_ops() == 38);

  const CostMetrics empty = treedyn::cost_metrics(ParentArray{});
  CHECK(empty == CostMetrics{0, 0, 0, 0});
  CHECK(treedyn::cost_metrics(topo::star(5)) == CostMetrics{0, 0, 0, 5});
  CHECK(treedyn::cost_metrics(ParentArray{-1}) == CostMetrics{0, 0, 0, 1});

  // The Eigen and std::array forms agree.
  Eigen::VectorXi e(7);
  e << -1, 0, 0, 1, 1, 2, 2;
  CHECK(treedyn::cost_metrics(e) == c);

  CHECK_THROWS_WITH(treedyn::cost_metrics(ParentArray{-1, 1}), Catch::Contains("entry 1 has parent 1"));
}

TEST_CASE("dense_cost_metrics is the unbranched chain", "[topology][cost]") {
  for (int n = 0; n <= 64; ++n) {
    INFO("n = " << n);
    const long long N = n;
    const CostMetrics d = treedyn::dense_cost_metrics(n);
    CHECK(d.n == n);
    CHECK(d.D0 == (n == 0 ? 0 : N - 1));
    CHECK(d.D1 == (N * N - N) / 2);
    CHECK(d.D2 == (N * N * N - N) / 6);
    CHECK(d.nonzeros() == N * N);
    if (n >= 1) CHECK(d == treedyn::cost_metrics(topo::chain(n)));
  }
  // Large n: exact where n^3 itself would overflow, and an overflow error past 64 bits.
  const long long big = 3000000;
  CHECK(treedyn::dense_cost_metrics(3000000).D2 == big / 6 * (big - 1) * (big + 1));  // 4.4999995e18
  CHECK_THROWS_AS(treedyn::dense_cost_metrics(5000000), std::overflow_error);
  CHECK_THROWS_WITH(treedyn::dense_cost_metrics(-1), Catch::Contains("n = -1"));
}

TEST_CASE("Table 2 closed forms: unbranched chain, n = 1..64", "[topology][cost][table2]") {
  for (int n = 1; n <= 64; ++n) {
    INFO("n = " << n);
    const long long N = n;
    const ParentArray lambda = topo::chain(n);
    const CostMetrics c = treedyn::cost_metrics(lambda);
    CHECK(c.n == n);
    CHECK(c.D0 == N - 1);
    CHECK(c.D1 == (N * N - N) / 2);
    CHECK(c.D2 == (N * N * N - N) / 6);
    CHECK(c == brute_force(lambda));
  }
}

TEST_CASE("Table 2 closed forms: chain with short side branches, m = 1..8", "[topology][cost][table2]") {
  for (int m = 1; m <= 8; ++m) {
    INFO("m = " << m);
    const long long M = m;
    const ParentArray lambda = topo::short_side_branches(m);
    const CostMetrics c = treedyn::cost_metrics(lambda);
    CHECK(c.n == 2 * m);
    CHECK(c.D0 == 2 * M - 1);
    CHECK(c.D1 == M * M);
    CHECK(c.D2 == (2 * M * M * M + 3 * M * M + M) / 6);
    CHECK(c == brute_force(lambda));
  }
}

TEST_CASE("Table 2 closed forms: balanced binary tree, m = 1..8", "[topology][cost][table2]") {
  for (int m = 1; m <= 8; ++m) {
    INFO("m = " << m);
    long long D1 = 0, D2 = 0;
    for (long long i = 1; i <= m - 1; ++i) {
      D1 += i * pow2(static_cast<int>(i));
      D2 += i * (i + 1) * pow2(static_cast<int>(i - 1));
    }
    const ParentArray lambda = topo::binary_tree(m);
    const CostMetrics c = treedyn::cost_metrics(lambda);
    CHECK(c.n == pow2(m) - 1);
    CHECK(c.D0 == pow2(m) - 2);
    CHECK(c.D1 == D1);
    CHECK(c.D2 == D2);
    CHECK(c == brute_force(lambda));
    // Featherstone (2005) §4.2 bounds: (m-1) 2^(m-1) <= D1 <= (m-1) 2^m.
    CHECK((m - 1) * pow2(m - 1) <= c.D1);
    CHECK(c.D1 <= (m - 1) * pow2(m));
  }
}

TEST_CASE("Table 2 closed forms: spanning tree of an m x m grid, m = 1..8", "[topology][cost][table2]") {
  for (int m = 1; m <= 8; ++m) {
    INFO("m = " << m);
    const long long M = m;
    const ParentArray lambda = topo::grid_spanning_tree(m);
    const CostMetrics c = treedyn::cost_metrics(lambda);
    CHECK(c.n == m * m);
    CHECK(c.D0 == M * M - 1);
    CHECK(c.D1 == M * M * M - M * M);
    CHECK(c.D2 == (7 * M * M * M * M - 6 * M * M * M - M * M) / 12);
    CHECK(c == brute_force(lambda));
  }
}

TEST_CASE("seed 000 §6 humanoid: body graph and expanded graph", "[topology][cost][humanoid]") {
  const ParentArray bodies = topo::humanoid();
  const CostMetrics b = treedyn::cost_metrics(bodies);
  CHECK(b.n == 25);
  CHECK(b.D0 == 24);
  CHECK(b.D1 == 84);
  // D1 = sum over non-root bodies of |nu(i)| (Featherstone (2005) eq. 19 and the proof below it).
  long long sum_nu = 0;
  const std::vector<int> nu = treedyn::subtree_sizes(bodies);
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i] != treedyn::no_parent) sum_nu += nu[i];
  CHECK(sum_nu == 84);

  const ParentArray mu = treedyn::expand_parent_array(bodies, topo::humanoid_dofs());
  const CostMetrics e = treedyn::cost_metrics(mu);
  CHECK(e.n == 30);
  CHECK(e.D1 == 219);
  CHECK(e.D2 == 1039);
  CHECK(e.nonzeros() == 468);
  CHECK(static_cast<long long>(e.n) * e.n == 900);
  CHECK(e == brute_force(mu));
  // Table 1 with div = m: LTDL factorization D1 div + D2 (m + a) = 1258m + 1039a, back-substitution
  // n div + 2 D1 (m + a) = 468m + 438a; dense 30 x 30: 4930m + 4495a.
  CHECK(e.D1 + e.D2 == 1258);
  CHECK(e.n + 2 * e.D1 == 468);
  CHECK(2 * e.D1 == 438);
  const CostMetrics dense = treedyn::dense_cost_metrics(30);
  CHECK(dense.D1 + dense.D2 == 4930);
  CHECK(dense.D2 == 4495);
  // The expanded depths: 1..6 for the torso chain, then four limbs at 7..12.
  const std::vector<int> d = treedyn::depths(mu);
  for (int k = 0; k < 6; ++k) CHECK(d[static_cast<std::size_t>(k)] == k + 1);
  for (int l = 0; l < 4; ++l)
    for (int j = 0; j < 6; ++j) CHECK(d[static_cast<std::size_t>(6 + 6 * l + j)] == 7 + j);
}

TEST_CASE("dense/sparse LTDL cost ratios of seed 000 §4.2", "[topology][cost][table2]") {
  // Binary tree: printed 7.8 (n = 15) and 430 (n = 255); exact 1225/158 and 5559425/12798.
  CHECK(treedyn::dense_to_sparse_ratio<double>(topo::binary_tree(4)) == Approx(1225.0 / 158.0).epsilon(1e-15));
  CHECK(std::abs(treedyn::dense_to_sparse_ratio<double>(topo::binary_tree(4)) - 7.75) < 0.005);
  CHECK(std::abs(treedyn::dense_to_sparse_ratio<double>(topo::binary_tree(8)) - 434.0) < 0.5);
  // Grid: printed 5.3 (n = 16) and 74 (n = 256).
  CHECK(std::abs(treedyn::dense_to_sparse_ratio<double>(topo::grid_spanning_tree(4)) - 5.3) < 0.05);
  CHECK(std::abs(treedyn::dense_to_sparse_ratio<double>(topo::grid_spanning_tree(16)) - 73.9) < 0.05);
  // Short side branches: the ratio tends to 4 (Featherstone (2005) §4.2), and a chain costs the same as dense.
  CHECK(std::abs(treedyn::dense_to_sparse_ratio<double>(topo::short_side_branches(2000)) - 4.0) < 0.01);
  CHECK(treedyn::dense_to_sparse_ratio<double>(topo::chain(20)) == 1.0);
  // Degenerate counts.
  CHECK(treedyn::dense_to_sparse_ratio<double>(topo::chain(1)) == 1.0);
  CHECK(treedyn::dense_to_sparse_ratio<double>(ParentArray{}) == 1.0);
  CHECK(treedyn::dense_to_sparse_ratio<double>(topo::star(3)) == std::numeric_limits<double>::infinity());
}

TEST_CASE("cost identities on random trees", "[topology][cost]") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    for (const int n : {1, 2, 7, 40, 150}) {
      INFO("seed = " << seed << ", n = " << n);
      const ParentArray lambda = topo::random_tree(n, seed);
      const CostMetrics c = treedyn::cost_metrics(lambda);
      CHECK(c == brute_force(lambda));
      // D1 = sum (|nu(i)| - 1) (Featherstone (2005) §5), and the bounds of eqs. 10, 11, 16.
      long long s = 0;
      for (const int nu : treedyn::subtree_sizes(lambda)) s += nu - 1;
      CHECK(c.D1 == s);
      const CostMetrics dense = treedyn::dense_cost_metrics(n);
      CHECK(c.D0 <= dense.D0);
      CHECK(c.D1 <= dense.D1);
      CHECK(c.D2 <= dense.D2);
    }
  }
}
