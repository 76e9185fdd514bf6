// The accuracy metrics of accuracy.hpp, in long double.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "accuracy/suite/accuracy.hpp"
#include "support/tolerance.hpp"

namespace treedyn::accuracy {

namespace {

VectorL diagonal_scale(const MatrixL& H) { return H.diagonal().cwiseSqrt(); }

}  // namespace

double scaled_error(const MatrixL& computed, const MatrixL& reference) {
  long double worst = 0;
  for (Eigen::Index j = 0; j < reference.cols(); ++j)
    for (Eigen::Index i = 0; i < reference.rows(); ++i) {
      const long double e = std::fabs(computed(i, j) - reference(i, j)) / std::sqrt(reference(i, i) * reference(j, j));
      if (!(e <= worst)) worst = e;  // a NaN wins
    }
  return static_cast<double>(worst);
}

double energy_error(const VectorL& computed, const VectorL& reference, const MatrixL& H) {
  const VectorL d = computed - reference;
  return static_cast<double>(std::sqrt(d.dot(H * d) / reference.dot(H * reference)));
}

double backward_error(const MatrixL& H, const VectorL& x, const VectorL& r) {
  // ‖H‖₂ of the symmetric positive definite H: its largest eigenvalue
  const long double norm_H = Eigen::SelfAdjointEigenSolver<MatrixL>(H, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
  return static_cast<double>((H * x - r).norm() / (norm_H * x.norm() + r.norm()));
}

double scaled_backward_error(const MatrixL& H, const VectorL& x, const VectorL& r) {
  const VectorL D = diagonal_scale(H);
  const MatrixL B = D.cwiseInverse().asDiagonal() * H * D.cwiseInverse().asDiagonal();
  return backward_error(B, D.cwiseProduct(x), r.cwiseQuotient(D));
}

double tau_error(const VectorL& computed, const VectorL& reference, const MatrixL& H) {
  const VectorL D = diagonal_scale(H);
  const long double scale = reference.cwiseQuotient(D).cwiseAbs().maxCoeff();
  const long double error = (computed - reference).cwiseQuotient(D).cwiseAbs().maxCoeff();
  if (scale == 0) return error == 0 ? 0.0 : std::numeric_limits<double>::infinity();  // τ = 0 exactly (Example 2)
  return static_cast<double>(error / scale);
}

double jacobian_error(const MatrixL& computed, const MatrixL& reference, const VectorL& distance) {
  long double worst = 0;
  for (Eigen::Index j = 0; j < reference.cols(); ++j) {
    const long double w = reference.col(j).head<3>().norm(), v = reference.col(j).tail<3>().norm();
    const long double dw = (computed.col(j).head<3>() - reference.col(j).head<3>()).norm();
    const long double dv = (computed.col(j).tail<3>() - reference.col(j).tail<3>()).norm();
    long double e = 0;
    if (w > 0) e += dw / w;
    const long double linear_scale = w * distance(j) + v;
    if (linear_scale > 0) e += dv / linear_scale;
    if (!(e <= worst)) worst = e;
  }
  return static_cast<double>(worst);
}

namespace {

/// max_j ‖col_j(error)‖₂ / max_j ‖col_j(size)‖₂ (a NaN error wins; 0 / 0 is 0).
double worst_column_ratio(const MatrixL& error, const MatrixL& size) {
  long double worst = 0, largest = 0;
  for (Eigen::Index j = 0; j < size.cols(); ++j) {
    const long double e = error.col(j).norm();
    if (!(e <= worst)) worst = e;  // a NaN wins
    largest = std::max(largest, size.col(j).norm());
  }
  if (largest == 0) return worst == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return static_cast<double>(worst / largest);
}

}  // namespace

double derivative_error(const MatrixL& computed, const MatrixL& reference, const MatrixL& H, bool acceleration) {
  const VectorL D = diagonal_scale(H);
  const VectorL rows = acceleration ? D : VectorL(D.cwiseInverse());
  const auto scale = [&](const MatrixL& A) -> MatrixL { return rows.asDiagonal() * A * D.cwiseInverse().asDiagonal(); };
  return worst_column_ratio(scale(computed - reference), scale(reference));
}

double frame_derivative_error(const MatrixL& computed, const MatrixL& reference, long double reach) {
  VectorL rows = VectorL::Ones(6);
  rows.head<3>().setConstant(reach);
  return worst_column_ratio(rows.asDiagonal() * (computed - reference), rows.asDiagonal() * reference);
}

double scaled_condition(const MatrixL& A) {
  const VectorL D = diagonal_scale(A);
  const MatrixL B = D.cwiseInverse().asDiagonal() * A * D.cwiseInverse().asDiagonal();
  const double kappa = test::spd_condition(B);
  return kappa > 0 ? kappa : std::numeric_limits<double>::infinity();  // a singular A: a non-positive eigenvalue
}

}  // namespace treedyn::accuracy
