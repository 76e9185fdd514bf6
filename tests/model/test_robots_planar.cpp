// The planar and test robots: two_link's H equals its closed form and reproduces Table 1's O(κ) column
// of Ascher, Pai & Cloutier (1996) (rectangular links 0.1 m wide); the pendulum hangs where Jain (n.d.) §8
// puts it; random_tree covers every joint type and is deterministic. Papers: see docs/references.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <vector>

#include "model_test_support.hpp"
#include "treedyn/robots/robots.hpp"
#include "treedyn/topology/generators.hpp"
#include "treedyn/topology/parent_array.hpp"

using namespace model_test;
using treedyn::JointType;
using treedyn::Model;

namespace {

std::vector<int> ints(std::initializer_list<int> l) { return std::vector<int>(l); }

}  // namespace

TEMPLATE_TEST_CASE("two_link: H matches its closed form", "[model][robots]", float, double) {
  using T = TestType;
  const T l1 = T(2), m1 = T(10), l2 = T(0.02), m2 = T(0.1), w = T(0.02);  // Ascher, Pai & Cloutier (1996) Example 1
  const Model<T> model = treedyn::robots::two_link<T>(l1, m1, l2, m2, w);
  REQUIRE(model.nbodies() == 2);
  CHECK(model.nq() == 2);
  CHECK(to_vector(model.parents()) == ints({-1, 0}));
  CHECK(model.name(0) == "link2");
  CHECK(model.name(1) == "link1");
  CHECK(model.inertia(0).m == m2);
  CHECK(model.inertia(1).m == m1);
  CHECK(model.gravity() == V3<T>(T(0), T(-9.81), T(0)));
  const T Ia = m2 * (l2 * l2 + w * w) / T(12), Ib = m1 * (l1 * l1 + w * w) / T(12);
  for (const T qb : {T(0), T(0.5), T(2.5), T(-1)}) {
    for (const T qa : {T(0), T(0.8)}) {  // the base angle does not enter H
      VecX<T> q(2);
      q << qa, qb;
      const MatX<T> H = mass_matrix(model, q);
      const T c = std::cos(qb);
      const T H00 = Ia + m2 * l2 * l2 / T(4) + Ib + m1 * (l2 * l2 + l1 * l1 / T(4) + l2 * l1 * c);
      const T H01 = Ib + m1 * (l1 * l1 / T(4) + l2 * l1 * c / T(2));
      const T H11 = Ib + m1 * l1 * l1 / T(4);
      const T tol = T(64 * eps<T>()) * H00;
      INFO("q = " << q.transpose());
      CHECK(std::abs(H(0, 0) - H00) <= tol);
      CHECK(std::abs(H(0, 1) - H01) <= tol);
      CHECK(std::abs(H(1, 0) - H01) <= tol);
      CHECK(std::abs(H(1, 1) - H11) <= tol);
    }
  }
}

TEST_CASE("two_link: seed 004 Table 1's O(kappa_max) column (algorithms.md §7.1)", "[model][robots]") {
  // r = l2 = m2, l1 = m1 = 1 − r, w = 0.1; kappa_max(H) over q_distal in [0, 2π): floor(log10) is
  // 2, 3, 4, then 5 for the eight smallest r (independently verified values 5.1e2 … 7.4e5).
  const std::vector<double> r = {0.1, 0.05, 0.01, 0.005, 0.004, 0.0035, 0.003, 0.0025, 0.002, 0.0018, 0.0015};
  const std::vector<int> order = {2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5};
  const double two_pi = 8 * std::atan(1.0);
  for (std::size_t k = 0; k < r.size(); ++k) {
    const Model<double> model = treedyn::robots::two_link<double>(1 - r[k], 1 - r[k], r[k], r[k], 0.1);
    double kappa_max = 0;
    for (int s = 0; s < 720; ++s) {
      VecX<double> q(2);
      q << 0.0, two_pi * s / 720.0;
      const MatX<double> H = mass_matrix(model, q);
      const Eigen::Vector2d ev = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(H.topLeftCorner<2, 2>()).eigenvalues();
      kappa_max = std::max(kappa_max, ev(1) / ev(0));
    }
    INFO("r = " << r[k] << ", kappa_max = " << kappa_max);
    CHECK(static_cast<int>(std::floor(std::log10(kappa_max))) == order[k]);
  }
}

TEMPLATE_TEST_CASE("pendulum: seed 001 §8 spheres", "[model][robots]", float, double) {
  using T = TestType;
  for (const int n : {1, 3, 12, 30}) {
    const Model<T> model = treedyn::robots::pendulum<T>(n);
    INFO("n = " << n);
    REQUIRE(model.nbodies() == n);
    CHECK(model.nq() == n);
    CHECK(model.nv() == n);
    CHECK(to_vector(model.parents()) == treedyn::topologies::chain(n));
    CHECK(std::abs(total_mass(model) - T(n)) <= T(4 * eps<T>()) * T(n));
    CHECK(model.gravity() == V3<T>(T(0), T(-9.8), T(0)));
    const T r = T(6) / T(n);
    // at q = π/4 · e_0 (the whole pendulum straight, tilted towards +x) sphere k's centre is at
    // (0, 10) + (r + 2 r k) (sin π/4, −cos π/4); its inertia about the centre is (2/5) r²
    VecX<T> q = VecX<T>::Zero(n);
    const T angle = std::atan(T(1));
    q(0) = angle;
    const std::vector<treedyn::Transform<T>> X0 = body_placements(model, q);
    for (int k = 0; k < n; ++k) {
      const treedyn::RigidInertia<T>& I = model.inertia(k);
      const V3<T> centre = world_point(X0[static_cast<std::size_t>(k)], I.com());
      const T dist = r + T(2) * r * T(k);
      const V3<T> expected(dist * std::sin(angle), T(10) - dist * std::cos(angle), T(0));
      CHECK(close_entrywise(centre, expected, T(64 * eps<T>()) * T(12)));
      const treedyn::Matrix3<T> Ic = I.I.matrix() + treedyn::skew(I.h) * treedyn::skew(I.com());
      CHECK(close_entrywise(Ic, T(0.4) * r * r * treedyn::Matrix3<T>::Identity(), T(64 * eps<T>()) * r * r));
      CHECK(model.joint(k).axis == V3<T>::UnitZ());
    }
  }
  CHECK_THROWS_AS(treedyn::robots::pendulum<T>(0), std::invalid_argument);
}

TEST_CASE("random_tree: every joint type, deterministic", "[model][robots]") {
  std::set<JointType> seen;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Model<double> model = treedyn::robots::random_tree<double>(10, seed);
    std::set<JointType> in_model;
    for (int i = 0; i < model.nbodies(); ++i) in_model.insert(model.joint(i).type);
    // bodies 0..6 carry all seven types: the six moving ones are in the model, the fixed one merged
    INFO("seed " << seed);
    CHECK(in_model.size() == 6);
    CHECK(model.nbodies() < 10);
    CHECK(model.frames().size() == 10u);  // one frame per builder body, merged fixed bodies included
    CHECK_NOTHROW(treedyn::validate_parent_array(to_vector(model.parents())));
    seen.insert(in_model.begin(), in_model.end());
    // deterministic: the same seed gives the same model, a different seed another one
    const Model<double> again = treedyn::robots::random_tree<double>(10, seed);
    REQUIRE(again.nbodies() == model.nbodies());
    CHECK(to_vector(again.parents()) == to_vector(model.parents()));
    for (int i = 0; i < model.nbodies(); ++i) {
      CHECK(again.joint(i).type == model.joint(i).type);
      CHECK(again.joint(i).axis == model.joint(i).axis);
      CHECK(again.joint(i).pitch == model.joint(i).pitch);
      CHECK(again.tree_transform(i).E == model.tree_transform(i).E);
      CHECK(again.tree_transform(i).r == model.tree_transform(i).r);
      CHECK(again.inertia(i).matrix() == model.inertia(i).matrix());
    }
    const Model<double> other = treedyn::robots::random_tree<double>(10, seed + 1000);
    CHECK(other.inertia(0).matrix() != model.inertia(0).matrix());
  }
  CHECK(seen.size() == 6);
  // small trees still build, large ones too (float as well)
  CHECK_NOTHROW(treedyn::robots::random_tree<double>(1, 3));
  CHECK_NOTHROW(treedyn::robots::random_tree<float>(60, 3));
  CHECK_THROWS_AS(treedyn::robots::random_tree<double>(0, 3), std::invalid_argument);
}

TEST_CASE("random_chain: a serial chain on a fixed base from the given joint types, deterministic", "[model][robots]") {
  const Model<double> chain = treedyn::robots::random_chain<double>(40, 7);
  REQUIRE(chain.nbodies() == 40);
  CHECK(chain.nv() == 40);
  for (int i = 0; i < chain.nbodies(); ++i) {
    CHECK(chain.parent(i) == i - 1);
    CHECK(chain.joint(i).type == JointType::revolute);
    CHECK(std::abs(chain.joint(i).axis.norm() - 1.0) <= 8 * eps<double>());
  }
  std::set<JointType> seen;
  const Model<double> mixed = treedyn::robots::random_chain<double>(40, 7, {JointType::revolute, JointType::prismatic});
  for (int i = 0; i < mixed.nbodies(); ++i) seen.insert(mixed.joint(i).type);
  CHECK(seen == std::set<JointType>{JointType::revolute, JointType::prismatic});
  const Model<double> again = treedyn::robots::random_chain<double>(40, 7);
  const Model<double> other = treedyn::robots::random_chain<double>(40, 8);
  for (int i = 0; i < chain.nbodies(); ++i) {
    CHECK(again.joint(i).axis == chain.joint(i).axis);
    CHECK(again.tree_transform(i).r == chain.tree_transform(i).r);
    CHECK(again.inertia(i).matrix() == chain.inertia(i).matrix());
  }
  CHECK(other.joint(0).axis != chain.joint(0).axis);
  CHECK_NOTHROW(treedyn::robots::random_chain<float>(1000, 3));
  CHECK_THROWS_AS(treedyn::robots::random_chain<double>(0, 3), std::invalid_argument);
  CHECK_THROWS_AS(treedyn::robots::random_chain<double>(3, 3, {}), std::invalid_argument);
  CHECK_THROWS_AS(treedyn::robots::random_chain<double>(3, 3, {JointType::fixed}), std::invalid_argument);
}
