// The exact Coulomb cone (contact/coulomb_gauss_seidel.hpp, docs/contact.md#exact-friction-cone) against
// Coulomb's law itself and analytic answers: random local problems meet take-off / stick / slide to round-off;
// random coupled problems end with a zero natural-map residual and zero contact_metrics violations; a box on a
// slope sticks below atan μ and slides with g(sin θ − μ cos θ) in every direction relative to the pyramid's
// edges (where the 4-sided pyramid is off); the result equals the pyramid's where the pyramid is exact; a ball
// sliding at 45° to the pyramid's edges starts rolling at 2v₀/(7μg) with 5/7·v₀. Compiled once per scalar.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "support/scalars.hpp"
#include "support/free_body.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/contact/contact_metrics.hpp"
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

using test::free_body;

/// A random symmetric positive definite 3n × 3n matrix with condition number about `condition`.
template <class T>
MatrixX<T> random_spd(int n, T condition, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  MatrixX<T> B(3 * n, 3 * n);
  for (int i = 0; i < B.size(); ++i) B(i) = T(u(rng));
  const Eigen::HouseholderQR<MatrixX<T>> qr(B);
  const MatrixX<T> Q = qr.householderQ();
  VectorX<T> d(3 * n);
  for (int i = 0; i < 3 * n; ++i) d(i) = std::pow(condition, T(i) / T(3 * n - 1));
  return Q * d.asDiagonal() * Q.transpose();
}

/// Coulomb's law at one contact (coordinates n̂, t̂_1, t̂_2) to the tolerance tol (speeds) and tol_f (impulses).
template <class T>
void require_coulomb(const Vector3<T>& lambda, const Vector3<T>& w, T mu, T tol, T tol_f) {
  const T ln = lambda(0), lt = lambda.template tail<2>().norm(), wt = w.template tail<2>().norm();
  INFO("lambda " << lambda.transpose() << ", w " << w.transpose() << ", mu " << mu);
  REQUIRE(ln >= -tol_f);
  REQUIRE(lt <= mu * ln + tol_f);                                                      // in the cone
  REQUIRE(w(0) >= -tol);                                                               // no approach
  REQUIRE(std::abs(ln * w(0)) <= tol * (tol_f + ln));                                  // Signorini
  if (ln > tol_f && wt > tol) {                                                        // sliding: full, opposing
    REQUIRE(std::abs(lt - mu * ln) <= tol_f);
    REQUIRE((lambda.template tail<2>() + mu * ln * w.template tail<2>() / wt).norm() <= T(8) * tol_f);
  }
  if (lt < mu * ln - tol_f) REQUIRE(wt <= tol);                                        // strictly inside: sticks
}

/// The corner contact (x, y, −a) of a box at q on the plane z = 0 (normal +z, world).
template <class T>
Contact<T> corner(const VectorX<T>& q, const Vector3<T>& p, T mu, const Vector3<T>& tangent) {
  Contact<T> c;
  c.body_a = 0;
  c.point_a = p;
  c.body_b = world;
  c.point_b = q.template head<3>() + detail::quaternion_rotation(Eigen::Matrix<T, 4, 1>(q.template segment<4>(3))) * p;
  c.normal = Vector3<T>::UnitZ();
  c.distance = c.point_b.z();
  c.point_b.z() = T(0);
  c.mu = mu;
  c.tangent = tangent;
  return c;
}

/// A stack of three free cubes (half side a, mass m) under gravity −g z, for the stack cases.
template <class T>
Model<T> stack_model(T a, T m, T g) {
  ModelBuilder<T> b;
  for (int k = 0; k < 3; ++k)
    b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(),
               RigidInertia<T>::from_mass_com_inertia(m, Vector3<T>::Zero(), Matrix3<T>::Identity() * (T(2) / T(3) * m * a * a)));
  return b.build().with_gravity(Vector3<T>(T(0), T(0), -g));
}

/// The stack's 12 corner contacts at q (each cube's bottom corners on the floor or the cube below), ids 0 … 11.
template <class T>
void stack_contacts(const VectorX<T>& q, T a, T mu, std::vector<Contact<T>>& contacts) {
  contacts.clear();
  for (int k = 0; k < 3; ++k)
    for (const T x : {-a, a})
      for (const T y : {-a, a}) {
        Contact<T> c;
        c.id = static_cast<std::int64_t>(contacts.size());
        c.body_a = k;
        c.point_a = Vector3<T>(x, y, -a);
        c.body_b = k == 0 ? world : k - 1;
        const Vector3<T> world_point = q.template segment<3>(7 * k) +
            detail::quaternion_rotation(Eigen::Matrix<T, 4, 1>(q.template segment<4>(7 * k + 3))) * c.point_a;
        const T below = k == 0 ? T(0) : q(7 * (k - 1) + 2) + a;
        c.point_b = k == 0 ? Vector3<T>(world_point.x(), world_point.y(), T(0)) : Vector3<T>(x, y, a);
        c.normal = Vector3<T>::UnitZ();
        c.distance = world_point.z() - below;
        c.mu = mu;
        contacts.push_back(c);
      }
}

}  // namespace

TEMPLATE_TEST_CASE("the exact cone's local solver meets Coulomb's law on random blocks", "[contact][exact_cone]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  int counts[3] = {0, 0, 0};  // take-off, stick, slide
  for (int trial = 0; trial < 3000; ++trial) {
    const T condition = trial % 3 == 0 ? T(1) : trial % 3 == 1 ? T(10) : T(1000);
    const Matrix3<T> A = random_spd<T>(1, condition, rng);
    const Vector3<T> b(T(u(rng)), T(u(rng)), T(u(rng)));
    const T mu = T(0.05 + 1.5 * (u(rng) + 1) / 2);
    const Vector3<T> lambda = detail::coulomb_local<T>(A, A.inverse(), b, mu);
    const Vector3<T> w = A * lambda + b;
    const T scale = T(1) + b.norm() * condition;
    require_coulomb<T>(lambda, w, mu, T(1e3) * eps<T>() * condition * scale, T(1e3) * eps<T>() * condition * scale);
    counts[lambda.isZero() ? 0 : w.norm() <= T(1e3) * eps<T>() * condition * scale ? 1 : 2] += 1;
  }
  INFO("take-off " << counts[0] << ", stick " << counts[1] << ", slide " << counts[2]);
  CHECK(counts[0] > 150);  // every branch is met many times
  CHECK(counts[1] > 150);
  CHECK(counts[2] > 150);
}

TEMPLATE_TEST_CASE("coulomb_gauss_seidel: coupled random problems converge to Coulomb's law at every contact",
                   "[contact][exact_cone]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const int n : {1, 2, 5, 12}) {
    CoulombGaussSeidelWorkspace<T> ws(n);
    ws.tolerance = T(16) * eps<T>();
    ws.max_sweeps = 20000;
    for (int trial = 0; trial < 10; ++trial) {
      const MatrixX<T> G = random_spd<T>(n, T(20), rng);
      VectorX<T> v(3 * n);
      for (int i = 0; i < 3 * n; ++i) v(i) = T(u(rng));
      for (int i = 0; i < n; ++i) {
        Vector3<T> normal(T(u(rng)), T(u(rng)), T(u(rng)));
        normal.normalize();
        Vector3<T> t1 = normal.unitOrthogonal();
        ws.frames.col(3 * i).template head<3>() = normal;
        ws.frames.col(3 * i + 1).template head<3>() = t1;
        ws.friction(i) = T(0.1 + (u(rng) + 1) / 2);
      }
      const LcpStatus<T> s = coulomb_gauss_seidel(ws, n, G, v);
      INFO("n = " << n << ", sweeps " << s.pivots << ", residual " << s.residual);
      REQUIRE(s.ok());
      CHECK(s.pivots >= 1);
      const VectorX<T> w = G * ws.impulses() + v;
      CHECK((w - ws.velocities()).cwiseAbs().maxCoeff() <= T(100) * eps<T>() * (T(1) + T(20) * ws.impulses().norm()));
      const T tol = T(1e4) * eps<T>() * T(20);
      CHECK(s.residual <= tol);
      for (int i = 0; i < n; ++i) {
        const Matrix3<T> R = ws.frames.template middleCols<3>(3 * i);
        require_coulomb<T>(R.transpose() * Vector3<T>(ws.impulses().template segment<3>(3 * i)),
                           R.transpose() * Vector3<T>(w.template segment<3>(3 * i)), ws.friction(i), tol, tol);
      }
    }
  }
}

TEMPLATE_TEST_CASE("exact cone: a box on a slope sticks below atan(mu) and slides with g(sin - mu cos) in every "
                   "direction of the pyramid's edges",
                   "[contact][exact_cone][slow]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T a = T(0.1), mu = T(0.5), g = T(9.81), dt = T(1e-3);
  const int steps = 100;
  for (const T theta : {T(0.4363), T(0.6)}) {   // 25° (Coulomb: sticks, tan 25° = 0.466 < 0.5), 34.4° (slides)
    for (const T heading : {T(0), T(EIGEN_PI / 8), T(EIGEN_PI / 4), T(0.3)}) {  // down-slope vs the box's first tangent
      // the slope: gravity tilted by θ about the axis ⟂ the down-slope direction d = (cos ψ, sin ψ, 0)
      const Vector3<T> down(std::cos(heading), std::sin(heading), T(0));
      const Model<T> model =
          free_body(T(2), Vector3<T>::Constant(T(2) / T(3) * a * a),
                    Vector3<T>(Vector3<T>(g * std::sin(theta) * down) - Vector3<T>(T(0), T(0), g * std::cos(theta))));
      Data<T> data(model);
      for (const FrictionCone cone : {FrictionCone::exact, FrictionCone::pyramid}) {
        ContactStepWorkspace<T, Dynamic> ws(model, 4);
        ws.friction_cone = cone;
        ws.lcp_workspace().exact.tolerance = T(64) * eps<T>();
        VectorX<T> q = VectorX<T>::Zero(7), v = VectorX<T>::Zero(6);
        q(2) = a;
        q(6) = T(1);
        const VectorX<T> tau = VectorX<T>::Zero(6);
        std::vector<Contact<T>> contacts(4);
        for (int step = 0; step < steps; ++step) {
          int k = 0;
          for (const T x : {-a, a})
            for (const T y : {-a, a})
              contacts[static_cast<std::size_t>(k++)] = corner<T>(q, Vector3<T>(x, y, -a), mu, Vector3<T>::UnitX());
          REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
          if (cone == FrictionCone::exact) {
            REQUIRE(ws.lcp_size() == 12);
            const ContactMetrics<T> m = contact_metrics(ws, contacts);
            CHECK(m.worst.cone <= T(1e3) * eps<T>());
            CHECK(m.worst.dissipation <= T(1e4) * eps<T>() * mu * g * dt * g);  // exact maximum dissipation
          }
          q = ws.q_next;
          v = ws.v_next;
        }
        const T t = T(steps) * dt;
        const T expected = theta < std::atan(mu) ? T(0) : g * (std::sin(theta) - mu * std::cos(theta)) * t;
        const Vector3<T> velocity = detail::quaternion_rotation(Eigen::Matrix<T, 4, 1>(q.template segment<4>(3))) *
                                    Vector3<T>(v.template tail<3>());
        const T error = (velocity - expected * down).norm();
        INFO("theta " << theta << ", heading " << heading << ", cone " << (cone == FrictionCone::exact ? "exact" : "pyramid")
                      << ": velocity " << velocity.transpose() << ", expected " << expected << " down the slope");
        const T tol = T(2e4) * eps<T>() * (T(1) + g * t);
        const bool pyramid_exact = std::abs(std::sin(T(2) * heading)) <= T(1e-6);  // along an edge of the 4-pyramid
        if (cone == FrictionCone::exact || pyramid_exact) {
          CHECK(error <= tol);
        } else if (theta > std::atan(mu)) {
          CHECK(error > T(0.01) * expected);  // the pyramid's friction is off the Coulomb value here: the test can tell
          CHECK(error > T(10) * tol);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("exact cone: a ball sliding at 45 degrees to the pyramid's edges starts rolling at 2 v0/(7 mu g) "
                   "with 5/7 v0",
                   "[contact][exact_cone]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T r = T(0.1), m = T(1), mu = T(0.2), g = T(9.81), v0 = T(2), dt = T(1e-3);
  const Vector3<T> I = Vector3<T>::Constant(T(0.4) * m * r * r);
  const Model<T> model = free_body(m, I, Vector3<T>(T(0), T(0), -g));
  Data<T> data(model);
  const CollisionGeometry<T> geometry(model, {Shape<T>::sphere(0, Vector3<T>::Zero(), r, "ball"),
                                             Shape<T>::plane(world, Vector3<T>::Zero(), Vector3<T>::UnitZ(), "floor")});
  std::vector<Contact<T>> contacts;
  contacts.reserve(static_cast<std::size_t>(geometry.max_contacts()));
  const Vector3<T> heading = Vector3<T>(T(1), T(1), T(0)).normalized();  // 45° to the pyramid's first edge (x)
  const T t_roll = T(2) * v0 / (T(7) * mu * g), v_roll = T(5) / T(7) * v0;
  T rolling_at[2] = {T(-1), T(-1)};
  for (const FrictionCone cone : {FrictionCone::exact, FrictionCone::pyramid}) {
    ContactStepWorkspace<T, Dynamic> ws(model, geometry.max_contacts());
    ws.friction_cone = cone;
    ws.lcp_workspace().exact.tolerance = T(64) * eps<T>();
    VectorX<T> q = VectorX<T>::Zero(7), v = VectorX<T>::Zero(6);
    q(2) = r;
    q(6) = T(1);
    v.template tail<3>() = v0 * heading;
    const VectorX<T> tau = VectorX<T>::Zero(6);
    const T tol = T(1e3) * eps<T>() * v0;
    T& rolled = rolling_at[cone == FrictionCone::exact ? 0 : 1];
    for (int step = 1; step <= 600 && rolled < T(0); ++step) {
      forward_kinematics(model, data, q);
      ContactProperties<T> properties{mu, T(0), 4};
      detect_contacts(model, data, geometry, contacts, T(1e-3), properties);
      for (Contact<T>& c : contacts) c.tangent = Vector3<T>::UnitX();
      REQUIRE(contact_step(model, data, ws, q, v, tau, contacts, dt).ok());
      q = ws.q_next;
      v = ws.v_next;
      const Matrix3<T> R = detail::quaternion_rotation(Eigen::Matrix<T, 4, 1>(q.template segment<4>(3)));
      const Vector3<T> centre = R * v.template tail<3>(), spin = R * v.template head<3>();
      const Vector3<T> contact_point = centre + spin.cross(Vector3<T>(T(0), T(0), -r));
      if (contact_point.norm() <= tol) {
        rolled = T(step) * dt;
        if (cone == FrictionCone::exact) {
          INFO("rolling at " << rolled << " with " << centre.transpose());
          CHECK((centre - v_roll * heading).norm() <= tol);
        }
      }
    }
  }
  INFO("exact cone rolls at " << rolling_at[0] << " s, the pyramid at " << rolling_at[1] << " s, expected " << t_roll);
  REQUIRE(rolling_at[0] > T(0));
  CHECK(std::abs(rolling_at[0] - t_roll) <= dt);
  CHECK((rolling_at[1] < T(0) || rolling_at[1] > t_roll + T(10) * dt));  // the pyramid is late (√2 × the friction path)
}

TEMPLATE_TEST_CASE("exact cone: a stack of three cubes rests with exact normal impulses and no drift",
                   "[contact][exact_cone]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const T a = T(0.1), m = T(1), g = T(9.81), dt = T(1e-3), mu = T(0.6);
  const Model<T> model = stack_model<T>(a, m, g);
  Data<T> data(model);
  ContactStepWorkspace<T, Dynamic> ws(model, 12);
  ws.friction_cone = FrictionCone::exact;
  ws.lcp_workspace().exact.tolerance = T(64) * eps<T>();  // about 1300 sweeps in double
  VectorX<T> q = VectorX<T>::Zero(21), v = VectorX<T>::Zero(18);
  for (int k = 0; k < 3; ++k) {
    q(7 * k + 2) = a + T(2) * a * T(k);
    q(7 * k + 6) = T(1);
  }
  const VectorX<T> tau = VectorX<T>::Zero(18);
  std::vector<Contact<T>> contacts;
  ws.warm_start = false;  // every step solved from zero: the sweeps the comment above counts
  for (int step = 0; step < 10; ++step) {
    stack_contacts<T>(q, a, mu, contacts);
    const ContactStepStatus<T>& s = contact_step(model, data, ws, q, v, tau, contacts, dt);
    INFO("step " << step << ": " << to_string(s) << ", sweeps " << ws.lcp_workspace().status().pivots);
    REQUIRE(s.ok());
    for (int k = 0; k < 3; ++k) {
      T normal = T(0);
      for (int c = 0; c < 4; ++c) normal += ws.normal_impulse(4 * k + c);
      CHECK(std::abs(normal - T(3 - k) * m * g * dt) <= T(1e4) * eps<T>() * T(3) * m * g * dt);  // the weight above
    }
    q = ws.q_next;
    v = ws.v_next;
  }
  CHECK(v.cwiseAbs().maxCoeff() <= T(1e4) * eps<T>() * g * dt);
  for (int k = 0; k < 3; ++k) CHECK(std::abs(q(7 * k + 2) - (a + T(2) * a * T(k))) <= T(1e4) * eps<T>() * a);
}

TEMPLATE_TEST_CASE("exact cone: warm-started from the last step, a stack of three cubes takes fewer sweeps to the "
                   "same answer",
                   "[contact][exact_cone][warm_start]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  // the stack of the case above, pushed sideways on the top cube so that the answer changes from step to step
  const T a = T(0.1), m = T(1), g = T(9.81), dt = T(1e-3), mu = T(0.6);
  const Model<T> model = stack_model<T>(a, m, g);
  Data<T> data(model);
  VectorX<T> tau = VectorX<T>::Zero(18);
  tau(15) = T(0.5) * mu * m * g;  // the top cube's force along its x: half what would make it slide
  struct Run {
    VectorX<T> q, v;
    std::vector<VectorX<T>> velocities;
    std::vector<T> body_normals;
    long sweeps = 0;
    int first_sweeps = 0;
  };
  const auto run = [&](bool warm) {
    ContactStepWorkspace<T, Dynamic> ws(model, 12);
    ws.friction_cone = FrictionCone::exact;
    ws.warm_start = warm;
    Run r;
    r.q = VectorX<T>::Zero(21);
    r.v = VectorX<T>::Zero(18);
    for (int k = 0; k < 3; ++k) {
      r.q(7 * k + 2) = a + T(2) * a * T(k);
      r.q(7 * k + 6) = T(1);
    }
    std::vector<Contact<T>> contacts;
    for (int step = 0; step < 20; ++step) {
      stack_contacts<T>(r.q, a, mu, contacts);
      const ContactStepStatus<T>& s = contact_step(model, data, ws, r.q, r.v, tau, contacts, dt);
      INFO("step " << step << ": " << to_string(s));
      REQUIRE(s.ok());
      r.sweeps += s.lcp.pivots;
      if (step == 0) r.first_sweeps = s.lcp.pivots;
      for (int k = 0; k < 3; ++k) {
        T normal = T(0);
        for (int c = 0; c < 4; ++c) normal += ws.normal_impulse(4 * k + c);
        r.body_normals.push_back(normal);
      }
      r.q = ws.q_next;
      r.v = ws.v_next;
      r.velocities.push_back(r.v);
    }
    return r;
  };
  const Run cold = run(false), warm = run(true);
  // Gauss–Seidel stops when a sweep changes no velocity by more than tol·max|v| and converges linearly at a rate ρ
  // with ρ^S ≈ tol over the S sweeps of a cold solve: each answer is within tol·max|v|·ρ/(1 − ρ) of the exact one
  const T tol = ContactStepWorkspace<T, Dynamic>(model, 12).lcp_workspace().exact.tolerance;
  const T rho = std::pow(tol, T(1) / T(cold.first_sweeps));
  const T bound = T(2) * tol * g * dt / (T(1) - rho) + T(1e3) * eps<T>() * g * dt;
  T gap = T(0), normal_gap = T(0);
  for (std::size_t k = 0; k < cold.velocities.size(); ++k)
    gap = std::max(gap, (cold.velocities[k] - warm.velocities[k]).cwiseAbs().maxCoeff());
  for (std::size_t k = 0; k < cold.body_normals.size(); ++k)
    normal_gap = std::max(normal_gap, std::abs(cold.body_normals[k] - warm.body_normals[k]));
  INFO("sweeps over 20 steps: cold " << cold.sweeps << ", warm " << warm.sweeps << " (first step " << cold.first_sweeps
                                     << "); largest velocity gap " << gap << " (bound " << bound << "), normal impulse per body "
                                     << normal_gap);
  CHECK(warm.first_sweeps == cold.first_sweeps);  // nothing to start from
  CHECK(4 * warm.sweeps < cold.sweeps);
  CHECK(gap <= bound);
  CHECK(normal_gap <= T(3) * m * bound);  // the stack's weight above each interface, moved by that velocity
}
