// L·x, Lᵀ·x, L⁻¹·x, L⁻ᵀ·x (Featherstone (2005) App. A), their unit-diagonal forms, and the solves with A,
// against dense Eigen triangularView results, for vectors and for matrices of right-hand sides.
#include <catch2/catch.hpp>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "kernels/cases.hpp"
#include "support/tolerance.hpp"
#include "support/tree_matrices.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/kernels/ltl.hpp"
#include "treedyn/kernels/tree_products.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

/// |actual − reference| ≤ γ · bound componentwise, γ = 4 (n+1) ε_T: the backward-error bound of a
/// triangular product or solve (Higham Thm 8.5), with bound = |L| |x| evaluated in double.
template <class T>
void require_componentwise(const Eigen::MatrixXd& actual, const Eigen::MatrixXd& reference, const Eigen::MatrixXd& bound) {
  const double gamma = 4.0 * static_cast<double>(actual.rows() + 1) * eps<T>();
  const Eigen::ArrayXXd excess = (actual - reference).cwiseAbs().array() - gamma * bound.array();
  INFO("max excess over the bound: " << excess.maxCoeff());
  REQUIRE((excess <= 0.0).all());
}

/// Normwise forward error ‖x − x_ref‖ ≤ c n ε κ ‖x_ref‖ for a solve with condition number κ.
template <class T>
void require_forward(const Eigen::MatrixXd& x, const Eigen::MatrixXd& ref, double kappa) {
  const double tol = 8.0 * static_cast<double>(x.rows()) * eps<T>() * kappa * ref.norm();
  INFO("forward error " << (x - ref).norm() << ", tolerance " << tol << ", κ = " << kappa);
  REQUIRE((x - ref).norm() <= tol);
}

double triangular_condition(const Eigen::MatrixXd& L) {
  const Eigen::MatrixXd inv = L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(L.rows(), L.cols()));
  return L.lpNorm<Eigen::Infinity>() * inv.lpNorm<Eigen::Infinity>() + 1.0;
}

template <class T, class F>
void for_vector_and_matrix(int n, Rng& rng, F&& check) {
  check(MatrixX<T>(rng.matrix<T>(n, 1)));
  check(MatrixX<T>(rng.matrix<T>(n, 3)));
}

template <class T>
void check_products(const TreeCase& c, const MatrixX<T>& factored, bool unit, Rng& rng) {
  const int n = static_cast<int>(c.lambda.size());
  const Eigen::MatrixXd L = dense_factor(factored, c.lambda, unit).template cast<double>();
  const double kappa_L = triangular_condition(L);
  for_vector_and_matrix<T>(n, rng, [&](const MatrixX<T>& x) {
    const Eigen::MatrixXd xd = x.template cast<double>();
    const Eigen::MatrixXd absLx = L.cwiseAbs() * xd.cwiseAbs();
    const Eigen::MatrixXd absLtx = L.cwiseAbs().transpose() * xd.cwiseAbs();

    MatrixX<T> y = x;  // y ← L x, in place
    if (unit) mul_l_unit(factored, c.lambda, y); else mul_l(factored, c.lambda, y);
    require_componentwise<T>(y.template cast<double>(), L.triangularView<Eigen::Lower>() * xd, absLx);

    MatrixX<T> z(n, x.cols());  // z ← Lᵀ x, out of place
    if (unit) mul_lt_unit(factored, c.lambda, x, z); else mul_lt(factored, c.lambda, x, z);
    require_componentwise<T>(z.template cast<double>(), L.triangularView<Eigen::Lower>().transpose() * xd, absLtx);

    MatrixX<T> s = x;  // s ← L⁻¹ x: backward error |L s − x| ≤ γ|L||s|, and forward error vs the dense solve
    if (unit) solve_l_unit(factored, c.lambda, s); else solve_l(factored, c.lambda, s);
    const Eigen::MatrixXd sd = s.template cast<double>();
    require_componentwise<T>(L * sd, xd, L.cwiseAbs() * sd.cwiseAbs());
    require_forward<T>(sd, L.triangularView<Eigen::Lower>().solve(xd), kappa_L);

    MatrixX<T> t = x;  // t ← L⁻ᵀ x
    if (unit) solve_lt_unit(factored, c.lambda, t); else solve_lt(factored, c.lambda, t);
    const Eigen::MatrixXd td = t.template cast<double>();
    require_componentwise<T>(L.transpose() * td, xd, L.cwiseAbs().transpose() * td.cwiseAbs());
    require_forward<T>(td, L.triangularView<Eigen::Lower>().transpose().solve(xd), kappa_L);
  });
}

}  // namespace

TEMPLATE_TEST_CASE("L·x, Lᵀ·x, L⁻¹·x, L⁻ᵀ·x equal dense triangular results (LTL factors)", "[kernels][products]",
                   float, double) {
  using T = TestType;
  Rng rng(21);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    MatrixX<T> A = random_tree_spd<T>(c.lambda, rng);
    REQUIRE(ltl(A, c.lambda).ok());
    check_products<T>(c, A, false, rng);
  }
}

TEMPLATE_TEST_CASE("unit-diagonal products and solves equal dense results (LTDL factors)", "[kernels][products]",
                   float, double) {
  using T = TestType;
  Rng rng(22);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    MatrixX<T> A = random_tree_spd<T>(c.lambda, rng);
    REQUIRE(ltdl(A, c.lambda).ok());
    check_products<T>(c, A, true, rng);
  }
}

TEMPLATE_TEST_CASE("ltl_solve, ltdl_solve and ltdl_solve_packed solve A x = b", "[kernels][solve]", float, double) {
  using T = TestType;
  Rng rng(23);
  for (const TreeCase& c : kernel_cases()) {
    INFO(c.name);
    const int n = static_cast<int>(c.lambda.size());
    const MatrixX<T> A0 = random_tree_spd<T>(c.lambda, rng);
    const Eigen::MatrixXd Ad = symmetric_from_lower(A0).template cast<double>();
    const double kappa = spd_condition(Ad);
    MatrixX<T> F_ltl = A0, F_ltdl = A0;
    REQUIRE(ltl(F_ltl, c.lambda).ok());
    REQUIRE(ltdl(F_ltdl, c.lambda).ok());
    const AncestorPattern pattern(c.lambda);
    VectorX<T> packed(pattern.nonzeros());
    pattern.pack(A0, packed);
    REQUIRE(ltdl_packed(packed, pattern).ok());
    for_vector_and_matrix<T>(n, rng, [&](const MatrixX<T>& b) {
      const Eigen::MatrixXd ref = Eigen::LLT<Eigen::MatrixXd>(Ad).solve(b.template cast<double>());
      MatrixX<T> x1 = b, x2 = b, x3 = b;
      ltl_solve(F_ltl, c.lambda, x1);
      ltdl_solve(F_ltdl, c.lambda, x2);
      ltdl_solve_packed(packed, pattern, x3);
      require_forward<T>(x1.template cast<double>(), ref, kappa);
      require_forward<T>(x2.template cast<double>(), ref, kappa);
      require_forward<T>(x3.template cast<double>(), ref, kappa);
    });
  }
}

TEST_CASE("kernels accept block expressions, Ref and Map, and vectors of any storage", "[kernels][api]") {
  const std::vector<int> lambda{-1, 0, 0, 1, 1, 2, 2};
  Rng rng(24);
  const Eigen::MatrixXd A0 = random_tree_spd<double>(lambda, rng);
  Eigen::MatrixXd big = Eigen::MatrixXd::Zero(9, 9);
  big.block(1, 2, 7, 7) = A0;
  REQUIRE(ltdl(big.block(1, 2, 7, 7), lambda).ok());  // a temporary block expression
  Eigen::MatrixXd F = A0;
  Eigen::Ref<Eigen::MatrixXd> ref(F);
  REQUIRE(ltdl(ref, lambda).ok());
  REQUIRE((big.block(1, 2, 7, 7) - F).cwiseAbs().maxCoeff() == 0.0);
  Eigen::MatrixXd B = rng.matrix<double>(7, 2);
  Eigen::MatrixXd X = B;
  ltdl_solve(F, lambda, X.col(1));  // a column of a matrix
  Eigen::VectorXd x = B.col(1);
  ltdl_solve(F, lambda, x);
  REQUIRE((X.col(1) - x).cwiseAbs().maxCoeff() == 0.0);
  Eigen::Map<Eigen::VectorXd> mapped(B.col(0).data(), 7);
  ltdl_solve(F, lambda, mapped);
  REQUIRE((A0 * B.col(0) - X.col(0)).norm() < 1e-12);
  const Eigen::VectorXi lambda_eigen = Eigen::Map<const Eigen::VectorXi>(lambda.data(), 7);
  Eigen::MatrixXd G = A0;
  REQUIRE(ltdl(G, lambda_eigen).ok());
  REQUIRE((G - F).cwiseAbs().maxCoeff() == 0.0);
}
