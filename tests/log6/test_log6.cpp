// exp6, log6, jlog6 and their SO(3) pieces (treedyn/spatial/log6.hpp, docs/derivatives.md#placement-error-and-its-jacobian):
//  - exp6 against independent oracles: the dense matrix exponential exp(−crm(ξ)) (Eigen's MatrixFunctions, long
//    double), rotx/xlt, and exp3 against Eigen::AngleAxis;
//  - round trips exp6(log6(X)) = X and log6(exp6(ξ)) = ξ for θ = |ω| random in (0, π), θ ~ 1e-8, θ = 0, π − 1e-6 and
//    π (where ±ω are both logarithms), in float, double, long double and cpp_bin_float_50;
//  - jlog6 and jlog3 against central differences of log6(exp6(δ) X) in cpp_bin_float_50 (h = 1e-20: truncation
//    ~h² and rounding ~ε₅₀/h, both below 1e-28), and against forward-mode Eigen::AutoDiffScalar through exp6 and log6;
//    float and double jlog6 against the 50-digit one.
// Tolerances: c·ε(T)·scale with scale = 1 + |ξ|² (log6 and jlog6 entries are products of at most two factors of
// size |ξ|); the constants c (16-64) cover a few dozen roundings. Near θ = 0 the closed forms are used down to
// θ² = √ε, where they lose relative accuracy but not absolute accuracy (log6.hpp's comment), hence the same bound.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/random.hpp"
#include "support/tolerance.hpp"
#include "treedyn/spatial/log6.hpp"

#include <unsupported/Eigen/AutoDiff>
#include <unsupported/Eigen/MatrixFunctions>

using namespace treedyn;
using namespace treedyn::test;

namespace {

using B50 = boost::multiprecision::cpp_bin_float_50;
const double pi = 3.14159265358979323846;

/// A twist with |ω| = theta along a random axis and a random v.
template <class T>
Vector6<T> twist(Rng& rng, double theta) {
  Vector3<double> axis = random_vec3<double>(rng);
  axis.normalize();
  Vector6<T> xi;
  xi << (theta * axis).cast<T>(), random_vec3<T>(rng);
  return xi;
}

/// The angles the round trips and Jacobians visit: random in (0, π), small, zero, near π and π itself.
std::vector<double> angles(Rng& rng) {
  return {rng.uniform(0.05, pi - 0.05), rng.uniform(0.05, pi - 0.05), 1e-3, 1e-8, 0.0, pi - 1e-3, pi - 1e-6, pi};
}

template <class T>
double scale_of(const Vector6<T>& xi) {
  const double n = static_cast<double>(xi.template cast<long double>().norm());
  return 1.0 + n * n;
}

template <class T>
Matrix6<long double> crm_dense(const Vector6<T>& xi) {
  Matrix6<long double> X = Matrix6<long double>::Zero();
  const Vector6<long double> x = xi.template cast<long double>();
  const Matrix3<long double> W = skew(Vector3<long double>(x.template head<3>()));
  X.topLeftCorner<3, 3>() = W;
  X.bottomRightCorner<3, 3>() = W;
  X.bottomLeftCorner<3, 3>() = skew(Vector3<long double>(x.template tail<3>()));
  return X;
}

/// log6(exp6(δ) X) as a function of δ: its central differences in B50.
Matrix6<B50> jlog6_by_differences(const Transform<B50>& X) {
  const B50 h("1e-20");
  Matrix6<B50> J;
  for (int k = 0; k < 6; ++k) {
    Vector6<B50> d = Vector6<B50>::Zero();
    d(k) = h;
    J.col(k) = (log6(exp6(d) * X) - log6(exp6(Vector6<B50>(-d)) * X)) / (B50(2) * h);
  }
  return J;
}

}  // namespace

TEST_CASE("exp6 is exp(-crm(xi)) as a dense motion transform, and exp3 is Rodrigues' rotation", "[log6]") {
  Rng rng(41);
  for (const double theta : angles(rng)) {
    const Vector6<double> xi = twist<double>(rng, theta);
    const Matrix6<long double> reference = (-crm_dense(xi)).exp();
    CHECK(close_entrywise(exp6(xi).motion_matrix(), reference, tolerance<double>(16, 1, scale_of(xi))));
    const Vector3<double> w = xi.head<3>();
    const Matrix3<double> R =
        theta == 0.0 ? Matrix3<double>::Identity() : Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix();
    CHECK(close_entrywise(exp3(w), R, tolerance<double>(8, 1, 1)));
  }
  const double angle = 0.83;
  CHECK(close_entrywise(exp6(Vector6<double>(angle, 0, 0, 0, 0, 0)).E, rotx(angle).E, tolerance<double>(4, 1, 1)));
  CHECK(close_entrywise(exp6(Vector6<double>(0, 0, angle, 0, 0, 0)).E, rotz(angle).E, tolerance<double>(4, 1, 1)));
  const Vector3<double> p(0.3, -1.2, 2.0);
  CHECK(close_entrywise(exp6(Vector6<double>(0, 0, 0, p(0), p(1), p(2))).r, p, 0.0));
}

TEMPLATE_TEST_CASE("log6 inverts exp6 for theta in [0, pi], at 0 and pi included", "[log6]", float, double,
                   long double, B50) {
  using T = TestType;
  Rng rng(7);
  for (int trial = 0; trial < 4; ++trial)
    for (const double theta : angles(rng)) {
      CAPTURE(trial, theta);
      const Vector6<T> xi = twist<T>(rng, theta);
      const double tol = tolerance<T>(32, 1, scale_of(xi));
      const Transform<T> X = exp6(xi);
      const Vector6<T> back = log6(X);
      const Transform<T> again = exp6(back);
      CHECK(close_entrywise(again.E, X.E, tol));  // exp6(log6(X)) = X, always
      CHECK(close_entrywise(again.r, X.r, tol));
      if (theta < pi - 1e-7) {
        CHECK(close_entrywise(back, xi, tol));  // log6(exp6(ξ)) = ξ inside the principal branch
      } else {                                  // at π: ω or −ω, each with its own v
        const Vector3<T> w = back.template head<3>();
        const bool same = static_cast<bool>(close_entrywise(w, Vector3<T>(xi.template head<3>()), tol));
        const bool opposite = static_cast<bool>(close_entrywise(w, Vector3<T>(-xi.template head<3>()), tol));
        CHECK((same || opposite));
        if (same) CHECK(close_entrywise(back, xi, tol));
      }
      // log3 and exp3 alone, and ω = log3(Eᵀ) as log6 says
      const Vector3<T> w3 = log3(Matrix3<T>(X.E.transpose()));
      CHECK(close_entrywise(w3, Vector3<T>(back.template head<3>()), T(0)));
      CHECK(close_entrywise(exp3(w3), Matrix3<T>(X.E.transpose()), tol));
    }
}

TEST_CASE("jlog6 is the derivative of log6 under a local perturbation: 50-digit differences", "[log6]") {
  Rng rng(2026);
  for (int trial = 0; trial < 3; ++trial)
    for (const double theta : angles(rng)) {
      if (theta > pi - 1e-4) continue;  // a ±h step at π leaves the principal branch; π − 1e-3 stays in it
      CAPTURE(trial, theta);
      const Vector6<B50> xi = twist<B50>(rng, theta);
      const Transform<B50> X = exp6(xi);
      const Matrix6<B50> J = jlog6(X);
      const Matrix6<B50> reference = jlog6_by_differences(X);
      CHECK(close_entrywise(J, reference, 1e-26 * scale_of(xi)));
      CHECK(close_entrywise(jlog3(Matrix3<B50>(X.E.transpose())), Matrix3<B50>(J.topLeftCorner<3, 3>()), 0.0));
      // float and double against the 50-digit Jacobian of the same (rounded) transform
      const Transform<double> Xd = X.cast<double>();
      CHECK(close_entrywise(jlog6(Xd), jlog6(Xd.cast<B50>()), tolerance<double>(64, 1, scale_of(xi))));
      const Transform<float> Xf = X.cast<float>();
      CHECK(close_entrywise(jlog6(Xf), jlog6(Xf.cast<B50>()), tolerance<float>(64, 1, scale_of(xi))));
    }
}

TEST_CASE("jlog6 matches forward-mode AutoDiff through exp6 and log6", "[log6]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 6, 1>>;
  Rng rng(99);
  for (const double theta : angles(rng)) {
    if (theta > pi - 1e-4) continue;
    CAPTURE(theta);
    const Vector6<double> xi = twist<double>(rng, theta);
    const Transform<double> X = exp6(xi);
    Vector6<AD> delta;
    for (int k = 0; k < 6; ++k) delta(k) = AD(0.0, Eigen::Matrix<double, 6, 1>::Unit(k));
    const Transform<AD> XA{X.E.cast<AD>(), X.r.cast<AD>()};
    const Vector6<AD> e = log6(exp6(delta) * XA);
    Matrix6<double> J_ad;
    for (int i = 0; i < 6; ++i) J_ad.row(i) = e(i).derivatives().transpose();
    // The AutoDiff reference differentiates log6's closed-form K (used above θ = ε^¼), whose ω-derivative
    // carries ε/θ; the 50-digit differences above are the tight reference.
    const double conditioning = 1.0 + 1.0 / std::max(theta, std::pow(eps<double>(), 0.25));
    CHECK(close_entrywise(jlog6(X), J_ad, tolerance<double>(64, 1, scale_of(xi) * conditioning)));
    const Matrix6<AD> J_of_ad = jlog6(XA);  // instantiates for AutoDiff too
    CHECK(close_entrywise(J_of_ad.unaryExpr([](const AD& a) { return a.value(); }), jlog6(X), tolerance<double>(8, 1, scale_of(xi))));
  }
}
