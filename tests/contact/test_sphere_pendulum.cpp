// The multi-link pendulum of Jain (n.d.) §8 in its two formulations (robots/sphere_pendulum.hpp): the
// non-minimal state is the same physical state as the minimal one (placements and velocities from each
// model's own kinematics), the hinge constraints hold there, both see the same contacts, and Table 2's
// LCP sizes follow from the models' sizes; simulated with contact_step through the first floor impact,
// the two formulations' last-sphere paths agree (Jain (n.d.) Fig. 6) to a gap that shrinks with Δt.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/contact/contact_step.hpp"
#include "treedyn/robots/sphere_pendulum.hpp"

namespace {

using namespace treedyn;

/// Placements (forward kinematics) and body velocities (RNEA's outward pass, q̈ = 0) of a state.
void kinematics(const Model<double>& model, Data<double>& data, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  forward_kinematics(model, data, q);
  rnea(model, data, q, v, Eigen::VectorXd::Zero(model.nv()));
}

/// The last sphere's centre every 2 ms over `seconds` of simulation with step dt (2 ms a multiple of dt),
/// the example's contact settings (5 mm margin, μ = 0.5, ε = 0.7, n_f = 4); empty if a step fails. Also
/// counts the steps that had contacts other than the hinges.
std::vector<Eigen::Vector3d> last_sphere_path(const Model<double>& model, const CollisionGeometry<double>& geometry,
                                              const std::vector<BilateralConstraint<double>>& hinges,
                                              Eigen::VectorXd q, Eigen::VectorXd v, double radius, double dt,
                                              double seconds, int& contact_steps) {
  Data<double> data(model);
  ContactStepWorkspace<double, Dynamic> ws(model, geometry.max_contacts(), 4, hinges);
  std::vector<Contact<double>> contacts;
  contacts.reserve(static_cast<std::size_t>(geometry.max_contacts()));
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv());
  const int steps = static_cast<int>(std::lround(seconds / dt)), every = static_cast<int>(std::lround(2e-3 / dt));
  const int last = model.nbodies() - 1;
  std::vector<Eigen::Vector3d> path;
  contact_steps = 0;
  for (int step = 0;; ++step) {
    forward_kinematics(model, data, q);
    if (step % every == 0)
      path.push_back(data.X_world[last].r + data.X_world[last].E.transpose() * Eigen::Vector3d(0, -radius, 0));
    if (step == steps) return path;
    if (detect_contacts(model, data, geometry, contacts, 5e-3, {0.5, 0.7, 4}) > 0) ++contact_steps;
    if (!contact_step(model, data, ws, q, v, tau, contacts, dt).ok()) return {};
    q = ws.q_next;
    v = ws.v_next;
  }
}

}  // namespace

TEST_CASE("SpherePendulum: the non-minimal initial state is the minimal one, and the hinges hold there",
          "[contact][pendulum]") {
  for (const int n : {1, 3, 6, 12}) {
    INFO("n = " << n);
    const robots::SpherePendulum<double> p(n);
    REQUIRE(p.os.nv() == n);
    REQUIRE(p.nmc.nv() == 6 * n);
    REQUIRE(p.hinges.size() == static_cast<std::size_t>(n));
    Data<double> os(p.os), nmc(p.nmc);
    kinematics(p.os, os, p.os_q, p.os_v);
    kinematics(p.nmc, nmc, p.nmc_q, p.nmc_v);
    for (int k = 0; k < n; ++k) {
      INFO("body " << k);
      CHECK((os.X_world[k].E - nmc.X_world[k].E).cwiseAbs().maxCoeff() <= 1e-15);
      CHECK((os.X_world[k].r - nmc.X_world[k].r).cwiseAbs().maxCoeff() <= 1e-13);
      CHECK((os.v[k] - nmc.v[k]).cwiseAbs().maxCoeff() <= 1e-13);
      CHECK(p.os.inertia(k).matrix().isApprox(p.nmc.inertia(k).matrix(), 1e-15));
    }
    // the straight chain at π/4 from the downward vertical, away from the wall (x < 0)
    const Eigen::Vector3d tip = os.X_world[n - 1].r + os.X_world[n - 1].E.transpose() * Eigen::Vector3d(0, -2 * p.radius, 0);
    CHECK((tip - Eigen::Vector3d(-12 * std::sqrt(0.5), 10 - 12 * std::sqrt(0.5), 0)).norm() <= 1e-13);
    CHECK(os.v[0](2) == 1.0);  // turning towards the wall (+x at the bottom)
    // the hinges: frames coincide and the five constrained rows of the relative velocity vanish
    for (const BilateralConstraint<double>& h : p.hinges) {
      INFO("hinge on body " << h.body_a);
      const Transform<double> Fa = h.frame_a * nmc.X_world[h.body_a];
      const Transform<double> Fb = h.body_b == world ? h.frame_b : h.frame_b * nmc.X_world[h.body_b];
      CHECK((Fa.r - Fb.r).norm() <= 1e-13);
      CHECK((Fa.E.row(2) - Fb.E.row(2)).norm() <= 1e-15);  // the hinge axes align
      const Motion<double> va = h.frame_a.apply_motion(nmc.v[h.body_a]);
      const Motion<double> vb = h.body_b == world ? Motion<double>::Zero()
                                                  : Motion<double>((Fa * Fb.inverse()).apply_motion(
                                                        h.frame_b.apply_motion(nmc.v[h.body_b])));
      const Motion<double> rel = va - vb;
      for (int row = 0; row < 6; ++row)
        if ((h.rows >> row) & 1) CHECK(std::abs(rel(row)) <= 1e-13);
      CHECK(std::abs(rel(2) - (h.body_a == 0 ? 1.0 : 0.0)) <= 1e-13);  // the free row: the hinge rate
    }
    // the same contacts from both models (far margin: every pair reports)
    REQUIRE(p.os_geometry.pairs().size() == static_cast<std::size_t>(2 * n + (n - 1) * (n - 2) / 2));
    std::vector<Contact<double>> a, b;
    a.reserve(static_cast<std::size_t>(p.os_geometry.max_contacts()));
    b.reserve(static_cast<std::size_t>(p.nmc_geometry.max_contacts()));
    if (n >= 3) CHECK(detect_contacts(p.os, os, p.os_geometry, a, 0.0) == 0);  // nothing touches at the start
    // (n = 1: the single 6 m sphere already reaches into the floor)
    REQUIRE(detect_contacts(p.os, os, p.os_geometry, a, 100.0) == static_cast<int>(p.os_geometry.pairs().size()));
    REQUIRE(detect_contacts(p.nmc, nmc, p.nmc_geometry, b, 100.0) == static_cast<int>(a.size()));
    for (std::size_t i = 0; i < a.size(); ++i) {
      CHECK(a[i].body_a == b[i].body_a);
      CHECK(a[i].body_b == b[i].body_b);
      CHECK(std::abs(a[i].distance - b[i].distance) <= 1e-13);
      CHECK((a[i].point_a - b[i].point_a).norm() <= 1e-13);
      CHECK((a[i].normal - b[i].normal).norm() <= 1e-13);
    }
  }
}

TEST_CASE("SpherePendulum: Table 2's LCP sizes from the models' sizes", "[contact][pendulum]") {
  const int n_u = 4, n_f = 4;  // Table 2: four contacts, four friction directions
  const int ns[] = {3, 6, 12, 15, 24, 30};
  const int nmc_os[] = {39, 54, 84, 99, 144, 174};
  const int nmc[] = {57, 90, 156, 189, 288, 354};
  for (int i = 0; i < 6; ++i) {
    INFO("n = " << ns[i]);
    const robots::SpherePendulum<double> p(ns[i]);
    const int contact_rows = n_u * (n_f + 2);
    const int n_b = p.hinge_rows();
    CHECK(contact_rows == 24);                           // OS: n_b = 0
    CHECK(n_b == 6 * p.links - p.os.nv());               // 6n − N
    CHECK(n_b + contact_rows == nmc_os[i]);              // NMC/OS
    CHECK(p.nmc.nv() + n_b + contact_rows == nmc[i]);    // NMC: the free bodies' velocities too
  }
}

TEST_CASE("SpherePendulum: OS and NMC/OS paths of the 3-link pendulum agree, closer as Δt shrinks",
          "[contact][pendulum]") {
  // 0.2 s from the paper's initial state: the chain swings down, the last sphere strikes the floor near
  // t = 0.13 s and bounces (ε = 0.7). NMC/OS differs from OS by the semi-implicit Euler step of free bodies
  // held only at the velocity level (first order in Δt) and by where the impact falls within a step.
  const robots::SpherePendulum<double> p(3);
  double gap[2] = {0.0, 0.0};
  const double dts[2] = {4e-4, 1e-4};
  for (int i = 0; i < 2; ++i) {
    INFO("dt = " << dts[i]);
    int os_contacts = 0, nmc_contacts = 0;
    const std::vector<Eigen::Vector3d> os = last_sphere_path(p.os, p.os_geometry, {}, p.os_q, p.os_v, p.radius, dts[i], 0.2, os_contacts);
    const std::vector<Eigen::Vector3d> nmc =
        last_sphere_path(p.nmc, p.nmc_geometry, p.hinges, p.nmc_q, p.nmc_v, p.radius, dts[i], 0.2, nmc_contacts);
    REQUIRE(os.size() == 101);
    REQUIRE(nmc.size() == 101);
    CHECK(os_contacts > 0);  // the floor impact happened in both
    CHECK(nmc_contacts > 0);
    double lowest = 10.0;
    for (std::size_t k = 0; k < os.size(); ++k) {
      gap[i] = std::max(gap[i], (os[k] - nmc[k]).norm());
      lowest = std::min(lowest, os[k].y());
    }
    CHECK(lowest <= p.radius + 5e-3);  // the last sphere reached the floor (its centre one radius up)
    CHECK(lowest >= p.radius - 5e-3);  // and did not sink into it
  }
  INFO("gap at dt: " << gap[0] << " m, at dt/4: " << gap[1] << " m");
  CHECK(gap[0] <= 1e-3);           // 0.63 mm when written
  CHECK(gap[1] <= 0.35 * gap[0]);  // first order in Δt: a quarter (0.157 mm when written)
}
