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
    SPATIAL_CHECK_CLOSE(treedyn::skew(a), skew_oracle(a), T(0));
    SPATIAL_CHECK_CLOSE((treedyn::skew(a) * b).eval(), a.cross(b), tol(T(2), 4));

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
    SPATIAL_CHECK_CLOSE(treedyn::crm(v), crm, T(0));
    SPATIAL_CHECK_CLOSE(treedyn::crf(v), crf, T(0));
    // crf(v) = -crm(v)^T, exactly
    SPATIAL_CHECK_CLOSE(treedyn::crf(v), (-treedyn::crm(v).transpose()).eval(), T(0));
    // crm(v) v = 0
    const T s = max_abs(v) * max_abs(v);
    SPATIAL_CHECK_CLOSE(dense_times(treedyn::crm(v), v), V6<T>::Zero(), tol(s, 8));
    SPATIAL_CHECK_CLOSE(treedyn::cross_motion(v, v), V6<T>::Zero(), tol(s, 8));
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
    SPATIAL_CHECK_CLOSE(treedyn::cross_motion(v, m), dense_times(Cm, m), tol(s, 8));
    SPATIAL_CHECK_CLOSE(treedyn::cross_force(v, m), dense_times(Cf, m), tol(s, 8));
    SPATIAL_CHECK_CLOSE(treedyn::cross_motion(v, S), dense_times(Cm, S), tol(s, 8));
    SPATIAL_CHECK_CLOSE(treedyn::cross_force(v, S), dense_times(Cf, S), tol(s, 8));
    SPATIAL_CHECK_CLOSE(treedyn::cross_motion(v, Sd), dense_times(Cm, Sd), tol(s, 8));
    SPATIAL_CHECK_CLOSE(treedyn::cross_force(v, Sd), dense_times(Cf, Sd), tol(s, 8));
    // antisymmetry of the motion cross product: v × m = -(m × v)
    SPATIAL_CHECK_CLOSE(treedyn::cross_motion(v, m), (-treedyn::cross_motion(m, v)).eval(), tol(s, 8));
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
    SPATIAL_CHECK_CLOSE((D * treedyn::crm(v) * Dinv).eval(), treedyn::crm(Xv), tol(s, 16));
    SPATIAL_CHECK_CLOSE((F * treedyn::crf(v) * Finv).eval(), treedyn::crf(Xv), tol(s, 16));
    // the fused forms: X (v × m) = (X v) × (X m), X* (v ×* f) = (X v) ×* (X* f)
    const V6<T> m = random_vec6<T>(rng), f = random_vec6<T>(rng);
    SPATIAL_CHECK_CLOSE(X.apply_motion(treedyn::cross_motion(v, m)),
                        treedyn::cross_motion(Xv, X.apply_motion(m)), tol(s, 16));
    SPATIAL_CHECK_CLOSE(X.apply_force(treedyn::cross_force(v, f)), treedyn::cross_force(Xv, X.apply_force(f)),
                        tol(s, 16));

    // power of the gyroscopic force: v^T crf(v) I v = 0
    const treedyn::RigidInertia<T> I = random_rigid_inertia<T>(rng);
    const V6<T> Iv = I.apply(v);
    const T si = max_abs(v) * max_abs(v) * max_abs(Iv) * T(12);
    SPATIAL_CHECK_NEAR(v.dot(treedyn::cross_force(v, Iv)), T(0), tol(si, 8));
    SPATIAL_CHECK_NEAR(v.dot(dense_times(treedyn::crf(v), Iv).col(0)), T(0), tol(si, 8));
    // and for a general motion m: m^T crf(v) f = -(v × m)^T f (the duality defining crf)
    SPATIAL_CHECK_NEAR(m.dot(treedyn::cross_force(v, f)), -treedyn::cross_motion(v, m).dot(f),
                       tol(T(12) * max_abs(v) * max_abs(m) * max_abs(f), 8));
  }
}
