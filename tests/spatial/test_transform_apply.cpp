// Tests for treedyn::Transform's apply functions against Featherstone's dense 6x6 transforms
// (the force transform is the inverse transpose), for 6-vectors and 6×k blocks with fixed, bounded and dynamic columns.
#include <catch2/catch.hpp>

#include "spatial_test_support.hpp"

#include <type_traits>

using namespace spatial_test;
using treedyn::Transform;

namespace {
constexpr int kSamples = 40;

template <class T>
T transform_scale(const Transform<T>& X) {
  return T(1) + X.r.template lpNorm<1>();
}
}  // namespace

namespace {
// Every apply function against its dense matrix, for a given argument type (vector, 6×3, 6×Dynamic, block).
template <class T, class Arg>
void check_applies_against_dense(const Transform<T>& X, const Arg& arg) {
  const M6<T> D = dense_motion(X);
  const M6<T> Dinv = D.inverse();
  const M6<T> Dforce = dense_force(X);  // (d): D^{-T}
  const T s = transform_scale(X);
  const T scale = s * max_abs(arg);
  const M6<T> Dt = D.transpose();
  CHECK(close_entrywise(X.apply_motion(arg), dense_times(D, arg), tolerance<T>(8, 1, scale)));
  CHECK(close_entrywise(X.apply_force(arg), dense_times(Dforce, arg), tolerance<T>(16, 1, s * scale)));
  CHECK(close_entrywise(X.apply_inverse_force(arg), dense_times(Dt, arg), tolerance<T>(8, 1, scale)));
  CHECK(close_entrywise(X.apply_inverse_motion(arg), dense_times(Dinv, arg), tolerance<T>(16, 1, s * scale)));
}
}  // namespace

TEMPLATE_TEST_CASE("apply functions equal the dense transforms, for vectors and blocks (checks d)",
                   "[spatial][transform]", float, double, long double) {
  using T = TestType;
  Rng rng(14);
  for (int k = 0; k < kSamples; ++k) {
    const Transform<T> X = random_transform<T>(rng);
    const T s = transform_scale(X);
    // the dense accessors
    CHECK(close_entrywise(X.motion_matrix(), dense_motion(X), tolerance<T>(4, 1, s)));
    CHECK(close_entrywise(X.force_matrix(), dense_force(X), tolerance<T>(16, 1, s * s)));
    CHECK(close_entrywise(X.force_matrix(), X.inverse().motion_matrix().transpose().eval(), tolerance<T>(4, 1, s)));

    const V6<T> v = random_vec6<T>(rng);
    const Eigen::Matrix<T, 6, 3> S3 = random_matrix<T, 6, 3>(rng);
    const Eigen::Matrix<T, 6, Eigen::Dynamic> Sd = random_matrix<T, 6, Eigen::Dynamic>(rng, 6, 2);
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> Dd = random_matrix<T, Eigen::Dynamic, Eigen::Dynamic>(rng, 6, 4);
    const M6<T> full = random_matrix<T, 6, 6>(rng);
    check_applies_against_dense(X, v);
    check_applies_against_dense(X, S3);
    check_applies_against_dense(X, Sd);                      // 6×Dynamic
    check_applies_against_dense(X, Dd);                      // Dynamic×Dynamic with 6 rows
    check_applies_against_dense(X, full.col(2));             // a 6×1 block expression
  }
}

TEMPLATE_TEST_CASE("apply functions keep the argument's shape and never widen it", "[spatial][transform]", float,
                   double, long double) {
  using T = TestType;
  const Transform<T> X = Transform<T>::identity();
  const V6<T> v = V6<T>::Zero();
  const Eigen::Matrix<T, 6, 3> S3 = Eigen::Matrix<T, 6, 3>::Zero();
  const Eigen::Matrix<T, 6, Eigen::Dynamic, 0, 6, 6> Sbounded(6, 2);
  const Eigen::Matrix<T, 6, Eigen::Dynamic> Sd(6, 4);
  static_assert(std::is_same<decltype(X.apply_motion(v)), V6<T>>::value, "vector in, vector out");
  static_assert(std::is_same<decltype(X.apply_force(S3)), Eigen::Matrix<T, 6, 3>>::value, "6x3 in, 6x3 out");
  static_assert(std::is_same<decltype(X.apply_inverse_force(Sbounded)),
                             Eigen::Matrix<T, 6, Eigen::Dynamic, 0, 6, 6>>::value,
                "bounded dynamic columns keep their bound (stack storage)");
  static_assert(std::is_same<decltype(X.apply_inverse_motion(Sd)), Eigen::Matrix<T, 6, Eigen::Dynamic>>::value,
                "dynamic columns stay dynamic");
  static_assert(noexcept(X.apply_motion(v)) && noexcept(X.apply_force(S3)), "fixed sizes cannot fail");
  static_assert(!noexcept(X.apply_motion(Sd)), "a dynamic result may allocate");
  CHECK(X.apply_inverse_motion(Sd).cols() == 4);
  CHECK(X.apply_inverse_force(Sbounded).cols() == 2);
}

