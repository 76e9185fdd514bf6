// The calls a controller tick reaches for first (issue 39): frame placements against trigonometry,
// factor_H / solve_H against a dense LDLᵀ solve (and, in float, within c·n·ε·κ(H) of a long double
// run), gravity_torques against bias(q, 0) and against a finite difference of the potential energy, and
// compute_all_terms bit-identical to the separate calls. Failures: a massless tip's pivot, a zero
// quaternion, a wrong-sized x and an out-of-range frame index.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "support/check_recorder.hpp"
#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

/// Two revolute z joints (links of 1 m along x), a "tool" fixed 0.5 m along link 2 and turned 90° about z,
/// and a "camera" fixed on the base 2 m up.
Model<double> two_link_with_frames() {
  ModelBuilder<double> b;
  const auto link = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.5, 0, 0), Vector3<double>(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix());
  const int a = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), Transform<double>::identity(),
                           link, "link1");
  const int c = b.add_body(a, Joint<double>::revolute(Vector3<double>::UnitZ()), xlt(Vector3<double>(1, 0, 0)), link,
                           "link2");
  b.add_body(c, Joint<double>{}, rotz(M_PI / 2) * xlt(Vector3<double>(0.5, 0, 0)), RigidInertia<double>::zero(), "tool");
  b.add_body(no_parent, Joint<double>{}, xlt(Vector3<double>(0, 0, 2)), RigidInertia<double>::zero(), "camera");
  return b.build();
}

int frame_index(const Model<double>& model, const std::string& name) {
  for (std::size_t f = 0; f < model.frames().size(); ++f)
    if (model.frames()[f].name == name) return static_cast<int>(f);
  FAIL("no frame " << name);
  return -1;
}

template <class T>
bool same_bits(const Transform<T>& a, const Transform<T>& b) {
  return a.E == b.E && a.r == b.r;
}

/// V(q) = −Σ_i gᵀ (m_i p_i + R_i h_i): the potential energy (p_i body i's origin, R_i its axes, h_i = m_i c_i).
double potential_energy(const Model<double>& model, Data<double>& data, const Eigen::VectorXd& q) {
  forward_kinematics(model, data, q);
  double v = 0;
  for (int i = 0; i < model.nbodies(); ++i) {
    const Transform<double>& X = data.X_world[i];
    const RigidInertia<double>& I = model.inertia(i);
    v -= model.gravity().dot(I.m * X.r + X.E.transpose() * I.h);
  }
  return v;
}

}  // namespace

TEST_CASE("frame_placement: a two-link arm's tool and a base camera, against trigonometry", "[front_door][frames]") {
  const Model<double> model = two_link_with_frames();
  Data<double> data(model);
  const double q1 = 0.4, q2 = -1.1;
  forward_kinematics(model, data, Eigen::Vector2d(q1, q2));
  const Transform<double> tool = frame_placement(model, data, frame_index(model, "tool"));
  const Eigen::Vector3d r(std::cos(q1) + 0.5 * std::cos(q1 + q2), std::sin(q1) + 0.5 * std::sin(q1 + q2), 0.0);
  const Eigen::Matrix3d axes = Eigen::AngleAxisd(q1 + q2 + M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  CHECK((tool.r - r).norm() <= 8 * eps<double>());
  CHECK((tool.E.transpose() - axes).norm() <= 8 * eps<double>());  // Pinocchio's oMf.rotation() = Eᵀ
  CHECK(same_bits(frame_placement(model, data, model.frame("tool")), tool));
  const Transform<double> camera = frame_placement(model, data, model.frame("camera"));
  CHECK(camera.r == Eigen::Vector3d(0, 0, 2));
  CHECK(camera.E == Eigen::Matrix3d::Identity());
  const auto& all = frame_placements(model, data);
  REQUIRE(static_cast<std::size_t>(all.size()) == model.frames().size());
  CHECK(same_bits(all[frame_index(model, "tool")], tool));
  CHECK(same_bits(all[frame_index(model, "camera")], camera));
}

TEMPLATE_TEST_CASE("frame_placements: every frame as frame_placement gives it, on every robot", "[front_door][frames]",
                   float, double) {
  using T = TestType;
  for_each_robot_state<T>(10, 3900u, [](const RobotCase<T>& c, const State<T>& s) {
    Data<T> data(c.model);
    forward_kinematics(c.model, data, s.q);
    const auto& all = frame_placements(c.model, data);
    REQUIRE(static_cast<std::size_t>(all.size()) == c.model.frames().size());
    for (int f = 0; f < all.size(); ++f) {
      const Frame<T>& frame = c.model.frames()[static_cast<std::size_t>(f)];
      CHECK(same_bits(all[f], frame_placement(c.model, data, f)));
      if (frame.body != no_parent && frame.placement.E == Matrix3<T>::Identity() && frame.placement.r.isZero())
        CHECK(same_bits(all[f], data.X_world[frame.body]));  // a body's own frame
    }
  });
}

TEMPLATE_TEST_CASE("factor_H and solve_H agree with a dense LDLT solve of dense_H", "[front_door][solve_H]", float,
                   double) {
  using T = TestType;
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  for_each_robot_state<T>(30, 4000u, [](const RobotCase<T>& c, const State<T>& s) {
    const int n = c.model.nv();
    const Model<long double> ml = c.model.template cast<long double>();  // the same model, exactly
    Data<T> data(c.model);
    Data<long double> dl(ml);
    crba(c.model, data, s.q);
    REQUIRE(factor_H(c.model, data).ok());
    crba(ml, dl, s.q.template cast<long double>());
    const Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> Hl = dense_H(ml, dl);
    Vec x = s.qdd;
    REQUIRE(solve_H(c.model, data, x).ok());
    const Eigen::Matrix<long double, Eigen::Dynamic, 1> ref = Hl.ldlt().solve(s.qdd.template cast<long double>());
    const double kappa = spd_condition(Hl);
    const double rel = static_cast<double>((x.template cast<long double>() - ref).norm() / (ref.norm() + 1));
    INFO("relative error " << rel << ", κ(H) = " << kappa);
    CHECK(rel <= 64.0 * (n + 1) * eps<T>() * kappa);
    // several right-hand sides at once: each column as the vector solve gives it, to the bit
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> B(n, 2);
    B.col(0) = s.qdd;
    B.col(1) = s.qd;
    REQUIRE(solve_H(c.model, data, B).ok());
    Vec y = s.qd;
    solve_H(c.model, data, y);
    CHECK(B.col(0) == x);
    CHECK(B.col(1) == y);
    // H (H⁻¹ b) = b, with H from dense_H in the working scalar
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> H = dense_H(c.model, data);
    CHECK(static_cast<double>((H * x - s.qdd).norm()) <=
          64.0 * (n + 1) * eps<T>() * static_cast<double>(H.norm() * x.norm() + s.qdd.norm()));
  });
}

TEMPLATE_TEST_CASE("gravity_torques equals bias(q, 0) to rounding", "[front_door][gravity]", float, double) {
  using T = TestType;
  for_each_robot_state<T>(30, 4100u, [](const RobotCase<T>& c, const State<T>& s) {
    const int n = c.model.nv();
    Data<T> data(c.model);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> C0 = bias(c.model, data, s.q, Eigen::Matrix<T, Eigen::Dynamic, 1>::Zero(n));
    const Eigen::Matrix<T, Eigen::Dynamic, 1>& g = gravity_torques(c.model, data, s.q);
    REQUIRE(&g == &data.g);
    REQUIRE(C0.norm() > T(0));
    CHECK(static_cast<double>((g - C0).norm()) <= tolerance<T>(8.0, n, C0.norm()));
  });
}

TEST_CASE("gravity_torques is the gradient of the potential energy (central differences)", "[front_door][gravity]") {
  for_each_robot_state<double>(10, 4200u, [](const RobotCase<double>& c, const State<double>& s) {
    const int n = c.model.nv();
    Data<double> data(c.model);
    const Eigen::VectorXd g = gravity_torques(c.model, data, s.q);
    const double h = 1e-6;
    Eigen::VectorXd fd(n), qp(c.model.nq()), qm(c.model.nq());
    for (int k = 0; k < n; ++k) {
      const Eigen::VectorXd e = Eigen::VectorXd::Unit(n, k);
      integrate(c.model, s.q, e, h, qp);
      integrate(c.model, s.q, e, -h, qm);
      fd(k) = (potential_energy(c.model, data, qp) - potential_energy(c.model, data, qm)) / (2 * h);
    }
    INFO("g = " << g.transpose() << "\nfd = " << fd.transpose());
    CHECK((g - fd).norm() <= 1e-6 * (g.norm() + 1));
  });
}

TEMPLATE_TEST_CASE("compute_all_terms leaves what the separate calls give, to the bit", "[front_door][tick]", float,
                   double) {
  using T = TestType;
  for_each_robot_state<T>(30, 4300u, [](const RobotCase<T>& c, const State<T>& s) {
    Data<T> tick(c.model), calls(c.model);
    const FactorStatus status = compute_all_terms(c.model, tick, s.q, s.qd);
    REQUIRE(status.ok());
    forward_kinematics(c.model, calls, s.q);
    frame_placements(c.model, calls);
    bias(c.model, calls, s.q, s.qd);
    gravity_torques(c.model, calls, s.q);
    crba(c.model, calls, s.q);
    REQUIRE(factor_H(c.model, calls).ok());
    for (int i = 0; i < c.model.nbodies(); ++i) {
      CHECK(same_bits(tick.Xup[i], calls.Xup[i]));
      CHECK(same_bits(tick.X_world[i], calls.X_world[i]));
    }
    for (int f = 0; f < tick.X_frame.size(); ++f) CHECK(same_bits(tick.X_frame[f], calls.X_frame[f]));
    CHECK(tick.H == calls.H);
    CHECK(tick.H_factor == calls.H_factor);
    CHECK(tick.C == calls.C);
    CHECK(tick.g == calls.g);
    // and the tick's factor solves as forward_dynamics_crba does: q̈ = H⁻¹ (τ − C)
    Eigen::Matrix<T, Eigen::Dynamic, 1> qdd = s.qdd - tick.C;
    solve_H(c.model, tick, qdd);
    CHECK(qdd == forward_dynamics_crba(c.model, calls, s.q, s.qd, s.qdd));
  });
}

TEMPLATE_TEST_CASE("oscm and osim after compute_all_terms, without q, equal the calls with q to the bit",
                   "[front_door][tick][oscm]", float, double) {
  using T = TestType;
  for_each_robot_state<T>(30, 4310u, [](const RobotCase<T>& c, const State<T>& s) {
    OperationalFrames<T> reused(c.model), fresh(c.model);
    for (OperationalFrames<T>* f : {&reused, &fresh}) {
      f->add(c.model.nbodies() - 1, Transform<T>::identity());
      f->add(c.model.nbodies() / 2, xlt(Vector3<T>(T(0.1), T(0), T(0))), FrameRows::linear());
    }
    Data<T> tick(c.model), calls(c.model);
    REQUIRE(compute_all_terms(c.model, tick, s.q, s.qd).ok());
    const auto G = oscm(c.model, tick, reused);  // a copy, compared after the call with q
    CHECK(reused.status.ok());
    CHECK(G == oscm(c.model, calls, fresh, s.q));
    const auto Lambda = osim(c.model, tick, reused);
    const auto& Lambda_q = osim(c.model, calls, fresh, s.q);
    CHECK(reused.status.code == fresh.status.code);  // 6 + 3 rows: singular on the robots with few DoFs
    CHECK(((Lambda.array() == Lambda_q.array()) || (Lambda.array().isNaN() && Lambda_q.array().isNaN())).all());
  });
}

TEST_CASE("oscm without q after a failed tick: the tick's status, Λ⁻¹ NaN", "[front_door][tick][oscm]") {
  const RobotCase<double> c = robot_cases<double>(0).front();
  OperationalFrames<double> frames(c.model);
  frames.add(c.model.nbodies() - 1, Transform<double>::identity());
  Data<double> data(c.model);
  Eigen::VectorXd q = neutral(c.model);
  q(0) = std::numeric_limits<double>::quiet_NaN();
  const FactorStatus t = compute_all_terms(c.model, data, q, Eigen::VectorXd::Zero(c.model.nv()));
  REQUIRE(t.code == Status::Code::non_finite_input);
  CHECK(oscm(c.model, data, frames).array().isNaN().all());
  CHECK(frames.status.code == Status::Code::non_finite_input);
  CHECK(osim(c.model, data, frames).array().isNaN().all());
  CHECK(frames.status.code == Status::Code::non_finite_input);
}

TEST_CASE("a massless tip: factor_H names the row, solve_H gives NaN, compute_all_terms returns the status",
          "[front_door][status]") {
  ModelBuilder<double> b;
  const auto link = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.5, 0, 0), Vector3<double>(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix());
  const int a = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), Transform<double>::identity(),
                           link, "a");
  b.add_body(a, Joint<double>::revolute(Vector3<double>::UnitZ()), xlt(Vector3<double>(1, 0, 0)),
             RigidInertia<double>::zero(), "massless");
  const Model<double> model = b.build();
  Data<double> data(model);
  const Eigen::Vector2d q(0.3, -0.2), qd(0.1, 0.2);
  crba(model, data, q);
  const FactorStatus s = factor_H(model, data);
  CHECK(s.code == Status::Code::non_positive_pivot);
  CHECK(s.row == 1);
  CHECK(data.factor_status.code == Status::Code::non_positive_pivot);
  Eigen::Vector2d x(1.0, 2.0);
  CHECK(solve_H(model, data, x).code == Status::Code::non_positive_pivot);
  CHECK(x.array().isNaN().all());
  const FactorStatus t = compute_all_terms(model, data, q, qd);
  CHECK(t.code == Status::Code::non_positive_pivot);
  CHECK(t.row == 1);
}

TEST_CASE("a zero quaternion: compute_all_terms reports the body, its outputs are NaN", "[front_door][status]") {
  ModelBuilder<double> b;
  const auto body = RigidInertia<double>::from_mass_com_inertia(2.0, Vector3<double>(0, 0, 0.1),
                                                               Eigen::Matrix3d::Identity() * 0.1);
  b.add_body(no_parent, Joint<double>::free_flyer(), Transform<double>::identity(), body, "base");
  const Model<double> model = b.build();
  Data<double> data(model);
  Eigen::VectorXd q = neutral(model);
  q.segment(3, 4).setZero();
  const FactorStatus t = compute_all_terms(model, data, q, Eigen::VectorXd::Zero(model.nv()));
  CHECK(t.code == Status::Code::invalid_configuration);
  CHECK(t.row == 0);
  CHECK(data.C.array().isNaN().all());
  CHECK(data.g.array().isNaN().all());
  CHECK(data.X_world[0].r.array().isNaN().all());
  CHECK(data.X_frame[0].r.array().isNaN().all());
  CHECK(gravity_torques(model, data, q).array().isNaN().all());
  CHECK(data.config_status.code == Status::Code::invalid_configuration);
}

TEST_CASE("the new calls check their arguments: a handler that returns sees the report, outputs untouched",
          "[front_door][checks]") {
  const Model<double> model = robots::arm7<double>(), other = robots::puma560<double>();
  Data<double> data(model), wrong(other);
  const Eigen::VectorXd q = neutral(model);
  compute_all_terms(model, data, q, Eigen::VectorXd::Zero(model.nv()));
  Recorder recorder;
  Eigen::VectorXd x = Eigen::VectorXd::Constant(model.nv() + 1, 42.0);
  CHECK(solve_H(model, data, x).code == Status::Code::invalid_argument);
  CHECK((x.array() == 42.0).all());
  CHECK(factor_H(model, wrong).code == Status::Code::invalid_argument);
  CHECK(std::isnan(frame_placement(model, data, static_cast<int>(model.frames().size())).r(0)));
  CHECK(std::isnan(frame_placement(model, data, -1).r(0)));
  Eigen::VectorXd g = data.g;
  gravity_torques(model, data, Eigen::VectorXd::Zero(model.nq() + 1));
  CHECK(data.g == g);
  CHECK(compute_all_terms(model, data, q, Eigen::VectorXd::Zero(model.nv() - 1)).code == Status::Code::invalid_argument);
  REQUIRE(Recorder::seen.size() == 6);
  CHECK(std::string(Recorder::seen[0].function) == "solve_H");
  CHECK(std::string(Recorder::seen[0].argument) == "x");
  CHECK(std::string(Recorder::seen[1].function) == "factor_H");
  CHECK(std::string(Recorder::seen[2].argument) == "frame_index");
  CHECK(std::string(Recorder::seen[4].function) == "gravity_torques");
  CHECK(std::string(Recorder::seen[5].argument) == "qd");
}

TEST_CASE("a fixed-N Data holds 2N frame placements; the tick gives the dynamic-size results", "[front_door][fixed]") {
  const Model<double> model = two_link_with_frames();  // 2 DoFs, 4 frames: link1, link2, tool, camera
  REQUIRE(model.frames().size() == 4);
  const Model<double, 2> fixed = model.cast<double, 2>();
  Data<double, 2> df(fixed);
  Data<double> dd(model);
  const Eigen::Vector2d q(0.4, -1.1), qd(0.3, 0.2);
  REQUIRE(compute_all_terms(fixed, df, q, qd).ok());
  REQUIRE(compute_all_terms(model, dd, q, qd).ok());
  for (int f = 0; f < 4; ++f) CHECK(same_bits(df.X_frame[f], dd.X_frame[f]));
  CHECK(df.C == dd.C);
  CHECK(df.g == dd.g);
  Eigen::Vector2d x(1.0, -1.0), y = x;
  solve_H(fixed, df, x);
  solve_H(model, dd, y);
  CHECK(x == y);
  // a fifth frame does not fit Data<double, 2>: the constructor says so
  ModelBuilder<double> b;
  const auto link = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.5, 0, 0), Vector3<double>(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix());
  const int a = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), Transform<double>::identity(),
                           link, "a");
  b.add_body(a, Joint<double>::revolute(Vector3<double>::UnitZ()), Transform<double>::identity(), link, "b");
  for (const char* name : {"f1", "f2", "f3"})
    b.add_body(a, Joint<double>{}, xlt(Vector3<double>(1, 0, 0)), RigidInertia<double>::zero(), name);
  const Model<double, 2> crowded = b.build().cast<double, 2>();
  REQUIRE(crowded.frames().size() == 5);
  using Fixed2 = Data<double, 2>;
  CHECK_THROWS_AS(Fixed2(crowded), std::length_error);
}
