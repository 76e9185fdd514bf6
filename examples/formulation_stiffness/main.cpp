// formulation_stiffness: see formulation stiffness for yourself (Ascher, Pai & Cloutier (1996)).
//
// The paper (see docs/references.md) shows that the composite-rigid-body method (CRBM:
// form H, then factor it) and the articulated-body method (ABM) form the same pivots in a different
// order, and that in single precision the CRBM's order loses the light base link's inertia under the
// heavy distal link's: its accelerations turn noisy, and an adaptive integrator pays for the noise with
// many more steps. The setups are the paper's Examples 1–3 and Tables 1–2; the code is
// experiments/formulation_stiffness.hpp.
//
// Part 1. Table 2 (Examples 2–3): two point masses on collinear prismatic joints, m_base = 1, m_tip = m1 =
//   1e6 … 1e9, τ = (9.81, 981); case 1 s = [0; e_z], case 2 s = [0; (0, 1, 1)/√2]. The base pivot D2 and
//   the tip acceleration q̈1 in float by CRBM (LDLᵀ and Cholesky), ABA and modified ABA (the paper's eq. 11),
//   beside the exact values (D2 = 1, q̈1 = 971.19 + 981/m1) and the values the paper printed.
// Part 2. Table 1: the eleven planar 2-link chains r = l2 = m2 = 0.1 … 0.0015 (l1 = m1 = 1 − r,
//   rectangular links 0.1 m wide), simulated for 10 s from rest at q = 0 with τ = 0 by Boost.Odeint's
//   controlled Cash–Karp 5(4) stepper (relative tolerance 1e-4, absolute 1e-30).
//   It prints κ_max(H) over q_distal ∈ [0, 2π] with its order of magnitude beside the paper's column,
//   and the number of right-hand-side evaluations per method (a) all in float (dynamics and integrator),
//   (b) all in double, (c) float dynamics under a double integrator, beside the paper's n_CRBM, n_ABM.
// Part 3. Example 1 / Fig. 1: the chain l1 = 2.0, m1 = 10 (distal), l2 = 0.02, m2 = 0.1, width 0.02 at
//   rest, q_base = 0, q_distal swept over [0, 2π]: the base-joint acceleration of each method in float
//   against a long double run of the same float-rounded model; the largest error per method and a
//   profile every 15°.
// Writes table2.csv, table1.csv and example1.csv into the output directory, and when gnuplot is on PATH
// also formulation_stiffness.gp and formulation_stiffness.png (Table 1 counts against r, log-log, and the
// Example 1 errors against q_distal).
//
// Usage: formulation_stiffness [--quick] [--out DIR]
//   --quick    2 s simulations and coarser sweeps (a CI smoke run).
// Run time: about 3 s built with -O2 (the full run; --quick about 1 s); a Debug (-O0) build takes about
// 3 min (--quick about 40 s).
//   --out DIR  where the CSV files and the plot go (default: the current directory; DIR must exist).
// Exit status: 0 when the checks below hold, 1 when one fails, 2 on a usage error or an exception.
//   (1) floor(log10 κ_max) reproduces the paper's O(κ_max) column for all eleven chains;
//   (2) Example 1: ABA and modified ABA never fail, each one's largest float error is ≤ 1e-3 of the
//       largest |q̈_base| and ≥ 10× smaller than either CRBM's; the two long double references agree;
//   (3) Table 1 in float, for the CRBM the paper ran (Cholesky): n_CRBM/n_ABA ≥ 2 for r ≤ 0.002 and
//       growing from r = 0.005 to 0.0015, while n_ABA and n_modABA stay within 1.5× of their r = 0.005
//       values. (tests/study asserts the same on shortened runs.)
//   The other Table 1 observations (double counts within 10 % of each other; the LDLᵀ CRBM's ratio) are
//   printed with a verdict but do not set the exit status: the 2-link chain's motion is chaotic, so by
//   10 s two methods that differ by rounding alone follow different trajectories and their counts
//   scatter by up to ~12 %. tests/study asserts the double agreement on 3 s runs, where it is robust,
//   and the LDLᵀ trend at the levels that held in every run measured.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "formulation_stiffness.hpp"

namespace {

using namespace treedyn::study;
using Clock = std::chrono::steady_clock;

struct Options {
  bool quick = false;
  std::string out = ".";
  /// Table 1's simulated time: the paper's 10 s, or 2 s for --quick.
  [[nodiscard]] double t_end() const { return quick ? 2.0 : 10.0; }
};

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string path_in(const Options& o, const std::string& file) { return o.out + "/" + file; }

// A check (`gating`: a failure sets the exit status) or an observation (not gating: the paper's claim, reported
// as seen or not seen, which decides nothing). The summary names every check that failed.
struct Checks {
  bool all_ok = true;
  int checks = 0, observations = 0, not_seen = 0;
  std::vector<std::string> failed;
  void report(bool ok, bool gating, const std::string& what) {
    if (gating) {
      ++checks;
      std::printf("  [check %s] %s\n", ok ? "holds" : "FAILS", what.c_str());
      if (!ok) {
        all_ok = false;
        failed.push_back(what);
      }
    } else {
      ++observations;
      if (!ok) ++not_seen;
      std::printf("  [observation, not a check: %s] %s\n", ok ? "seen" : "not seen", what.c_str());
    }
  }
  void summary() const {
    if (all_ok) std::printf("All %d checks hold", checks);
    else std::printf("FAILED: %zu of %d checks fail", failed.size(), checks);
    std::printf("; the %d observations (%d not seen) are informational, not checks.%s\n", observations, not_seen,
                all_ok ? "" : " The failed checks:");
    for (const std::string& what : failed) std::printf("  - %s\n", what.c_str());
  }
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// ---- Part 1: Table 2 ------------------------------------------------------------------------------

// What the paper printed (CRBM, ABM, modified ABM): D2 and q̈1, "-" where the table has "—" or no row.
struct PublishedRow {
  int seed_case;
  double m1;
  const char* values;
};
const PublishedRow published_table2[] = {
    {1, 1e7, "CRBM 1.0 971.19 | ABM 1.0 971.19 | modABM 1.0 971.19"},
    {1, 1e8, "CRBM 0 -        | ABM 1.0 971.19 | modABM 1.0 971.19"},
    {1, 1e9, "CRBM 0 -        | ABM 1.0 971.19 | modABM 1.0 971.19"},
    {2, 1e6, "CRBM 1.03 941.76 | ABM 1.03 941.76 | modABM 1.0 971.19"},
    {2, 1e7, "CRBM 1.5 647.46 | ABM 1.5 647.46 | modABM 1.0 971.19"},
    {2, 1e8, "CRBM 0 -        | ABM 0 -        | modABM 1.0 971.19"},
    {2, 1e9, "CRBM 0 -        | ABM 0 -        | modABM 1.0 971.19"},
};

void part1_table2(const Options& o) {
  std::printf("== Part 1. Ascher, Pai & Cloutier (1996) Table 2 (Examples 2-3): base pivot D2 and tip acceleration qdd1, in float ==\n");
  std::printf("Two point masses on collinear prismatic joints, m_base = 1, m_tip = m1, Phi21 = I, tau = (9.81, 981),\n"
              "no gravity. Case 1: s = [0; e_z]; case 2: s = [0; (0,1,1)/sqrt 2]. Model built in double, rounded once.\n"
              "Exact: D2 = 1, qdd1 = 971.19 + 981/m1. 'sing' = the pivot is not > 0 (D2 shows the pivot formed).\n\n");
  const std::vector<Table2Entry> rows = table2();
  std::printf("case  m1     |");
  for (Method m : all_methods) std::printf(" %-21s|", name(m));
  std::printf(" exact\n             |");
  for (std::size_t k = 0; k < all_methods.size(); ++k) std::printf(" %9s %11s|", "D2", "qdd1");
  std::printf(" %9s %11s\n", "D2", "qdd1");
  std::ofstream csv(path_in(o, "table2.csv"));
  csv << "case,m1,method,D2,qdd1,ok,exact_D2,exact_qdd1\n";
  for (std::size_t k = 0; k < rows.size(); k += all_methods.size()) {
    const Table2Entry& first = rows[k];
    std::printf("%-5d %-7.0e|", first.seed_case, first.m1);
    for (std::size_t m = 0; m < all_methods.size(); ++m) {
      const Table2Entry& e = rows[k + m];
      if (e.ok) std::printf(" %9.6g %11.6g|", e.D2, e.qdd_tip);
      else std::printf(" %9.6g %11s|", e.D2, "sing");
      char line[256];
      std::snprintf(line, sizeof line, "%d,%.0e,%s,%.9g,%.9g,%d,1,%.9g\n", e.seed_case, e.m1, name(e.method), e.D2,
                    e.qdd_tip, e.ok ? 1 : 0, table2_exact_qdd_tip(e.m1));
      csv << line;
    }
    std::printf(" %9d %11.7f\n", 1, table2_exact_qdd_tip(first.m1));
    for (const PublishedRow& p : published_table2)
      if (p.seed_case == first.seed_case && p.m1 == first.m1) std::printf("   paper printed: %s\n", p.values);
  }
  std::printf("\nNotes (docs/dynamics.md#which-route-to-choose): the paper's CRBM row at m1 = 1e7, case 1 (D2 = 1.0) needs the square-root-free\n"
              "LDL^T; Cholesky fails there. Case-2 CRBM/ABM digits depend on the rounding order and are not reproducible;\n"
              "what reproduces is their failure at m1 >= 1e8 and the modified ABM's D2 = 1 throughout.\n\n");
}

// ---- Part 2: Table 1 ------------------------------------------------------------------------------

struct Table1Data {
  std::vector<double> kappa;
  std::vector<std::array<CountResult, 4>> f, d, fd;  // float/float, double/double, float dynamics/double state
};

std::string count_cell(const CountResult& c) {
  return c.failed ? std::string("fail") : std::to_string(c.evaluations);
}

void print_counts(const char* title, const std::vector<std::array<CountResult, 4>>& counts, bool with_seed) {
  const std::vector<double>& rs = table1_ratios();
  std::printf("%s\n", title);
  std::printf("  r       | %9s %9s %9s %9s | %8s %8s | %6s", "CRBM-LDLT", "CRBM-Chol", "ABA", "modABA", "LDLT/ABA",
              "Chol/ABA", "max/min");
  if (with_seed) std::printf(" | paper (10 s): %6s %6s", "n_CRBM", "n_ABM");
  std::printf("\n");
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const auto& c = counts[i];
    long lo = c[0].evaluations, hi = c[0].evaluations;
    for (const CountResult& x : c) {
      lo = std::min(lo, x.evaluations);
      hi = std::max(hi, x.evaluations);
    }
    std::printf("  %-7.4f | %9s %9s %9s %9s | %8.2f %8.2f | %6.3f", rs[i], count_cell(c[0]).c_str(),
                count_cell(c[1]).c_str(), count_cell(c[2]).c_str(), count_cell(c[3]).c_str(), count_ratio(c[0], c[2]),
                count_ratio(c[1], c[2]), static_cast<double>(hi) / static_cast<double>(lo));
    if (with_seed) {
      const long n_crbm = table1_published_crbm()[i];
      std::printf(" | %24s %6ld", n_crbm < 0 ? "(fail)" : std::to_string(n_crbm).c_str(), table1_published_aba()[i]);
    }
    std::printf("\n");
  }
}

Table1Data part2_table1(const Options& o, Checks& checks) {
  const std::vector<double>& rs = table1_ratios();
  IntegratorSettings settings;
  settings.t_end = o.t_end();
  std::printf("== Part 2. Ascher, Pai & Cloutier (1996) Table 1: right-hand-side evaluations for %.0f s of motion ==\n", settings.t_end);
  std::printf("2-link chains, l1 + l2 = 1 m, m1 + m2 = 1 kg, l_k = m_k, r = l2 = m2 (base link), rectangles 0.1 m wide;\n"
              "from rest at q = 0, tau = 0, gravity 9.81 perpendicular to the arm. Boost.Odeint controlled Cash-Karp 5(4),\n"
              "default_error_checker(eps_abs = 1e-30, eps_rel = 1e-4, a_x = 1, a_dxdt = 1), first step 1e-3 s;\n"
              "6 evaluations per attempted step. 'fail' = a pivot failed or the step size collapsed.\n\n");
  Table1Data t;
  const Clock::time_point t0 = Clock::now();
  for (double r : rs) {
    const auto model = table1_chain(r);
    t.kappa.push_back(kappa_max(model, o.quick ? 720 : 3600));
    t.f.push_back(count_all_methods<float, float>(model, settings));
    t.d.push_back(count_all_methods<double, double>(model, settings));
    t.fd.push_back(count_all_methods<float, double>(model, settings));
  }
  const double elapsed = seconds_since(t0);

  std::printf("kappa_max(H) over q_distal in [0, 2pi] (long double, %d-point grid):\n", o.quick ? 721 : 3601);
  std::printf("  r       | kappa_max  | O(kappa_max) | paper\n");
  bool kappa_ok = true;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const int e = static_cast<int>(std::floor(std::log10(t.kappa[i])));
    const int seed_e = table1_kappa_exponents()[i];
    kappa_ok = kappa_ok && e == seed_e;
    std::printf("  %-7.4f | %10.3e | 10^%-9d | 10^%d%s\n", rs[i], t.kappa[i], e, seed_e, e == seed_e ? "" : "  MISMATCH");
  }
  std::printf("\n");
  print_counts("(a) float: forward dynamics and integrator in single precision", t.f, true);
  std::printf("\n");
  print_counts("(b) double: forward dynamics and integrator in double precision", t.d, false);
  std::printf("\n");
  print_counts("(c) float forward dynamics, double integrator (the state rounded to float on each call)", t.fd, false);
  std::printf("\n(%.1f s for the %zu simulations)\n\n", elapsed, rs.size() * 12);

  std::printf("Checks and observations:\n");
  checks.report(kappa_ok, true, "floor(log10 kappa_max) = the paper's column: 10^2, 10^3, 10^4, then 10^5 x8");
  const auto index_of = [&](double r) {
    return static_cast<std::size_t>(std::find(rs.begin(), rs.end(), r) - rs.begin());
  };
  const std::size_t i005 = index_of(0.005);
  const std::vector<std::size_t> trend_rows{i005, index_of(0.002), index_of(0.0018), index_of(0.0015)};
  const auto trend = [&](const std::vector<std::array<CountResult, 4>>& c, std::size_t crbm, bool gating,
                         const char* label) {
    bool ge2 = true, grows = true;
    std::string ratios;
    double prev = 0;
    for (std::size_t k = 0; k < trend_rows.size(); ++k) {
      const double q = count_ratio(c[trend_rows[k]][crbm], c[trend_rows[k]][2]);
      ratios += (k ? ", " : "") + fmt("%.2f", q);
      if (k > 0 && q < 2.0) ge2 = false;
      if (k > 0 && !(q > prev)) grows = false;
      prev = q;
    }
    checks.report(ge2 && grows, gating,
                  std::string(label) + ": n_" + name(all_methods[crbm]) + "/n_ABA at r = 0.005, 0.002, 0.0018, 0.0015 = " +
                      ratios + " (>= 2 for r <= 0.002, growing)");
  };
  trend(t.f, 1, true, "float");
  trend(t.f, 0, false, "float");
  trend(t.fd, 1, false, "float dynamics/double integrator");
  trend(t.fd, 0, false, "float dynamics/double integrator");
  for (std::size_t m : {std::size_t{2}, std::size_t{3}}) {
    double worst = 1.0;
    bool ok = !t.f[i005][m].failed;
    for (std::size_t i = i005; i < rs.size(); ++i) {
      if (t.f[i][m].failed) ok = false;
      const double q = count_ratio(t.f[i][m], t.f[i005][m]);
      worst = std::max(worst, std::max(q, 1.0 / q));
    }
    ok = ok && worst <= 1.5;
    checks.report(ok, true, std::string("float: n_") + name(all_methods[m]) + " within 1.5x of its r = 0.005 value for r <= 0.005 (worst " +
                                fmt("%.2f", worst) + "x)");
  }
  double worst_spread = 1.0, worst_r = 0;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    long lo = t.d[i][0].evaluations, hi = lo;
    for (const CountResult& x : t.d[i]) {
      lo = std::min(lo, x.evaluations);
      hi = std::max(hi, x.evaluations);
    }
    const double s = static_cast<double>(hi) / static_cast<double>(lo);
    if (s > worst_spread) {
      worst_spread = s;
      worst_r = rs[i];
    }
  }
  checks.report(worst_spread <= 1.10, false,
                "double: the four methods' counts within 10 % of each other for every r (worst max/min " +
                    fmt("%.3f", worst_spread) + " at r = " + fmt("%g", worst_r) + ")");
  std::printf("\n");

  std::ofstream csv(path_in(o, "table1.csv"));
  csv << "r,kappa_max,kappa_exponent,seed_kappa_exponent";
  for (const char* p : {"float", "double", "floatdyn_doublestate"})
    for (Method m : all_methods) csv << ',' << p << '_' << name(m);
  csv << ",seed_n_CRBM,seed_n_ABM\n";
  for (std::size_t i = 0; i < rs.size(); ++i) {
    char head[128];
    std::snprintf(head, sizeof head, "%g,%.6e,%d,%d", rs[i], t.kappa[i],
                  static_cast<int>(std::floor(std::log10(t.kappa[i]))), table1_kappa_exponents()[i]);
    csv << head;
    for (const auto* c : {&t.f, &t.d, &t.fd})
      for (const CountResult& x : (*c)[i]) csv << ',' << count_cell(x);
    const long n_crbm = table1_published_crbm()[i];
    csv << ',' << (n_crbm < 0 ? std::string("fail") : std::to_string(n_crbm)) << ',' << table1_published_aba()[i]
        << '\n';
  }
  return t;
}

// ---- Part 3: Example 1 ----------------------------------------------------------------------------

Example1Result part3_example1(const Options& o, Checks& checks) {
  const int samples = o.quick ? 360 : 3600;
  std::printf("== Part 3. Ascher, Pai & Cloutier (1996) Example 1 / Fig. 1: base-joint acceleration in float vs long double ==\n");
  std::printf("l1 = 2.0 m, m1 = 10 kg (distal), l2 = 0.02 m, m2 = 0.1 kg (base), width 0.02 m; q_base = 0, qd = 0,\n"
              "tau = 0, gravity 9.81 perpendicular to the arm; q_distal over [0, 2pi] in %d steps. Reference: the float\n"
              "model widened exactly to long double, forward dynamics by ABA (CRBM-LDLT in long double agrees).\n\n",
              samples);
  const Example1Result ex = example1_sweep(example1_chain(), samples);
  std::printf("  method     | max |error|  | relative to max|qdd_ref| = %.4g | failures\n", ex.max_abs_reference);
  for (std::size_t m = 0; m < all_methods.size(); ++m)
    std::printf("  %-10s | %11.4e | %11.4e %21s | %d\n", name(all_methods[m]), ex.max_abs_error[m],
                ex.max_abs_error[m] / ex.max_abs_reference, "", ex.failures[m]);
  std::printf("  (long double ABA vs CRBM-LDLT reference spread: %.3e)\n\n", ex.reference_spread);

  std::printf("  Profile (every 15 deg): error = qdd_float - qdd_ref\n");
  std::printf("  q_distal | qdd_ref       | %12s %12s %12s %12s\n", "CRBM-LDLT", "CRBM-Chol", "ABA", "modABA");
  const int stride = samples / 24;
  for (int k = 0; k <= samples; k += stride) {
    const Example1Point& p = ex.points[static_cast<std::size_t>(k)];
    std::printf("  %6.1f   | %13.6f |", p.q_distal * 180.0 / 3.14159265358979323846, p.reference);
    for (std::size_t m = 0; m < all_methods.size(); ++m) std::printf(" %12.3e", p.computed[m] - p.reference);
    std::printf("\n");
  }
  std::printf("\nChecks:\n");
  const double crbm = std::min(ex.max_abs_error[0], ex.max_abs_error[1]);
  for (std::size_t m : {std::size_t{2}, std::size_t{3}}) {
    const double e = ex.max_abs_error[m];
    checks.report(ex.failures[m] == 0 && e <= 1e-3 * ex.max_abs_reference, true,
                  std::string(name(all_methods[m])) + ": largest error " + fmt("%.2e", e / ex.max_abs_reference) +
                      " of max|qdd_ref| (<= 1e-3), no failures");
    checks.report(10.0 * e <= crbm, true,
                  std::string(name(all_methods[m])) + ": the smaller CRBM error is " + fmt("%.3g", crbm / e) +
                      "x this method's (>= 10x)");
  }
  checks.report(ex.reference_spread <= 1e-9 * ex.max_abs_reference, true,
                "the two long double references agree to 1e-9 (" + fmt("%.1e", ex.reference_spread) + ")");
  std::printf("\n");

  std::ofstream csv(path_in(o, "example1.csv"));
  csv << "q_distal,qdd_ref";
  for (Method m : all_methods) csv << ",qdd_" << name(m);
  for (Method m : all_methods) csv << ",err_" << name(m);
  csv << '\n';
  for (const Example1Point& p : ex.points) {
    char line[512];
    int n = std::snprintf(line, sizeof line, "%.9g,%.17g", p.q_distal, p.reference);
    for (std::size_t m = 0; m < all_methods.size(); ++m)
      n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), ",%.9g", p.computed[m]);
    for (std::size_t m = 0; m < all_methods.size(); ++m)
      n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), ",%.9g", p.computed[m] - p.reference);
    csv << line << '\n';
  }
  return ex;
}

// ---- plot -----------------------------------------------------------------------------------------

void plot(const Options& o, double t_end) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::printf("gnuplot not found on PATH: no plot (the CSV files hold the data).\n");
    return;
  }
  const std::string script = path_in(o, "formulation_stiffness.gp");
  {
    std::ofstream gp(script);
    // Columns of table1.csv: 1 r, 5-8 float methods, 9-12 double methods, 17-18 the published n_CRBM, n_ABM.
    // Columns of example1.csv: 1 q_distal, 7-10 errors per method.
    gp << "set terminal pngcairo size 1400,560 noenhanced font ',10'\n"
          "set output '"
       << path_in(o, "formulation_stiffness.png")
       << "'\n"
          "set datafile separator ','\n"
          "set key bottom left\n"
          "set multiplot layout 1,2 title 'Formulation stiffness (Ascher, Pai, Cloutier 1996)'\n"
          "set title 'Table 1: right-hand-side evaluations for "
       << t_end
       << " s of motion'\n"
          "set logscale xy\nset xrange [0.0013:0.12] reverse\nset grid\n"
          "set xlabel 'r = l2/(l1+l2) (smaller = worse conditioned)'\nset ylabel 'evaluations'\n"
          "t1 = '"
       << path_in(o, "table1.csv")
       << "'\n"
          "plot t1 every ::1 using 1:5 with linespoints lw 2 title 'CRBM-LDLT float', \\\n"
          "     t1 every ::1 using 1:6 with linespoints lw 2 title 'CRBM-Chol float', \\\n"
          "     t1 every ::1 using 1:7 with linespoints lw 2 title 'ABA float', \\\n"
          "     t1 every ::1 using 1:8 with linespoints lw 2 title 'modABA float', \\\n"
          "     t1 every ::1 using 1:11 with lines dt 2 lc rgb 'black' title 'ABA double'";
    if (t_end == 10.0)  // the published counts are for 10 s
      gp << ", \\\n"
            "     t1 every ::1 using 1:17 with points pt 6 ps 1.5 title 'paper n_CRBM', \\\n"
            "     t1 every ::1 using 1:18 with points pt 4 ps 1.5 title 'paper n_ABM'";
    gp << "\n"
          "unset logscale x\nset xrange [0:6.2832] noreverse\n"
          "set title 'Example 1: |base-joint acceleration error| in float vs long double'\n"
          "set xlabel 'q_distal (rad)'\nset ylabel '|error| (rad/s^2)'\nset yrange [1e-8:1e3]\n"
          "set format y '%.0e'\nset key top right horizontal\n"
          "e1 = '"
       << path_in(o, "example1.csv")
       << "'\n"
          "plot e1 every ::1 using 1:(abs($7)) with lines title 'CRBM-LDLT', \\\n"
          "     e1 every ::1 using 1:(abs($8)) with lines title 'CRBM-Chol', \\\n"
          "     e1 every ::1 using 1:(abs($9)) with lines title 'ABA', \\\n"
          "     e1 every ::1 using 1:(abs($10)) with lines title 'modABA'\n"
          "unset multiplot\n";
  }
  const std::string cmd = "gnuplot '" + script + "'";
  if (std::system(cmd.c_str()) == 0) std::printf("plot: %s\n", path_in(o, "formulation_stiffness.png").c_str());
  else std::printf("gnuplot failed on %s: no plot\n", script.c_str());
}

int run(const Options& o) {
  Checks checks;
  part1_table2(o);
  part2_table1(o, checks);
  part3_example1(o, checks);
  std::printf("CSV: %s, %s, %s\n", path_in(o, "table2.csv").c_str(), path_in(o, "table1.csv").c_str(),
              path_in(o, "example1.csv").c_str());
  plot(o, o.t_end());
  checks.summary();
  return checks.all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--out" && i + 1 < argc) {
      o.out = argv[++i];
    } else {
      const bool help = (arg == "--help" || arg == "-h");
      std::fprintf(help ? stdout : stderr,
                   "usage: %s [--quick] [--out DIR]\n"
                   "  --quick    2 s simulations and coarser sweeps (a CI smoke run)\n"
                   "  --out DIR  directory for table2.csv, table1.csv, example1.csv and the plot (default: .)\n",
                   argv[0]);
      return help ? 0 : 2;
    }
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "formulation_stiffness: %s\n", e.what());
    return 2;
  }
}
