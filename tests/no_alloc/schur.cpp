// No allocation in Fijany's Schur-complement M⁻¹ and the block kernels it runs on.
#include "no_alloc/no_alloc_support.hpp"
#include "support/scalars.hpp"

// Fijany's Schur-complement M⁻¹: block-tridiagonal kernels, the leaves-first tree kernel, schur_operators,
// minverse_schur and minverse_apply_schur, with every workspace built before the guard.
#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/kernels/block_cyclic_reduction.hpp"

namespace {

template <class T>
void require_schur_allocation_free(const Model<T>& model) {
  using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  Data<T> data(model);
  SchurWorkspace<T> ws(model);
  const VectorX q = random_configuration(model, 11);
  const VectorX tau = VectorX::LinSpaced(model.nv(), T(-1), T(1));
  schur_operators(model, data, ws, q);
  const BlockTridiagonal<T> A_chain = ws.A_chain;
  const SiblingBlockMatrix<T> A_tree = ws.A_tree;
  BlockTridiagonal<T> F_chain = A_chain;
  SiblingBlockMatrix<T> F_tree = A_tree;
  BlockCyclicReduction<T> bcr(A_chain.sizes());
  const MatrixX B0 = MatrixX::Ones(ws.nw(), 3);
  MatrixX X = B0;
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state") << ", chain: " << ws.is_chain());
    CHECK(allocations_in([&] { schur_operators(model, data, ws, q); }) == 0);
    CHECK(allocations_in([&] { minverse_apply_schur(model, data, ws, q, tau); }) == 0);
    CHECK(allocations_in([&] { minverse_schur(model, data, ws, q); }) == 0);
    REQUIRE(ws.status.ok());
    if (ws.is_chain()) {
      CHECK(allocations_in([&] {
              F_chain = A_chain;
              (void)block_tridiagonal_factor(F_chain);
              X = B0;
              block_tridiagonal_solve(F_chain, X);
              block_tridiagonal_solve(F_chain, X.col(1));
              X = B0;
              (void)block_cyclic_reduction(A_chain, bcr, X);
              block_cyclic_reduction_solve(bcr, X.leftCols(2));
            }) == 0);
    } else {
      CHECK(allocations_in([&] {
              F_tree = A_tree;
              (void)sibling_block_ldlt(F_tree);
              X = B0;
              sibling_block_ldlt_solve(F_tree, X);
              sibling_block_ldlt_solve(F_tree, X.col(2));
            }) == 0);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("Schur-complement M⁻¹ and its block kernels never allocate", "[no_alloc][minverse][schur]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const Model<double>& md :
       {robots::humanoid30<double>(), robots::chain30<double>(), robots::puma560<double>(),
        robots::random_tree<double>(12, 4),
        robots::random_chain<double>(9, 3, {JointType::revolute, JointType::helical, JointType::spherical,
                                            JointType::planar, JointType::free_flyer})})
    require_schur_allocation_free(md.cast<T>());
}
