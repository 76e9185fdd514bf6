// forward_dynamics_crba: agrees with a dense solve, inverts RNEA, float stays within c·n·ε·κ(H) of a
// long double run, and a singular H is reported by its status (never a silent NaN-free wrong answer).
#include <catch2/catch.hpp>

#include <Eigen/Cholesky>

#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEMPLATE_TEST_CASE("forward_dynamics_crba inverts RNEA", "[forward_dynamics]", float, double) {
  using T = TestType;
  for_each_robot_state<T>(50, 1100u, [](const RobotCase<T>& c, const State<T>& s) {
    const int n = c.model.nv();
    Data<T> data(c.model);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> tau = rnea(c.model, data, s.q, s.qd, s.qdd);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> qdd = forward_dynamics_crba(c.model, data, s.q, s.qd, tau);
    REQUIRE(data.factor_status.ok());
    const double kappa = spd_condition(dense_H(c.model, data));
    const double tol = 64.0 * (n + 1) * eps<T>() * kappa * (static_cast<double>(s.qdd.norm()) + 1.0);
    INFO("κ(H) = " << kappa);
    REQUIRE(static_cast<double>((qdd - s.qdd).norm()) <= tol);
  });
}

TEST_CASE("float forward dynamics stays within c·n·ε·κ(H) of a long double run", "[forward_dynamics][float]") {
  int index = 0;
  for (auto& c : robot_cases<long double>(20)) {
    INFO(c.name);
    const int n = c.model.nv();
    const Model<float> mf = c.model.template cast<float>();
    const Model<long double> ml = mf.template cast<long double>();  // the float model, exactly, in long double
    Data<float> df(mf);
    Data<long double> dl(ml);
    const State<float> s = random_state(mf, 1200u + static_cast<unsigned>(index++));
    const Eigen::VectorXf tau = Eigen::VectorXf::LinSpaced(n, -1.0f, 1.0f);
    const Eigen::VectorXf qf = forward_dynamics_crba(mf, df, s.q, s.qd, tau);
    const Eigen::Matrix<long double, Eigen::Dynamic, 1> ql =
        forward_dynamics_crba(ml, dl, s.q.cast<long double>(), s.qd.cast<long double>(), tau.cast<long double>());
    REQUIRE(df.factor_status.ok());
    const double kappa = spd_condition(dense_H(ml, dl));
    const double rel = static_cast<double>((qf.cast<long double>() - ql).norm() / (ql.norm() + 1));
    INFO("relative error " << rel << ", κ(H) = " << kappa);
    REQUIRE(rel <= 64.0 * (n + 1) * eps<float>() * kappa);
  }
}

TEST_CASE("a massless tip makes H singular: the status names the row and q̈ is NaN", "[forward_dynamics][status]") {
  ModelBuilder<double> builder;
  const auto link = RigidInertia<double>::from_mass_com_inertia(1.0, Vector3<double>(0.5, 0, 0),
                                                               Vector3<double>(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix());
  const int a = builder.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), Transform<double>::identity(), link, "a");
  builder.add_body(a, Joint<double>::revolute(Vector3<double>::UnitZ()), xlt(Vector3<double>(1, 0, 0)),
                   RigidInertia<double>::zero(), "massless");
  const Model<double> model = builder.build();
  Data<double> data(model);
  const Eigen::Vector2d q(0.3, -0.2), qd(0.1, 0.2), tau(1.0, 0.5);
  const Eigen::Vector2d& qdd = forward_dynamics_crba(model, data, q, qd, tau);
  REQUIRE_FALSE(data.factor_status.ok());
  REQUIRE(data.factor_status.row == 1);
  REQUIRE(qdd.array().isNaN().all());
}
