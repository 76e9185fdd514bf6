// Free joints in contact_step moved as rigid motions (contact/detail/free_joint_step.hpp,
// docs/contact.md#free-joints), against analytic answers: a torque-free spin keeps |ω|, |v_O|, the kinetic
// energy and the linear momentum for 10⁵ steps and moves the centre of mass on a straight line, at any Δt;
// a sphere sliding with friction starts rolling at t = 2v₀/(7μg) with speed 5/7·v₀ and then rolls without
// slip, sinking or collisions. The checked contact values of contact_step and detect_contacts (double
// unit only). Compiled once per scalar (tests/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "support/check_recorder.hpp"
#include "support/free_body.hpp"
#include "support/scalars.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/contact/contact_step.hpp"

namespace {

using namespace treedyn;

template <class T>
using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <class T>
T eps() {
  return std::numeric_limits<T>::epsilon();
}

using test::free_body;

template <class T>
Matrix3<T> rotation(const VectorX<T>& q) {
  return detail::quaternion_rotation(q.template segment<4>(3));
}

/// Kinetic energy of the free body (ω, v_O body coordinates; centre of mass at the origin).
template <class T>
T kinetic_energy(T m, const detail::non_deduced<Vector3<T>>& I, const VectorX<T>& v) {
  const Vector3<T> w = v.template head<3>();
  return T(0.5) * (m * v.template tail<3>().squaredNorm() + w.dot(I.cwiseProduct(w)));
}

}  // namespace

TEMPLATE_TEST_CASE("a torque-free spin keeps |w|, |v|, kinetic energy and linear momentum for 1e5 steps",
                   "[contact][contact_step][free_joint][slow]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T m = T(2);
  const Vector3<T> zero = Vector3<T>::Zero();
  struct Case {
    const char* name;
    Vector3<T> inertia, w;
    T dt;
    int steps;
  };
  // 14.3 rad/s, Δt = 1e-3: the spin (it gained 10.7 % of its speed per second); Δt = 0.1: ω Δt = 1.43 rad
  const Vector3<T> axis = Vector3<T>(T(3), T(-2), T(1)).normalized();
  const std::vector<Case> cases{
      {"a sphere about a general axis", Vector3<T>::Constant(T(0.008)), Vector3<T>(T(14.3) * axis), T(1e-3), 100000},
      {"a box about its principal axis z", Vector3<T>(T(0.01), T(0.02), T(0.025)), Vector3<T>(T(0), T(0), T(14.3)),
       T(1e-3), 100000},
      {"a sphere, large step", Vector3<T>::Constant(T(0.008)), Vector3<T>(T(14.3) * axis), T(0.1), 1000},
  };
  for (const Case& c : cases) {
    const Model<T> model = free_body(m, c.inertia, zero);
    Data<T> data(model);
    ContactStepWorkspace<T, Dynamic> ws(model, 0);
    VectorX<T> q = VectorX<T>::Zero(7), v(6);
    q(6) = T(1);
    v << c.w, T(1), T(2), T(-0.5);
    const VectorX<T> tau = VectorX<T>::Zero(6);
    const std::vector<Contact<T>> none;
    const T w0 = v.template head<3>().norm(), speed0 = v.template tail<3>().norm();
    const T energy0 = kinetic_energy(m, c.inertia, v);
    const Vector3<T> p0 = q.template head<3>(), momentum0 = m * (rotation(q) * v.template tail<3>());
    T w_err = T(0), speed_err = T(0), energy_err = T(0), momentum_err = T(0);
    for (int step = 0; step < c.steps; ++step) {
      REQUIRE(contact_step(model, data, ws, q, v, tau, none, c.dt).ok());
      q = ws.q_next;
      v = ws.v_next;
      w_err = std::max(w_err, std::abs(v.template head<3>().norm() - w0) / w0);
      speed_err = std::max(speed_err, std::abs(v.template tail<3>().norm() - speed0) / speed0);
      energy_err = std::max(energy_err, std::abs(kinetic_energy(m, c.inertia, v) - energy0) / energy0);
      momentum_err = std::max(momentum_err, (m * (rotation(q) * v.template tail<3>()) - momentum0).norm() / momentum0.norm());
    }
    // round-off: a few ε per step at most (a random walk gives far less); the old step gained √(1 + (ωΔt)²)
    // per step, e^5 in the first case
    const T per_step = T(8) * eps<T>(), bound = per_step * T(c.steps);
    const T travelled = (q.template head<3>() - p0 - momentum0 / m * (c.dt * T(c.steps))).norm();
    INFO(c.name << ": relative errors |w| " << w_err << ", |v_O| " << speed_err << ", KE " << energy_err
                << ", momentum " << momentum_err << "; off the straight line by " << travelled << " (bound " << bound
                << ")");
    CHECK(w_err <= bound);
    CHECK(speed_err <= bound);
    CHECK(energy_err <= bound);
    CHECK(momentum_err <= bound);
    CHECK(travelled <= bound * speed0 * c.dt * T(c.steps));  // the centre of mass moves on a straight line
  }
}

TEMPLATE_TEST_CASE("a sliding sphere starts rolling at 2 v0/(7 mu g) with 5/7 v0 and rolls without slip",
                   "[contact][contact_step][free_joint]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  // the ball: v0 = 2 m/s, μ = 0.2 (rolling at 0.2912 s and 1.4286 m/s), 800 steps of 1 ms
  const T r = T(0.1), m = T(1), mu = T(0.2), g = T(9.81), v0 = T(2), dt = T(1e-3);
  const Model<T> model = free_body(m, Vector3<T>::Constant(T(0.4) * m * r * r), Vector3<T>(T(0), T(0), -g));
  Data<T> data(model);
  const CollisionGeometry<T> geometry(model, {Shape<T>::sphere(0, Vector3<T>::Zero(), r, "ball"),
                                             Shape<T>::plane(world, Vector3<T>::Zero(), Vector3<T>::UnitZ(), "floor")});
  std::vector<Contact<T>> contacts;
  contacts.reserve(static_cast<std::size_t>(geometry.max_contacts()));
  ContactStepWorkspace<T, Dynamic> ws(model, geometry.max_contacts());
  VectorX<T> q = VectorX<T>::Zero(7), v = VectorX<T>::Zero(6);
  q(2) = r;
  q(6) = T(1);
  v(3) = v0;  // sliding along +x, a friction direction of the pyramid (exact there), no spin
  const VectorX<T> tau = VectorX<T>::Zero(6);
  const T t_roll = T(2) * v0 / (T(7) * mu * g), v_roll = T(5) / T(7) * v0;
  const T tol = T(1e3) * eps<T>() * v0;  // round-off of the velocities over the run
  T rolling_at = T(-1), max_sink = T(0), max_slip_rolling = T(0), max_speed_change = T(0), max_energy_gain = T(0);
  int collisions = 0;
  for (int step = 1; step <= 800; ++step) {
    forward_kinematics(model, data, q);
    detect_contacts(model, data, geometry, contacts, T(1e-3), ContactProperties<T>{mu, T(0), 4});
    REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
    for (int i = 0; i < ws.contacts(); ++i) collisions += ws.phase(i) == ContactPhase::collision ? 1 : 0;
    const T energy_before = kinetic_energy(m, Vector3<T>::Constant(T(0.4) * m * r * r), v) + m * g * q(2);
    q = ws.q_next;
    v = ws.v_next;
    const Matrix3<T> R = rotation(q);
    const Vector3<T> centre = R * v.template tail<3>(), spin = R * v.template head<3>();
    const Vector3<T> contact_point = centre + spin.cross(Vector3<T>(T(0), T(0), -r));  // world velocity
    const T energy = kinetic_energy(m, Vector3<T>::Constant(T(0.4) * m * r * r), v) + m * g * q(2);
    max_energy_gain = std::max(max_energy_gain, energy - energy_before);
    max_sink = std::max(max_sink, r - q(2));
    if (rolling_at < T(0) && contact_point.norm() <= tol) {
      rolling_at = T(step) * dt;
      INFO("rolling at t = " << rolling_at << " with " << centre.transpose() << ", expected " << v_roll);
      CHECK(std::abs(centre.x() - v_roll) <= tol);
    } else if (rolling_at >= T(0)) {
      max_slip_rolling = std::max(max_slip_rolling, contact_point.norm());
      max_speed_change = std::max(max_speed_change, std::abs(centre.x() - v_roll));
    }
    CHECK(std::abs(centre.y()) + std::abs(centre.z()) <= tol);
  }
  INFO("rolling at " << rolling_at << " s (expected " << t_roll << "), slip " << max_slip_rolling << ", speed off 5/7 v0 by "
                     << max_speed_change << ", sinking " << max_sink << ", energy gain per step " << max_energy_gain
                     << ", collisions " << collisions);
  REQUIRE(rolling_at > T(0));
  CHECK(std::abs(rolling_at - t_roll) <= dt);
  CHECK(max_slip_rolling <= tol);
  CHECK(max_speed_change <= tol);
  CHECK(max_sink <= T(1e3) * eps<T>() * r);
  CHECK(max_energy_gain <= T(1e3) * eps<T>() * m * v0 * v0);
  CHECK(collisions == 0);
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("contact_step reports a bad contact value naming the contact, the field and the value",
          "[contact][contact_step][checks]") {
  using T = double;
  const Model<T> model = free_body(T(1), Vector3<T>::Constant(T(0.004)), Vector3<T>(T(0), T(0), T(-9.81)));
  Data<T> data(model);
  ContactStepWorkspace<T, Dynamic> ws(model, 2);
  VectorX<T> q = VectorX<T>::Zero(7), v = VectorX<T>::Zero(6);
  q(2) = T(0.1);
  q(6) = T(1);
  Contact<T> good;
  good.point_a = Vector3<T>(T(0), T(0), T(-0.1));
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  using Code = Status::Code;
  struct Bad {
    void (*set)(Contact<T>&, T);
    T value;
    const char* field;
    Code code;
    T reported;  // the value the status holds (the normal's length for the normal)
  };
  const std::vector<Bad> cases{
      {[](Contact<T>& c, T x) { c.mu = x; }, T(-1), "mu", Code::invalid_argument, T(-1)},
      {[](Contact<T>& c, T x) { c.mu = x; }, inf, "mu", Code::non_finite_input, inf},
      {[](Contact<T>& c, T x) { c.restitution = x; }, T(1.5), "restitution", Code::invalid_argument, T(1.5)},
      {[](Contact<T>& c, T x) { c.restitution = x; }, T(-0.1), "restitution", Code::invalid_argument, T(-0.1)},
      {[](Contact<T>& c, T x) { c.restitution = x; }, nan, "restitution", Code::non_finite_input, nan},
      {[](Contact<T>& c, T x) { c.normal = Vector3<T>::Constant(x); }, T(0), "normal", Code::invalid_argument, T(0)},
      {[](Contact<T>& c, T x) { c.normal.x() = x; }, nan, "normal", Code::non_finite_input, nan},
      {[](Contact<T>& c, T x) { c.distance = x; }, nan, "distance", Code::non_finite_input, nan},
      {[](Contact<T>& c, T x) { c.point_a.y() = x; }, inf, "point_a", Code::non_finite_input, inf},
  };
  for (const Bad& bad : cases) {
    std::vector<Contact<T>> contacts{good, good};
    bad.set(contacts[1], bad.value);
    ws.q_next.setConstant(T(7));
    const ContactStepStatus<T>& s = contact_step(model, data, ws, q, v, v, contacts, T(1e-3));
    const std::string text = to_string(s);
    INFO(text);
    CHECK(s.code == bad.code);
    CHECK(s.row == 1);
    CHECK(std::string(s.argument) == "contacts");
    CHECK(std::string(s.field) == bad.field);
    CHECK((std::isnan(bad.reported) ? std::isnan(s.value) : s.value == bad.reported));
    CHECK(text.find("contact 1: " + std::string(bad.field) + " = ") != std::string::npos);
    CHECK(ws.q_next == VectorX<T>::Constant(7, T(7)));  // nothing written
    CHECK_THROWS_WITH(validate_contacts(model, contacts), Catch::Contains("contact 1") && Catch::Contains("given"));
  }
  // a normal that is not of unit length is normalised: the same step as with the unit normal
  std::vector<Contact<T>> unit{good}, scaled{good};
  scaled[0].normal *= T(3);
  REQUIRE(contact_step(model, data, ws, q, v, v, unit, T(1e-3)).ok());
  const VectorX<T> v_unit = ws.v_next;
  const T Fn = ws.normal_impulse(0);
  REQUIRE(contact_step(model, data, ws, q, v, v, scaled, T(1e-3)).ok());
  CHECK((ws.v_next - v_unit).norm() <= T(10) * eps<T>());
  CHECK(std::abs(ws.normal_impulse(0) - Fn) <= T(10) * eps<T>());
  CHECK(std::abs(Fn - T(9.81e-3)) <= T(100) * eps<T>());  // m g Δt
  // a bad body_b is reported with its own index, not body_a's
  {
    test::Recorder recorder;
    std::vector<Contact<T>> contacts{good};
    contacts[0].body_b = 5;
    CHECK(contact_step(model, data, ws, q, v, v, contacts, T(1e-3)).code == Code::invalid_argument);
    REQUIRE(test::Recorder::seen.size() == 1);
    CHECK(std::string(test::Recorder::seen[0].argument) == "contacts[].body_b");
    CHECK(test::Recorder::seen[0].actual_size == 5);
    contacts[0].body_b = world;
    contacts[0].body_a = -2;
    CHECK(contact_step(model, data, ws, q, v, v, contacts, T(1e-3)).code == Code::invalid_argument);
    REQUIRE(test::Recorder::seen.size() == 2);
    CHECK(std::string(test::Recorder::seen[1].argument) == "contacts[].body_a");
    CHECK(test::Recorder::seen[1].actual_size == -2);
  }
}

TEST_CASE("detect_contacts rejects bad contact properties naming the field", "[contact][geometry][checks]") {
  using T = double;
  const Model<T> model = free_body(T(1), Vector3<T>::Constant(T(0.004)), Vector3<T>(T(0), T(0), T(-9.81)));
  Data<T> data(model);
  const CollisionGeometry<T> geometry(model, {Shape<T>::sphere(0, Vector3<T>::Zero(), T(0.1), "ball"),
                                             Shape<T>::plane(world, Vector3<T>::Zero(), Vector3<T>::UnitZ(), "floor")});
  VectorX<T> q = VectorX<T>::Zero(7);
  q(6) = T(1);
  forward_kinematics(model, data, q);  // the ball overlaps the floor: one contact with good properties
  std::vector<Contact<T>> contacts;
  contacts.reserve(2);
  REQUIRE(detect_contacts(model, data, geometry, contacts, T(0), ContactProperties<T>{T(0.5), T(0.5), 4}) == 1);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  struct Bad {
    ContactProperties<T> props;
    T margin;
    const char* field;
  };
  const std::vector<Bad> cases{{{T(-1), T(0), 4}, T(0), "properties.mu"},
                               {{nan, T(0), 4}, T(0), "properties.mu"},
                               {{T(0.5), T(2), 4}, T(0), "properties.restitution"},
                               {{T(0.5), T(-0.5), 4}, T(0), "properties.restitution"},
                               {{T(0.5), nan, 4}, T(0), "properties.restitution"},
                               {{T(0.5), T(0), 3}, T(0), "properties.friction_directions"},
                               {{T(0.5), T(0), 4}, nan, "margin"}};
  test::Recorder recorder;
  for (const Bad& bad : cases) {
    INFO(bad.field);
    CHECK(detect_contacts(model, data, geometry, contacts, bad.margin, bad.props) == 0);
    CHECK(contacts.empty());
    REQUIRE(!test::Recorder::seen.empty());
    CHECK(std::string(test::Recorder::seen.back().argument) == bad.field);
  }
  CHECK(test::Recorder::seen.size() == cases.size());
}
#endif
