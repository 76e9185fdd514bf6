// frame_jacobian against central finite differences of forward_kinematics through integrate.
#include <catch2/catch.hpp>

#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEST_CASE("frame_jacobian (local and world-aligned) matches finite differences of forward kinematics",
          "[frame_jacobian]") {
  for_each_robot_state<double>(30, 1300u, [](const RobotCase<double>& c, const State<double>& s) {
    const Model<double>& model = c.model;
    Data<double> data(model);
    const int body = model.nbodies() - 1;
    const Transform<double> placement = transform_from(Eigen::AngleAxisd(0.4, Vector3<double>(1, 2, 3).normalized()).toRotationMatrix(),
                                                       Vector3<double>(0.1, -0.2, 0.3));
    forward_kinematics(model, data, s.q);
    const Eigen::MatrixXd J_local = frame_jacobian(model, data, body, placement, ReferenceFrame::local);
    const Eigen::MatrixXd J_world = frame_jacobian(model, data, body, placement, ReferenceFrame::world_aligned);
    const Transform<double> X0 = placement * data.X_world[body];  // ^F X_0
    const Eigen::Matrix3d R0 = X0.E.transpose();                   // frame axes in world coordinates
    // Column k: move q along e_k by ±h (integrate handles quaternions), difference the frame pose.
    const double h = 1e-6;
    Eigen::VectorXd q_plus(model.nq()), q_minus(model.nq());
    for (int k = 0; k < model.nv(); ++k) {
      const Eigen::VectorXd e = Eigen::VectorXd::Unit(model.nv(), k);
      integrate(model, s.q, e, h, q_plus);
      integrate(model, s.q, e, -h, q_minus);
      forward_kinematics(model, data, q_plus);
      const Transform<double> Xp = placement * data.X_world[body];
      forward_kinematics(model, data, q_minus);
      const Transform<double> Xm = placement * data.X_world[body];
      // world-aligned: linear = ṗ (p = frame origin in world = X.r); angular from Ṙ Rᵀ
      const Eigen::Vector3d p_dot = (Xp.r - Xm.r) / (2 * h);
      const Eigen::Matrix3d W = (Xp.E.transpose() - Xm.E.transpose()) / (2 * h) * R0.transpose();
      const Eigen::Vector3d w(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1));
      Eigen::Matrix<double, 6, 1> col_world;
      col_world << 0.5 * w, p_dot;
      Eigen::Matrix<double, 6, 1> col_local;
      col_local << R0.transpose() * col_world.head<3>(), R0.transpose() * col_world.tail<3>();
      INFO("column " << k);
      // central differences: truncation O(h²) plus rounding O(ε·|pose|/h), scaled by the robot's size
      const double scale = std::max(J_world.cwiseAbs().maxCoeff(), X0.r.norm()) + 1.0;
      const double tol = 100.0 * (eps<double>() / h + h * h) * scale;
      REQUIRE(close_entrywise(J_world.col(k), col_world, tol));
      REQUIRE(close_entrywise(J_local.col(k), col_local, tol));
    }
  });
}
