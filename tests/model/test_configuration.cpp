// The configuration space (integrated through the q̇(v) map): integrate / difference round trips,
// quaternions stay unit, q_out may alias q, neutral and random_configuration give valid configurations.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "model_test_support.hpp"
#include "treedyn/robots/random_tree.hpp"

using namespace model_test;
using treedyn::JointType;
using treedyn::Model;

namespace {

/// Max |difference| between two configurations, where each quaternion of `b` is first given the
/// sign of the corresponding quaternion of `a` (q and −q are the same rotation).
template <class T>
T config_distance(const Model<T>& model, const VecX<T>& a, VecX<T> b) {
  for (int i = 0; i < model.nbodies(); ++i) {
    const treedyn::Joint<T>& joint = model.joint(i);
    if (!joint.has_quaternion()) continue;
    const int iq = model.q_offset(i) + (joint.type == JointType::free_flyer ? 3 : 0);
    if (a.template segment<4>(iq).dot(b.template segment<4>(iq)) < T(0)) b.template segment<4>(iq) *= T(-1);
  }
  return (a - b).cwiseAbs().maxCoeff();
}

}  // namespace

TEMPLATE_TEST_CASE("difference inverts integrate", "[model][configuration]", float, double) {
  using T = TestType;
  treedyn::test::Rng rng(31337);
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Model<T> model = treedyn::robots::random_tree<T>(12, seed);
    const VecX<T> q0 = treedyn::random_configuration(model, seed);
    // (1) v → q1 = q0 ⊕ v → q1 ⊖ q0 = v, for |ω| ≤ √3 < π (inside the shortest-rotation range)
    const VecX<T> v = random_vector<T>(rng, model.nv());
    VecX<T> q1(model.nq()), back(model.nv());
    treedyn::integrate(model, q0, v, T(1), q1);
    treedyn::difference(model, q0, q1, back);
    INFO("seed " << seed);
    CHECK(close_entrywise(back, v, T(64 * eps<T>()) * (T(1) + v.norm())));
    // (2) two independent configurations: q0 ⊕ (q1 ⊖ q0) = q1. The planar logarithm amplifies
    // rounding by |v| (it is singular as |θ1 − θ0| → 2π), hence the (1 + |v|) factor.
    const VecX<T> q2 = treedyn::random_configuration(model, seed + 100);
    VecX<T> d(model.nv()), q3(model.nq());
    treedyn::difference(model, q0, q2, d);
    treedyn::integrate(model, q0, d, T(1), q3);
    CHECK(config_distance(model, q2, q3) <= T(64 * eps<T>()) * (T(1) + d.norm()));
    // (3) the difference of a configuration with itself is zero
    treedyn::difference(model, q2, q2, d);
    CHECK(d.cwiseAbs().maxCoeff() <= T(8 * eps<T>()));
  }
}

TEMPLATE_TEST_CASE("integrate keeps quaternions unit and may write in place", "[model][configuration]", float,
                   double) {
  using T = TestType;
  const Model<T> model = treedyn::robots::random_tree<T>(14, 3);
  VecX<T> q = treedyn::random_configuration(model, 5);
  treedyn::test::Rng rng(4);
  for (int step = 0; step < 1000; ++step) {
    const VecX<T> v = T(3) * random_vector<T>(rng, model.nv());
    VecX<T> separate(model.nq());
    treedyn::integrate(model, q, v, T(0.01), separate);
    treedyn::integrate(model, q, v, T(0.01), q);  // q_out aliases q
    REQUIRE(separate == q);
  }
  for (int i = 0; i < model.nbodies(); ++i) {
    const treedyn::Joint<T>& joint = model.joint(i);
    if (!joint.has_quaternion()) continue;
    const int iq = model.q_offset(i) + (joint.type == JointType::free_flyer ? 3 : 0);
    CHECK(std::abs(q.template segment<4>(iq).norm() - T(1)) <= T(4 * eps<T>()));
  }
}

TEST_CASE("neutral and random configurations", "[model][configuration]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Model<double> model = treedyn::robots::random_tree<double>(16, seed);
    const VecX<double> q0 = treedyn::neutral(model);
    const VecX<double> q = treedyn::random_configuration(model, seed);
    REQUIRE(q0.size() == model.nq());
    REQUIRE(q == treedyn::random_configuration(model, seed));  // deterministic
    const double pi = 4.0 * std::atan(1.0);
    for (int i = 0; i < model.nbodies(); ++i) {
      const treedyn::Joint<double>& joint = model.joint(i);
      const int iq = model.q_offset(i);
      // every XJ at the neutral configuration is the identity
      const treedyn::Transform<double> X = joint.transform(q0.segment(iq, joint.nq()));
      CHECK(X.E == treedyn::Matrix3<double>::Identity());
      CHECK(X.r == V3<double>::Zero());
      switch (joint.type) {
        case JointType::revolute:
        case JointType::helical: CHECK(std::abs(q(iq)) <= pi); break;
        case JointType::planar: CHECK(std::abs(q(iq + 2)) <= pi); break;
        case JointType::spherical: CHECK(std::abs(q.segment<4>(iq).norm() - 1.0) <= 4 * eps<double>()); break;
        case JointType::free_flyer: CHECK(std::abs(q.segment<4>(iq + 3).norm() - 1.0) <= 4 * eps<double>()); break;
        default: break;
      }
    }
    // integrating the zero velocity changes nothing
    VecX<double> q1(model.nq());
    treedyn::integrate(model, q, VecX<double>::Zero(model.nv()), 1.0, q1);
    CHECK(config_distance(model, q, q1) <= 4 * eps<double>());
  }
}

TEST_CASE("integrate and difference in long double", "[model][configuration]") {
  using T = long double;
  const Model<T> model = treedyn::robots::random_tree<T>(10, 2);
  const VecX<T> q0 = treedyn::random_configuration(model, 8);
  treedyn::test::Rng rng(12);
  const VecX<T> v = random_vector<T>(rng, model.nv());
  VecX<T> q1(model.nq()), back(model.nv());
  treedyn::integrate(model, q0, v, T(1), q1);
  treedyn::difference(model, q0, q1, back);
  CHECK(close_entrywise(back, v, T(64 * eps<T>()) * (T(1) + v.norm())));
  // the extended precision is really used: the error is far below double's epsilon when ε_T < ε_double
  if (eps<T>() < eps<double>()) CHECK((back - v).cwiseAbs().maxCoeff() < T(eps<double>()));
}
