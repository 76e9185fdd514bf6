// Shared helpers for the spatial tests: a small deterministic generator, random spatial objects, dense
// oracles written straight from Featherstone's definitions, and epsilon-derived tolerances.
#pragma once

#include <treedyn/spatial/spatial.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <limits>

namespace spatial_test {

/// SplitMix64 (Steele, Lea, Flood 2014): deterministic, seedable, identical on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }

  /// Uniform in [lo, hi), computed in double (53 random bits) and then rounded to T.
  template <class T>
  T uniform(double lo = -1.0, double hi = 1.0) {
    const double unit = static_cast<double>(next() >> 11U) * 0x1.0p-53;
    return static_cast<T>(lo + (hi - lo) * unit);
  }

 private:
  std::uint64_t state_;
};

template <class T>
using V3 = treedyn::Vector3<T>;
template <class T>
using M3 = treedyn::Matrix3<T>;
template <class T>
using V6 = treedyn::Vector6<T>;
template <class T>
using M6 = treedyn::Matrix6<T>;

template <class T, int R, int C>
Eigen::Matrix<T, R, C> random_matrix(Rng& rng, Eigen::Index rows = R, Eigen::Index cols = C) {
  Eigen::Matrix<T, R, C> out(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) out(i, j) = rng.uniform<T>();
  return out;
}

template <class T>
V3<T> random_vec3(Rng& rng) {
  return random_matrix<T, 3, 1>(rng);
}

template <class T>
V6<T> random_vec6(Rng& rng) {
  return random_matrix<T, 6, 1>(rng);
}

/// A rotation matrix from a random unit quaternion, built in T so it is orthonormal to T's precision.
template <class T>
M3<T> random_rotation(Rng& rng) {
  using std::sqrt;
  T a, b, c, d, n2;
  do {
    a = rng.uniform<T>();
    b = rng.uniform<T>();
    c = rng.uniform<T>();
    d = rng.uniform<T>();
    n2 = a * a + b * b + c * c + d * d;
  } while (n2 < T(0.0625) || n2 > T(1));
  const T n = sqrt(n2);
  a /= n;
  b /= n;
  c /= n;
  d /= n;
  M3<T> R;
  R << a * a + b * b - c * c - d * d, T(2) * (b * c - a * d), T(2) * (b * d + a * c),  //
      T(2) * (b * c + a * d), a * a - b * b + c * c - d * d, T(2) * (c * d - a * b),    //
      T(2) * (b * d - a * c), T(2) * (c * d + a * b), a * a - b * b - c * c + d * d;
  return R;
}

template <class T>
treedyn::Transform<T> random_transform(Rng& rng) {
  return treedyn::Transform<T>{random_rotation<T>(rng), random_vec3<T>(rng)};
}

/// A physically valid rigid inertia: m in [0.5, 2], CoM in the unit cube, Ī_C = R diag R^T with
/// principal moments satisfying the triangle inequality.
template <class T>
treedyn::RigidInertia<T> random_rigid_inertia(Rng& rng) {
  const T mass = rng.uniform<T>(0.5, 2.0);
  const V3<T> c = random_vec3<T>(rng);
  // principal moments from a box with random sides: always satisfy the triangle inequality
  const T x = rng.uniform<T>(0.2, 1.0), y = rng.uniform<T>(0.2, 1.0), z = rng.uniform<T>(0.2, 1.0);
  const T k = mass / T(12);
  V3<T> principal;
  principal << k * (y * y + z * z), k * (x * x + z * z), k * (x * x + y * y);
  const M3<T> R = random_rotation<T>(rng);
  const M3<T> Ic = R * principal.asDiagonal() * R.transpose();
  return treedyn::RigidInertia<T>::from_mass_com_inertia(mass, c, Ic);
}

/// A symmetric positive definite 6x6 (an articulated inertia): B^T B + 1/2.
template <class T>
treedyn::ArticulatedInertia<T> random_articulated_inertia(Rng& rng) {
  const M6<T> B = random_matrix<T, 6, 6>(rng);
  M6<T> M = B.transpose() * B;
  M.diagonal().array() += T(0.5);
  M = (T(0.5) * (M + M.transpose())).eval();
  return treedyn::ArticulatedInertia<T>{M};
}

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

/// max |a - b| entrywise; the arguments are evaluated into dynamic matrices first so that only one
/// reduction per scalar type is instantiated (keeps the test TUs quick to compile).
template <class T>
T max_abs_diff_impl(const MatX<T>& a, const MatX<T>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return std::numeric_limits<T>::infinity();
  return (a - b).cwiseAbs().maxCoeff();
}

template <class Derived1, class Derived2>
typename Derived1::Scalar max_abs_diff(const Eigen::MatrixBase<Derived1>& a, const Eigen::MatrixBase<Derived2>& b) {
  using T = typename Derived1::Scalar;
  return max_abs_diff_impl<T>(MatX<T>(a), MatX<T>(b));
}

template <class T>
T max_abs_impl(const MatX<T>& a) {
  return a.cwiseAbs().maxCoeff();
}

template <class Derived>
typename Derived::Scalar max_abs(const Eigen::MatrixBase<Derived>& a) {
  using T = typename Derived::Scalar;
  return max_abs_impl<T>(MatX<T>(a));
}

/// Tolerance = k · ε(T) · scale, where scale bounds the magnitudes entering the computation.
template <class T>
T tol(const T& scale, int k = 16) {
  return T(k) * std::numeric_limits<T>::epsilon() * scale;
}

/// Printable as double for Catch2's CAPTURE/INFO (long double prints fine too, but keep one format).
template <class T>
double as_double(const T& x) {
  return static_cast<double>(x);
}

}  // namespace spatial_test

/// CHECK that two matrices agree entrywise within a tolerance, reporting the error and the tolerance.
#define SPATIAL_CHECK_CLOSE(a, b, tolerance)                                                               \
  do {                                                                                                     \
    const double spatial_err = static_cast<double>(spatial_test::max_abs_diff((a), (b)));                 \
    const double spatial_tol = static_cast<double>(tolerance);                                             \
    INFO(#a " vs " #b ": error " << spatial_err << ", tolerance " << spatial_tol);                         \
    CHECK(spatial_err <= spatial_tol);                                                                     \
  } while (false)

/// CHECK that a scalar is within a tolerance of another.
#define SPATIAL_CHECK_NEAR(a, b, tolerance)                                                                \
  do {                                                                                                     \
    using std::abs;                                                                                        \
    const double spatial_err = static_cast<double>(abs((a) - (b)));                                        \
    const double spatial_tol = static_cast<double>(tolerance);                                             \
    INFO(#a " vs " #b ": error " << spatial_err << ", tolerance " << spatial_tol);                         \
    CHECK(spatial_err <= spatial_tol);                                                                     \
  } while (false)
