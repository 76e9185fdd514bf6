// treedyn demo: what branch-induced sparsity buys for the joint-space inertia matrix H.
//
// Part 1. For chains, chains with short side branches, balanced binary trees, grid spanning trees and
// humanoids (Featherstone (2005) §4.2 Table 2 and §6, see docs/references.md) of about 15 to 255 degrees
// of freedom, in float and double, it prints the cost metrics D0, D1, D2 of the expanded parent array,
// the density of H, the paper's dense/sparse operation-count ratio, the accuracy of the sparse LTDL
// factorization, and measured times of the faithful kernel (ltdl), the optimised one (ltdl_packed) and
// Eigen's dense LLT on the same matrix. It first draws the sparsity pattern of the 30-DoF humanoid's H.
//
// The test matrix of each row is A = J^T J + I, J lower triangular with random entries exactly on the
// ancestor pattern of the parent array (J(i, j) != 0 only for j = i or j an ancestor of i): A is
// symmetric positive definite and has exactly H's branch-induced pattern (Featherstone (2005) eq. 6).
//
// Timing (std::chrono::steady_clock): every contender starts each call from a fresh copy of its input
// in preallocated storage: ltdl copies A into a dense matrix, ltdl_packed copies A's packed ancestor
// rows (n + D1 entries, packed once outside the loop) into a vector, and LLT::compute copies A into its
// own preallocated storage. A batch alternates chunks of contender calls with shorter chunks of that
// bare copy until the contender has run for >= 20 ms; the batch's time per call is contender minus
// copy, and the table shows the median of 5 batches. This part takes about 17 s.
//
// Part 2. The real dynamics of the two test cases of Featherstone (2005) §6, robots::humanoid30 and robots::chain30
// (the same 25 bodies, branched and unbranched), in float (the double model's cast<float>()) and
// double, at one random state: the pattern of H = crba(q) ('x' nonzero, '.' exactly zero); the relative
// residuals of tau - (H qdd + C), of H against RNEA(q, 0, e_j) - RNEA(q, 0, 0) column by column, of
// qd'H qd / 2 against the bodies' kinetic energy, and of forward_dynamics_crba(q, qd, rnea(q, qd, qdd))
// against qdd, each beside its bound (10 n eps; 10 n eps kappa(H) for forward dynamics); a count of
// nonzeros of H off its branch-induced pattern (must be 0); and ns per call of rnea, crba,
// forward_dynamics_crba, aba, modified_aba, minverse_ltdl and minverse_aba (median of 5 batches >= 20 ms,
// inputs prepared outside the timed loops). It ends with the measured chain / humanoid time ratios beside
// the operation-count predictions of Featherstone (2005) §6. This part takes about 4 s.
//
// Part 3. The operational-space compliance Λ⁻¹ = J M⁻¹ Jᵀ of humanoid30's four hands/feet (24×24) by oscm,
// checked against oscm_dense.
//
// Usage: demo [--quick] [--floating-base] [robot.urdf]
//   --quick  0.5 ms batches, 3 of them: for CI smoke runs (about a second; timings are rough).
//   robot.urdf (when built with treedyn::urdf): parts 2 and 3 on that robot instead (Λ⁻¹ of its leaf bodies).
// Exit status: 0 if every factorization succeeded, every residual is within its bound (part 1: 100 n
// eps of its scalar type; Λ⁻¹: 100 n eps kappa(H)) and every pattern check passed; 1 otherwise; 2 on a usage
// error or an exception.

//
// Each part is its own unit (demo.hpp lists them), so that no one unit instantiates every algorithm
// for both scalars.
#include <cstdio>
#include <exception>
#include <string>

#include "demo.hpp"

namespace demo {
namespace {

int run(const TimingConfig& cfg, bool quick) {
  std::printf("treedyn demo: branch-induced sparsity of H in kinematic trees (seed 000)\n\n");
  const bool factorization_ok = run_factorization(cfg, quick);
  std::printf("\n");
  const bool dynamics_ok = run_dynamics(cfg, quick);
  std::printf("\n");
  const bool compliance_ok = print_humanoid_compliance();  // part 3
  const bool all_ok = factorization_ok && dynamics_ok && compliance_ok;
  if (all_ok) {
    std::printf("\nOK: every factorization succeeded, every residual is within its bound and no branch-induced\n"
                "zero of H is violated.\n");
  } else {
    std::printf("\nFAILED: see the lines marked FAIL above (part 1: %s, part 2: %s, Λ⁻¹: %s).\n",
                factorization_ok ? "ok" : "failed", dynamics_ok ? "ok" : "failed", compliance_ok ? "ok" : "failed");
  }
  return all_ok ? 0 : 1;
}

}  // namespace
}  // namespace demo

#ifdef TREEDYN_DEMO_URDF
constexpr const char* kUrdfUsage[2] = {
    " [--floating-base] [robot.urdf]",
    "  robot.urdf       run every algorithm on this robot instead of the built-in ones (n, depth,\n"
    "                   D0/D1/D2, the sparsity pattern of H, residuals and timings)\n"
    "  --floating-base  put a free flyer under the URDF's root link\n"};
#else
constexpr const char* kUrdfUsage[2] = {"", ""};
#endif

int main(int argc, char** argv) {
  demo::TimingConfig cfg;
  bool quick = false;
  std::string urdf_path;       // URDF import: an optional robot file
  bool floating_base = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
#ifdef TREEDYN_DEMO_URDF
    if (arg == "--floating-base") {
      floating_base = true;
      continue;
    }
    if (!arg.empty() && arg[0] != '-' && urdf_path.empty()) {
      urdf_path = arg;
      continue;
    }
#endif
    if (arg == "--quick") {
      quick = true;
      cfg.batch_seconds = 0.0005;
      cfg.batches = 3;
    } else {
      const bool help = (arg == "--help" || arg == "-h");
      std::fprintf(help ? stdout : stderr,
                   "usage: %s [--quick]%s\n"
                   "  --quick  short timing batches (CI smoke run); the exit status is non-zero if a\n"
                   "           factorization fails, a residual exceeds its bound or a branch-induced\n"
                   "           zero of H is violated.\n%s",
                   argv[0], kUrdfUsage[0], kUrdfUsage[1]);
      return help ? 0 : 2;
    }
  }
  try {
#ifdef TREEDYN_DEMO_URDF
    if (!urdf_path.empty()) return demo::run_urdf(urdf_path, floating_base, cfg) ? 0 : 1;
#endif
    (void)floating_base;
    return demo::run(cfg, quick);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "demo: %s\n", e.what());
    return 2;
  }
}
