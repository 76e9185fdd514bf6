// Formulation stiffness (Ascher, Pai & Cloutier (1996), see docs/references.md): the trends of its
// Example 1 and Table 1 (only trends reproduce, not the exact counts), on the computations of
// experiments/formulation_stiffness.hpp, with shortened runs.
//   Table 1, O(κ_max) column: floor(log10 κ_max(H)) = 2, 3, 4, then 5 ×8, and κ_max within 2 % of the
//     independently verified values; a thin-rod model (width 0) would not reproduce it.
//   Table 1, double: the four methods' evaluation counts within 10 % of each other for every r.
//   Table 1, float: n_CRBM / n_ABA ≥ 2 for r ≤ 0.002 and growing as r decreases, while n_ABA stays within
//     1.5× of its r = 0.005 value; the same flatness for the modified ABA.
//   Example 1 / Fig. 1: the float base-joint acceleration of ABA (and of the modified ABA) is within 1e-3
//     of the largest |q̈_base| and its largest error is ≥ 10× smaller than the CRBM's.
// Run lengths (measured; Boost.Odeint controlled Cash–Karp, eps_rel 1e-4, eps_abs 1e-30, first step 1e-3;
// "variations" below = run lengths 1.5–10 s × first steps 1e-4 … 1e-2; crba.hpp as of commit 4841847,
// composite inertias in root-body coordinates, unless said otherwise):
//   * The chain's motion is chaotic: by 10 s two methods that differ only by rounding follow different
//     trajectories (final angles differ by tens of radians even between double and long double runs),
//     and the double counts scatter by 9.5–25 % (worst r, per first step). Over 3 s the
//     trajectories still agree and the worst double scatter was 2.4–6.7 %.
//   * Runs shorter than about 2 s are dominated by the start: x = 0, ẋ_q = 0, so the error scale of q is
//     eps_abs alone and the first step is rejected until its rounding-level error is below 1e-30; this
//     costs 50–200 evaluations, differently for each method's rounding (double scatter 12–27 % at 0.5 s).
//   * Float, 3 s: n_Chol/n_ABA = 0.93, 2.73, 3.66, 8.57 at r = 0.005, 0.002, 0.0018, 0.0015 (full 10 s:
//     0.91, 3.07, 3.89, 8.93; the published CRBM: 0.99, 3.47, 6.98, fail).
// The paper's "CRBM" is Cholesky (Example 1: "Cholesky decomposition was used"), so the ≥ 2-and-
// growing assertion is made on crbm_cholesky: over the variations its ratio at r = 0.002 was 2.52–3.17
// (2.91–3.54 with the previous, local-coordinates crba) and grew from r = 0.005 to 0.0015 in every run.
// The square-root-free LDLᵀ variant turns stiff at smaller r: its ratio at r = 0.002 was 1.11–1.27
// (1.94–2.57 with the previous crba), at 0.0018 2.07–2.80, at 0.0015 3.72–4.80, and at 0.005 0.85–0.97.
// So the LDLᵀ CRBM does NOT reach 2 at r = 0.002; asserted for it: ≥ 2 at r ≤ 0.0018 and growing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "formulation_stiffness.hpp"

using namespace treedyn;
using namespace treedyn::study;

namespace {

constexpr std::size_t crbm_ldlt_i = 0, crbm_cholesky_i = 1, aba_i = 2, modified_aba_i = 3;

IntegratorSettings shortened(double t_end) {
  IntegratorSettings s;
  s.t_end = t_end;
  s.budget = 2'000'000;
  return s;
}

// Float counts at the r values the trends need (3 s runs), computed once for the test cases below.
struct FloatCounts {
  std::vector<double> r{0.005, 0.004, 0.0035, 0.003, 0.0025, 0.002, 0.0018, 0.0015};
  std::vector<std::array<CountResult, 4>> n;
  FloatCounts() {
    for (double ri : r) n.push_back(count_all_methods<float, float>(table1_chain(ri), shortened(3.0)));
  }
  const std::array<CountResult, 4>& at(double ri) const {
    for (std::size_t i = 0; i < r.size(); ++i)
      if (r[i] == ri) return n[i];
    return n.front();
  }
};

const FloatCounts& float_counts() {
  static const FloatCounts counts;
  return counts;
}

}  // namespace

TEST_CASE("Table 1: floor(log10 kappa_max(H)) reproduces seed 004's O(kappa_max) column", "[study][table1]") {
  // verified independently: κ_max over q_distal ∈ [0, 2π], rectangular links 0.1 m wide
  const std::vector<double> verified{5.1e2, 2.0e3, 4.0e4, 1.3e5, 1.8e5, 2.2e5, 2.8e5, 3.7e5, 5.0e5, 5.8e5, 7.4e5};
  const std::vector<double>& rs = table1_ratios();
  REQUIRE(rs.size() == verified.size());
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const double kappa = kappa_max(table1_chain(rs[i]));
    INFO("r = " << rs[i] << ", kappa_max = " << kappa);
    CHECK(static_cast<int>(std::floor(std::log10(kappa))) == table1_kappa_exponents()[i]);
    CHECK(std::fabs(kappa - verified[i]) <= 0.02 * verified[i]);
  }
  // The width matters: thin rods (w = 0) give 1.3e6 at r = 0.002, one order above the paper's column.
  const double rod = kappa_max(robots::two_link<double>(0.998, 0.998, 0.002, 0.002, 0.0));
  INFO("thin rods, r = 0.002: kappa_max = " << rod);
  CHECK(static_cast<int>(std::floor(std::log10(rod))) == 6);
}

TEST_CASE("Table 1 in double: the four methods need the same number of evaluations (within 10 %)",
          "[study][table1]") {
  for (double r : table1_ratios()) {
    const std::array<CountResult, 4> n = count_all_methods<double, double>(table1_chain(r), shortened(3.0));
    long lo = n[0].evaluations, hi = n[0].evaluations;
    for (std::size_t m = 0; m < n.size(); ++m) {
      INFO("r = " << r << ", " << name(all_methods[m]) << ": " << n[m].evaluations << " evaluations " << n[m].reason);
      REQUIRE_FALSE(n[m].failed);
      lo = std::min(lo, n[m].evaluations);
      hi = std::max(hi, n[m].evaluations);
    }
    INFO("r = " << r << ": CRBM-LDLT " << n[0].evaluations << ", CRBM-Chol " << n[1].evaluations << ", ABA "
                << n[2].evaluations << ", modABA " << n[3].evaluations);
    CHECK(static_cast<double>(hi) <= 1.10 * static_cast<double>(lo));
  }
}

TEST_CASE("Table 1 in float: the CRBM needs >= 2x the ABA's evaluations for r <= 0.002, increasingly",
          "[study][table1]") {
  const FloatCounts& fc = float_counts();
  const std::vector<double> trend_r{0.005, 0.002, 0.0018, 0.0015};
  std::vector<double> chol, ldlt;
  for (double r : trend_r) {
    const std::array<CountResult, 4>& n = fc.at(r);
    INFO("r = " << r << ": CRBM-LDLT " << n[0].evaluations << ", CRBM-Chol " << n[1].evaluations << ", ABA "
                << n[2].evaluations << ", modABA " << n[3].evaluations);
    REQUIRE_FALSE(n[aba_i].failed);
    chol.push_back(count_ratio(n[crbm_cholesky_i], n[aba_i]));
    ldlt.push_back(count_ratio(n[crbm_ldlt_i], n[aba_i]));
  }
  INFO("n_Chol/n_ABA at r = 0.005, 0.002, 0.0018, 0.0015: " << chol[0] << ", " << chol[1] << ", " << chol[2] << ", "
                                                           << chol[3]);
  INFO("n_LDLT/n_ABA at the same r: " << ldlt[0] << ", " << ldlt[1] << ", " << ldlt[2] << ", " << ldlt[3]);
  // the paper's CRBM (Cholesky): >= 2 for r <= 0.002 and strictly growing as r decreases from 0.005
  for (std::size_t k = 1; k < chol.size(); ++k) {
    CHECK(chol[k] >= 2.0);
    CHECK(chol[k] > chol[k - 1]);
  }
  // the LDLᵀ variant, stiff from r = 0.0018 on (see the header comment for the measured ranges)
  CHECK(ldlt[2] >= 2.0);
  CHECK(ldlt[3] >= 2.0);
  for (std::size_t k = 1; k < ldlt.size(); ++k) CHECK(ldlt[k] > ldlt[k - 1]);
}

TEST_CASE("Table 1 in float: the ABA's evaluation count stays flat (within 1.5x of r = 0.005)", "[study][table1]") {
  const FloatCounts& fc = float_counts();
  const long base = fc.at(0.005)[aba_i].evaluations;
  for (double r : fc.r) {
    const CountResult& n = fc.at(r)[aba_i];
    INFO("r = " << r << ": ABA " << n.evaluations << " evaluations (r = 0.005: " << base << ") " << n.reason);
    REQUIRE_FALSE(n.failed);
    CHECK(static_cast<double>(n.evaluations) <= 1.5 * static_cast<double>(base));
    CHECK(1.5 * static_cast<double>(n.evaluations) >= static_cast<double>(base));
  }
}

TEST_CASE("Table 1 in float: the modified ABA's evaluation count stays flat (within 1.5x of r = 0.005)",
          "[study][table1][modified_aba]") {
  // Ascher, Pai & Cloutier (1996) §4: the modified ABM is at least as robust as the ABM (it only reorders
  // how D_k is formed).
  const FloatCounts& fc = float_counts();
  const long base = fc.at(0.005)[modified_aba_i].evaluations;
  for (double r : fc.r) {
    const CountResult& n = fc.at(r)[modified_aba_i];
    INFO("r = " << r << ": modABA " << n.evaluations << " evaluations (r = 0.005: " << base << "; ABA "
                << fc.at(r)[aba_i].evaluations << ") " << n.reason);
    REQUIRE_FALSE(n.failed);
    CHECK(static_cast<double>(n.evaluations) <= 1.5 * static_cast<double>(base));
    CHECK(1.5 * static_cast<double>(n.evaluations) >= static_cast<double>(base));
  }
}

TEST_CASE("Example 1: in float the ABA's base-joint acceleration error is >= 10x smaller than the CRBM's",
          "[study][example1]") {
  const Example1Result ex = example1_sweep(example1_chain(), 720);
  INFO("max |error|: CRBM-LDLT " << ex.max_abs_error[crbm_ldlt_i] << ", CRBM-Chol " << ex.max_abs_error[crbm_cholesky_i]
                                 << ", ABA " << ex.max_abs_error[aba_i] << ", modABA " << ex.max_abs_error[modified_aba_i]
                                 << "; max |qdd_ref| " << ex.max_abs_reference);
  // the long double reference is itself sound: ABA and CRBM-LDLT agree far below float's resolution
  REQUIRE(ex.reference_spread <= 1e-9 * ex.max_abs_reference);
  const double crbm = std::min(ex.max_abs_error[crbm_ldlt_i], ex.max_abs_error[crbm_cholesky_i]);
  CHECK(ex.failures[aba_i] == 0);
  CHECK(ex.max_abs_error[aba_i] <= 1e-3 * ex.max_abs_reference);
  CHECK(10.0 * ex.max_abs_error[aba_i] <= crbm);
  // and the CRBM's error is not a rounding-level one: the paper's Fig. 1 shows it of order 1e-3 relative
  CHECK(crbm >= 1e-4 * ex.max_abs_reference);
}

TEST_CASE("Example 1: in float the modified ABA's base-joint acceleration error is >= 10x smaller than the CRBM's",
          "[study][example1][modified_aba]") {
  const Example1Result ex = example1_sweep(example1_chain(), 720);
  INFO("max |error|: CRBM-LDLT " << ex.max_abs_error[crbm_ldlt_i] << ", CRBM-Chol " << ex.max_abs_error[crbm_cholesky_i]
                                 << ", ABA " << ex.max_abs_error[aba_i] << ", modABA " << ex.max_abs_error[modified_aba_i]
                                 << "; max |qdd_ref| " << ex.max_abs_reference);
  const double crbm = std::min(ex.max_abs_error[crbm_ldlt_i], ex.max_abs_error[crbm_cholesky_i]);
  CHECK(ex.failures[modified_aba_i] == 0);
  CHECK(ex.max_abs_error[modified_aba_i] <= 1e-3 * ex.max_abs_reference);
  CHECK(10.0 * ex.max_abs_error[modified_aba_i] <= crbm);
}
