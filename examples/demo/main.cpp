// treedyn demo: a controller tick on a robot, then what branch-induced sparsity buys for the joint-space
// inertia matrix H.
//
// Part 1. A robot: examples/robots/arm7.urdf by default (or the URDF given on the command line; the
// built-in robots::humanoid30 when built without treedyn::urdf), its load report, and one controller tick
// at a random state as the README writes it: forward_kinematics, frame_jacobian, crba, bias, q̈ by
// CRBA + LTDL and by aba, with ns per call (median of the batches) and one check (the two q̈ agree to
// 10 n eps kappa(H)).
//
// Part 2. The sparsity study. For chains, chains with short side branches, balanced binary trees, grid
// spanning trees and humanoids (Featherstone (2005) §4.2 Table 2 and §6, see docs/references.md) of about
// 15 to 255 degrees of freedom, in float and double, it factors a random SPD matrix with H's branch-induced
// pattern (A = J^T J + I, J lower triangular with random entries exactly on the ancestor pattern of the
// parent array) with the faithful kernel (ltdl), the optimised one (ltdl_packed) and Eigen's dense LLT,
// checks every factorization (pattern, residual within 100 n eps), and prints a labelled table at n ~ 30
// and n ~ 255 in double, every failing row, and a summary of the 50 factorizations. Ratios of times are
// medians over rows, each row's time the median of 5 batches; --quick claims no ratio. It first draws
// the sparsity pattern of the 30-DoF humanoid's H.
//
// Timing (std::chrono::steady_clock): every contender starts each call from a fresh copy of its input
// in preallocated storage, and a batch alternates chunks of contender calls with shorter chunks of that
// bare copy until the contender has run for >= 20 ms; the batch's time per call is contender minus copy.
//
// Part 3. The real dynamics of the two test cases of Featherstone (2005) §6, robots::humanoid30 and
// robots::chain30 (the same 25 bodies, branched and unbranched), in float (the double model's
// cast<float>()) and double, at one random state: the pattern of H = crba(q), the relative residuals of
// tau - (H qdd + C), of H against RNEA column by column, of the kinetic energy and of forward dynamics,
// each beside its bound; a count of nonzeros of H off its branch-induced pattern (must be 0); and ns per
// call of the dynamics algorithms, ending with the chain / humanoid time ratios beside the operation-count
// predictions of Featherstone (2005) §6 (not with --quick).
//
// Part 4. The operational-space compliance Λ⁻¹ = J H⁻¹ Jᵀ of humanoid30's four hands/feet (24×24) by
// oscm, checked against oscm_dense.
//
// Usage: demo [--quick] [--floating-base] [robot.urdf]
//   --quick  0.5 ms batches, 3 of them: for CI smoke runs (a few seconds; timings are rough).
//   robot.urdf (when built with treedyn::urdf): part 1 on that robot, then parts 3 and 4 on it instead of
//   the built-in robots (Λ⁻¹ of its leaf bodies); part 2 is skipped. A MuJoCo MJCF file (robot.xml, when
//   treedyn::mjcf is built too) is read by mjcf::load the same way.
// Exit status: 0 if every check passed; 1 otherwise, after naming the parts whose checks failed (each
// failure is printed where it happens, marked FAIL); 2 on a usage error or an exception.
//
// Each part is its own unit (demo.hpp lists them), so that no one unit instantiates every algorithm
// for both scalars.
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <treedyn/model/model.hpp>
#include <treedyn/robots/robots.hpp>

#include "demo.hpp"

namespace demo {
namespace {

/// Part 1's title.
void part1_title(const char* robot) {
  std::printf("Part 1: a controller tick on %s\n\n", robot);
}

/// Prints the verdict naming every part whose checks failed; returns the exit status.
int verdict(const std::vector<std::pair<const char*, bool>>& parts) {
  std::string failed;
  for (const auto& [name, ok] : parts)
    if (!ok) failed += std::string(failed.empty() ? "" : ", ") + name;
  if (failed.empty()) {
    std::printf("\nOK: every check of every part passed.\n");
    return 0;
  }
  std::printf("\nFAILED: %s (the lines marked FAIL above say what failed).\n", failed.c_str());
  return 1;
}

int run(const treedyn::Model<double>& robot, const TimingConfig& cfg, bool quick) {
  const bool tick_ok = run_tick(robot, cfg, quick);
  std::printf("\n");
  const bool factorization_ok = run_factorization(cfg, quick);
  std::printf("\n");
  const bool dynamics_ok = run_dynamics(cfg, quick);
  std::printf("\n");
  const bool compliance_ok = print_humanoid_compliance();
  return verdict({{"part 1 (the tick)", tick_ok},
                  {"part 2 (factorization)", factorization_ok},
                  {"part 3 (dynamics)", dynamics_ok},
                  {"part 4 (compliance)", compliance_ok}});
}

}  // namespace
}  // namespace demo

#ifdef TREEDYN_DEMO_URDF
constexpr const char* kUrdfUsage[2] = {
    " [--floating-base] [robot.urdf]",
    "  robot.urdf       part 1 (the tick) on this robot instead of examples/robots/arm7.urdf, then the\n"
    "                   dynamics and compliance parts on it instead of the built-in robots (an MJCF\n"
    "                   file, robot.xml, when built with treedyn::mjcf)\n"
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
                   "  --quick  short timing batches (CI smoke run; no timing ratios are claimed); the exit\n"
                   "           status is non-zero if a check fails (a factorization, a residual over its bound,\n"
                   "           a branch-induced zero of H violated), and the failed parts are named.\n%s",
                   argv[0], kUrdfUsage[0], kUrdfUsage[1]);
      return help ? 0 : 2;
    }
  }
  try {
#ifdef TREEDYN_DEMO_URDF
    const std::string path = urdf_path.empty() ? std::string(TREEDYN_DEMO_DEFAULT_URDF) : urdf_path;
    demo::part1_title(path.c_str());
    treedyn::Model<double> robot = demo::load_robot(path, floating_base);
    if (!urdf_path.empty()) {
      const bool tick_ok = demo::run_tick(robot, cfg, quick);
      std::printf("\n");
      const bool rest_ok = demo::run_urdf(std::move(robot), path, floating_base, cfg);
      return demo::verdict({{"part 1 (the tick)", tick_ok}, {"parts 3 and 4 (dynamics, compliance)", rest_ok}});
    }
#else
    (void)floating_base;
    demo::part1_title("the built-in humanoid30 (built without treedyn::urdf)");
    const treedyn::Model<double> robot = treedyn::robots::humanoid30<double>();
#endif
    return demo::run(robot, cfg, quick);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "demo: %s\n", e.what());
    return 2;
  }
}
