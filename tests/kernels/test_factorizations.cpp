// LTL and LTDL (Featherstone (2005) §2 and App. A): reconstruction, pattern discipline, agreement with dense Cholesky,
// failure reporting, and the optimised packed-row LTDL against the faithful one.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

#include "kernels/cases.hpp"
#include "support/tolerance.hpp"
#include "support/tree_matrices.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
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

    // Featherstone (2005) §3: LTL is Cholesky of the reversed matrix. With P the reversal, P A P = Lc Lcᵀ and
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
      const AncestorPattern pattern(c.lambda);
      VectorX<T> packed(pattern.nonzeros());
      pattern.pack(A, packed);
      REQUIRE(ltdl_packed(packed, pattern).row == r);
    }
    MatrixX<T> N = A0;  // a NaN pivot is not positive either
    N(n - 1, n - 1) = std::numeric_limits<T>::quiet_NaN();
    REQUIRE(ltdl(N, c.lambda).row == n - 1);
  }
}

TEMPLATE_TEST_CASE("ltdl_packed (optimised) equals the faithful ltdl", "[kernels][ltdl_packed]", float, double) {
  using T = TestType;
  Rng rng(14);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    const int n = static_cast<int>(c.lambda.size());
    const AncestorPattern pattern(c.lambda);
    const MatrixX<T> A0 = random_tree_spd<T>(c.lambda, rng);
    MatrixX<T> faithful = A0;
    REQUIRE(ltdl(faithful, c.lambda).ok());

    MatrixX<T> poisoned = A0;
    poison(poisoned, c.lambda);
    VectorX<T> packed(pattern.nonzeros());
    pattern.pack(poisoned, packed);  // pack reads only structural entries: no NaN gets in
    REQUIRE_FALSE(packed.array().isNaN().any());
    MatrixX<T> roundtrip = poisoned;
    pattern.unpack(packed, roundtrip);
    require_untouched_outside_pattern(roundtrip, poisoned, c.lambda);
    REQUIRE(dense_factor(roundtrip, c.lambda, false) == dense_factor(A0, c.lambda, false));

    REQUIRE(ltdl_packed(packed, pattern).ok());
    MatrixX<T> factored = poisoned;
    pattern.unpack(packed, factored);
    // Same algorithm, one rounding apart per entry (a = A_ki·(1/D_k) instead of A_ki/D_k): the two
    // factors agree to the forward-error bound of the factorization.
    const MatrixX<T> Lf = dense_factor(faithful, c.lambda, false);
    const double tol = 8.0 * n * eps<T>() * spd_condition(A0) * static_cast<double>(Lf.cwiseAbs().maxCoeff());
    REQUIRE(static_cast<double>((dense_factor(factored, c.lambda, false) - Lf).cwiseAbs().maxCoeff()) <= tol);
    require_reconstructs<T>(A0.template cast<double>(), dense_factor(factored, c.lambda, true).template cast<double>(),
                            factored.diagonal().template cast<double>());
  }
}

TEST_CASE("AncestorPattern packs each row as its path to the base", "[kernels][ltdl_packed]") {
  const std::vector<int> lambda{-1, 0, 1, 2, 1, 3, 3, 4, 7, 8, 4};  // Featherstone (2005) Fig. 2, 0-based
  const AncestorPattern pattern(lambda);
  REQUIRE(pattern.size() == 11);
  REQUIRE(pattern.nonzeros() == 11 + cost_metrics(lambda).D1);
  std::vector<int> row9;
  for (int t = pattern.row_start(9); t < pattern.row_start(9) + pattern.row_length(9); ++t)
    row9.push_back(pattern.column(t));
  REQUIRE(row9 == std::vector<int>{9, 8, 7, 4, 1, 0});  // diagonal, then parent, grandparent, …
  REQUIRE(pattern.row_length(0) == 1);
  REQUIRE_THROWS_WITH(AncestorPattern(std::vector<int>{-1, 1}),
                      Catch::Contains("entry 1 has parent 1") && Catch::Contains("regular numbering"));
}
