// contact_metrics (contact/contact_metrics.hpp, docs/contact.md#contact-metrics): the violations of
// Signorini's condition, the Coulomb cone and the maximum-dissipation principle, against values worked by
// hand for single impulses, and on contact_step's own results: a resting sphere and a sliding sphere along a
// direction of the friction pyramid violate nothing (round-off), a sphere sliding between two directions of
// the pyramid falls short of the maximum dissipation by exactly μ λ_n ‖w_t‖ (1 − cos(π/n_f)), the bound
// the file comment derives, and a hinge's rows keep a zero velocity.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "support/scalars.hpp"
#include "treedyn/contact/contact_metrics.hpp"
#include "treedyn/contact/contact_step.hpp"

namespace {

using namespace treedyn;

/// A sphere of radius r and mass m on a free joint whose origin is its centre, gravity −g ẑ.
template <class T>
Model<T> sphere(T m, T r, T g) {
  ModelBuilder<T> b;
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(),
             RigidInertia<T>::from_mass_com_inertia(m, Vector3<T>::Zero(),
                                                    Matrix3<T>::Identity() * (T(0.4) * m * r * r)));
  return b.build().with_gravity(Vector3<T>(T(0), T(0), -g));
}

/// Its contact with the floor z = 0 at the bottom of the sphere (centre at height r, distance 0).
template <class T>
Contact<T> floor_contact(T r, T mu, int directions) {
  Contact<T> c;
  c.body_a = 0;
  c.point_a = Vector3<T>(T(0), T(0), -r);
  c.mu = mu;
  c.friction_directions = directions;
  c.tangent = Vector3<T>::UnitX();  // the pyramid's first direction along x
  return c;
}

}  // namespace

TEMPLATE_TEST_CASE("contact_violations of single impulses equal the values worked by hand", "[contact][metrics]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T e = std::numeric_limits<T>::epsilon();
  using V = Vector3<T>;
  const V z = V::UnitZ();
  const T mu = T(0.5), tol = T(8) * e;
  struct Case {
    V p, w;
    T approach, signorini, cone, dissipation;
  };
  const std::vector<Case> cases{
      {V(0, 0, 2), V(0, 0, 0), 0, 0, 0, 0},                               // resting: nothing violated
      {V(1, 0, 1), V(0, 0, 0), 0, 0, T(0.5) / std::sqrt(T(1.25)), 0},     // ‖λ_t‖ = 1 > μλ_n = 0.5
      {V(0, 0, -1), V(0, 0, 0), 0, 0, 1, 0},                              // pulling: the apex is nearest, dist ‖p‖
      {V(T(0.1), 0, -1), V(0, 0, 0), 0, 0, std::sqrt(T(1.01)), 0},        // still in the polar cone
      {V(-1, 0, 2), V(3, 0, 0), 0, 0, 0, 0},                              // full friction against the sliding
      {V(0, -1, 2), V(3, 0, 0), 0, 0, 0, 3},                              // friction ⟂ sliding: none dissipated
      {V(T(-0.5), 0, 2), V(3, 0, 0), 0, 0, 0, T(1.5)},                    // half the friction it could give
      {V(0, 0, 2), V(0, 0, T(-0.5)), T(0.5), 1, 0, 0},                    // still approaching, pushed
      {V(0, 0, 2), V(0, 0, T(0.25)), 0, T(0.5), 0, 0},                    // separating while pushed
  };
  // the same cases with every vector turned by one rotation: the values are invariant
  const Matrix3<T> R = Eigen::AngleAxis<T>(T(0.7), V(T(1), T(-2), T(0.5)).normalized()).toRotationMatrix();
  for (const Matrix3<T>& turn : {Matrix3<T>(Matrix3<T>::Identity()), R})
    for (const Case& c : cases) {
      const ContactViolations<T> v = contact_violations<T>(turn * z, mu, turn * c.p, turn * c.w);
      INFO("p = " << c.p.transpose() << ", w = " << c.w.transpose());
      CHECK(std::abs(v.approach - c.approach) <= tol * T(4));
      CHECK(std::abs(v.signorini - c.signorini) <= tol * T(4));
      CHECK(std::abs(v.cone - c.cone) <= tol * T(4));
      CHECK(std::abs(v.dissipation - c.dissipation) <= tol * T(16));
    }
}

TEMPLATE_TEST_CASE("contact_metrics: a sphere resting or sliding along the pyramid violates nothing; between two "
                   "directions it falls short of the maximum dissipation by mu F_n |w_t| (1 - cos(pi/n_f))",
                   "[contact][metrics][contact_step]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const T e = std::numeric_limits<T>::epsilon();
  const T r = T(0.1), m = T(1), g = T(9.81), mu = T(0.2), dt = T(1e-3), v0 = T(2);
  const Model<T> model = sphere(m, r, g);
  Data<T> data(model);
  ContactStepWorkspace<T, Dynamic> ws(model, 1, 8);
  const Vec tau = Vec::Zero(6);
  Vec q = Vec::Zero(7);
  q(2) = r;
  q(6) = T(1);
  const T pi = T(3.14159265358979323846264338327950288L);
  // the velocity scale of the step is v0; the impulse scale m g dt; round-off a few hundred ε of them
  const T tol_v = T(256) * e * v0, tol_p = T(256) * e * m * g * dt;
  for (const int directions : {4, 8}) {
    const std::vector<Contact<T>> contacts{floor_contact(r, mu, directions)};
    for (const T fraction : {T(-1), T(0), T(0.5), T(1)}) {  // −1: at rest; else the angle fraction·π/n_f
      const T angle = fraction * pi / T(directions);
      Vec v = Vec::Zero(6);
      if (fraction >= T(0)) v.template segment<2>(3) << v0 * std::cos(angle), v0 * std::sin(angle);
      REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
      const ContactMetrics<T> metrics = contact_metrics(ws, contacts);
      // the contact point's velocity after the step, from the new state (world axes; the point at the start)
      const Matrix3<T> R = detail::quaternion_rotation(ws.q_next.template segment<4>(3));
      const Vector3<T> w =
          R * ws.v_next.template tail<3>() + (R * ws.v_next.template head<3>()).cross(Vector3<T>(0, 0, -r));
      const T F_n = ws.normal_impulse(0), slip = Vector3<T>(w.x(), w.y(), T(0)).norm();
      INFO(directions << " directions, sliding at " << fraction << " pi/n_f: F_n " << F_n << ", slip " << slip
                      << ", approach " << metrics.worst.approach << ", signorini " << metrics.worst.signorini
                      << ", cone " << metrics.worst.cone << ", dissipation " << metrics.worst.dissipation);
      REQUIRE(metrics.contacts == 1);
      CHECK(std::abs(F_n - m * g * dt) <= tol_p);  // resting contact: the normal impulse is m g dt
      CHECK(metrics.worst.approach <= tol_v);
      CHECK(metrics.worst.signorini <= tol_v * F_n);
      CHECK(metrics.worst.cone <= tol_p);
      const T shortfall = fraction > T(0) ? mu * F_n * slip * (T(1) - std::cos(pi / T(directions))) : T(0);
      if (fraction <= T(0)) {
        CHECK(metrics.worst.dissipation <= tol_v * F_n);  // at rest, or sliding along a direction of the pyramid
      } else if (fraction == T(1)) {  // between two directions: both take part and w_t stays on the bisector
        CHECK(std::abs(metrics.worst.dissipation - shortfall) <= tol_v * F_n + T(64) * e * shortfall);
      } else {  // in between: above zero, below the bound
        CHECK(metrics.worst.dissipation > tol_v * F_n);
        CHECK(metrics.worst.dissipation <= shortfall + tol_v * F_n);
      }
    }
  }
}

TEMPLATE_TEST_CASE("contact_metrics: a hinge's rows keep zero velocity; no contacts or a failed step report zeros",
                   "[contact][metrics][contact_step]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const T e = std::numeric_limits<T>::epsilon();
  const T r = T(0.1), g = T(9.81), dt = T(1e-3);
  const Model<T> model = sphere(T(1), r, g);
  Data<T> data(model);
  BilateralConstraint<T> pivot;  // the sphere's top point held at a world point: three linear rows
  pivot.body_a = 0;
  pivot.frame_a.r = Vector3<T>(T(0), T(0), r);
  pivot.body_b = world;
  pivot.frame_b.r = Vector3<T>(T(0), T(0), T(2) * r);
  pivot.rows = 0x38;
  ContactStepWorkspace<T, Dynamic> ws(model, 1, 4, {pivot});
  const Vec tau = Vec::Zero(6);
  Vec q = Vec::Zero(7), v = Vec::Zero(6);
  q(2) = r;
  q(6) = T(1);
  v << T(3), T(-1), T(2), T(0.5), T(0.2), T(0);  // spinning and moving: the constraint takes out the drift
  std::vector<Contact<T>> contacts{floor_contact(r, T(0.5), 4)};
  REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
  const ContactMetrics<T> metrics = contact_metrics(ws, contacts);
  INFO("bilateral |w| " << metrics.bilateral << ", approach " << metrics.worst.approach);
  CHECK(metrics.bilateral <= T(256) * e * v.norm());
  CHECK(metrics.worst.approach <= T(256) * e * v.norm());
  CHECK(metrics.worst.cone <= T(256) * e * g * dt);

  const std::vector<Contact<T>> none;
  REQUIRE(contact_step(model, data, ws, q, v, tau, none, dt).ok());
  const ContactMetrics<T> only_hinge = contact_metrics(ws, none);
  CHECK(only_hinge.contacts == 0);
  CHECK(only_hinge.worst.dissipation == T(0));
  CHECK(only_hinge.bilateral <= T(256) * e * v.norm());

  contacts[0].mu = T(-1);  // a failed step: nothing to measure
  REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).code == Status::Code::invalid_argument);
  const ContactMetrics<T> failed = contact_metrics(ws, contacts);
  CHECK(failed.contacts == 0);
  CHECK(failed.cone_contact == -1);
  CHECK(failed.bilateral == T(0));
}
