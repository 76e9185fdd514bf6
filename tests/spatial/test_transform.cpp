// Tests for treedyn::Transform (inverse, power invariance, composition, force transform) against Featherstone's
// dense definitions (Rigid Body Dynamics Algorithms, 2008, eqs. 2.24-2.29, Table 2.8).
#include <catch2/catch.hpp>

#include "spatial_test_support.hpp"


using namespace spatial_test;
using treedyn::Transform;

namespace {
constexpr int kSamples = 40;

template <class T>
T transform_scale(const Transform<T>& X) {
  return T(1) + X.r.template lpNorm<1>();
}
}  // namespace

TEMPLATE_TEST_CASE("rotx, roty, rotz are Featherstone's coordinate rotations", "[spatial][transform]", float,
                   double, long double) {
  using T = TestType;
  using std::cos;
  using std::sin;
  for (const T theta : {T(0), T(0.3), T(-1.2), T(2.5), T(3.14159)}) {
    const T c = cos(theta), s = sin(theta);
    M3<T> Ex, Ey, Ez, Rz;
    Ex << T(1), T(0), T(0), T(0), c, s, T(0), -s, c;
    Ey << c, T(0), -s, T(0), T(1), T(0), s, T(0), c;
    Ez << c, s, T(0), -s, c, T(0), T(0), T(0), T(1);
    Rz << c, -s, T(0), s, c, T(0), T(0), T(0), T(1);  // active rotation of a vector about z
    const Transform<T> X = treedyn::rotx(theta), Y = treedyn::roty(theta), Z = treedyn::rotz(theta);
    const T eps = std::numeric_limits<T>::epsilon();
    CHECK(close_entrywise(X.E, Ex, eps));
    CHECK(close_entrywise(Y.E, Ey, eps));
    CHECK(close_entrywise(Z.E, Ez, eps));
    CHECK(close_entrywise(Z.E, Rz.transpose(), eps));  // rotz(θ) has E = Rz(θ)^T
    CHECK(X.r.isZero(T(0)));
    CHECK(Y.r.isZero(T(0)));
    CHECK(Z.r.isZero(T(0)));
    // Dense rot(E) = diag(E, E) (Featherstone eq. 2.24).
    M6<T> dense = M6<T>::Zero();
    dense.template topLeftCorner<3, 3>() = Ez;
    dense.template bottomRightCorner<3, 3>() = Ez;
    CHECK(close_entrywise(Z.motion_matrix(), dense, eps));
    // A vector fixed along A's x axis, seen from B (rotated by θ about z), has coordinates (c, -s, 0).
    const V3<T> ex_in_B = Z.E * V3<T>::UnitX();
    CHECK(close_entrywise(ex_in_B, V3<T>(c, -s, T(0)), eps));
  }
}

TEMPLATE_TEST_CASE("xlt, rot and transform_from match their dense definitions", "[spatial][transform]", float,
                   double, long double) {
  using T = TestType;
  Rng rng(11);
  for (int k = 0; k < kSamples; ++k) {
    const V3<T> p = random_vec3<T>(rng);
    const M3<T> R = random_rotation<T>(rng);
    const V6<T> m = random_vec6<T>(rng);
    const T scale = (T(1) + p.template lpNorm<1>()) * max_abs(m);

    // xlt(p): dense [1 0; -p× 1]; the velocity of the body-fixed point at p is v_O + w × p.
    const Transform<T> L = treedyn::xlt(p);
    M6<T> dense_xlt = M6<T>::Identity();
    dense_xlt.template bottomLeftCorner<3, 3>() = -skew_oracle(p);
    CHECK(close_entrywise(L.motion_matrix(), dense_xlt, T(0)));
    const V6<T> moved = L.apply_motion(m);
    const V3<T> w = m.template head<3>(), vO = m.template tail<3>();
    CHECK(close_entrywise(moved.template head<3>(), w, T(0)));
    CHECK(close_entrywise(moved.template tail<3>(), vO + w.cross(p), tolerance<T>(4, 1, scale)));

    // rot(E): (E, 0).
    const Transform<T> Rt = treedyn::rot(R.transpose());
    CHECK(close_entrywise(Rt.E, R.transpose(), T(0)));
    CHECK(Rt.r.isZero(T(0)));

    // transform_from(R, p) = rot(R^T) · xlt(p) = (R^T, p); the child axes (columns of R) map to unit vectors.
    const Transform<T> F = treedyn::transform_from(R, p);
    CHECK(close_entrywise(F.E, R.transpose(), T(0)));
    CHECK(close_entrywise(F.r, p, T(0)));
    const Transform<T> composed = Rt * L;
    CHECK(close_entrywise(composed.E, F.E, tolerance<T>(4, 1, T(1))));
    CHECK(close_entrywise(composed.r, F.r, tolerance<T>(4, 1, transform_scale(F))));
    M6<T> dense_rot = M6<T>::Zero();
    dense_rot.template topLeftCorner<3, 3>() = R.transpose();
    dense_rot.template bottomRightCorner<3, 3>() = R.transpose();
    CHECK(close_entrywise(F.motion_matrix(), dense_rot * dense_xlt, tolerance<T>(8, 1, transform_scale(F))));
    CHECK(close_entrywise(F.E * R.col(1), V3<T>::UnitY(), tolerance<T>(8, 1, T(1))));
  }
}

TEMPLATE_TEST_CASE("inverse and composition (algorithms.md 1.1 checks a, c)", "[spatial][transform]", float, double,
                   long double) {
  using T = TestType;
  Rng rng(12);
  const Transform<T> I6 = Transform<T>::identity();
  CHECK(I6.motion_matrix() == M6<T>::Identity());
  for (int k = 0; k < kSamples; ++k) {
    const Transform<T> X1 = random_transform<T>(rng), X2 = random_transform<T>(rng), X3 = random_transform<T>(rng);
    const T s1 = transform_scale(X1), s2 = transform_scale(X2), s3 = transform_scale(X3);

    // (a) inverse(X) · X = identity to ≤ 10 ε (relative to the translation's size), both orders.
    const Transform<T> left = X1.inverse() * X1, right = X1 * X1.inverse();
    CHECK(close_entrywise(left.E, M3<T>::Identity(), tolerance<T>(10, 1, T(1))));
    CHECK(close_entrywise(left.r, V3<T>::Zero(), tolerance<T>(10, 1, s1)));
    CHECK(close_entrywise(right.E, M3<T>::Identity(), tolerance<T>(10, 1, T(1))));
    CHECK(close_entrywise(right.r, V3<T>::Zero(), tolerance<T>(10, 1, s1)));
    CHECK(close_entrywise(X1.inverse().motion_matrix(), dense_motion(X1).inverse().eval(), tolerance<T>(16, 1, s1 * s1)));

    // (c) dense(compose(X2, X1)) = dense(X2) · dense(X1); composition is associative.
    CHECK(close_entrywise((X2 * X1).motion_matrix(), (dense_motion(X2) * dense_motion(X1)).eval(), tolerance<T>(16, 1, s1 * s2)));
    const Transform<T> a = (X3 * X2) * X1, b = X3 * (X2 * X1);
    CHECK(close_entrywise(a.E, b.E, tolerance<T>(16, 1, T(1))));
    CHECK(close_entrywise(a.r, b.r, tolerance<T>(16, 1, s1 + s2 + s3)));

    // identity is neutral, exactly.
    CHECK((I6 * X1).E == X1.E);
    CHECK((I6 * X1).r == X1.r);
    CHECK((X1 * I6).E == X1.E);
    CHECK((X1 * I6).r == X1.r);
  }
}

TEMPLATE_TEST_CASE("power invariance (X* f)^T (X m) = f^T m (algorithms.md 1.1 check b)", "[spatial][transform]",
                   float, double, long double) {
  using T = TestType;
  Rng rng(13);
  for (int k = 0; k < kSamples; ++k) {
    const Transform<T> X = random_transform<T>(rng);
    const V6<T> m = random_vec6<T>(rng), f = random_vec6<T>(rng);
    const T s = transform_scale(X);
    const T power_B = X.apply_force(f).dot(X.apply_motion(m));
    SPATIAL_CHECK_NEAR(power_B, f.dot(m), tolerance<T>(8, 1, T(6) * s * s));
    // and the transpose pairs with the motion transform: (X^T f)^T m = f^T (X m).
    SPATIAL_CHECK_NEAR(X.apply_inverse_force(f).dot(m), f.dot(X.apply_motion(m)), tolerance<T>(8, 1, T(6) * s * s));
  }
}

TEMPLATE_TEST_CASE("Transform::cast converts every member", "[spatial][transform]", float, double, long double) {
  using T = TestType;
  Rng rng(15);
  const Transform<double> X = random_transform<double>(rng);
  const Transform<T> Y = X.template cast<T>();
  CHECK(Y.E == X.E.template cast<T>());
  CHECK(Y.r == X.r.template cast<T>());
}
