// Block-tridiagonal kernels of Fijany's M⁻¹: block LDLᵀ (kernels/block_tridiagonal.hpp) and block cyclic
// reduction (kernels/block_cyclic_reduction.hpp) agree with each other and with Eigen's dense solve on
// random SPD block-tridiagonal systems with mixed block sizes 0…6 and 1…200 blocks, and report a block
// that is not positive definite by its first scalar row.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <Eigen/Cholesky>

#include "support/random.hpp"
#include "support/tolerance.hpp"
#include "treedyn/kernels/block_cyclic_reduction.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

/// Block sizes in [0, 6], drawn so that every size (zero included) occurs for long enough sequences.
std::vector<int> random_sizes(int blocks, Rng& rng) {
  std::vector<int> sizes;
  for (int i = 0; i < blocks; ++i) sizes.push_back(rng.below(7));
  return sizes;
}

/// A random SPD block-tridiagonal matrix: random couplings in [−1, 1], diagonal blocks G Gᵀ plus a shift
/// that makes A strictly diagonally dominant by `margin` (so SPD by Gershgorin); a small margin gives a
/// large condition number.
template <class T>
BlockTridiagonal<T> random_spd(const std::vector<int>& sizes, Rng& rng, double margin) {
  BlockTridiagonal<T> A(sizes);
  const int m = A.blocks();
  for (int i = 1; i < m; ++i) A.lower(i) = rng.matrix<T>(A.size(i), A.size(i - 1));
  for (int i = 0; i < m; ++i) {
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> G = rng.matrix<T>(A.size(i), A.size(i));
    A.diag(i) = G * G.transpose();
  }
  const Eigen::MatrixXd dense = A.to_dense().template cast<double>();
  for (int i = 0; i < m; ++i)
    for (int r = 0; r < A.size(i); ++r) {
      const int row = A.offset(i) + r;
      const double off = dense.row(row).cwiseAbs().sum() - std::abs(dense(row, row));
      A.diag(i)(r, r) = static_cast<T>(off + margin);
    }
  return A;
}

}  // namespace

TEMPLATE_TEST_CASE("block LDLᵀ and block cyclic reduction solve random SPD block-tridiagonal systems",
                   "[minverse][schur][block_tridiagonal]", float, double) {
  using T = TestType;
  using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  Rng rng(7001);
  for (const int blocks : {1, 2, 3, 4, 5, 8, 17, 33, 64, 200}) {
    for (const double margin : {1.0, 1e-2}) {
      const std::vector<int> sizes = random_sizes(blocks, rng);
      const BlockTridiagonal<T> A = random_spd<T>(sizes, rng, margin);
      const int n = A.dim();
      INFO("blocks = " << blocks << ", dim = " << n << ", margin = " << margin);
      const int k = 1 + rng.below(4);
      const MatrixX B = rng.matrix<T>(n, k);
      const MatrixX dense = A.to_dense();
      REQUIRE(dense.isApprox(dense.transpose()));
      // reference: Eigen's dense Cholesky in double
      const Eigen::MatrixXd x_ref = dense.template cast<double>().llt().solve(B.template cast<double>());
      const double kappa = n > 0 ? spd_condition(dense) : 1.0;
      const double tol = 8.0 * (n + 1) * eps<T>() * kappa * (x_ref.norm() + 1.0);
      INFO("κ = " << kappa);

      BlockTridiagonal<T> F = A;
      REQUIRE(block_tridiagonal_factor(F).ok());
      MatrixX X_ldlt = B;
      block_tridiagonal_solve(F, X_ldlt);
      CHECK((X_ldlt.template cast<double>() - x_ref).norm() <= tol);

      BlockCyclicReduction<T> ws(sizes);
      MatrixX X_bcr = B;
      REQUIRE(block_cyclic_reduction(A, ws, X_bcr).ok());
      CHECK((X_bcr.template cast<double>() - x_ref).norm() <= tol);
      CHECK(static_cast<double>((X_bcr - X_ldlt).norm()) <= tol);

      // the rvalue overloads: a block expression of a wider matrix, solved in place
      MatrixX wide = MatrixX::Zero(n, k + 2);
      wide.leftCols(k) = B;
      block_tridiagonal_solve(F, wide.leftCols(k));
      CHECK(wide.leftCols(k) == X_ldlt);
      wide.leftCols(k) = B;
      block_cyclic_reduction_solve(ws, wide.leftCols(k));
      CHECK(wide.leftCols(k) == X_bcr);
      CHECK(wide.rightCols(2).isZero(0));
    }
  }
}

TEMPLATE_TEST_CASE("block LDLᵀ names the first scalar row of a block that is not positive definite",
                   "[minverse][schur][block_tridiagonal]", float, double) {
  using T = TestType;
  Rng rng(7002);
  const std::vector<int> sizes = {3, 0, 6, 2, 5, 1, 4};
  for (int bad = 0; bad < static_cast<int>(sizes.size()); ++bad) {
    if (sizes[static_cast<std::size_t>(bad)] == 0) continue;
    BlockTridiagonal<T> A = random_spd<T>(sizes, rng, 1.0);
    A.diag(bad) = -A.diag(bad);
    const BlockTridiagonal<T> original = A;
    const FactorStatus status = block_tridiagonal_factor(A);
    CHECK(status.code == FactorStatus::Code::non_positive_pivot);
    CHECK(status.row == A.offset(bad));
    for (int i = bad + 1; i < A.blocks(); ++i) CHECK(A.diag(i) == original.diag(i));  // untouched below
    BlockCyclicReduction<T> ws(sizes);
    CHECK_FALSE(block_cyclic_reduction_factor(original, ws).ok());
  }
}

TEST_CASE("BlockTridiagonal layout: offsets, sizes and the dense form", "[minverse][schur][block_tridiagonal]") {
  BlockTridiagonal<double> A({2, 0, 3});
  CHECK(A.blocks() == 3);
  CHECK(A.dim() == 5);
  CHECK(A.offset(2) == 2);
  CHECK(A.lower(2).rows() == 3);
  CHECK(A.lower(2).cols() == 0);
  A.diag(0) << 4, 1, 1, 5;
  A.diag(2).setIdentity();
  const Eigen::MatrixXd D = A.to_dense();
  CHECK(D(1, 0) == 1.0);
  CHECK(D(4, 4) == 1.0);
  CHECK(D.block(0, 2, 2, 3).isZero(0));  // an empty block decouples its neighbours
  BlockCyclicReduction<double> ws({2, 0, 3});
  CHECK(ws.levels() == 3);
}
