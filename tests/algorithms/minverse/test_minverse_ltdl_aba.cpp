// H⁻¹ by LTDL (kernels/ltdl_inverse.hpp, algorithms/minverse_ltdl.hpp) and by the O(n²) ABA-based inverse
// (algorithms/minverse_aba.hpp), checked: H·H⁻¹ = I within c·n·ε·κ(H), full symmetry,
// H⁻¹τ = ABA(q, 0, τ) with gravity off, the two routes agree, the kernel inverts the M_puma printed by
// Lee, Wang & Chirikjian (2007), and a singular H is reported by its status.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "support/robot_cases.hpp"
#include "support/crba_dense.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "support/tree_matrices.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"
#include "treedyn/kernels/kernels.hpp"
#include "treedyn/kernels/ltdl_inverse.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

template <class T>
using MatX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using VecX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

/// The same robot with gravity switched off (rebuilt body by body), so that ABA(q, 0, τ) = H⁻¹ τ.
template <class T>
Model<T> without_gravity(const Model<T>& model) {
  ModelBuilder<T> b;
  for (int i = 0; i < model.nbodies(); ++i)
    b.add_body(model.parent(i), model.joint(i), model.tree_transform(i), model.inertia(i), model.name(i));
  b.set_gravity(Vector3<T>::Zero());
  return b.build();
}

/// The ready-made robots, 50 random trees (every joint type) and random chains of every moving type.
template <class T>
std::vector<RobotCase<T>> minverse_cases() {
  std::vector<RobotCase<T>> cases = robot_cases<T>(50);
  for (int n : {1, 2, 5, 13, 40}) {
    const Model<double> chain = robots::random_chain<double>(
        n, 700u + static_cast<unsigned>(n),
        {JointType::revolute, JointType::prismatic, JointType::helical, JointType::spherical, JointType::planar,
         JointType::free_flyer});
    cases.push_back({"random_chain-mixed" + std::to_string(n), chain.template cast<T>()});
    cases.push_back({"random_chain-revolute" + std::to_string(n), robots::random_chain<double>(n, 1).template cast<T>()});
  }
  return cases;
}

/// Bound on a residual of H⁻¹ that rounding in T can produce: c·n·ε·κ (times the scale of the quantity),
/// c = 1. Measured worst case over every case of the first test: 0.22 of it (float and double alike).
template <class T>
double tolerance(int n, double kappa) {
  return (n + 1) * eps<T>() * kappa;
}

}  // namespace

TEMPLATE_TEST_CASE("minverse_ltdl and minverse_aba: H·H⁻¹ = I, symmetric, equal to each other and to ABA", "[minverse]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  int index = 0;
  for (const RobotCase<T>& c : minverse_cases<T>()) {
    INFO(c.name);
    const Model<T> model = without_gravity(c.model);
    const int n = model.nv();
    Data<T> data(model);
    const State<T> s = random_state(model, 5100u + static_cast<unsigned>(index++));
    const MatX<T> H = crba_dense(model, data, s.q);
    const double kappa = spd_condition(H);
    const double tol = tolerance<T>(n, kappa);
    INFO("n = " << n << ", κ(H) = " << kappa << ", tolerance " << tol);
    // the reference: H inverted in long double from the same H (an independent dense route)
    const MatX<long double> H_inv_ref = H.template cast<long double>().inverse();
    const double ref_norm = static_cast<double>(H_inv_ref.norm());

    MinverseLtdlWorkspace<T> wl(model);
    const MatX<T> M_ltdl = minverse_ltdl(model, data, wl, s.q);
    REQUIRE(data.factor_status.ok());
    MinverseAbaWorkspace<T> ws(model);
    const MatX<T> M_aba = minverse_aba(model, data, ws, s.q);
    REQUIRE(ws.status.ok());

    for (const MatX<T>* M : {&M_ltdl, &M_aba}) {
      INFO((M == &M_ltdl ? "minverse_ltdl" : "minverse_aba"));
      REQUIRE(M->allFinite());
      // both triangles are filled, exactly mirrored
      REQUIRE(*M == M->transpose());
      // H · H⁻¹ = I (residual relative to ‖H‖‖H⁻¹‖ ~ κ)
      const MatX<long double> residual =
          H.template cast<long double>() * M->template cast<long double>() - MatX<long double>::Identity(n, n);
      REQUIRE(static_cast<double>(residual.norm()) <= tol);
      // the dense inverse of the same H
      REQUIRE(static_cast<double>((M->template cast<long double>() - H_inv_ref).norm()) <= tol * ref_norm);
    }
    // the two routes agree
    REQUIRE(static_cast<double>((M_ltdl - M_aba).norm()) <= tol * ref_norm);

    // H⁻¹ τ = ABA(q, 0, τ) with gravity off, for random τ
    Rng rng(5200u + static_cast<unsigned>(index));
    const VecX<T> zero = VecX<T>::Zero(n);
    for (int k = 0; k < 3; ++k) {
      const VecX<T> tau = rng.matrix<T>(n, 1);
      const VecX<T> qdd = aba(model, data, s.q, zero, tau);
      REQUIRE(data.aba_status.ok());
      const double scale = static_cast<double>(qdd.norm()) + ref_norm * static_cast<double>(tau.norm());
      REQUIRE(static_cast<double>((M_aba * tau - qdd).norm()) <= tol * scale);
      REQUIRE(static_cast<double>((M_ltdl * tau - qdd).norm()) <= tol * scale);
    }
  }
}

TEMPLATE_TEST_CASE("minverse_aba on ill-conditioned models: H·H⁻¹ = I within n·ε·κ, symmetric, the dense inverse",
                   "[minverse][ill]", TREEDYN_TEST_SCALARS) {
  // Ascher, Pai & Cloutier's Examples 1–3 (docs/references.md): a light base link under a heavy distal
  // one, and two collinear prismatic masses (κ(H) ≈ 4·m_tip), m_tip up to where κ·ε stays below 1e-2.
  using T = TestType;
  std::vector<RobotCase<T>> cases = {{"two_link", robots::two_link<double>().template cast<T>()}};
  for (double m_tip : {1e2, 1e4, std::is_same<T, float>::value ? 1e4 : 1e8})
    for (const Vector3<double>& axis : {Vector3<double>(0, 0, 1), Vector3<double>(0, 1, 1)})
      cases.push_back({"collinear_masses", robots::collinear_masses<double>(1.0, m_tip, axis).template cast<T>()});
  for (const RobotCase<T>& c : cases) {
    const Model<T>& model = c.model;
    const int n = model.nv();
    Data<T> data(model);
    const VecX<T> q = random_configuration(model, 5600u);
    const MatX<T> H = crba_dense(model, data, q);
    const double kappa = spd_condition(H);
    const double tol = tolerance<T>(n, kappa);
    INFO(c.name << ", κ(H) = " << kappa << ", tolerance " << tol);
    const MatX<long double> H_inv_ref = H.template cast<long double>().inverse();
    MinverseAbaWorkspace<T> ws(model);
    const MatX<T> M = minverse_aba(model, data, ws, q);
    REQUIRE(ws.status.ok());
    REQUIRE(M == M.transpose());
    const MatX<long double> residual =
        H.template cast<long double>() * M.template cast<long double>() - MatX<long double>::Identity(n, n);
    REQUIRE(static_cast<double>(residual.norm()) <= tol);
    REQUIRE(static_cast<double>((M.template cast<long double>() - H_inv_ref).norm()) <=
            tol * static_cast<double>(H_inv_ref.norm()));
  }
}

TEMPLATE_TEST_CASE("minverse_aba where the children's column ranges do and do not tile their parent's",
                   "[minverse][numbering]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  // worked example, one DoF per body: λ = (−, 0, 0, 1, 1). Body 1's subtree {1, 3, 4} spans [1, 5) and
  // overlaps body 2's [2, 3) (body 0: no tiling); body 1's children fill [3, 5) but its own range
  // starts at 2, a DoF of body 2 (a gap: no tiling); the leaves' empty ranges are tiled.
  {
    const Model<T> model = robots::random_model<double>({no_parent, 0, 0, 1, 1}, 3).template cast<T>();
    const MinverseAbaWorkspace<T> ws(model);
    CHECK(std::vector<int>(ws.children_tile.begin(), ws.children_tile.end()) == std::vector<int>{0, 0, 1, 1, 1});
    CHECK(std::vector<int>(ws.subtree_end.begin(), ws.subtree_end.end()) == std::vector<int>{5, 5, 3, 4, 5});
  }
  {  // numbered depth first: every body's children tile its range
    const Model<T> model = robots::random_model<double>({no_parent, 0, 1, 0, 3}, 3).template cast<T>();
    const MinverseAbaWorkspace<T> ws(model);
    CHECK(std::vector<int>(ws.children_tile.begin(), ws.children_tile.end()) == std::vector<int>{1, 1, 1, 1, 1});
  }
  // random trees of every moving joint type, numbered in creation order (not depth first): H⁻¹ against
  // the dense inverse, and a reused workspace (another configuration first) against a fresh one
  int tiled = 0, untiled = 0;
  for (unsigned seed = 0; seed < 12; ++seed) {
    const Model<T> model = robots::random_model<double>(
                               topologies::random_tree(8 + static_cast<int>(seed) * 3, 900u + seed), 910u + seed,
                               {JointType::revolute, JointType::prismatic, JointType::spherical, JointType::planar,
                                JointType::free_flyer})
                               .template cast<T>();
    INFO("seed " << seed << ", nv = " << model.nv());
    const int n = model.nv();
    Data<T> data(model);
    MinverseAbaWorkspace<T> ws(model), reused(model);
    for (const unsigned char t : ws.children_tile) (t ? tiled : untiled) += 1;
    const VecX<T> q = random_configuration(model, 920u + seed);
    const MatX<T> H = crba_dense(model, data, q);
    const double tol = tolerance<T>(n, spd_condition(H));
    const MatX<long double> H_inv_ref = H.template cast<long double>().inverse();
    minverse_aba(model, data, reused, random_configuration(model, 930u + seed));
    const MatX<T> M = minverse_aba(model, data, ws, q);
    REQUIRE(ws.status.ok());
    REQUIRE(M == M.transpose());
    REQUIRE(static_cast<double>((M.template cast<long double>() - H_inv_ref).norm()) <=
            tol * static_cast<double>(H_inv_ref.norm()));
    REQUIRE(MatX<T>(minverse_aba(model, data, reused, q)) == M);
  }
  CHECK(tiled > 0);  // both kinds of parent were exercised
  CHECK(untiled > 0);
}

TEMPLATE_TEST_CASE("minverse routes do not depend on gravity or on what Data held before", "[minverse]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const Model<T> with_g = robots::humanoid30<double>().template cast<T>();
  const Model<T> no_g = without_gravity(with_g);  // rebuilt: the same robot up to axis renormalisation
  Data<T> polluted(with_g), fresh(with_g), d_no_g(no_g);
  MinverseAbaWorkspace<T> ws_polluted(with_g), ws_fresh(with_g), ws_no_g(no_g);
  MinverseLtdlWorkspace<T> wl_polluted(with_g), wl_fresh(with_g), wl_no_g(no_g);
  const State<T> s = random_state(with_g, 5300u);
  // pollute one Data with a velocity-dependent ABA run and inverses at other configurations first
  aba(with_g, polluted, s.q, s.qd, s.qdd);
  minverse_aba(with_g, polluted, ws_polluted, random_configuration(with_g, 77));
  minverse_ltdl(with_g, polluted, wl_polluted, random_configuration(with_g, 78));
  const MatX<T> a1 = minverse_aba(with_g, polluted, ws_polluted, s.q), a2 = minverse_aba(with_g, fresh, ws_fresh, s.q);
  const MatX<T> l1 = minverse_ltdl(with_g, polluted, wl_polluted, s.q), l2 = minverse_ltdl(with_g, fresh, wl_fresh, s.q);
  REQUIRE(a1 == a2);  // every workspace entry that is read is rewritten first
  REQUIRE(l1 == l2);
  // gravity plays no part: the zero-gravity rebuild gives the same inverse to rounding
  const double kappa = spd_condition(crba_dense(with_g, fresh, s.q));
  const double tol = tolerance<T>(with_g.nv(), kappa) * static_cast<double>(a1.norm());
  REQUIRE(static_cast<double>((minverse_aba(no_g, d_no_g, ws_no_g, s.q) - a1).norm()) <= tol);
  REQUIRE(static_cast<double>((minverse_ltdl(no_g, d_no_g, wl_no_g, s.q) - l1).norm()) <= tol);
}

TEMPLATE_TEST_CASE("fixed-size Data gives the dynamic-size answers", "[minverse][fixed]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const Model<T> dyn = robots::humanoid30<double>().template cast<T>();
  const Model<T, 30> fixed = robots::humanoid30<double>().template cast<T, 30>();
  Data<T> dd(dyn);
  Data<T, 30> df(fixed);
  MinverseAbaWorkspace<T> wd(dyn);
  MinverseAbaWorkspace<T, 30> wf(fixed);
  MinverseLtdlWorkspace<T> wld(dyn);
  MinverseLtdlWorkspace<T, 30> wlf(fixed);
  const State<T> s = random_state(dyn, 5400u);
  REQUIRE(MatX<T>(minverse_aba(fixed, df, wf, s.q)) == minverse_aba(dyn, dd, wd, s.q));
  REQUIRE(MatX<T>(minverse_ltdl(fixed, df, wlf, s.q)) == minverse_ltdl(dyn, dd, wld, s.q));
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("ltdl_inverse on seed 002's M_puma equals Eigen's inverse and the printed inverse's top-left 4×4",
          "[minverse][ltdl_inverse][seed002]") {
  // Lee, Wang & Chirikjian (2007), Appendix: M_puma as printed (4 decimals), taken as
  // a given SPD matrix with a dense parent array λ(i) = i − 1. The printed M⁻¹ matches inv(M_printed)
  // only in its top-left 4×4 block (see docs/references.md: the wrist entries 0.0007 / 0.0004 are
  // rounded to one significant digit), so only that block is compared with the print.
  Eigen::Matrix<double, 6, 6> M;
  M << 7.0719, 3.6036, 0.3138, -0.0723, -0.0004, -0.0002,  //
      3.6036, 2.8533, 0.3379, 0.0722, -0.0004, -0.0006,    //
      0.3138, 0.3379, 0.3259, 0.1446, 0.0002, -0.0005,     //
      -0.0723, 0.0722, 0.1446, 0.2883, 0.0003, -0.0003,    //
      -0.0004, -0.0004, 0.0002, 0.0003, 0.0007, 0.0002,    //
      -0.0002, -0.0006, -0.0005, -0.0003, 0.0002, 0.0004;
  Eigen::Matrix<double, 4, 4> printed_inverse_4;
  printed_inverse_4 << 0.4130, -0.5346, 0.0655, 0.2043,  //
      -0.5346, 1.0959, -0.5659, -0.1247,                 //
      0.0655, -0.5659, 4.537, -2.1106,                   //
      0.2043, -0.1247, -2.1106, 4.6143;
  const std::vector<int> lambda = {-1, 0, 1, 2, 3, 4};
  const Eigen::Matrix<double, 6, 6> eigen_inverse = M.inverse();
  const double kappa = spd_condition(M);

  Eigen::Matrix<double, 6, 6> F = M;
  REQUIRE(ltdl(F, lambda).ok());
  Eigen::Matrix<double, 6, 6> X = Eigen::Matrix<double, 6, 6>::Constant(std::numeric_limits<double>::quiet_NaN());
  ltdl_inverse(F, lambda, X);
  INFO("κ(M_puma) = " << kappa << "\nltdl_inverse:\n" << X);
  REQUIRE(X.allFinite());
  REQUIRE(X == X.transpose());
  REQUIRE((X - eigen_inverse).norm() <= tolerance<double>(6, kappa) * eigen_inverse.norm());
  REQUIRE((X.topLeftCorner<4, 4>() - printed_inverse_4).cwiseAbs().maxCoeff() <= 2e-3);
  // and the wrist block really is inconsistent with the print (so the 4×4 restriction is needed):
  REQUIRE(std::abs(X(4, 4) - 1810.6) > 100.0);

  // the packed route of minverse_ltdl gives the same matrix
  const AncestorPattern pattern(lambda);
  Eigen::VectorXd packed(pattern.nonzeros());
  pattern.pack(M, packed);
  REQUIRE(ltdl_packed(packed, pattern).ok());
  Eigen::Matrix<double, 6, 6> Xp = Eigen::Matrix<double, 6, 6>::Zero();
  ltdl_inverse_packed(packed, pattern, Xp);
  REQUIRE((Xp - X).norm() <= tolerance<double>(6, kappa) * eigen_inverse.norm());

  // in float, from the double matrix rounded once
  Eigen::Matrix<float, 6, 6> Ff = M.cast<float>();
  REQUIRE(ltdl(Ff, lambda).ok());
  Eigen::Matrix<float, 6, 6> Xf;
  ltdl_inverse(Ff, lambda, Xf);
  REQUIRE((Xf.cast<double>() - eigen_inverse).norm() <= tolerance<float>(6, kappa) * eigen_inverse.norm());
}
#endif

TEMPLATE_TEST_CASE("ltdl_inverse on tree-sparse SPD matrices reads only the factor's pattern",
                   "[minverse][ltdl_inverse]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  Rng rng(5500u);
  for (const std::vector<int>& lambda :
       {topologies::chain(25), topologies::binary_tree(5), topologies::random_tree(60, 3),
        expand_parent_array(topologies::humanoid(4, 6), topologies::humanoid_dofs(4, 6, 6))}) {
    const int n = static_cast<int>(lambda.size());
    const MatX<T> A = random_tree_spd<T>(lambda, rng);
    const double kappa = spd_condition(A);
    const MatX<long double> ref = A.template cast<long double>().inverse();
    // poison everything ltdl and ltdl_inverse must not read: the strict upper triangle and the
    // off-pattern lower entries
    MatX<T> F = A;
    const auto pattern = lower_pattern(lambda);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (i < j || !pattern(i, j)) F(i, j) = std::numeric_limits<T>::quiet_NaN();
    REQUIRE(ltdl(F, lambda).ok());
    MatX<T> X = MatX<T>::Constant(n, n, std::numeric_limits<T>::quiet_NaN());
    ltdl_inverse(F, lambda, X);
    INFO("n = " << n << ", κ = " << kappa);
    REQUIRE(X.allFinite());
    REQUIRE(X == X.transpose());
    REQUIRE(static_cast<double>((X.template cast<long double>() - ref).norm()) <=
            tolerance<T>(n, kappa) * static_cast<double>(ref.norm()));
    // into a block of a larger matrix (any writable Eigen object)
    MatX<T> big = MatX<T>::Zero(n + 3, n + 3);
    ltdl_inverse(F, lambda, big.block(2, 1, n, n));
    REQUIRE(big.block(2, 1, n, n) == X);
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("a massless tip makes H singular: both routes report it and H⁻¹ is NaN", "[minverse][status]") {
  // A revolute link carrying a ball joint; the ball's body is massless (singular H) or a copy of the link.
  const auto arm_with_ball = [](bool massless_ball) {
    const auto link = RigidInertia<double>::from_mass_com_inertia(
        1.0, Vector3<double>(0.5, 0, 0), Vector3<double>(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix());
    ModelBuilder<double> builder;
    const int arm = builder.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()),
                                     Transform<double>::identity(), link, "arm");
    builder.add_body(arm, Joint<double>::spherical(), xlt(Vector3<double>(1, 0, 0)),
                     massless_ball ? RigidInertia<double>::zero() : link, "ball");
    return builder.build();
  };
  const Model<double> model = arm_with_ball(true);
  Data<double> data(model);
  const Eigen::VectorXd q = neutral(model);

  MinverseLtdlWorkspace<double> wl(model);
  const Eigen::MatrixXd& M_ltdl = minverse_ltdl(model, data, wl, q);
  REQUIRE_FALSE(data.factor_status.ok());
  REQUIRE(data.factor_status.row == 3);  // the ball's last DoF: the first row LTDL meets (H_33 = 0)
  REQUIRE(M_ltdl.array().isNaN().all());

  MinverseAbaWorkspace<double> ws(model);
  const Eigen::MatrixXd& M_aba = minverse_aba(model, data, ws, q);
  REQUIRE_FALSE(ws.status.ok());
  REQUIRE(ws.status.names_body());
  REQUIRE(ws.status.row == 1);  // the BODY whose joint pivot fails, as aba reports it
  REQUIRE(M_aba.array().isNaN().all());

  // A healthy model afterwards: statuses cleared, finite results.
  const Model<double> good = arm_with_ball(false);
  Data<double> d2(good);
  MinverseAbaWorkspace<double> w2(good);
  w2.status = FactorStatus::non_positive_joint_pivot(0);
  d2.factor_status = FactorStatus::non_positive_pivot(0);
  REQUIRE(minverse_aba(good, d2, w2, neutral(good)).allFinite());
  REQUIRE(w2.status.ok());
  MinverseLtdlWorkspace<double> wl2(good);
  REQUIRE(minverse_ltdl(good, d2, wl2, neutral(good)).allFinite());
  REQUIRE(d2.factor_status.ok());
}
#endif
