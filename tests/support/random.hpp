// Deterministic test randomness: the library's SplitMix64, identical on every platform (no std
// distributions), and the random spatial objects built from it.
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "treedyn/spatial/spatial.hpp"
#include "treedyn/topology/generators.hpp"

namespace treedyn::test {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}

  std::uint64_t next() { return gen_.next(); }
  /// Uniform in [lo, hi), 53 random bits, computed in double and then rounded to T.
  template <class T = double>
  T uniform(double lo = -1.0, double hi = 1.0) {
    return static_cast<T>(gen_.uniform(lo, hi));
  }
  int below(int n) { return gen_.below(n); }

  template <class Scalar>
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> matrix(int rows, int cols) {
    Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> m(rows, cols);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) m(i, j) = uniform<Scalar>();
    return m;
  }

  /// The underlying generator, for the library's seeded utilities (random_tree_spd).
  treedyn::SplitMix64& generator() { return gen_; }

 private:
  treedyn::SplitMix64 gen_;
};

/// A fixed- or dynamic-size matrix of uniform entries in [−1, 1), filled column by column.
template <class T, int R, int C>
Eigen::Matrix<T, R, C> random_matrix(Rng& rng, Eigen::Index rows = R, Eigen::Index cols = C) {
  Eigen::Matrix<T, R, C> out(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) out(i, j) = rng.uniform<T>();
  return out;
}

template <class T>
Vector3<T> random_vec3(Rng& rng) {
  return random_matrix<T, 3, 1>(rng);
}

template <class T>
Vector6<T> random_vec6(Rng& rng) {
  return random_matrix<T, 6, 1>(rng);
}

/// A rotation matrix from a random unit quaternion, built in T so it is orthonormal to T's precision.
template <class T>
Matrix3<T> random_rotation(Rng& rng) {
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
  Matrix3<T> R;
  R << a * a + b * b - c * c - d * d, T(2) * (b * c - a * d), T(2) * (b * d + a * c),  //
      T(2) * (b * c + a * d), a * a - b * b + c * c - d * d, T(2) * (c * d - a * b),    //
      T(2) * (b * d - a * c), T(2) * (c * d + a * b), a * a - b * b - c * c + d * d;
  return R;
}

template <class T>
Transform<T> random_transform(Rng& rng) {
  return Transform<T>{random_rotation<T>(rng), random_vec3<T>(rng)};
}

/// A physically valid rigid inertia: m in [0.5, 2], CoM in the unit cube, Ī_C = R diag Rᵀ with
/// principal moments satisfying the triangle inequality.
template <class T>
RigidInertia<T> random_rigid_inertia(Rng& rng) {
  const T mass = rng.uniform<T>(0.5, 2.0);
  const Vector3<T> c = random_vec3<T>(rng);
  // principal moments from a box with random sides: always satisfy the triangle inequality
  const T x = rng.uniform<T>(0.2, 1.0), y = rng.uniform<T>(0.2, 1.0), z = rng.uniform<T>(0.2, 1.0);
  const T k = mass / T(12);
  Vector3<T> principal;
  principal << k * (y * y + z * z), k * (x * x + z * z), k * (x * x + y * y);
  const Matrix3<T> R = random_rotation<T>(rng);
  const Matrix3<T> Ic = R * principal.asDiagonal() * R.transpose();
  return RigidInertia<T>::from_mass_com_inertia(mass, c, Ic);
}

/// A symmetric positive definite 6×6 (an articulated inertia): BᵀB + ½.
template <class T>
ArticulatedInertia<T> random_articulated_inertia(Rng& rng) {
  const Matrix6<T> B = random_matrix<T, 6, 6>(rng);
  Matrix6<T> M = B.transpose() * B;
  M.diagonal().array() += T(0.5);
  M = (T(0.5) * (M + M.transpose())).eval();
  return ArticulatedInertia<T>{M};
}

}  // namespace treedyn::test
