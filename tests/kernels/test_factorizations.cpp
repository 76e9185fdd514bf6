// LTL and LTDL (seed 000 §2 and App. A): reconstruction, pattern discipline, agreement with dense Cholesky,
// failure reporting, and the optimised run-based LTDL against the faithful one.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

#include "kernels/cases.hpp"
#include "support/tolerance.hpp"
#include "support/tree_matrices.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltdl_runs.hpp"
#include "treedyn/kernels/ltl.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

/// Fills the lower triangle's off-pattern entries with NaN and the strict upper triangle with
/// recognisable values, so that a kernel reading or writing outside its pattern is caught.
template <class M>
void poison(M& A, const std::vector<int>& lambda) {
  using T = typename M::Scalar;
  const auto pattern = lower_pattern(lambda);
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      if (i < j) A(i, j) = T(1000) + T(static_cast<float>(i)) - T(static_cast<float>(j) / 7.0f);
      else if (!pattern(i, j)) A(i, j) = std::numeric_limits<T>::quiet_NaN();
    }
}

/// The poison survived: every off-pattern lower entry is still NaN and the upper triangle is bit-identical.
template <class M>
void require_untouched_outside_pattern(const M& factored, const M& poisoned, const std::vector<int>& lambda) {
  const auto pattern = lower_pattern(lambda);
  int touched = 0;
  for (Eigen::Index j = 0; j < factored.cols(); ++j)
    for (Eigen::Index i = 0; i < factored.rows(); ++i) {
      if (i < j && !(factored(i, j) == poisoned(i, j))) ++touched;
      if (i >= j && !pattern(i, j) && !std::isnan(factored(i, j))) ++touched;
    }
  REQUIRE(touched == 0);
}

/// Componentwise backward-error check of a factorization: |Lᵀ D L − A| ≤ γ (|L|ᵀ |D| |L|), γ = 4 (n+1) ε
/// (Higham, Accuracy and Stability of Numerical Algorithms, Thm 10.3, for the reverse-ordered Cholesky).
template <class T>
void require_reconstructs(const Eigen::MatrixXd& A, const Eigen::MatrixXd& L, const Eigen::VectorXd& d) {
  const int n = static_cast<int>(A.rows());
  const Eigen::MatrixXd rebuilt = L.transpose() * d.asDiagonal() * L;
  const Eigen::MatrixXd bound = L.cwiseAbs().transpose() * d.cwiseAbs().asDiagonal() * L.cwiseAbs();
  const double gamma = 4.0 * (n + 1) * eps<T>();
  const Eigen::ArrayXXd excess = (rebuilt - A).cwiseAbs().array() - gamma * bound.array();
  INFO("max excess over the backward-error bound: " << excess.maxCoeff());
  REQUIRE((excess <= 0.0).all());
}

}  // namespace

TEMPLATE_TEST_CASE("ltdl: Lᵀ D L reproduces A without touching anything outside the pattern", "[kernels][ltdl]",
                   float, double) {
  using T = TestType;
  Rng rng(11);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    const MatrixX<T> A0 = random_tree_spd<T>(c.lambda, rng);
    MatrixX<T> A = A0;
    poison(A, c.lambda);
    const MatrixX<T> poisoned = A;
    const FactorStatus status = ltdl(A, c.lambda);
    REQUIRE(status.ok());
    REQUIRE(status.row == -1);
    require_untouched_outside_pattern(A, poisoned, c.lambda);
    const Eigen::MatrixXd L = dense_factor(A, c.lambda, true).template cast<double>();
    const Eigen::VectorXd d = A.diagonal().template cast<double>();
    REQUIRE((d.array() > 0.0).all());
    require_reconstructs<T>(symmetric_from_lower(A0).template cast<double>(), L, d);
  }
}

TEMPLATE_TEST_CASE("ltl: Lᵀ L reproduces A and equals Eigen's LLT of the reverse-permuted matrix",
                   "[kernels][ltl]", float, double) {
  using T = TestType;
  Rng rng(12);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    const int n = static_cast<int>(c.lambda.size());
    const MatrixX<T> A0 = random_tree_spd<T>(c.lambda, rng);
    MatrixX<T> A = A0;
    poison(A, c.lambda);
    const MatrixX<T> poisoned = A;
    REQUIRE(ltl(A, c.lambda).ok());
    require_untouched_outside_pattern(A, poisoned, c.lambda);
    const Eigen::MatrixXd L = dense_factor(A, c.lambda, false).template cast<double>();
    const Eigen::MatrixXd Ad = symmetric_from_lower(A0).template cast<double>();
    require_reconstructs<T>(Ad, L, Eigen::VectorXd::Ones(n));

    // Seed 000 §3: LTL is Cholesky of the reversed matrix. With P the reversal, P A P = Lc Lcᵀ and
    // L = P Lcᵀ P, i.e. L(i, j) = Lc(n−1−j, n−1−i). The reference is computed in T by Eigen.
    const MatrixX<T> reversed = symmetric_from_lower(A0).reverse();
    const MatrixX<T> Lc = Eigen::LLT<MatrixX<T>>(reversed).matrixL();
    const double kappa = spd_condition(Ad);
    const double tol = 8.0 * n * eps<T>() * kappa * L.cwiseAbs().maxCoeff();
    double worst = 0.0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        worst = std::max(worst, std::abs(L(i, j) - static_cast<double>(Lc(n - 1 - j, n - 1 - i))));
    INFO("max |L − reversed LLT| = " << worst << ", tolerance " << tol << ", κ = " << kappa);
    REQUIRE(worst <= tol);
  }
}

TEMPLATE_TEST_CASE("ltdl / ltl report the row of a non-positive pivot and stop there", "[kernels][status]", float,
                   double) {
  using T = TestType;
  Rng rng(13);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    const int n = static_cast<int>(c.lambda.size());
    const MatrixX<T> A0 = random_tree_spd<T>(c.lambda, rng);
    MatrixX<T> F = A0;
    REQUIRE(ltdl(F, c.lambda).ok());
    for (int r : {n - 1, n / 2, 0}) {
      INFO("row " << r);
      // Rows below r do not depend on A(r, r); lowering it by D_r + 1 makes pivot r equal to −1.
      MatrixX<T> A = A0;
      A(r, r) -= F(r, r) + T(1);
      MatrixX<T> B = A;
      const FactorStatus s1 = ltdl(A, c.lambda);
      REQUIRE_FALSE(s1.ok());
      REQUIRE(s1.code == FactorStatus::Code::non_positive_pivot);
      REQUIRE(s1.row == r);
      const FactorStatus s2 = ltl(B, c.lambda);
      REQUIRE_FALSE(s2.ok());
      REQUIRE(s2.row == r);
      REQUIRE_FALSE(B.diagonal().array().isNaN().any());  // no square root of a negative number was taken
      AncestorRuns runs(c.lambda);
      MatrixX<T> C = A0;
      C(r, r) -= F(r, r) + T(1);
      REQUIRE(ltdl_runs(C, runs).row == r);
    }
    MatrixX<T> N = A0;  // a NaN pivot is not positive either
    N(n - 1, n - 1) = std::numeric_limits<T>::quiet_NaN();
    REQUIRE(ltdl(N, c.lambda).row == n - 1);
  }
}

TEMPLATE_TEST_CASE("ltdl_runs (optimised) equals the faithful ltdl, column- and row-major", "[kernels][ltdl_runs]",
                   float, double) {
  using T = TestType;
  using RowMajorX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Rng rng(14);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    const int n = static_cast<int>(c.lambda.size());
    const AncestorRuns runs(c.lambda);
    MatrixX<T> A0 = random_tree_spd<T>(c.lambda, rng);
    MatrixX<T> faithful = A0;
    REQUIRE(ltdl(faithful, c.lambda).ok());

    MatrixX<T> col = A0;
    poison(col, c.lambda);
    const MatrixX<T> poisoned = col;
    REQUIRE(ltdl_runs(col, runs).ok());
    require_untouched_outside_pattern(col, poisoned, c.lambda);

    RowMajorX row = poisoned;
    REQUIRE(ltdl_runs(row, runs).ok());
    require_untouched_outside_pattern(MatrixX<T>(row), poisoned, c.lambda);

    // Same operations per entry in the same order: differences are rounding only (fused vs separate
    // multiply-subtract), bounded like the backward error of the factorization itself.
    const double kappa = spd_condition(A0);
    const double tol = 8.0 * n * eps<T>() * kappa * static_cast<double>(dense_factor(faithful, c.lambda, false).cwiseAbs().maxCoeff());
    const MatrixX<T> Lf = dense_factor(faithful, c.lambda, false);
    REQUIRE(static_cast<double>((dense_factor(col, c.lambda, false) - Lf).cwiseAbs().maxCoeff()) <= tol);
    REQUIRE(static_cast<double>((dense_factor(MatrixX<T>(row), c.lambda, false) - Lf).cwiseAbs().maxCoeff()) <= tol);
  }
}

TEST_CASE("AncestorRuns splits each path into contiguous index runs", "[kernels][ltdl_runs]") {
  const std::vector<int> lambda{-1, 0, 1, 2, 1, 3, 3, 4, 7, 8, 4};  // seed 000 Fig. 2, 0-based
  const AncestorRuns runs(lambda);
  std::vector<std::pair<int, int>> got;
  runs.for_each_path_run(9, [&](int s, int e) { got.emplace_back(s, e); });
  // path of node 9: 9, 8, 7, 4, 1, 0 → runs [7, 9], [4, 4], [0, 1]
  REQUIRE(got == std::vector<std::pair<int, int>>{{7, 9}, {4, 4}, {0, 1}});
  got.clear();
  runs.for_each_ancestor_run(7, [&](int s, int e) { got.emplace_back(s, e); });
  REQUIRE(got == std::vector<std::pair<int, int>>{{4, 4}, {0, 1}});
  got.clear();
  runs.for_each_ancestor_run(0, [&](int s, int e) { got.emplace_back(s, e); });
  REQUIRE(got.empty());
  REQUIRE_THROWS_WITH(AncestorRuns(std::vector<int>{-1, 1}),
                      Catch::Contains("entry 1 has parent 1") && Catch::Contains("regular numbering"));
}
