// The Schur-complement M⁻¹ of Fijany (1994) §IV.B (see docs/references.md) and its two checks:
//  (a) 𝒢 − ℬᵀ𝒜⁻¹ℬ equals the dense inverse of CRBA's H within c·n·ε·κ(H) on every ready-made robot, seeded
//      random chains of every joint type and 50 random trees; minverse_apply_schur(τ) = H⁻¹τ;
//  (b) the multipliers μ are the constraint parts W_iᵀ f_i of RNEA's interbody forces for q̈ = M⁻¹τ;
//  the operators equal their dense definitions 𝒲ᵀK𝒲, 𝒲ᵀK𝒮, 𝒮ᵀK𝒮 with K = 𝒫𝓘⁻¹𝒫ᵀ built from 6×6 matrices;
//  the chain's 𝒜 is solved alike by block LDLᵀ, block cyclic reduction and the leaves-first tree kernel;
//  a model the method cannot handle is rejected when the workspace is built.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "support/crba_dense.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/kernels/block_cyclic_reduction.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

using JointList = std::initializer_list<JointType>;

/// The robot cases plus seeded random chains for every joint type list the method supports.
template <class T>
std::vector<RobotCase<T>> schur_cases(int random_trees = 50) {
  std::vector<RobotCase<T>> cases = robot_cases<T>(random_trees);
  // random_chain takes an initializer_list, whose array lives only as long as the call's full-expression:
  // pass each list straight into add().
  const auto add = [&cases](const std::string& name, JointList list) {
    for (const int n : {1, 2, 7, 20})
      cases.push_back({"random_chain(" + std::to_string(n) + ", " + name + ")",
                       robots::random_chain<double>(n, 900u + static_cast<unsigned>(n), list).template cast<T>()});
  };
  add("revolute", {JointType::revolute});
  add("prismatic", {JointType::prismatic});
  add("helical", {JointType::helical});
  add("1-dof", {JointType::revolute, JointType::prismatic, JointType::helical});
  add("spherical+planar", {JointType::spherical, JointType::planar});
  add("all", {JointType::revolute, JointType::prismatic, JointType::helical, JointType::spherical, JointType::planar,
              JointType::free_flyer});
  add("free_flyer", {JointType::free_flyer});
  return cases;
}

template <class T>
using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

/// Runs f(case, data, workspace, random state) on every case, the state seeded from `seed` + case index.
template <class T, class F>
void for_each_case(int random_trees, unsigned seed, F&& f) {
  for_each_robot_state<T>(schur_cases<T>(random_trees), seed, [&f](const RobotCase<T>& c, const State<T>& s) {
    Data<T> data(c.model);
    SchurWorkspace<T> ws(c.model);
    f(c, data, ws, s);
  });
}

}  // namespace

TEMPLATE_TEST_CASE("Fijany's 𝒢 − ℬᵀ𝒜⁻¹ℬ is the inverse of CRBA's H, and minverse_apply_schur applies it",
                   "[minverse][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for_each_case<T>(50, 5100u, [](const RobotCase<T>& c, Data<T>& data, SchurWorkspace<T>& ws, const State<T>& s) {
    const int n = c.model.nv();
    const MatrixX<T> H = crba_dense(c.model, data, s.q);
    const Eigen::MatrixXd Hinv = H.template cast<double>().inverse();
    const double kappa = spd_condition(H);
    const double tol = 64.0 * (n + 1) * eps<T>() * kappa * Hinv.norm();
    INFO("κ(H) = " << kappa << ", chain: " << ws.is_chain());

    const MatrixX<T>& Minv = minverse_schur(c.model, data, ws, s.q);
    REQUIRE(ws.status.ok());
    CHECK((Minv.template cast<double>() - Hinv).norm() <= tol);

    const VectorX<T> tau = s.qdd;  // any vector: the random state's third component
    const VectorX<T> qdd = minverse_apply_schur(c.model, data, ws, s.q, tau);
    REQUIRE(ws.status.ok());
    CHECK((qdd.template cast<double>() - Hinv * tau.template cast<double>()).norm() <=
          tol * (static_cast<double>(tau.norm()) + 1.0));
  });
}

TEMPLATE_TEST_CASE("the multipliers μ are the constraint forces W_iᵀ f_i of RNEA for q̈ = M⁻¹τ",
                   "[minverse][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for_each_case<T>(20, 5200u, [](const RobotCase<T>& c, Data<T>& data, SchurWorkspace<T>& ws, const State<T>& s) {
    const int n = c.model.nv();
    const double kappa = spd_condition(MatrixX<T>(crba_dense(c.model, data, s.q)));
    const VectorX<T> tau = s.qd;
    const VectorX<T> qdd = minverse_apply_schur(c.model, data, ws, s.q, tau);
    REQUIRE(ws.status.ok());
    const VectorX<T> zero = VectorX<T>::Zero(n);
    // f_i with q̇ = 0, g = 0: RNEA is affine in (q̈, gravity), so subtract the gravity-only forces.
    (void)rnea(c.model, data, s.q, zero, zero);
    const std::vector<Force<T>> f_gravity(data.f.begin(), data.f.end());
    (void)rnea(c.model, data, s.q, zero, qdd);
    double f_norm = 0.0;
    for (int i = 0; i < c.model.nbodies(); ++i)
      f_norm += static_cast<double>((data.f[i] - f_gravity[static_cast<std::size_t>(i)]).squaredNorm());
    const double tol = 64.0 * (n + 1) * eps<T>() * kappa * (std::sqrt(f_norm) + static_cast<double>(tau.norm()));
    for (int i = 0; i < c.model.nbodies(); ++i) {
      INFO("body " << i);
      const Force<T> f = data.f[i] - f_gravity[static_cast<std::size_t>(i)];
      const VectorX<T> constraint = ws.W(i).transpose() * f;
      const VectorX<T> mu_i = ws.mu.segment(ws.offset(SchurPart::constraint, i), 6 - ws.n(i));
      CHECK((constraint - mu_i).template cast<double>().norm() <= tol);
      // and the joint part of f_i is τ_i: f_i = Ŝ_i τ_i + W_i μ_i
      const Force<T> rebuilt = ws.S_hat(i) * tau.segment(c.model.v_offset(i), ws.n(i)) + ws.W(i) * mu_i;
      CHECK((rebuilt - f).template cast<double>().norm() <= tol);
    }
  });
}

TEMPLATE_TEST_CASE("𝒜, ℬ, 𝒢 equal 𝒲ᵀK𝒲, 𝒲ᵀK𝒮, 𝒮ᵀK𝒮 with K = 𝒫𝓘⁻¹𝒫ᵀ formed densely", "[minverse][schur]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for_each_case<T>(20, 5300u, [](const RobotCase<T>& c, Data<T>& data, SchurWorkspace<T>& ws, const State<T>& s) {
    const int nb = c.model.nbodies();
    schur_operators(c.model, data, ws, s.q);
    // dense 𝒫 (6N×6N): (𝒫a)_i = a_i − ^iX_λ(i) a_λ(i); 𝓘⁻¹ = blockdiag(I_i⁻¹); 𝒮 = blockdiag(Ŝ_i); 𝒲 = blockdiag(W_i)
    Eigen::MatrixXd P = Eigen::MatrixXd::Identity(6 * nb, 6 * nb), Iinv = Eigen::MatrixXd::Zero(6 * nb, 6 * nb);
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(6 * nb, c.model.nv()), W = Eigen::MatrixXd::Zero(6 * nb, ws.nw());
    for (int i = 0; i < nb; ++i) {
      const int p = c.model.parent(i);
      if (p != no_parent) P.block(6 * i, 6 * p, 6, 6) = -data.Xup[i].motion_matrix().template cast<double>();
      Iinv.block(6 * i, 6 * i, 6, 6) = ws.inertia_inverse(i).template cast<double>();
      S.block(6 * i, c.model.v_offset(i), 6, ws.n(i)) = ws.S_hat(i).template cast<double>();
      W.block(6 * i, ws.offset(SchurPart::constraint, i), 6, 6 - ws.n(i)) = ws.W(i).template cast<double>();
      // W_i orthonormal and orthogonal to S_i; Ŝ_iᵀ S_i = 1
      const auto S_i = c.model.motion_subspace(i).template cast<double>();
      CHECK((ws.W(i).transpose() * ws.W(i)).template cast<double>().isIdentity(64 * eps<T>()));
      CHECK((ws.W(i).template cast<double>().transpose() * S_i).norm() <= 64 * eps<T>());
      CHECK((ws.S_hat(i).template cast<double>().transpose() * S_i).isIdentity(64 * eps<T>()));
    }
    const Eigen::MatrixXd K = P * Iinv * P.transpose();
    const double scale = K.norm();
    const double tol = 64.0 * (6 * nb) * eps<T>() * scale;
    CHECK((ws.A_dense().template cast<double>() - W.transpose() * K * W).norm() <= tol);
    CHECK((ws.B_dense().template cast<double>() - W.transpose() * K * S).norm() <= tol);
    CHECK((ws.G_dense().template cast<double>() - S.transpose() * K * S).norm() <= tol);
    // the factored form of 𝒜 stored for the solver is the same matrix
    const MatrixX<T> A_stored = ws.is_chain() ? ws.A_chain.to_dense() : ws.A_tree.to_dense();
    CHECK((A_stored - ws.A_dense()).norm() == T(0));
  });
}

TEMPLATE_TEST_CASE("a chain's 𝒜: block LDLᵀ, block cyclic reduction and the leaves-first tree kernel agree",
                   "[minverse][schur][block_tridiagonal]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const int n : {1, 2, 3, 9, 30, 100}) {
    for (const bool mixed : {false, true}) {
      const Model<T> model =
          (mixed ? robots::random_chain<double>(n, 77u + static_cast<unsigned>(n),
                                                {JointType::spherical, JointType::planar, JointType::helical})
                 : robots::random_chain<double>(n, 77u + static_cast<unsigned>(n), {JointType::revolute}))
              .template cast<T>();
      INFO("n = " << n);
      Data<T> data(model);
      SchurWorkspace<T> ws(model);
      REQUIRE(ws.is_chain());
      schur_operators(model, data, ws, random_state(model, 5400u).q);
      const BlockTridiagonal<T> A = ws.A_chain;
      const MatrixX<T> dense = A.to_dense();
      const double kappa = spd_condition(dense);
      Rng rng(5401u + static_cast<unsigned>(n));
      const MatrixX<T> B = rng.matrix<T>(A.dim(), 3);
      const Eigen::MatrixXd ref = dense.template cast<double>().llt().solve(B.template cast<double>());
      const double tol = 64.0 * (A.dim() + 1) * eps<T>() * kappa * (ref.norm() + 1.0);

      BlockTridiagonal<T> F = A;
      REQUIRE(block_tridiagonal_factor(F).ok());
      MatrixX<T> X1 = B;
      block_tridiagonal_solve(F, X1);
      BlockCyclicReduction<T> bcr(A.sizes());
      MatrixX<T> X2 = B;
      REQUIRE(block_cyclic_reduction(A, bcr, X2).ok());
      std::vector<int> parents;
      for (int i = 0; i < A.blocks(); ++i) parents.push_back(i - 1);
      SiblingBlockMatrix<T> tree(parents, A.sizes());
      for (int i = 0; i < A.blocks(); ++i) {
        tree.diag(i) = A.diag(i);
        if (i > 0) tree.parent_block(i) = A.lower(i);
      }
      REQUIRE(tree.to_dense() == dense);
      REQUIRE(sibling_block_ldlt(tree).ok());
      MatrixX<T> X3 = B;
      sibling_block_ldlt_solve(tree, X3);
      CHECK((X1.template cast<double>() - ref).norm() <= tol);
      CHECK((X2.template cast<double>() - ref).norm() <= tol);
      CHECK((X3.template cast<double>() - ref).norm() <= tol);
    }
  }
}

TEMPLATE_TEST_CASE("the leaves-first tree kernel solves 𝒜 of random trees like a dense Cholesky",
                   "[minverse][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (int seed = 0; seed < 30; ++seed) {
    const Model<T> model = robots::random_tree<double>(3 + seed, 300u + static_cast<unsigned>(seed)).template cast<T>();
    INFO("seed " << seed);
    Data<T> data(model);
    SchurWorkspace<T> ws(model);
    schur_operators(model, data, ws, random_state(model, 5500u).q);
    if (ws.is_chain()) continue;
    const MatrixX<T> dense = ws.A_tree.to_dense();
    if (dense.rows() == 0) continue;
    const double kappa = spd_condition(dense);
    Rng rng(5501u + static_cast<unsigned>(seed));
    const MatrixX<T> B = rng.matrix<T>(static_cast<int>(dense.rows()), 2);
    const Eigen::MatrixXd ref = dense.template cast<double>().llt().solve(B.template cast<double>());
    SiblingBlockMatrix<T> F = ws.A_tree;
    REQUIRE(sibling_block_ldlt(F).ok());
    MatrixX<T> X = B;
    sibling_block_ldlt_solve(F, X);
    CHECK((X.template cast<double>() - ref).norm() <= 64.0 * static_cast<double>(dense.rows() + 1) * eps<T>() * kappa * (ref.norm() + 1.0));
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("SchurWorkspace rejects a singular inertia away from the fixed base, naming the body", "[minverse][schur]") {
  ModelBuilder<double> b;
  const RigidInertia<double> solid = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.1, 0.0, 0.0), Matrix3<double>(Vector3<double>(0.1, 0.2, 0.25).asDiagonal()));
  const int root = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), xlt(Vector3<double>::Zero()), solid);
  b.add_body(root, Joint<double>::revolute(Vector3<double>::UnitY()), xlt(Vector3<double>(0.5, 0, 0)),
             RigidInertia<double>::zero(), "massless_link");
  const Model<double> model = b.build();
  REQUIRE_THROWS_AS(SchurWorkspace<double>(model), std::invalid_argument);
  REQUIRE_THROWS_WITH(SchurWorkspace<double>(model), Catch::Contains("massless_link"));
  // puma560's massless link 1 sits on the fixed base: regularised, accepted (and checked above)
  REQUIRE_NOTHROW(SchurWorkspace<double>(robots::puma560<double>()));
}
#endif
