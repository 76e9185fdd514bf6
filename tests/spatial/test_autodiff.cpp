// The spatial layer with a forward-mode autodiff scalar (Eigen::AutoDiffScalar, 2 directions): it compiles,
// its values equal the double results, and its derivatives match central finite differences in double.
// Also checks the sign conventions that tie transforms to cross products: d/dq X(q) = -crm(S) X(q) for the
// built-in joint transforms, and d/dt (X^T I v) = X^T (crf(v) I v) for a body moving with
// constant body velocity v (Newton–Euler: f = I a + crf(v) I v with a = 0).
#include <catch2/catch.hpp>

#include "spatial_test_support.hpp"

#include <unsupported/Eigen/AutoDiff>

#include <cmath>

using namespace spatial_test;
using treedyn::ArticulatedInertia;
using treedyn::RigidInertia;
using treedyn::Transform;

using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 2, 1>>;

// Every non-template member compiles for the autodiff scalar (and for the three floating-point types).
template struct treedyn::Symmetric3<AD>;
template struct treedyn::Transform<AD>;
template struct treedyn::RigidInertia<AD>;
template struct treedyn::ArticulatedInertia<AD>;
template struct treedyn::Transform<float>;
template struct treedyn::RigidInertia<float>;
template struct treedyn::ArticulatedInertia<float>;
template struct treedyn::Transform<long double>;
template struct treedyn::RigidInertia<long double>;
template struct treedyn::ArticulatedInertia<long double>;

namespace {

/// Fixed data for the parametrised functions below (double; cast to the evaluation scalar).
struct Fixture {
  Transform<double> X0;
  RigidInertia<double> I0;
  ArticulatedInertia<double> IA0;
  V6<double> m0, f0;

  explicit Fixture(std::uint64_t seed) {
    Rng rng(seed);
    X0 = random_transform<double>(rng);
    I0 = random_rigid_inertia<double>(rng);
    IA0 = random_articulated_inertia<double>(rng);
    m0 = random_vec6<double>(rng);
    f0 = random_vec6<double>(rng);
  }
};

/// X(θ, s) = rotz(θ) · xlt(p(θ, s)) · X0 with a curved path p.
template <class S>
Transform<S> moving_transform(const Fixture& fx, const S& theta, const S& s) {
  using std::cos;
  using std::sin;
  treedyn::Vector3<S> p;
  p(0) = S(0.3) * cos(theta) + s;
  p(1) = sin(theta) * s;
  p(2) = S(0.5) * s * s + S(0.2) * theta;
  return treedyn::rotz(theta) * treedyn::xlt(p) * fx.X0.template cast<S>();
}

using Out = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;

// Evaluates a function of (θ, s) returning an Eigen matrix (or a scalar wrapped as 1x1).
template <class S, class Derived>
Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> as_dynamic(const Eigen::MatrixBase<Derived>& m) {
  return m;
}

/// Compares the AD derivatives of F (in both directions) with central differences of F in double.
template <class F>
void check_derivatives(const F& func, double theta0, double s0) {
  const AD theta(theta0, 2, 0), s(s0, 2, 1);
  const Eigen::Matrix<AD, Eigen::Dynamic, Eigen::Dynamic> ad = func(theta, s);
  const Out value = func(theta0, s0);
  REQUIRE(ad.rows() == value.rows());
  REQUIRE(ad.cols() == value.cols());

  const double eps = std::numeric_limits<double>::epsilon();
  const double h = std::cbrt(eps);  // balances truncation (h^2) against rounding (eps / h)
  const Out d_theta = (func(theta0 + h, s0) - func(theta0 - h, s0)) / (2.0 * h);
  const Out d_s = (func(theta0, s0 + h) - func(theta0, s0 - h)) / (2.0 * h);

  Out ad_value(value.rows(), value.cols()), ad_theta(value.rows(), value.cols()), ad_s(value.rows(), value.cols());
  for (Eigen::Index i = 0; i < value.rows(); ++i) {
    for (Eigen::Index j = 0; j < value.cols(); ++j) {
      ad_value(i, j) = ad(i, j).value();
      ad_theta(i, j) = ad(i, j).derivatives()(0);
      ad_s(i, j) = ad(i, j).derivatives()(1);
    }
  }
  const double scale = 1.0 + max_abs(value) + max_abs(ad_theta) + max_abs(ad_s);
  CHECK(close_entrywise(ad_value, value, 16.0 * eps * scale));
  // central-difference error ~ h^2 |F'''| + eps |F| / h = O(eps^(2/3)) relative to the problem's scale
  const double fd_tol = 64.0 * std::pow(eps, 2.0 / 3.0) * scale;
  CHECK(close_entrywise(ad_theta, d_theta, fd_tol));
  CHECK(close_entrywise(ad_s, d_s, fd_tol));
  // the derivative is not trivially zero (the check could not fail otherwise)
  CHECK(max_abs(d_theta) + max_abs(d_s) > 1e3 * fd_tol);
}

/// Derivative (direction 0) of every entry of an AD matrix.
template <class Derived>
Out derivative0(const Eigen::MatrixBase<Derived>& m) {
  Out out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out(i, j) = m(i, j).derivatives()(0);
  return out;
}

}  // namespace

TEST_CASE("autodiff: derivatives of the spatial operations match central differences", "[spatial][autodiff]") {
  for (std::uint64_t seed = 51; seed < 56; ++seed) {
    const Fixture fx(seed);
    Rng rng(seed + 100);
    const double theta0 = rng.uniform<double>(-3.0, 3.0), s0 = rng.uniform<double>(-1.0, 1.0);

    {
      INFO("kinetic energy of an inertia moved by rotz(θ)·xlt(p(θ, s))" << ", seed " << seed);
      check_derivatives(
          [&](const auto& theta, const auto& s) {
            using S = std::decay_t<decltype(theta)>;
            const RigidInertia<S> IB = treedyn::apply_inertia(moving_transform(fx, theta, s), fx.I0.template cast<S>());
            Eigen::Matrix<S, 1, 1> ke;
            ke(0) = IB.kinetic_energy(fx.m0.template cast<S>());
            return as_dynamic<S>(ke);
          },
          theta0, s0);
    }
    {
      INFO("the four apply functions" << ", seed " << seed);
      check_derivatives(
          [&](const auto& theta, const auto& s) {
            using S = std::decay_t<decltype(theta)>;
            const Transform<S> X = moving_transform(fx, theta, s);
            const V6<S> m = fx.m0.template cast<S>(), f = fx.f0.template cast<S>();
            Eigen::Matrix<S, 6, 4> out;
            out.col(0) = X.apply_motion(m);
            out.col(1) = X.apply_force(f);
            out.col(2) = X.apply_inverse_force(f);
            out.col(3) = X.apply_inverse_motion(m);
            return as_dynamic<S>(out);
          },
          theta0, s0);
    }
    {
      INFO("rigid and articulated inertia transforms" << ", seed " << seed);
      check_derivatives(
          [&](const auto& theta, const auto& s) {
            using S = std::decay_t<decltype(theta)>;
            const Transform<S> X = moving_transform(fx, theta, s);
            const RigidInertia<S> I = fx.I0.template cast<S>();
            const ArticulatedInertia<S> IA = fx.IA0.template cast<S>();
            Eigen::Matrix<S, 6, 24> out;
            out.template leftCols<6>() = treedyn::apply_inertia(X, I).matrix();
            out.template middleCols<6>(6) = treedyn::apply_transpose_inertia(X, I).matrix();
            out.template middleCols<6>(12) = treedyn::apply_inertia(X, IA).matrix();
            out.template rightCols<6>() = treedyn::apply_transpose_inertia(X, IA).matrix();
            return as_dynamic<S>(out);
          },
          theta0, s0);
    }
  }
}

TEST_CASE("autodiff: joint transforms satisfy d/dq X(q) = -crm(S) X(q)", "[spatial][autodiff]") {
  for (std::uint64_t seed = 61; seed < 66; ++seed) {
    const Fixture fx(seed);
    Rng rng(seed + 100);
    const double q0 = rng.uniform<double>(-3.0, 3.0), pitch = rng.uniform<double>(-0.5, 0.5);
    V3<double> axis = random_vec3<double>(rng);
    axis.normalize();
    const AD q(q0, 2, 0);
    const Transform<AD> XT = fx.X0.template cast<AD>();
    const double scale = 4.0 * (1.0 + fx.X0.r.lpNorm<1>() + std::abs(q0));

    struct Case {
      const char* name;
      Transform<AD> X;
      V6<double> S;
    };
    V6<double> Sx, Sy, Sh, Sp;
    Sx << 1, 0, 0, 0, 0, 0;
    Sy << 0, 1, 0, 0, 0, 0;
    Sh << 0, 0, 1, 0, 0, pitch;
    Sp << 0, 0, 0, axis;
    V3<AD> helix = V3<AD>::Zero();
    helix(2) = AD(pitch) * q;
    const V3<AD> slide = axis.template cast<AD>() * q;
    const Case cases[] = {
        {"revolute x", treedyn::rotx(q) * XT, Sx},
        {"revolute y", treedyn::roty(q) * XT, Sy},
        {"helical z", treedyn::rotz(q) * treedyn::xlt(helix) * XT, Sh},
        {"prismatic", treedyn::xlt(slide) * XT, Sp},
    };
    for (const Case& c : cases) {
      INFO(c.name);
      const M6<AD> dense = c.X.motion_matrix();
      const M6<double> value = dense.unaryExpr([](const AD& x) { return x.value(); });
      const Out dX = derivative0(dense);
      CHECK(close_entrywise(dX, (-treedyn::crm(c.S) * value).eval(), tolerance<double>(16, 1, scale)));

      // Momentum of a body moving with constant body velocity v = S (q̇ = 1), in the fixed frame A:
      // d/dq (X^T I v) = X^T (crf(v) I v).
      const RigidInertia<AD> I = fx.I0.template cast<AD>();
      const V6<AD> momentum_A = c.X.apply_inverse_force(I.apply(c.S.template cast<AD>()));
      const Transform<double> Xd{c.X.E.unaryExpr([](const AD& x) { return x.value(); }),
                                 c.X.r.unaryExpr([](const AD& x) { return x.value(); })};
      const V6<double> expected = Xd.apply_inverse_force(treedyn::cross_force(c.S, fx.I0.apply(c.S)));
      CHECK(close_entrywise(derivative0(momentum_A), expected, tolerance<double>(16, 1, scale * scale * 8.0)));
    }
  }
}

TEST_CASE("autodiff: cast from double keeps values and starts with zero derivatives", "[spatial][autodiff]") {
  const Fixture fx(70);
  const Transform<AD> X = fx.X0.cast<AD>();
  const RigidInertia<AD> I = fx.I0.cast<AD>();
  const ArticulatedInertia<AD> IA = fx.IA0.cast<AD>();
  CHECK(X.E(1, 2).value() == fx.X0.E(1, 2));
  CHECK(I.m.value() == fx.I0.m);
  CHECK(I.I.data(4).value() == fx.I0.I.data(4));
  CHECK(IA.M(5, 0).value() == fx.IA0.M(5, 0));
  CHECK(X.r(0).derivatives().isZero(0.0));
  CHECK(I.h(1).derivatives().isZero(0.0));
  CHECK(Transform<AD>::identity().motion_matrix()(3, 3).value() == 1.0);
}
