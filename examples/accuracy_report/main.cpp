// accuracy_report: every treedyn algorithm in float and double against a 50-digit reference
// (boost::multiprecision::cpp_bin_float_50), with the metrics and bounds of the accuracy suite
// (tests/accuracy/suite/accuracy.hpp; the same measurements the test test_accuracy asserts).
//
// Part 1. On the built-in robots, seeded random trees and chains and the ill-conditioned chains of Ascher, Pai &
// Cloutier (1996) Examples 1–3 (docs/references.md), or on one URDF robot given on the command line (when built
// with treedyn::urdf), it prints per algorithm, metric and scalar the worst error in units of the scalar's ε,
// the bound at that case (c·n, or c·n·κ_s for forward errors), and the worst ratio of error to bound over all
// cases (> 1 is a failure).
// Part 2. On Example 1's chains of growing κ (Table 1's link-length ratio r, continued to r = 1e-4) it writes
// the float energy-norm error of q̈ of the three forward-dynamics routes (capped at 1) against κ(H) to
// accuracy_float_vs_kappa.dat and, when gnuplot is on PATH, plots it to accuracy_float_vs_kappa.png.
//
// It ends by naming every measurement over its bound (case, algorithm, metric, scalar, bound and measured
// error, in ε), or by saying that all of them are within their bounds.
// Usage: accuracy_report [--all] [--floating-base] [robot.urdf]; --all prints every measurement first.
// Exit status: 0 if every ratio is ≤ 1, 1 otherwise, 2 on a usage error or an exception.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "accuracy/suite/accuracy.hpp"

#ifdef TREEDYN_REPORT_URDF
#include <treedyn/urdf/build_model.hpp>
#endif

using namespace treedyn::accuracy;

namespace {

struct Worst {
  double error = -1, bound = 0, ratio = -1;
  std::string error_model, ratio_model;
};

/// Names every measurement over its bound (a NaN error counts as over); returns true if there is none.
bool print_failures(const std::vector<Measurement>& over, std::size_t total) {
  if (over.empty()) {
    std::printf("\nAll %zu measurements are within their bounds.\n", total);
    return true;
  }
  std::printf("\nFAILED: %zu of %zu measurements are over their bound:\n", over.size(), total);
  std::printf("| case | kind | algorithm | metric | scalar | bound (ε) | measured (ε) | ratio |\n");
  std::printf("| --- | --- | --- | --- | --- | ---: | ---: | ---: |\n");
  for (const Measurement& m : over)
    std::printf("| %s | %s | %s | %s | %s | %.3g | %.3g | %.3g |\n", m.model.c_str(), m.kind.c_str(),
                m.algorithm.c_str(), m.metric.c_str(), m.scalar.c_str(), m.bound(), m.error, m.ratio());
  return false;
}

/// Part 1: the table, worst error and worst ratio per (algorithm, metric, scalar), then every measurement
/// over its bound; returns true if there is none.
bool print_table(const std::vector<Case>& cases, bool every) {
  std::vector<std::tuple<std::string, std::string, std::string>> order;
  std::map<std::tuple<std::string, std::string, std::string>, Worst> worst;
  std::vector<Measurement> over;
  std::size_t total = 0;
  for (const Case& c : cases) {
    for (const Measurement& m : measure_all(c)) {
      ++total;
      if (!(m.ratio() <= 1.0)) over.push_back(m);
      if (every)
        std::printf("%s %s %s %s %s: %.3g eps, bound %.3g eps, ratio %.3g\n", m.model.c_str(), m.kind.c_str(),
                    m.algorithm.c_str(), m.metric.c_str(), m.scalar.c_str(), m.error, m.bound(), m.ratio());
      const auto key = std::make_tuple(m.algorithm, m.metric, m.scalar);
      if (!worst.count(key)) order.push_back(key);
      Worst& w = worst[key];
      if (!(m.error <= w.error)) {
        w.error = m.error;
        w.bound = m.bound();
        w.error_model = m.model;
      }
      if (!(m.ratio() <= w.ratio)) {
        w.ratio = m.ratio();
        w.ratio_model = m.model;
      }
    }
  }
  std::printf("| algorithm | metric | scalar | worst error (ε) | on | bound there (ε) | worst ratio to bound | on |\n");
  std::printf("| --- | --- | --- | ---: | --- | ---: | ---: | --- |\n");
  for (const auto& key : order) {
    const Worst& w = worst[key];
    std::printf("| %s | %s | %s | %.3g | %s | %.3g | %.3g | %s |\n", std::get<0>(key).c_str(), std::get<1>(key).c_str(),
                std::get<2>(key).c_str(), w.error, w.error_model.c_str(), w.bound, w.ratio, w.ratio_model.c_str());
  }
  return print_failures(over, total);
}

/// Part 2: float energy error of q̈ against κ(H) on Example 1's chains of growing κ.
void kappa_plot() {
  const char* dat = "accuracy_float_vs_kappa.dat";
  std::FILE* f = std::fopen(dat, "w");
  if (!f) {
    std::printf("cannot write %s\n", dat);
    return;
  }
  std::fprintf(f, "# kappa(H) kappa_s forward_dynamics_crba aba modified_aba (float energy-norm error of qdd)\n");
  for (Case c : kappa_family()) {
    c.beyond_solvable = true;
    const Reference ref = reference_dynamics(c.model, c.states[0]);
    std::map<std::string, double> error;
    for (const Measurement& m : measure_all(c))
      if (m.scalar == "float" && m.metric == "energy") error[m.algorithm] = m.error * 1.1920928955078125e-07;
    // an error above 1 (or a NaN from a failed factorization) is plotted as 1: no correct digit
    const auto get = [&](const char* name) { return error.count(name) && error[name] < 1.0 ? error[name] : 1.0; };
    std::fprintf(f, "%.6g %.6g %.6g %.6g %.6g\n", ref.kappa, ref.kappa_s, get("forward_dynamics_crba"), get("aba"),
                 get("modified_aba"));
  }
  std::fclose(f);
  std::printf("\nwrote %s (κ(H), κ_s, then the float energy-norm error of q̈: forward_dynamics_crba, aba, modified_aba;\n"
              "1 where no digit is correct)\n",
              dat);
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
    std::printf("gnuplot is not on PATH: no PNG written\n");
    return;
  }
  const int rc = std::system(
      "gnuplot -e \"set terminal png size 800,560; set output 'accuracy_float_vs_kappa.png'; set logscale xy; "
      "set format xy '10^{%L}'; set xlabel 'kappa(H)'; set ylabel 'float error of qdd, energy norm'; set key top left; "
      "plot 'accuracy_float_vs_kappa.dat' using 1:3 with linespoints title 'forward\\_dynamics\\_crba', "
      "'' using 1:4 with linespoints title 'aba', '' using 1:5 with linespoints title 'modified\\_aba', "
      "x*1.19e-7 with lines dashtype 2 title 'kappa eps'\"");
  std::printf(rc == 0 ? "wrote accuracy_float_vs_kappa.png\n" : "gnuplot failed: no PNG written\n");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    bool floating_base = false, every = false;
    std::string urdf;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--floating-base") floating_base = true;
      else if (a == "--all") every = true;
      else if (!a.empty() && a[0] != '-') urdf = a;
      else {
        std::fprintf(stderr, "usage: accuracy_report [--all] [--floating-base] [robot.urdf]\n");
        return 2;
      }
    }
    std::vector<Case> cases;
    if (!urdf.empty()) {
#ifdef TREEDYN_REPORT_URDF
      treedyn::urdf::Options options;
      options.floating_base = floating_base;
      cases.push_back(make_case(urdf, treedyn::urdf::build_model<double>(urdf, options)));
#else
      static_cast<void>(floating_base);
      std::fprintf(stderr, "accuracy_report: built without treedyn::urdf (urdfdom); cannot read %s\n", urdf.c_str());
      return 2;
#endif
    } else {
      cases = all_cases();
    }
    const bool ok = print_table(cases, every);
    if (urdf.empty()) kappa_plot();
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "accuracy_report: %s\n", e.what());
    return 2;
  }
}
