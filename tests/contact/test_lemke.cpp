// Lemke's method on dense LCPs, independent of the contact layer: random monotone problems checked for
// complementarity, agreement with brute-force enumeration of the complementary bases for n ≤ 10, ray
// termination on infeasible problems, degenerate problems that need the lexicographic rule, bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <Eigen/Dense>

#include "support/random.hpp"
#include "treedyn/kernels/lemke.hpp"
#include "treedyn/contact/lemke.hpp"  // the old path forwards (CHANGELOG.md, Layout)

namespace {

using namespace treedyn;
template <class T>
using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

/// A random positive semi-definite M = AᵀA (A of rank `rank` ≤ n) plus a nonnegative diagonal, and a q
/// with entries of both signs.
MatrixX<double> random_psd(test::Rng& rng, int n, int rank, double diag) {
  const MatrixX<double> A = rng.matrix<double>(rank, n);
  MatrixX<double> M = A.transpose() * A;
  for (int i = 0; i < n; ++i) M(i, i) += diag * (rng.uniform(0.0, 1.0));
  return M;
}

/// The tolerance on |min(w, z)| for a problem solved in Scalar: every entry of w is a sum of n products,
/// so c·n·ε·(‖M‖·‖z‖ + ‖q‖) with c = 10; pivoting on a tableau whose entries are ratios of M's entries
/// adds the condition number of the final basis, which for these problems is at most ~1e3 (asserted by
/// the caller through `kappa`).
template <class T>
double residual_bound(const MatrixX<double>& M, const VectorX<double>& q, const VectorX<double>& z, double kappa) {
  const double eps = std::numeric_limits<T>::epsilon();
  const auto n = static_cast<double>(q.size());
  return 10.0 * n * eps * kappa * (M.cwiseAbs().maxCoeff() * z.cwiseAbs().maxCoeff() + q.cwiseAbs().maxCoeff());
}

/// The condition number (2-norm) of M's principal submatrix on the support of z: the basis Lemke ends on.
double basis_condition(const MatrixX<double>& M, const VectorX<double>& z) {
  std::vector<int> s;
  for (int i = 0; i < z.size(); ++i)
    if (z(i) > 0) s.push_back(i);
  if (s.empty()) return 1.0;
  MatrixX<double> B(s.size(), s.size());
  for (std::size_t a = 0; a < s.size(); ++a)
    for (std::size_t b = 0; b < s.size(); ++b) B(a, b) = M(s[a], s[b]);
  const Eigen::JacobiSVD<MatrixX<double>> svd(B);
  return svd.singularValues()(0) / svd.singularValues().tail(1)(0);
}

/// All solutions' z of LCP(q, M) by enumerating the 2ⁿ complementary bases (n ≤ 10): for each support S,
/// z_S = −M_SS⁻¹ q_S must be ≥ 0 and w = M z + q ≥ 0 off S.
std::vector<VectorX<double>> enumerate_solutions(const MatrixX<double>& M, const VectorX<double>& q) {
  const int n = static_cast<int>(q.size());
  std::vector<VectorX<double>> out;
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<int> s;
    for (int i = 0; i < n; ++i)
      if (mask & (1 << i)) s.push_back(i);
    VectorX<double> z = VectorX<double>::Zero(n);
    if (!s.empty()) {
      const auto k = static_cast<Eigen::Index>(s.size());
      MatrixX<double> B(k, k);
      VectorX<double> r(k);
      for (Eigen::Index a = 0; a < k; ++a) {
        r(a) = -q(s[static_cast<std::size_t>(a)]);
        for (Eigen::Index b = 0; b < k; ++b) B(a, b) = M(s[static_cast<std::size_t>(a)], s[static_cast<std::size_t>(b)]);
      }
      const Eigen::FullPivLU<MatrixX<double>> lu(B);
      if (!lu.isInvertible()) continue;
      const VectorX<double> zs = lu.solve(r);
      for (Eigen::Index a = 0; a < k; ++a) z(s[static_cast<std::size_t>(a)]) = zs(a);
    }
    const VectorX<double> w = M * z + q;
    if (z.minCoeff() >= -1e-12 && w.minCoeff() >= -1e-12) out.push_back(z);
  }
  return out;
}

template <class T>
const LcpStatus<T>& solve(LemkeWorkspace<T>& ws, const MatrixX<double>& M, const VectorX<double>& q) {
  const MatrixX<T> Mt = M.cast<T>();
  const VectorX<T> qt = q.cast<T>();
  return lemke(ws, Mt, qt);
}

}  // namespace

TEMPLATE_TEST_CASE("lemke solves random monotone LCPs of sizes 1 to 60", "[lemke]", float, double) {
  test::Rng rng(2024);
  LemkeWorkspace<TestType> ws(60);
  int solved_nontrivially = 0, with_negative_q = 0;
  for (int n = 1; n <= 60; ++n) {
    for (const int rank : {n, (n + 1) / 2}) {                  // definite, and only semi-definite + diagonal
      const MatrixX<double> M = random_psd(rng, n, rank, rank == n ? 0.1 : 1.0);
      const VectorX<double> q = rng.matrix<double>(n, 1);
      INFO("n = " << n << ", rank = " << rank);
      const LcpStatus<TestType>& s = solve(ws, M, q);
      REQUIRE(s.code == LcpStatus<TestType>::Code::success);
      REQUIRE(ws.size() == n);
      const VectorX<double> z = ws.z().template cast<double>();
      const double kappa = basis_condition(M, z);
      INFO("condition of the final basis " << kappa << ", pivots " << s.pivots);
      CHECK(kappa < 1e4);
      const double bound = residual_bound<TestType>(M, q, z, kappa);
      CHECK(static_cast<double>(s.residual) <= bound);
      // The residual it reports is that of the z it returns, recomputed here in double.
      const VectorX<double> w = M * z + q;
      CHECK(w.cwiseMin(z).cwiseAbs().maxCoeff() <= bound + 10.0 * n * std::numeric_limits<double>::epsilon());
      CHECK(z.minCoeff() >= 0.0);
      if (s.pivots > 0) ++solved_nontrivially;
      if (q.minCoeff() < 0) ++with_negative_q;
      CHECK(s.pivots <= 2 * n + 1);  // monotone LCPs: at most one pivot in and one out per unknown, plus z₀
    }
  }
  CHECK(solved_nontrivially == with_negative_q);  // pivots exactly when z = 0 is not the solution
  CHECK(with_negative_q >= 110);                  // of the 120 problems (the smallest draw q ≥ 0 at times)
}

TEST_CASE("lemke agrees with brute-force enumeration for n <= 10", "[lemke]") {
  test::Rng rng(77);
  LemkeWorkspace<double> ws(10);
  for (int n = 1; n <= 10; ++n) {
    for (int trial = 0; trial < 3; ++trial) {
      // Positive definite: a P-matrix, so the LCP has exactly one solution.
      const MatrixX<double> M = random_psd(rng, n, n, 0.5) + 0.05 * MatrixX<double>::Identity(n, n);
      const VectorX<double> q = rng.matrix<double>(n, 1);
      const std::vector<VectorX<double>> all = enumerate_solutions(M, q);
      INFO("n = " << n << ", trial " << trial);
      REQUIRE(all.size() == 1);
      REQUIRE(lemke(ws, M, q).ok());
      const double scale = all[0].cwiseAbs().maxCoeff() + 1.0;
      CHECK((ws.z() - all[0]).cwiseAbs().maxCoeff() <= 1e3 * std::numeric_limits<double>::epsilon() * scale);
    }
  }
  SECTION("a positive semi-definite M with several solutions: lemke returns one of them") {
    MatrixX<double> M(3, 3);
    M << 1, 1, 0,  //
        1, 1, 0,   //
        0, 0, 2;
    VectorX<double> q(3);
    q << -1, -1, -2;
    const std::vector<VectorX<double>> all = enumerate_solutions(M, q);  // z1 + z2 = 1 has vertices (1,0), (0,1)
    REQUIRE(all.size() == 2);
    REQUIRE(lemke(ws, M, q).ok());
    const VectorX<double> z = ws.z();
    CHECK(((z - all[0]).cwiseAbs().maxCoeff() < 1e-12 || (z - all[1]).cwiseAbs().maxCoeff() < 1e-12));
    CHECK(z(2) == Approx(1.0).epsilon(1e-14));
  }
}

TEST_CASE("lemke: infeasible LCPs end in ray termination, never a wrong answer", "[lemke]") {
  LemkeWorkspace<double> ws(3);
  using Code = LcpStatus<double>::Code;
  SECTION("w1 + w2 = -2 with both >= 0 is impossible") {
    MatrixX<double> M(2, 2);
    M << 1, -1,  //
        -1, 1;   // positive semi-definite
    VectorX<double> q(2);
    q << -1, -1;
    REQUIRE(enumerate_solutions(M, q).empty());
    CHECK(lemke(ws, M, q).code == Code::ray_termination);
  }
  SECTION("M = 0 and a negative q") {
    const MatrixX<double> M = MatrixX<double>::Zero(3, 3);
    VectorX<double> q(3);
    q << 1, -0.5, 2;
    CHECK(lemke(ws, M, q).code == Code::ray_termination);
  }
}

TEST_CASE("lemke on degenerate LCPs: the lexicographic rule terminates where the plain rule cycles", "[lemke]") {
  using Code = LcpStatus<double>::Code;
  LemkeWorkspace<double> lex(4), plain(4);
  plain.tie_rule = LemkeTieRule::first_row;
  plain.max_pivots = 300;
  lex.max_pivots = 300;
  SECTION("a problem on which the plain rule cycles") {
    // Found by a search over small integer problems and confirmed in exact rational arithmetic: with the
    // lowest row among ties the method returns to a basis it has left and pivots for ever; the
    // lexicographic rule solves it in 5 pivots.
    MatrixX<double> M(4, 4);
    M << 0, -2, -2, -2,  //
        1, 1, 1, 2,      //
        2, 2, -1, -2,    //
        1, -1, 1, 0;
    VectorX<double> q(4);
    q << 1, -1, -1, -1;
    CHECK(lemke(plain, M, q).code == Code::pivot_cap);
    const LcpStatus<double>& s = lemke(lex, M, q);
    REQUIRE(s.code == Code::success);
    CHECK(s.pivots == 5);
    CHECK(s.residual == 0.0);
    const std::vector<VectorX<double>> all = enumerate_solutions(M, q);
    bool listed = false;
    for (const VectorX<double>& z : all) listed = listed || (z - lex.z()).cwiseAbs().maxCoeff() < 1e-12;
    CHECK(listed);
  }
  // Ties in the ratio test at zero on positive semi-definite problems: q's negative entries are equal and
  // one is zero, so several basic variables reach zero at once. The lexicographic rule solves every
  // feasible one and ends every infeasible one (M PSD is copositive-plus: a ray proves infeasibility) in a
  // ray, as enumeration of the complementary bases confirms.
  test::Rng rng(5);
  int degenerate_solved = 0, infeasible = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 3 + trial % 2;
    MatrixX<double> M(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) M(i, j) = static_cast<double>(rng.below(5)) - 2.0;
    M += MatrixX<double>(M.transpose());            // symmetric integer entries
    M += 5.0 * MatrixX<double>::Identity(n, n);     // often positive (semi-)definite...
    const Eigen::SelfAdjointEigenSolver<MatrixX<double>> eig(M);
    if (eig.eigenvalues().minCoeff() < -1e-9) continue;  // ...else skipped
    VectorX<double> q = VectorX<double>::Constant(n, -1.0);
    q(rng.below(n)) = 0.0;                             // ties: every negative entry equal, one zero
    INFO("trial " << trial << "\nM =\n" << M << "\nq = " << q.transpose());
    const std::vector<VectorX<double>> all = enumerate_solutions(M, q);
    const LcpStatus<double>& s = lemke(lex, M, q);
    if (all.empty()) {
      CHECK(s.code == Code::ray_termination);
      ++infeasible;
      continue;
    }
    REQUIRE(s.code == Code::success);
    CHECK(s.residual <= 1e-12);
    bool listed = false;
    for (const VectorX<double>& z : all) listed = listed || (z - lex.z()).cwiseAbs().maxCoeff() < 1e-9;
    CHECK(listed);
    ++degenerate_solved;
  }
  CHECK(degenerate_solved > 100);
  CHECK(infeasible > 0);
}

TEST_CASE("lemke: bad input", "[lemke]") {
  using Code = LcpStatus<double>::Code;
  LemkeWorkspace<double> ws(2);
  MatrixX<double> M = MatrixX<double>::Identity(2, 2);
  VectorX<double> q(2);
  q << -1, std::numeric_limits<double>::quiet_NaN();
  CHECK(lemke(ws, M, q).code == Code::non_finite_input);
  CHECK(ws.z().array().isNaN().all());
  q(1) = 1;
  M(0, 1) = std::numeric_limits<double>::infinity();
  CHECK(lemke(ws, M, q).code == Code::non_finite_input);
  M(0, 1) = 0;
  REQUIRE(lemke(ws, M, q).ok());
  CHECK(ws.z()(0) == 1.0);
  CHECK(ws.z()(1) == 0.0);
  CHECK(ws.w()(1) == 1.0);

  struct Returning {
    static void handler(const CheckFailure&) {}
  };
  const CheckHandler previous = set_check_handler(&Returning::handler);
  const VectorX<double> q3 = VectorX<double>::Ones(3);
  CHECK(lemke(ws, MatrixX<double>::Identity(3, 3), q3).code == Code::invalid_argument);  // above capacity
  CHECK(lemke(ws, MatrixX<double>::Identity(2, 3), q).code == Code::invalid_argument);   // not square
  set_check_handler(previous);
  CHECK(ws.size() == 2);  // the failed calls left the last problem in place
  CHECK(ws.z()(0) == 1.0);
}

TEST_CASE("lemke: an empty problem and q >= 0 take no pivot", "[lemke]") {
  LemkeWorkspace<float> ws(3);
  const MatrixX<float> M0(0, 0);
  const VectorX<float> q0(0);
  CHECK(lemke(ws, M0, q0).ok());
  CHECK(ws.z().size() == 0);
  const MatrixX<float> M = MatrixX<float>::Identity(3, 3);
  const VectorX<float> q = VectorX<float>::Constant(3, 2.0f);
  const LcpStatus<float>& s = lemke(ws, M, q);
  CHECK(s.ok());
  CHECK(s.pivots == 0);
  CHECK(ws.z().isZero());
  CHECK(ws.w() == q);
}
