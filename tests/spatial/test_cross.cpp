// Tests for the spatial cross products crm/crf and their fused forms (Featherstone 2008,
// eqs. 2.31-2.33).
#include <catch2/catch.hpp>

#include "spatial_test_support.hpp"

using namespace spatial_test;
using treedyn::Transform;

namespace {
constexpr int kSamples = 40;
}

TEMPLATE_TEST_CASE("skew, crm and crf have Featherstone's block structure", "[spatial][cross]", float, double,
                   long double) {
  using T = TestType;
  Rng rng(41);
  for (int k = 0; k < kSamples; ++k) {
    const V3<T> a = random_vec3<T>(rng), b = random_vec3<T>(rng);
    CHECK(close_entrywise(treedyn::skew(a), skew_oracle(a), T(0)));
    CHECK(close_entrywise((treedyn::skew(a) * b).eval(), a.cross(b), tolerance<T>(4, 1, T(2))));

    const V6<T> v = random_vec6<T>(rng);
    const V3<T> w = v.template head<3>(), vO = v.template tail<3>();
    M6<T> crm = M6<T>::Zero();  // [w× 0; v_O× w×]
    crm.template topLeftCorner<3, 3>() = skew_oracle(w);
    crm.template bottomLeftCorner<3, 3>() = skew_oracle(vO);
    crm.template bottomRightCorner<3, 3>() = skew_oracle(w);
    M6<T> crf = M6<T>::Zero();  // [w× v_O×; 0 w×]
    crf.template topLeftCorner<3, 3>() = skew_oracle(w);
    crf.template topRightCorner<3, 3>() = skew_oracle(vO);
    crf.template bottomRightCorner<3, 3>() = skew_oracle(w);
    CHECK(close_entrywise(treedyn::crm(v), crm, T(0)));
    CHECK(close_entrywise(treedyn::crf(v), crf, T(0)));
    // crf(v) = -crm(v)^T, exactly
    CHECK(close_entrywise(treedyn::crf(v), (-treedyn::crm(v).transpose()).eval(), T(0)));
    // crm(v) v = 0
    const T s = max_abs(v) * max_abs(v);
    CHECK(close_entrywise(dense_times(treedyn::crm(v), v), V6<T>::Zero(), tolerance<T>(8, 1, s)));
    CHECK(close_entrywise(treedyn::cross_motion(v, v), V6<T>::Zero(), tolerance<T>(8, 1, s)));
  }
}

TEMPLATE_TEST_CASE("cross_motion and cross_force equal crm and crf, for vectors and blocks", "[spatial][cross]", float,
                   double, long double) {
  using T = TestType;
  Rng rng(42);
  for (int k = 0; k < kSamples; ++k) {
    const V6<T> v = random_vec6<T>(rng), m = random_vec6<T>(rng);
    const Eigen::Matrix<T, 6, 3> S = random_matrix<T, 6, 3>(rng);
    const Eigen::Matrix<T, 6, Eigen::Dynamic> Sd = random_matrix<T, 6, Eigen::Dynamic>(rng, 6, 2);
    const M6<T> Cm = treedyn::crm(v), Cf = treedyn::crf(v);
    const T s = T(2) * max_abs(v);
    CHECK(close_entrywise(treedyn::cross_motion(v, m), dense_times(Cm, m), tolerance<T>(8, 1, s)));
    CHECK(close_entrywise(treedyn::cross_force(v, m), dense_times(Cf, m), tolerance<T>(8, 1, s)));
    CHECK(close_entrywise(treedyn::cross_motion(v, S), dense_times(Cm, S), tolerance<T>(8, 1, s)));
    CHECK(close_entrywise(treedyn::cross_force(v, S), dense_times(Cf, S), tolerance<T>(8, 1, s)));
    CHECK(close_entrywise(treedyn::cross_motion(v, Sd), dense_times(Cm, Sd), tolerance<T>(8, 1, s)));
    CHECK(close_entrywise(treedyn::cross_force(v, Sd), dense_times(Cf, Sd), tolerance<T>(8, 1, s)));
    // antisymmetry of the motion cross product: v × m = -(m × v)
    CHECK(close_entrywise(treedyn::cross_motion(v, m), (-treedyn::cross_motion(m, v)).eval(), tolerance<T>(8, 1, s)));
  }
}

TEMPLATE_TEST_CASE("cross products commute with transforms; v^T crf(v) I v = 0", "[spatial][cross]", float, double,
                   long double) {
  using T = TestType;
  Rng rng(43);
  for (int k = 0; k < kSamples; ++k) {
    const Transform<T> X = random_transform<T>(rng);
    const V6<T> v = random_vec6<T>(rng);
    const T sx = T(1) + X.r.template lpNorm<1>();
    const T s = sx * sx * sx * max_abs(v) * T(6);
    // X crm(v) X^-1 = crm(X v)  and  X* crf(v) X*^-1 = crf(X v)
    const M6<T> D = X.motion_matrix(), Dinv = X.inverse().motion_matrix();
    const M6<T> F = X.force_matrix(), Finv = X.inverse().force_matrix();
    const V6<T> Xv = X.apply_motion(v);
    CHECK(close_entrywise((D * treedyn::crm(v) * Dinv).eval(), treedyn::crm(Xv), tolerance<T>(16, 1, s)));
    CHECK(close_entrywise((F * treedyn::crf(v) * Finv).eval(), treedyn::crf(Xv), tolerance<T>(16, 1, s)));
    // the fused forms: X (v × m) = (X v) × (X m), X* (v ×* f) = (X v) ×* (X* f)
    const V6<T> m = random_vec6<T>(rng), f = random_vec6<T>(rng);
    CHECK(close_entrywise(X.apply_motion(treedyn::cross_motion(v, m)),
                        treedyn::cross_motion(Xv, X.apply_motion(m)), tolerance<T>(16, 1, s)));
    CHECK(close_entrywise(X.apply_force(treedyn::cross_force(v, f)), treedyn::cross_force(Xv, X.apply_force(f)),
                        tolerance<T>(16, 1, s)));

    // power of the gyroscopic force: v^T crf(v) I v = 0
    const treedyn::RigidInertia<T> I = random_rigid_inertia<T>(rng);
    const V6<T> Iv = I.apply(v);
    const T si = max_abs(v) * max_abs(v) * max_abs(Iv) * T(12);
    SPATIAL_CHECK_NEAR(v.dot(treedyn::cross_force(v, Iv)), T(0), tolerance<T>(8, 1, si));
    SPATIAL_CHECK_NEAR(v.dot(dense_times(treedyn::crf(v), Iv).col(0)), T(0), tolerance<T>(8, 1, si));
    // and for a general motion m: m^T crf(v) f = -(v × m)^T f (the duality defining crf)
    SPATIAL_CHECK_NEAR(m.dot(treedyn::cross_force(v, f)), -treedyn::cross_motion(v, m).dot(f),
                       tolerance<T>(8, 1, T(12) * max_abs(v) * max_abs(m) * max_abs(f)));
  }
}
