// The contact time step (contact_step.hpp) and the impulse ABA on problems with known answers: the
// impulse ABA against a dense solve H⁻¹ Jᵀ p, a sphere bouncing to ε² of its drop height, a box sticking
// below and sliding above the friction angle (Coulomb's law along a friction direction: the polyhedron is
// exact there), a collision that never gains kinetic energy, a hinge between two free bodies, bad inputs.
// Compiled once per scalar (tests/CMakeLists.txt); the argument checks in the double unit only.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "support/check_recorder.hpp"
#include "support/crba_dense.hpp"
#include "support/random.hpp"
#include "support/scalars.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/contact/contact_step.hpp"

namespace {

using namespace treedyn;

template <class T>
using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

template <class T>
T eps() {
  return std::numeric_limits<T>::epsilon();
}

/// A solid body of mass m whose rotational inertia about its centre is diag(k m) (k: 2/5 r² for a sphere).
template <class T>
RigidInertia<T> body_inertia(T m, T k) {
  return RigidInertia<T>::from_mass_com_inertia(m, Vector3<T>::Zero(), Matrix3<T>::Identity() * (k * m));
}

/// One free body; gravity g along −z unless given.
template <class T>
Model<T> free_body(T m, T k, const Vector3<T>& g = Vector3<T>(T(0), T(0), T(-9.81))) {
  ModelBuilder<T> b;
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), body_inertia(m, k));
  return b.build().with_gravity(g);
}

/// q of a free body at position p with the identity orientation.
template <class T>
VectorX<T> at(const Vector3<T>& p) {
  VectorX<T> q = VectorX<T>::Zero(7);
  q.template head<3>() = p;
  q(6) = T(1);
  return q;
}

/// A contact of body 0's point (body coordinates) with the plane z = 0 (normal +z); distance = the
/// point's height, from the configuration q.
template <class T>
Contact<T> plane_contact(const VectorX<T>& q, const Vector3<T>& point, T mu, T restitution,
                         const Vector3<T>& tangent = Vector3<T>::Zero()) {
  const Matrix3<T> R = detail::quaternion_rotation(q.template segment<4>(3));  // body → world
  Contact<T> c;
  c.body_a = 0;
  c.point_a = point;
  c.point_b = q.template head<3>() + R * point;
  c.point_b.z() = T(0);
  c.normal = Vector3<T>::UnitZ();
  c.mu = mu;
  c.restitution = restitution;
  c.tangent = tangent;
  c.distance = (q.template head<3>() + R * point).z();
  return c;
}

/// World velocity of body 0's point (a free body: q̇ = [ω; v_O] in body coordinates).
template <class T>
Vector3<T> point_velocity(const VectorX<T>& q, const VectorX<T>& v, const Vector3<T>& point) {
  const Matrix3<T> R = detail::quaternion_rotation(q.template segment<4>(3));
  return R * (v.template tail<3>() + v.template head<3>().cross(point));
}

template <class T>
T kinetic_energy(const Model<T>& model, Data<T>& data, const VectorX<T>& q, const VectorX<T>& v) {
  const MatrixX<T> H = test::crba_dense(model, data, q);
  return T(0.5) * v.dot(H * v);
}

/// Every contact's friction impulse lies in its polyhedral cone (so |f_t| ≤ μ F_n) and F_n ≥ 0.
template <class T>
void require_in_cone(const ContactStepWorkspace<T, Dynamic>& ws, const std::vector<Contact<T>>& contacts, T tol) {
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const T Fn = ws.normal_impulse(i);
    INFO("contact " << i << ": F_n = " << Fn << ", f_t = " << ws.friction_impulse(i).transpose());
    CHECK(Fn >= -tol);
    CHECK(ws.friction_impulse(i).norm() <= contacts[static_cast<std::size_t>(i)].mu * Fn + tol);
    CHECK(std::abs(ws.friction_impulse(i).dot(contacts[static_cast<std::size_t>(i)].normal)) <= tol);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("impulse_aba equals the dense solve H^-1 J^T p", "[contact][impulse_aba]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  ModelBuilder<T> b;
  const int base = b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), body_inertia(T(2), T(0.1)));
  const Transform<T> offset{Matrix3<T>::Identity(), Vector3<T>(T(0.3), T(0), T(0.1))};
  const int arm = b.add_body(base, Joint<T>::revolute(Vector3<T>::UnitY()), offset, body_inertia(T(1), T(0.05)));
  b.add_body(arm, Joint<T>::spherical(), offset, body_inertia(T(0.5), T(0.02)));
  b.add_body(base, Joint<T>::prismatic(Vector3<T>::UnitX()), offset, body_inertia(T(0.7), T(0.03)));
  const Model<T> model = b.build();
  Data<T> data(model);
  test::Rng rng(5);
  const VectorX<T> q = random_configuration(model, 11);
  const VectorX<T> qd = rng.matrix<T>(model.nv(), 1), tau = rng.matrix<T>(model.nv(), 1);
  aba(model, data, q, qd, tau);
  std::vector<Force<T>> p(static_cast<std::size_t>(model.nbodies()));
  for (Force<T>& f : p) f = rng.matrix<T>(6, 1);
  VectorX<T> dqd(model.nv());
  impulse_aba(model, data, p, dqd);
  // Jᵀ p = −RNEA(q, 0, 0, f_ext = p) without gravity
  const Model<T> weightless = model.with_gravity(Vector3<T>::Zero());
  Data<T> data2(weightless);
  const VectorX<T> zero = VectorX<T>::Zero(model.nv());
  const VectorX<T> Jtp = -rnea(weightless, data2, q, zero, zero, p);
  const MatrixX<T> H = test::crba_dense(weightless, data2, q);
  const VectorX<T> reference = H.ldlt().solve(Jtp);
  INFO("impulse_aba " << dqd.transpose() << "\ndense       " << reference.transpose());
  CHECK((dqd - reference).norm() <= T(1e3) * eps<T>() * (T(1) + reference.norm()));
}

TEMPLATE_TEST_CASE("OperationalFrames::retarget gives oscm the compliance of the same frames added one by one",
                   "[contact][oscm]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  ModelBuilder<T> b;  // a branched tree: root, two arms, a spherical wrist on one
  const Transform<T> offset{Matrix3<T>::Identity(), Vector3<T>(T(0.2), T(0.1), T(0))};
  const int root = b.add_body(no_parent, Joint<T>::revolute(Vector3<T>::UnitZ()), Transform<T>::identity(), body_inertia(T(3), T(0.1)));
  const int left = b.add_body(root, Joint<T>::revolute(Vector3<T>::UnitY()), offset, body_inertia(T(1), T(0.05)));
  const int wrist = b.add_body(left, Joint<T>::spherical(), offset, body_inertia(T(0.5), T(0.02)));
  const int right = b.add_body(root, Joint<T>::prismatic(Vector3<T>::UnitX()), offset, body_inertia(T(1), T(0.04)));
  const Model<T> model = b.build();
  Data<T> data(model);
  const VectorX<T> q = random_configuration(model, 3);
  using Spec = typename OperationalFrames<T>::Spec;
  const Transform<T> X{Eigen::AngleAxis<T>(T(0.3), Vector3<T>::UnitX()).toRotationMatrix(), Vector3<T>(T(0.1), T(0), T(0.2))};
  const std::vector<Spec> many{{wrist, X, FrameRows::linear()}, {right, offset, FrameRows::all()},
                               {wrist, offset, FrameRows{0x3B}}, {left, X, FrameRows::linear()}};
  OperationalFrames<T> reserved(model);
  reserved.reserve(5, 5 * 3);
  for (const int n : {4, 1, 3}) {  // a smaller set after a larger one, then a larger again
    OperationalFrames<T> added(model);
    for (int a = 0; a < n; ++a) added.add(many[static_cast<std::size_t>(a)].body, many[static_cast<std::size_t>(a)].placement,
                                          many[static_cast<std::size_t>(a)].rows);
    REQUIRE(reserved.retarget(many.data(), n));
    const MatrixX<T> expected = oscm(model, data, added, q);
    const int m = reserved.rows();
    REQUIRE(m == added.rows());
    const MatrixX<T> got = oscm(model, data, reserved, q).topLeftCorner(m, m);
    INFO(n << " frames");
    CHECK((got - expected).cwiseAbs().maxCoeff() <= T(10) * eps<T>() * (T(1) + expected.cwiseAbs().maxCoeff()));
    CHECK(oscm_faithful(model, data, reserved, q).topLeftCorner(m, m).isApprox(expected, T(100) * eps<T>()));
  }
  const std::vector<Spec> too_many(6, many[0]);
  CHECK_FALSE(reserved.retarget(too_many.data(), 6));
}

TEMPLATE_TEST_CASE("a sphere dropped on a plane bounces to eps^2 of its drop height", "[contact][contact_step]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T r = T(0.1), h = T(1), e = T(0.8), dt = T(5e-4);
  const Model<T> model = free_body(T(1), T(0.4) * r * r);
  Data<T> data(model);
  ContactStepWorkspace<T, Dynamic> ws(model, 1);
  VectorX<T> q = at<T>(Vector3<T>(T(0), T(0), r + h)), v = VectorX<T>::Zero(6);
  const VectorX<T> tau = VectorX<T>::Zero(6);
  std::vector<Contact<T>> contacts(1);
  bool bounced = false;
  T apex = T(0);
  for (int step = 0; step < 4000; ++step) {
    contacts[0] = plane_contact<T>(q, Vector3<T>(T(0), T(0), -r), T(0.5), e);
    REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
    if (ws.phase(0) == ContactPhase::collision) {
      if (bounced) break;  // the second impact: the first flight is over
      bounced = true;
      CHECK(ws.lcp_size() == 6);
    }
    q = ws.q_next;
    v = ws.v_next;
    CHECK(q(2) - r >= -T(1e-6));  // never below the plane
    if (bounced) apex = std::max(apex, q(2) - r);
  }
  REQUIRE(bounced);
  // error of the time step: one step of the impact speed √(2gh) (where the impact is detected) plus one of g
  const T tol = T(2) * std::sqrt(T(2) * T(9.81) * h) * dt + T(1e-4);
  INFO("apex " << apex << ", expected " << e * e * h);
  CHECK(std::abs(apex - e * e * h) <= tol);
}

TEMPLATE_TEST_CASE("a box on a slope sticks below atan(mu) and slides above it with g(sin - mu cos)",
                   "[contact][contact_step]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T a = T(0.1), mu = T(0.5), g = T(9.81), dt = T(1e-3);
  // the slope: the plane z = 0 with gravity tilted by θ about y, so that down the slope is +x
  for (const T theta : {T(0.4), T(0.6)}) {  // atan 0.5 = 0.4636
    const Model<T> model = free_body(T(2), T(2) / T(3) * a * a, Vector3<T>(g * std::sin(theta), T(0), -g * std::cos(theta)));
    Data<T> data(model);
    ContactStepWorkspace<T, Dynamic> ws(model, 4);
    VectorX<T> q = at<T>(Vector3<T>(T(0), T(0), a)), v = VectorX<T>::Zero(6);
    const VectorX<T> tau = VectorX<T>::Zero(6);
    std::vector<Contact<T>> contacts(4);
    const int steps = 200;
    for (int step = 0; step < steps; ++step) {
      int k = 0;
      for (const T x : {-a, a})
        for (const T y : {-a, a})
          contacts[static_cast<std::size_t>(k++)] = plane_contact<T>(q, Vector3<T>(x, y, -a), mu, T(0), Vector3<T>::UnitX());
      REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
      REQUIRE(ws.lcp_size() == 24);
      require_in_cone(ws, contacts, T(100) * eps<T>());
      for (int i = 0; i < 4; ++i) {
        CHECK(ws.phase(i) == ContactPhase::contact);
        CHECK(point_velocity<T>(ws.q_next, ws.v_next, contacts[static_cast<std::size_t>(i)].point_a).z() >=
              -T(1e3) * eps<T>());
      }
      q = ws.q_next;
      v = ws.v_next;
    }
    const T t = T(steps) * dt;
    const T expected = theta < std::atan(mu) ? T(0) : g * (std::sin(theta) - mu * std::cos(theta)) * t;
    INFO("theta = " << theta << ": v = " << v.transpose() << ", expected v_x = " << expected);
    CHECK(std::abs(v(3) - expected) <= T(1e4) * eps<T>() * (T(1) + g * t));
    CHECK(v.template head<3>().norm() <= T(1e4) * eps<T>());  // no tipping, no spin
    CHECK(std::abs(v(4)) + std::abs(v(5)) <= T(1e4) * eps<T>());
  }
}

TEMPLATE_TEST_CASE("a collision never gains kinetic energy and leaves no approaching contact",
                   "[contact][contact_step]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T r = T(0.1), dt = T(1e-3);
  const Model<T> model = free_body(T(1), T(0.4) * r * r, Vector3<T>(Vector3<T>::Zero()));
  Data<T> data(model);
  ContactStepWorkspace<T, Dynamic> ws(model, 2, 6);
  const VectorX<T> q = at<T>(Vector3<T>(T(0), T(0), r));
  VectorX<T> spinning(6), sliding(6);
  spinning << T(3), T(-2), T(1), T(1.5), T(0.5), T(-2);  // spinning, sliding, approaching at 2 m/s
  sliding << T(0), T(0), T(0), T(1.5), T(0.5), T(-2);     // no spin: no velocity-product term in the step
  const VectorX<T> tau = VectorX<T>::Zero(6);
  for (const T e : {T(0), T(0.5), T(1)}) {
    for (const T mu : {T(0), T(0.3), T(2)}) {
      const VectorX<T>& v = mu == T(0) ? sliding : spinning;
      const T before = kinetic_energy(model, data, q, v);
      std::vector<Contact<T>> contacts{plane_contact<T>(q, Vector3<T>(T(0), T(0), -r), mu, e)};
      contacts[0].friction_directions = 6;
      REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
      CHECK(ws.phase(0) == ContactPhase::collision);
      const T after = kinetic_energy(model, data, ws.q_next, ws.v_next);
      INFO("e = " << e << ", mu = " << mu << ": KE " << before << " -> " << after);
      CHECK(after <= before * (T(1) + T(100) * eps<T>()));
      const T vn = point_velocity<T>(q, ws.v_next, contacts[0].point_a).z();
      CHECK(vn >= -T(1e3) * eps<T>());
      if (mu == T(0)) CHECK(std::abs(vn - e * T(2)) <= T(1e3) * eps<T>());  // frictionless: v_n⁺ = ε v_n⁻
      require_in_cone(ws, contacts, T(100) * eps<T>());
    }
  }
}

TEMPLATE_TEST_CASE("two spheres colliding head-on exchange eps times their approach speed, momentum kept",
                   "[contact][contact_step]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T r = T(0.1);
  ModelBuilder<T> b;
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), body_inertia(T(1), T(0.4) * r * r));
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), body_inertia(T(1), T(0.4) * r * r));
  const Model<T> model = b.build().with_gravity(Vector3<T>::Zero());
  Data<T> data(model);
  ContactStepWorkspace<T, Dynamic> ws(model, 1);
  VectorX<T> q(14), v = VectorX<T>::Zero(12);
  q << r, T(0), T(0), T(0), T(0), T(0), T(1), -r, T(0), T(0), T(0), T(0), T(0), T(1);  // touching at the origin
  v(3) = T(-1);  // A (body 0) moves towards −x, B (body 1) towards +x
  v(9) = T(1);
  Contact<T> c;  // the normal from B to A: +x
  c.body_a = 0;
  c.point_a = Vector3<T>(-r, T(0), T(0));
  c.body_b = 1;
  c.point_b = Vector3<T>(r, T(0), T(0));
  c.normal = Vector3<T>::UnitX();
  c.mu = T(0.5);
  for (const T e : {T(0), T(0.5), T(1)}) {
    c.restitution = e;
    REQUIRE(contact_step(model, data, ws, q, v, VectorX<T>::Zero(12), std::vector<Contact<T>>{c}, T(1e-3)).ok());
    CHECK(ws.phase(0) == ContactPhase::collision);
    INFO("e = " << e << ": v+ = " << ws.v_next.transpose());
    const T tol = T(100) * eps<T>();
    CHECK(std::abs(ws.v_next(3) - e) <= tol);
    CHECK(std::abs(ws.v_next(9) + e) <= tol);
    CHECK(std::abs(ws.normal_impulse(0) - (T(1) + e)) <= tol);  // m Δv of A
    CHECK(ws.friction_impulse(0).norm() <= tol);
    CHECK(ws.v_next.template head<3>().norm() + ws.v_next.template segment<3>(6).norm() <= tol);
  }
}

TEMPLATE_TEST_CASE("a hinge between two free bodies holds its relative velocity rows at zero",
                   "[contact][contact_step][bilateral]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  ModelBuilder<T> b;
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), body_inertia(T(1), T(0.05)));
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), body_inertia(T(2), T(0.08)));
  const Model<T> model = b.build();
  Data<T> data(model);
  BilateralConstraint<T> hinge;  // F_a at (0.5, 0, 0) on body 0, F_b at (−0.5, 0, 0) on body 1, axis z
  hinge.body_a = 0;
  hinge.frame_a = Transform<T>{Matrix3<T>::Identity(), Vector3<T>(T(0.5), T(0), T(0))};
  hinge.body_b = 1;
  hinge.frame_b = Transform<T>{Matrix3<T>::Identity(), Vector3<T>(T(-0.5), T(0), T(0))};
  hinge.rows = 0x3B;
  ContactStepWorkspace<T, Dynamic> ws(model, 1, 4, {hinge});
  REQUIRE(ws.bilateral_rows() == 5);
  VectorX<T> q(14);
  q << T(0), T(0), T(0), T(0), T(0), T(0), T(1), T(1), T(0), T(0), T(0), T(0), T(0), T(1);
  test::Rng rng(7);
  VectorX<T> v = rng.matrix<T>(12, 1);
  const VectorX<T> tau = rng.matrix<T>(12, 1);
  const std::vector<Contact<T>> none;
  for (int step = 0; step < 3; ++step) {
    REQUIRE(contact_step(model, data, ws, q, v, tau, none, T(1e-3)).ok());
    CHECK(ws.lcp_size() == 5);
    v = ws.v_next;
    // relative spatial velocity of F_a with respect to body 1's frame at F_a's placement, F_a coordinates,
    // at the configuration of the step (the rows J(q) v⁺ the LCP holds at zero). v⁺ is expressed in the
    // body frames at q⁺: each free body's velocity back in its frame at q is R(q)ᵀ R(q⁺) v⁺, angular and
    // linear (docs/contact.md#free-joints; T6's own turn leaves ω as it is, the drift correction's turns it).
    for (const int body : {0, 1}) {
      const Matrix3<T> R0 = detail::quaternion_rotation(q.template segment<4>(7 * body + 3));
      const Matrix3<T> R1 = detail::quaternion_rotation(ws.q_next.template segment<4>(7 * body + 3));
      for (const int part : {0, 3})
        v.template segment<3>(6 * body + part) = R0.transpose() * (R1 * v.template segment<3>(6 * body + part));
    }
    forward_kinematics(model, data, q);
    const Transform<T> Xa = hinge.frame_a;
    const Transform<T> Xb = hinge.frame_a * data.X_world[0] * data.X_world[1].inverse();
    const Motion<T> rel = Xa.apply_motion(Motion<T>(v.template head<6>())) - Xb.apply_motion(Motion<T>(v.template tail<6>()));
    INFO("step " << step << ": relative velocity " << rel.transpose());
    for (const int k : {0, 1, 3, 4, 5}) CHECK(std::abs(rel(k)) <= T(1e3) * eps<T>() * (T(1) + v.norm()));
    q = ws.q_next;
    v = ws.v_next;
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("contact_step rejects bad inputs", "[contact][contact_step][checks]") {
  using T = double;
  const Model<T> model = free_body(T(1), T(0.004));
  Data<T> data(model);
  ContactStepWorkspace<T, Dynamic> ws(model, 1);
  const VectorX<T> q = at<T>(Vector3<T>(T(0), T(0), T(1))), v = VectorX<T>::Zero(6);
  const std::vector<Contact<T>> two(2);
  using Code = ContactStepStatus<T>::Code;
  {
    test::Recorder recorder;
    CHECK(contact_step(model, data, ws, q, VectorX<T>::Zero(5), v, two, T(1e-3)).code == Code::invalid_argument);
    CHECK(contact_step(model, data, ws, q, v, v, two, T(1e-3)).code == Code::invalid_argument);
    CHECK(contact_step(model, data, ws, q, v, v, std::vector<Contact<T>>(1), T(0)).code == Code::invalid_argument);
    CHECK(test::Recorder::seen.size() == 3);
    // dt is not a size: the failure names the argument without a given/expected number
    CHECK(std::string(test::Recorder::seen.back().argument) == "dt");
    CHECK(test::Recorder::seen.back().expected_size == -1);
    CHECK(test::Recorder::seen.back().actual_size == -1);
  }
  CHECK(ws.max_contacts() == 1);
  CHECK(ws.max_friction_directions() == 4);
  BilateralConstraint<T> bad;
  bad.body_a = 3;
  CHECK_THROWS_WITH((ContactStepWorkspace<T, Dynamic>(model, 1, 4, {bad})),
                    Catch::Contains("bilateral constraint 0") && Catch::Contains("body_a"));
  CHECK_THROWS_AS((ContactStepWorkspace<T, Dynamic>(model, 1, 3)), std::invalid_argument);
}
#endif
