// The operators of Fijany's Schur-complement M⁻¹ (test_schur.cpp checks the inverse itself): 𝒜, ℬ, 𝒢 equal
// their dense definitions 𝒲ᵀK𝒲, 𝒲ᵀK𝒮, 𝒮ᵀK𝒮 with K = 𝒫𝓘⁻¹𝒫ᵀ built from 6×6 matrices; the chain's 𝒜 is
// solved alike by block LDLᵀ, block cyclic reduction and the leaves-first tree kernel, and a tree's 𝒜 by
// the leaves-first kernel like a dense Cholesky.
#include <catch2/catch.hpp>

#include <Eigen/Cholesky>

#include "algorithms/minverse/schur_cases.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/kernels/block_cyclic_reduction.hpp"

using namespace treedyn;
using namespace treedyn::test;

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
