// Factorizes a small tree-sparse SPD matrix through the public umbrella header and checks the solve, then
// runs a batched inverse dynamics on two threads (treedyn/parallel/batch.hpp).
#include <treedyn/treedyn.hpp>
#include <treedyn/robots/two_link.hpp>
#include <treedyn/parallel/batch.hpp>  // std::thread: the target's Threads::Threads must reach us
#ifdef TREEDYN_CONSUMER_URDF
#include <treedyn/urdf/build_model.hpp>
#endif

#include <cstdio>
#include <vector>

int main() {
  const std::vector<int> lambda{treedyn::no_parent, 0, 0, 1, 1, 2, 2};  // Tree 1 of Featherstone (2005), 0-based
  const int n = static_cast<int>(lambda.size());
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);  // H = J^T J with J lower-unit on the ancestor pattern
  for (int i = 0; i < n; ++i) {
    J(i, i) = 2.0 + i;
    for (int j = lambda[static_cast<std::size_t>(i)]; j != treedyn::no_parent;
         j = lambda[static_cast<std::size_t>(j)]) {
      J(i, j) = 0.25 * (i + 1) - 0.1 * j;
    }
  }
  Eigen::MatrixXd A = J.transpose() * J;
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, 1.0, 2.0);
  const Eigen::VectorXd expected = A.llt().solve(b);
  const treedyn::FactorStatus status = treedyn::ltdl(A, lambda);
  Eigen::VectorXd x = b;
  treedyn::ltdl_solve(A, lambda, x);
  const double err = (x - expected).norm();
  if (!status.ok() || err > 1e-12) {
    std::printf("consumer FAILED: status row %d, error %g\n", status.row, err);
    return 1;
  }
  {  // BatchRunner on two threads: inverse dynamics of 5 states equals a serial loop
    const treedyn::Model<double> robot = treedyn::robots::two_link<double>();
    const Eigen::MatrixXd Q = Eigen::MatrixXd::Random(robot.nq(), 5), V = Eigen::MatrixXd::Random(robot.nv(), 5);
    Eigen::MatrixXd tau(robot.nv(), 5);
    treedyn::BatchRunner<double> batch(robot, 2);
    treedyn::Data<double> data(robot);
    const bool ok = batch.rnea(Q, V, V, tau).ok();
    for (int k = 0; k < 5; ++k)
      if (!ok || tau.col(k) != treedyn::rnea(robot, data, Q.col(k), V.col(k), V.col(k))) {
        std::printf("consumer FAILED: batched rnea, state %d\n", k);
        return 1;
      }
  }
#ifdef TREEDYN_CONSUMER_URDF
  {  // the urdf component: a two-link URDF string, one revolute joint
    const treedyn::Model<double> robot = treedyn::urdf::build_model<double>(
        "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"><inertial><mass value=\"1\"/>"
        "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial></link>"
        "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>");
    if (robot.nv() != 1 || robot.joint_index("j") != 0) {
      std::printf("consumer FAILED: URDF model nv %d\n", robot.nv());
      return 1;
    }
    std::printf("urdf ok, ");
  }
#endif
  std::printf("consumer ok (treedyn %s, error %.1e)\n", TREEDYN_VERSION_STRING, err);
  return 0;
}
