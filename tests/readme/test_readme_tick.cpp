// The README's C++ controller tick, compiled and run as written (tests/readme/extract_snippet.cmake pulls it
// out of README.md at configure time), then checked: the tick's H solve and the ABA agree, the tool frame's
// placement and Jacobian agree with a finite difference of forward kinematics, the gravity torques are
// rnea(q, 0, 0) and C is bias(q, q̇). (tests/no_alloc proves these calls allocate nothing.) The test runs in a folder where share/treedyn/robots/ holds
// the built-in robots' URDF files, as an install prefix does.
#include <catch2/catch.hpp>

#include <cstdio>

#include <treedyn/treedyn.hpp>
#include <treedyn/urdf/build_model.hpp>

TEST_CASE("README: the C++ controller tick runs as written and its numbers agree", "[readme]") {
#include "readme_tick.inc"

  REQUIRE(s.ok());
  REQUIRE(data.aba_status.ok());
  const double scale = 1 + x.cwiseAbs().maxCoeff();
  CHECK((qdd - x).cwiseAbs().maxCoeff() <= 1e-10 * scale);
  CHECK(J.rows() == 6);
  CHECK(J.cols() == model.nv());

  // g and C are the tick's data.g and data.C: g = rnea(q, 0, 0), C = bias(q, q̇).
  CHECK(&g == &data.g);
  CHECK(&C == &data.C);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
  const Eigen::VectorXd gravity = g, bias_terms = C;
  const Eigen::VectorXd tau_g = treedyn::rnea(model, data, q, zero, zero);
  CHECK((gravity - tau_g).cwiseAbs().maxCoeff() <= 1e-12 * (1 + tau_g.cwiseAbs().maxCoeff()));
  CHECK(gravity.norm() > 0);  // the arm is under gravity
  CHECK(bias_terms == treedyn::bias(model, data, q, qd));

  // The tool's linear velocity J q̇ (world-aligned rows 3..5) against a central difference of p_tool.
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model.nv(), 0.3, -0.4);
  const double h = 1e-6;
  Eigen::VectorXd qp(model.nq()), qm(model.nq());
  treedyn::integrate(model, q, v, h, qp);
  treedyn::integrate(model, q, v, -h, qm);
  const auto tool_origin = [&](const Eigen::VectorXd& qq) {
    treedyn::forward_kinematics(model, data, qq);
    return Eigen::Vector3d((tool.placement * data.X_world[tool.body]).r);
  };
  const Eigen::Vector3d fd = (tool_origin(qp) - tool_origin(qm)) / (2 * h);
  treedyn::forward_kinematics(model, data, q);
  const Eigen::MatrixXd Jw = treedyn::frame_jacobian(model, data, tool.body, tool.placement,
                                                     treedyn::ReferenceFrame::world_aligned);
  CHECK((Jw.bottomRows<3>() * v - fd).cwiseAbs().maxCoeff() <= 1e-6);
  CHECK((tool_origin(q) - p_tool).norm() == 0);
}
