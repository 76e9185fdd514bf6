// Data grows with the work: its bytes (Data::memory_bytes) for a 10,000-body binary tree stay far below
// what an n×n matrix would take, and the builder's duplicate-name check keeps a rejected body's name free.
// Bytes are counted, not times measured (docs/performance.md#scaling has the times).
#include <catch2/catch.hpp>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "treedyn/model/data.hpp"
#include "treedyn/robots/random_tree.hpp"
#include "treedyn/topology/generators.hpp"

using treedyn::Data;
using treedyn::Model;

namespace {

/// A binary tree of n bodies: heap numbering, the first n nodes of topologies::binary_tree.
std::vector<int> binary_tree_of(int n) {
  const std::vector<int> heap = treedyn::topologies::binary_tree(14);  // 16383 nodes
  REQUIRE(n <= static_cast<int>(heap.size()));
  return std::vector<int>(heap.begin(), heap.begin() + n);
}

}  // namespace

TEST_CASE("Data of a 10,000-body binary tree takes less than 100 MB, growing as n + D1", "[model][data][memory]") {
  const Model<double> small = treedyn::robots::random_model<double>(binary_tree_of(1000), 1);
  const Model<double> large = treedyn::robots::random_model<double>(binary_tree_of(10000), 1);
  REQUIRE(large.nv() == 10000);
  const Data<double> d_small(small), d_large(large);
  const std::size_t bytes = d_large.memory_bytes();
  INFO("Data bytes: " << bytes << " for n = 10000, " << d_small.memory_bytes() << " for n = 1000");
  CHECK(bytes < std::size_t{100} * 1000 * 1000);
  // the count includes the packed H and its factor (n + D1 entries each) and nothing n×n
  const std::size_t packed = static_cast<std::size_t>(large.h_pattern().nonzeros()) * sizeof(double);
  CHECK(bytes > 2 * packed);
  CHECK(bytes < std::size_t{10000} * 10000 * sizeof(double) / 20);
  // ten times the bodies, at most ~13× the bytes (D1 grows as n log2 n; an n² member would give 100×)
  CHECK(bytes < 13 * d_small.memory_bytes());
  // with a fixed N nothing is on the heap: the object is all there is
  const Model<double, 30> fixed = treedyn::robots::random_model<double>(binary_tree_of(30), 1).cast<double, 30>();
  const Data<double, 30> d_fixed(fixed);
  CHECK(d_fixed.memory_bytes() == sizeof(Data<double, 30>));
}

TEST_CASE("ModelBuilder: duplicate names are rejected, a rejected body's name stays free", "[model][builder]") {
  using treedyn::Joint;
  using treedyn::ModelBuilder;
  using treedyn::RigidInertia;
  using treedyn::Transform;
  ModelBuilder<double> builder;
  const Joint<double> joint = Joint<double>::revolute(treedyn::Vector3<double>::UnitZ());
  const RigidInertia<double> good = RigidInertia<double>::from_mass_com_inertia(
      1.0, treedyn::Vector3<double>::Zero(), treedyn::Matrix3<double>::Identity());
  builder.add_body(treedyn::no_parent, joint, Transform<double>::identity(), good, "a");
  CHECK_THROWS_AS(builder.add_body(0, joint, Transform<double>::identity(), good, "a"), std::invalid_argument);
  RigidInertia<double> negative = good;
  negative.m = -1.0;
  CHECK_THROWS_AS(builder.add_body(0, joint, Transform<double>::identity(), negative, "b"), std::invalid_argument);
  CHECK(builder.add_body(0, joint, Transform<double>::identity(), good, "b") == 1);  // "b" was not taken
  CHECK(builder.size() == 2);
}

TEST_CASE("random_chain is random_model on a chain", "[model][robots]") {
  const Model<double> a = treedyn::robots::random_chain<double>(12, 9);
  const Model<double> b = treedyn::robots::random_model<double>(treedyn::topologies::chain(12), 9);
  REQUIRE(a.nbodies() == b.nbodies());
  for (int i = 0; i < a.nbodies(); ++i) {
    CHECK(a.parent(i) == b.parent(i));
    CHECK(a.inertia(i).m == b.inertia(i).m);
    CHECK(a.tree_transform(i).r == b.tree_transform(i).r);
  }
}
