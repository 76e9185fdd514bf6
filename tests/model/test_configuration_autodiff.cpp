// integrate with a forward-mode autodiff scalar (Eigen::AutoDiffScalar): the exact derivative of
// XJ(integrate(q, v, t)) with respect to t gives crm(S v) = −Ẋ X⁻¹ to rounding, for every joint type,
// at t = 0 (where the Taylor branches of the exponentials are taken: no sqrt(0), no 0/0) and at t ≠ 0.
// Also: difference differentiates to finite values at q1 = q0 (the Taylor branch of the logarithm).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "model_test_support.hpp"

#include <unsupported/Eigen/AutoDiff>

using namespace model_test;
using treedyn::JointType;

namespace {
using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;

AD seed_variable(double value) {
  AD x(value);
  x.derivatives() << 1.0;
  return x;
}

/// Values and t-derivatives of a dense AD matrix.
M6<double> values(const M6<AD>& M) {
  M6<double> out;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) out(i, j) = M(i, j).value();
  return out;
}
M6<double> derivatives(const M6<AD>& M) {
  M6<double> out;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) out(i, j) = M(i, j).derivatives().size() ? M(i, j).derivatives()(0) : 0.0;
  return out;
}
}  // namespace

TEST_CASE("autodiff: d/dt XJ(integrate(q, v, t)) = −crm(S v) XJ, also at t = 0", "[model][joint][autodiff]") {
  treedyn::test::Rng rng(2718);
  for (JointType type : moving_types()) {
    const treedyn::Model<double> model = single_joint_model<double>(type);
    const treedyn::Model<AD> model_ad = model.cast<AD>();
    const MatX<double> S = model.joint(0).motion_subspace();
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const VecX<double> q0 = treedyn::random_configuration(model, seed);
      const VecX<double> v = random_vector<double>(rng, model.nv());
      for (const double t0 : {0.0, 0.9}) {
        const VecX<AD> q0_ad = q0.cast<AD>();
        const VecX<AD> v_ad = v.cast<AD>();
        VecX<AD> q_ad(model.nq());
        treedyn::integrate(model_ad, q0_ad, v_ad, seed_variable(t0), q_ad);
        const treedyn::Transform<AD> X = model_ad.joint(0).transform(q_ad);
        const M6<AD> Xm = X.motion_matrix();
        const M6<double> Xv = values(Xm), Xdot = derivatives(Xm);
        REQUIRE(Xdot.allFinite());
        const M6<double> M = -Xdot * Xv.inverse();
        const V6<double> expected = S * v;
        INFO("joint " << model.joint(0).type_name() << ", seed " << seed << ", t0 " << t0);
        const double tol = 64 * eps<double>() * (1 + v.norm()) * (1 + Xv.cwiseAbs().maxCoeff());
        CHECK(close_entrywise(M, treedyn::crm(expected), tol));
      }
    }
  }
}

TEST_CASE("autodiff: difference is differentiable at q1 = q0", "[model][configuration][autodiff]") {
  for (JointType type : moving_types()) {
    const treedyn::Model<double> model = single_joint_model<double>(type);
    const treedyn::Model<AD> model_ad = model.cast<AD>();
    const VecX<double> q0 = treedyn::random_configuration(model, 11);
    // q1(s) = q0 ⊕ s·w, so d/ds (q1(s) ⊖ q0) at s = 0 is w
    VecX<double> w(model.nv());
    for (int k = 0; k < model.nv(); ++k) w(k) = 0.1 * (k + 1);
    VecX<AD> q1(model.nq()), d(model.nv());
    treedyn::integrate(model_ad, q0.cast<AD>().eval(), w.cast<AD>().eval(), seed_variable(0.0), q1);
    treedyn::difference(model_ad, q0.cast<AD>().eval(), q1, d);
    INFO("joint " << model.joint(0).type_name());
    for (int k = 0; k < model.nv(); ++k) {
      CHECK(std::abs(d(k).value()) <= 8 * eps<double>());
      REQUIRE(d(k).derivatives().size() == 1);
      CHECK(std::abs(d(k).derivatives()(0) - w(k)) <= 16 * eps<double>());
    }
  }
}
