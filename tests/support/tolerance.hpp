// Tolerances derived from the scalar's epsilon, the problem size and the condition number.
#pragma once

#include <limits>

#include <Eigen/Eigenvalues>

namespace treedyn::test {

template <class Scalar>
double eps() {
  return static_cast<double>(std::numeric_limits<Scalar>::epsilon());
}

/// 2-norm condition number of a symmetric positive-definite matrix, computed in double.
template <class Derived>
double spd_condition(const Eigen::MatrixBase<Derived>& A) {
  const Eigen::MatrixXd Ad = A.template cast<double>();
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Ad, Eigen::EigenvaluesOnly).eigenvalues();
  return ev.maxCoeff() / ev.minCoeff();
}

}  // namespace treedyn::test
