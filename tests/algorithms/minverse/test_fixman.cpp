// minverse_apply_fixman (Lee, Wang & Chirikjian (2007)): M⁻¹b by Fixman's soft/hard variables
// equals the dense solve with CRBA's H on random revolute/prismatic chains (n = 1…60, several seeds), arm7
// and puma560, within c·n·ε·κ(H); the chosen D–H frames make α ≡ 0 and keep the five hard coordinates
// constant under joint motion; the autodiff Lie derivatives equal central finite differences of the
// extraction formulas along exp(hẼ_i); unsupported models are rejected naming the body; a non-finite
// configuration is reported by the status, never left as NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <Eigen/Cholesky>

#include "support/scalars.hpp"
#include "support/random.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/minverse_apply_fixman.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/robots/robots.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

using VectorXd = Eigen::VectorXd;

/// The reference: CRBA's H of the double model at q, solved densely by Eigen's LLT in double.
VectorXd crba_dense_solve(const Model<double>& model, const VectorXd& q, const VectorXd& b, double* kappa) {
  Data<double> data(model);
  crba(model, data, q);
  const Eigen::MatrixXd H = dense_H(model, data);
  *kappa = spd_condition(H);
  return Eigen::LLT<Eigen::MatrixXd>(H).solve(b);
}

/// Fixman in T on the model cast from double, at q, b rounded to T; compared with the double reference:
/// ‖x − x_ref‖ ≤ 64 (n + 1) ε_T κ(H) ‖x_ref‖.
template <class T>
void require_matches_crba(const Model<double>& md, std::uint64_t seed) {
  const Model<T> model = md.cast<T>();
  Rng rng(seed);
  const Eigen::Matrix<T, Eigen::Dynamic, 1> q = random_configuration(model, seed);
  const Eigen::Matrix<T, Eigen::Dynamic, 1> b = rng.matrix<T>(model.nv(), 1);
  double kappa = 0.0;
  const VectorXd ref = crba_dense_solve(md, q.template cast<double>(), b.template cast<double>(), &kappa);
  FixmanWorkspace<T> ws(model);
  Data<T> fdata(model);
  const Eigen::Matrix<T, Eigen::Dynamic, 1>& x = minverse_apply_fixman(model, fdata, ws, q, b);
  REQUIRE(ws.status.ok());
  const double err = (x.template cast<double>() - ref).norm();
  const double tol = 64.0 * (model.nv() + 1) * eps<T>() * kappa * ref.norm();
  INFO("n = " << model.nv() << ", κ(H) = " << kappa << ", error = " << err << ", tolerance = " << tol);
  REQUIRE(err <= tol);
}

#if TREEDYN_TEST_UNTEMPLATED
/// The pose exp(h Ẽ_i) of Lee, Wang & Chirikjian (2007) §3.5 as a Plücker transform (rotation about /
/// translation along axis i).
Transform<double> exp_basis(int i, double h) {
  if (i == 0) return rotx(h);
  if (i == 1) return roty(h);
  if (i == 2) return rotz(h);
  return xlt(Eigen::Vector3d(Eigen::Vector3d::Unit(i - 3) * h));
}

/// Central differences of fixman_coordinates(after · exp(sign h Ẽ_i) · before) in h.
Matrix6<double> finite_difference(const Transform<double>& after, double sign, const Transform<double>& before) {
  const double h = 1e-6;
  Matrix6<double> D;
  for (int i = 0; i < 6; ++i) {
    const Vector6<double> plus = fixman_coordinates(after * exp_basis(i, sign * h) * before);
    const Vector6<double> minus = fixman_coordinates(after * exp_basis(i, -sign * h) * before);
    D.col(i) = (plus - minus) / (2 * h);
  }
  return D;
}
#endif

}  // namespace

TEMPLATE_TEST_CASE("minverse_apply_fixman equals the dense solve with CRBA's H on random chains n = 1…60",
                   "[minverse][fixman]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (int n = 1; n <= 60; ++n) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      INFO("random_chain(" << n << ", " << seed << ", {revolute, prismatic})");
      const Model<double> md = robots::random_chain<double>(n, seed, {JointType::revolute, JointType::prismatic});
      require_matches_crba<T>(md, 7000u + 17u * static_cast<std::uint64_t>(n) + seed);
    }
  }
  // All-revolute and all-prismatic chains too (the two soft-variable positions alone).
  for (int n : {2, 9, 30}) {
    INFO("n = " << n);
    require_matches_crba<T>(robots::random_chain<double>(n, 11), 7500u + static_cast<std::uint64_t>(n));
    require_matches_crba<T>(robots::random_chain<double>(n, 12, {JointType::prismatic}), 7600u + static_cast<std::uint64_t>(n));
  }
}

TEMPLATE_TEST_CASE("minverse_apply_fixman equals the dense solve on arm7 and puma560 (massless first link)",
                   "[minverse][fixman]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    INFO("seed " << seed);
    require_matches_crba<T>(robots::arm7<double>(), 7700u + seed);
    require_matches_crba<T>(robots::puma560<double>(), 7800u + seed);
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("minverse_apply_fixman: the full inverse equals inv(H) column by column (puma560 at q = π/3)",
          "[minverse][fixman]") {
  const Model<double> model = robots::puma560<double>();
  const VectorXd q = VectorXd::Constant(6, std::acos(-1.0) / 3.0);
  Data<double> data(model);
  crba(model, data, q);
  const Eigen::MatrixXd H = dense_H(model, data), Hinv = H.inverse();
  FixmanWorkspace<double> ws(model);
  Data<double> fdata(model);
  Eigen::MatrixXd X(6, 6);
  for (int j = 0; j < 6; ++j) X.col(j) = minverse_apply_fixman(model, fdata, ws, q, VectorXd::Unit(6, j));
  REQUIRE((X - Hinv).norm() <= 1e-10 * Hinv.norm() * spd_condition(H));
  REQUIRE((H * X - Eigen::MatrixXd::Identity(6, 6)).norm() <= 1e-10 * spd_condition(H));
}

TEST_CASE("minverse_apply_fixman: the D–H frames give α ≡ 0, constant hard coordinates and s = q + const",
          "[minverse][fixman]") {
  for (const Model<double>& model :
       {robots::random_chain<double>(25, 4, {JointType::revolute, JointType::prismatic}), robots::arm7<double>(),
        robots::puma560<double>()}) {
    FixmanWorkspace<double> ws(model);
    Data<double> fdata(model);
    const int n = model.nv();
    const VectorXd q1 = random_configuration(model, 31), q2 = random_configuration(model, 32);
    const VectorXd b = VectorXd::Ones(n);
    (void)minverse_apply_fixman(model, fdata, ws, q1, b);
    const std::vector<Transform<double>> T1 = ws.T;
    (void)minverse_apply_fixman(model, fdata, ws, q2, b);
    for (int k = 0; k < n; ++k) {
      INFO("body " << k);
      const Vector6<double> c1 = fixman_coordinates(T1[static_cast<std::size_t>(k)]);
      const Vector6<double> c2 = fixman_coordinates(ws.T[static_cast<std::size_t>(k)]);
      REQUIRE(std::abs(c1(0)) <= 1e-12);                       // α = 0: the chart is far from cos α = 0
      const int s = ws.soft[static_cast<std::size_t>(k)];
      for (int j = 0; j < 6; ++j) {
        if (j == s) continue;
        REQUIRE(std::abs(c1(j) - c2(j)) <= 1e-12);            // hard coordinates frozen by the joint
      }
      double ds = c2(s) - c1(s), dq = q2(k) - q1(k);
      if (s == 2) ds = std::remainder(ds - dq, 2 * std::acos(-1.0)) + dq;  // γ wraps by 2π
      REQUIRE(std::abs(ds - dq) <= 1e-12);                     // soft coordinate = joint coordinate + const
    }
  }
}

TEST_CASE("minverse_apply_fixman: autodiff Lie derivatives equal central finite differences along exp(hẼ_i)",
          "[minverse][fixman]") {
  const Model<double> model = robots::random_chain<double>(12, 5, {JointType::revolute, JointType::prismatic});
  FixmanWorkspace<double> ws(model);
  Data<double> fdata(model);
  const VectorXd q = random_configuration(model, 41);
  (void)minverse_apply_fixman(model, fdata, ws, q, VectorXd::Ones(model.nv()));
  for (int k = 0; k < model.nv(); ++k) {
    INFO("body " << k);
    const std::size_t kk = static_cast<std::size_t>(k);
    const Transform<double> to_com{Eigen::Matrix3d::Identity(), ws.com[kk]};
    const Transform<double> from_com{Eigen::Matrix3d::Identity(), -ws.com[kk]};
    const Matrix6<double> fd_plus = finite_difference(from_com, 1.0, to_com * ws.T[kk]);
    REQUIRE((ws.D_plus[kk] - fd_plus).cwiseAbs().maxCoeff() <= 1e-7 * (1.0 + fd_plus.cwiseAbs().maxCoeff()));
    REQUIRE(ws.D_plus[kk].cwiseAbs().maxCoeff() > 0.1);  // a derivative that is not identically zero
    if (k == 0) continue;
    const Transform<double> to_prev{Eigen::Matrix3d::Identity(), ws.com[kk - 1]};
    const Transform<double> from_prev{Eigen::Matrix3d::Identity(), -ws.com[kk - 1]};
    const Matrix6<double> fd_minus = finite_difference(ws.T[kk] * from_prev, -1.0, to_prev);
    REQUIRE((ws.D_minus[kk] - fd_minus).cwiseAbs().maxCoeff() <= 1e-7 * (1.0 + fd_minus.cwiseAbs().maxCoeff()));
    REQUIRE(ws.D_minus[kk].cwiseAbs().maxCoeff() > 0.1);
  }
}

TEST_CASE("minverse_apply_fixman rejects what it cannot handle, naming the body", "[minverse][fixman]") {
  using Catch::Matchers::Contains;
  // a branched tree
  CHECK_THROWS_AS(FixmanWorkspace<double>(robots::random_tree<double>(12, 3)), std::invalid_argument);
  CHECK_THROWS_WITH(FixmanWorkspace<double>(robots::random_tree<double>(12, 3)), Contains("body"));
  CHECK_FALSE(fixman_supported(robots::random_tree<double>(12, 3)));
  // chain30: a free-floating base
  CHECK_THROWS_AS(FixmanWorkspace<double>(robots::chain30<double>()), std::invalid_argument);
  CHECK_THROWS_WITH(FixmanWorkspace<double>(robots::chain30<double>()), Contains("body 0") && Contains("fixed base"));
  // a spherical joint in the middle of a chain
  const RigidInertia<double> I = RigidInertia<double>::from_mass_com_inertia(
      1.0, Eigen::Vector3d(0.1, 0, 0), Eigen::Matrix3d(Eigen::Vector3d(0.1, 0.2, 0.25).asDiagonal()));
  const Transform<double> X = xlt(Eigen::Vector3d(0.3, 0, 0));
  ModelBuilder<double> b;
  b.add_body(no_parent, Joint<double>::revolute(Eigen::Vector3d::UnitZ()), X, I, "upper");
  b.add_body(0, Joint<double>::spherical(), X, I, "wrist");
  b.add_body(1, Joint<double>::revolute(Eigen::Vector3d::UnitX()), X, I, "hand");
  const Model<double> spherical = b.build();
  CHECK_THROWS_AS(FixmanWorkspace<double>(spherical), std::invalid_argument);
  CHECK_THROWS_WITH(FixmanWorkspace<double>(spherical), Contains("body 1 ('wrist')") && Contains("spherical"));
  // a massless body that is not the first one (its 𝓘 cannot be inverted)
  ModelBuilder<double> c;
  c.add_body(no_parent, Joint<double>::revolute(Eigen::Vector3d::UnitZ()), X, I, "a");
  c.add_body(0, Joint<double>::revolute(Eigen::Vector3d::UnitY()), X, RigidInertia<double>::zero(), "ghost");
  CHECK_THROWS_WITH(FixmanWorkspace<double>(c.build()), Contains("body 1 ('ghost')") && Contains("singular"));
  // and what it does accept
  CHECK(fixman_supported(robots::puma560<double>()));
  CHECK(fixman_supported(robots::random_chain<double>(20, 1, {JointType::revolute, JointType::prismatic})));
}
#endif

TEMPLATE_TEST_CASE("minverse_apply_fixman reports a non-finite q as non_finite_input naming it, with x NaN",
                   "[minverse][fixman]", TREEDYN_TEST_SCALARS) {
  // A NaN in q is an invalid input, not a failed pivot (docs/errors.md#finite-inputs): the status names
  // the argument and the coordinate, and x is NaN as every route's output on a non-finite input. (A pivot
  // that fails on finite inputs leaves x zero; see the header.)
  using T = TestType;
  const Model<T> model = robots::arm7<double>().cast<T>();
  FixmanWorkspace<T> ws(model);
  Data<T> fdata(model);
  Eigen::Matrix<T, Eigen::Dynamic, 1> q = random_configuration(model, 51);
  q(3) = std::numeric_limits<T>::quiet_NaN();
  const Eigen::Matrix<T, Eigen::Dynamic, 1> b = Eigen::Matrix<T, Eigen::Dynamic, 1>::Ones(model.nv());
  const Eigen::Matrix<T, Eigen::Dynamic, 1>& x = minverse_apply_fixman(model, fdata, ws, q, b);
  REQUIRE(ws.status.code == Status::Code::non_finite_input);
  REQUIRE(ws.status.argument != nullptr);
  CHECK(std::string(ws.status.argument) == "q");
  CHECK(ws.status.row == 3);
  CHECK(x.array().isNaN().all());
  // and the workspace recovers on the next good call
  q(3) = T(0.2);
  (void)minverse_apply_fixman(model, fdata, ws, q, b);
  REQUIRE(ws.status.ok());
  CHECK(x.allFinite());
}
