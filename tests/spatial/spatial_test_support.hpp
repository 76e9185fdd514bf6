// Shared helpers for the spatial tests: dense oracles written straight from Featherstone's definitions.
// The random spatial objects (support/random.hpp) and the tolerances and entrywise comparison
// (support/tolerance.hpp) are the ones every test uses.
#pragma once

#include <treedyn/spatial/spatial.hpp>

#include "support/random.hpp"
#include "support/tolerance.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <limits>

namespace spatial_test {

using treedyn::test::close_entrywise;
using treedyn::test::random_articulated_inertia;
using treedyn::test::random_matrix;
using treedyn::test::random_rigid_inertia;
using treedyn::test::random_rotation;
using treedyn::test::random_transform;
using treedyn::test::random_vec3;
using treedyn::test::random_vec6;
using treedyn::test::Rng;
using treedyn::test::tolerance;

template <class T>
using V3 = treedyn::Vector3<T>;
template <class T>
using M3 = treedyn::Matrix3<T>;
template <class T>
using V6 = treedyn::Vector6<T>;
template <class T>
using M6 = treedyn::Matrix6<T>;

/// Dense Featherstone matrices written straight from the book (oracles, independent of transform.hpp).
template <class T>
M3<T> skew_oracle(const V3<T>& a) {
  M3<T> S;
  S << T(0), -a(2), a(1), a(2), T(0), -a(0), -a(1), a(0), T(0);
  return S;
}

/// ^B X_A = [E 0; -E r× E].
template <class T>
M6<T> dense_motion(const M3<T>& E, const V3<T>& r) {
  M6<T> X = M6<T>::Zero();
  X.template topLeftCorner<3, 3>() = E;
  X.template bottomLeftCorner<3, 3>() = -E * skew_oracle(r);
  X.template bottomRightCorner<3, 3>() = E;
  return X;
}

template <class T>
M6<T> dense_motion(const treedyn::Transform<T>& X) {
  return dense_motion<T>(X.E, X.r);
}

/// Dense force transform: the inverse transpose of the dense motion transform (computed by LU).
template <class T>
M6<T> dense_force(const treedyn::Transform<T>& X) {
  return dense_motion(X).inverse().transpose();
}

/// Dense rigid inertia [Ī h×; -h× m1].
template <class T>
M6<T> dense_inertia(const T& m, const V3<T>& h, const M3<T>& Ibar) {
  M6<T> I;
  I.template topLeftCorner<3, 3>() = Ibar;
  I.template topRightCorner<3, 3>() = skew_oracle(h);
  I.template bottomLeftCorner<3, 3>() = -skew_oracle(h);
  I.template bottomRightCorner<3, 3>() = m * M3<T>::Identity();
  return I;
}

/// D · A column by column (the oracle for 6×k arguments; only 6x6-times-6-vector products are instantiated).
template <class T, class Derived>
Eigen::Matrix<T, 6, Eigen::Dynamic> dense_times(const M6<T>& D, const Eigen::MatrixBase<Derived>& A) {
  Eigen::Matrix<T, 6, Eigen::Dynamic> out(6, A.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    const V6<T> column = A.col(j);
    out.col(j) = D * column;
  }
  return out;
}

template <class T>
using MatX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

/// max |a| entrywise; the argument is evaluated into a dynamic matrix first so that only one reduction
/// per scalar type is instantiated (keeps the test TUs quick to compile).
template <class T>
T max_abs_impl(const MatX<T>& a) {
  return a.cwiseAbs().maxCoeff();
}

template <class Derived>
typename Derived::Scalar max_abs(const Eigen::MatrixBase<Derived>& a) {
  using T = typename Derived::Scalar;
  return max_abs_impl<T>(MatX<T>(a));
}

/// Printable as double for Catch2's CAPTURE/INFO (long double prints fine too, but keep one format).
template <class T>
double as_double(const T& x) {
  return static_cast<double>(x);
}

}  // namespace spatial_test

/// CHECK that a scalar is within a tolerance of another.
#define SPATIAL_CHECK_NEAR(a, b, tolerance)                                                                \
  do {                                                                                                     \
    using std::abs;                                                                                        \
    const double spatial_err = static_cast<double>(abs((a) - (b)));                                        \
    const double spatial_tol = static_cast<double>(tolerance);                                             \
    INFO(#a " vs " #b ": error " << spatial_err << ", tolerance " << spatial_tol);                         \
    CHECK(spatial_err <= spatial_tol);                                                                     \
  } while (false)
