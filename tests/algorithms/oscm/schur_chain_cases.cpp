// The dense double reference of the Schur OSCM / OSIM tests, compiled once (see schur_chain_cases.hpp).
#include "algorithms/oscm/schur_chain_cases.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "support/crba_dense.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"

namespace treedyn::test {

Transform<double> random_placement(Rng& rng) {
  const Eigen::Vector3d axis(rng.uniform(), rng.uniform(), rng.uniform());
  const Eigen::Matrix3d R = Eigen::AngleAxisd(rng.uniform(-3.0, 3.0), axis.normalized()).toRotationMatrix();
  return transform_from(R, Eigen::Vector3d(0.3 * rng.uniform(), 0.3 * rng.uniform(), 0.3 * rng.uniform()));
}

DenseReference dense_reference(const Model<double>& model, const Transform<double>& placement,
                               const Eigen::VectorXd& q) {
  Data<double> data(model);
  forward_kinematics(model, data, q);
  const Eigen::MatrixXd J = frame_jacobian(model, data, model.nbodies() - 1, placement, ReferenceFrame::local);
  const Eigen::MatrixXd H = crba_dense(model, data, q);
  DenseReference ref;
  ref.Lambda_inv = J * H.inverse() * J.transpose();
  ref.kappa_H = spd_condition(H);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(J);
  svd.setThreshold(1e-9);
  ref.rank_J = static_cast<int>(svd.rank());
  return ref;
}

SingleJointReference single_joint_reference(const Model<double>& model, const Transform<double>& placement) {
  const Eigen::MatrixXd S = model.motion_subspace(0);
  const Matrix6d I = model.inertia(0).matrix();
  const Matrix6d X_E = placement.motion_matrix();
  const Eigen::MatrixXd StIS = S.transpose() * I * S;
  SingleJointReference ref;
  ref.compliance = X_E * S * StIS.inverse() * S.transpose() * X_E.transpose();
  ref.inertia_at_E = X_E.inverse().transpose() * I * X_E.inverse();
  ref.kappa_StIS = spd_condition(StIS);
  ref.kappa_I = spd_condition(I);
  return ref;
}

WoodburyReference woodbury_reference(const Eigen::MatrixXd& A, const Eigen::MatrixXd& E, const Eigen::MatrixXd& R,
                                     const Matrix6d& D) {
  WoodburyReference ref;
  ref.Y = A - E * D.inverse() * E.transpose();
  ref.min_eigenvalue_Y = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(ref.Y).eigenvalues().minCoeff();
  ref.kappa_A = spd_condition(A);
  ref.YR = R.transpose() * ref.Y.inverse() * R;
  return ref;
}

}  // namespace treedyn::test
