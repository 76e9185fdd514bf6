// Part 3 of the demo: the driver, the robots' states and the per-robot tables (see main.cpp).
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <utility>

#include <treedyn/model/configuration.hpp>
#include <treedyn/robots/robots.hpp>

#include "dynamics.hpp"

namespace demo {
namespace {

Eigen::VectorXd random_vector(int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = uniform(rng);
  return v;
}

}  // namespace

// q = random_configuration(model, seed); qd, qdd uniform in [-1, 1].
State random_state(const treedyn::Model<double>& model, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  State s;
  s.q = treedyn::random_configuration(model, seed);
  s.qd = random_vector(model.nv(), rng);
  s.qdd = random_vector(model.nv(), rng);
  return s;
}

Robot::Robot(const char* robot_name, const char* robot_description, treedyn::Model<double> robot_model)
    : name(robot_name), description(robot_description), model(std::move(robot_model)),
      state(random_state(model, kStateSeed)) {
  const ParentArray mu(model.dof_parents().begin(), model.dof_parents().end());
  pattern = branch_pattern(mu);
}

namespace {

// One line of the per-robot table: a label, then one group of columns per scalar type.
template <class Cell>
void print_dynamics_line(const char* label, const std::array<DynamicsRun, 2>& runs, Cell cell) {
  std::string line = format("  %-36s", label);
  for (const DynamicsRun& run : runs) line += format("  %-27s", cell(run).c_str());
  line.erase(line.find_last_not_of(' ') + 1);
  std::printf("%s\n", line.c_str());
}

}  // namespace

void print_robot(const Robot& robot) {
  const DynamicsRun& d = robot.runs[1];
  const int n = robot.model.nv();
  const long long structural = static_cast<long long>(robot.pattern.count());
  std::printf("%s: %s; nq = %d, nv = %d, kappa(H) = %.2g\n", robot.name, robot.description, robot.model.nq(), n,
              d.kappa);
  std::printf("H = crba(q) in double, x = H(i, j) != 0, . = exactly 0: n = %d, %lld nonzeros of %d. The branch\n"
              "pattern has n + 2 D1 = %lld; %lld nonzeros lie off it; %lld entries on it are exactly 0, %lld of them\n"
              "in the torso's free-flyer block (the composite inertia's diagonal of h x and off-diagonal of m 1)\n\n",
              n, static_cast<long long>(d.nonzero.count()), n * n, structural, d.off_pattern, d.structural_zeros,
              d.base_zeros);
  print_pattern(d.nonzero);
  std::printf("\n");

  print_dynamics_line("", robot.runs, [](const DynamicsRun& r) { return std::string(r.scalar); });
  print_dynamics_line("relative residual", robot.runs, [](const DynamicsRun&) {
    return format("%9s %9s %7s", "resid", "bound", "ratio");
  });
  for (std::size_t k = 0; k < kIdentityCount; ++k) {
    print_dynamics_line(kIdentityNames[k], robot.runs, [k](const DynamicsRun& r) {
      const Check& c = r.checks[k];
      return format("%9.2e %9.2e %7.1e%s", c.residual, c.bound, c.ratio(), c.ok() ? "" : " FAIL");
    });
  }
  print_dynamics_line("branch-induced zeros of H violated", robot.runs, [](const DynamicsRun& r) {
    return format("%9lld%s", r.off_pattern, r.off_pattern == 0 ? "" : " FAIL");
  });
  for (std::size_t k = 0; k < kAlgorithmCount; ++k) {
    const std::string label = std::string(kAlgorithmNames[k]) + ", ns/call";
    print_dynamics_line(label.c_str(), robot.runs, [k](const DynamicsRun& r) { return format("%9.0f", r.ns[k]); });
  }
  for (const DynamicsRun& r : robot.runs) {
    if (!r.factor_ok) std::printf("  FAIL (%s): forward_dynamics_crba: H is not positive definite\n", r.scalar);
  }
  std::printf("\n");
}


namespace {

// Featherstone (2005) §6 operation counts: m multiplications and a additions.
struct OpCount {
  double m, a;
};

// The measured time ratio beside the paper's predicted range, e.g. measured 1.23x against a predicted
// 2.37x (a = m) to 2.61x (a = 0) from 6462m+4419a vs 2475m+2124a.
std::string ratio_against_prediction(double measured, OpCount chain, OpCount humanoid) {
  return format("measured %.2fx, Featherstone (2005) predicts %.2fx (a = m) to %.2fx (a = 0) from %.0fm+%.0fa vs %.0fm+%.0fa",
                measured, (chain.m + chain.a) / (humanoid.m + humanoid.a), chain.m / humanoid.m, chain.m, chain.a,
                humanoid.m, humanoid.a);
}

}  // namespace

// Part 3: identities and timings of rnea, crba and forward_dynamics_crba on the 30-DoF humanoid and the
// equivalent unbranched chain (Featherstone (2005) §6). Returns true if every check passed.
bool run_dynamics(const TimingConfig& cfg, bool quick) {
  std::printf(
      "Part 3: dynamics of the 30-DoF humanoid and the equivalent chain (Featherstone (2005) §6)\n\n"
      "q = random_configuration(model, %llu), qd and qdd uniform in [-1, 1]; the float model is the double\n"
      "model's cast<float>() and gets the same inputs, rounded. Every identity is evaluated in double from\n"
      "the algorithms' outputs in the row's type; residuals are relative (tau - (H qdd + C): to\n"
      "max(|H| |qdd| + |C|); the columns of H: to max|H| + max|RNEA(q,0,0)|; kinetic energy: to the energy;\n"
      "forward dynamics: to max|qdd|). bound = %g n eps, forward dynamics %g n eps kappa(H) (kappa from\n"
      "Eigen::SelfAdjointEigenSolver in double); ratio = resid / bound must be <= 1. Times: ns/call,\n"
      "median of %d batches >= %g ms, the calls of one scalar type interleaved.%s\n\n",
      static_cast<unsigned long long>(kStateSeed), kIdentityC, kForwardC, cfg.batches, cfg.batch_seconds * 1e3,
      quick ? " (--quick: short batches, rough timings)" : "");

  std::array<Robot, 2> robots{{
      {"humanoid30", "free-flying torso + four 6-DoF limbs", treedyn::robots::humanoid30<double>()},
      {"chain30", "the same 25 bodies in one unbranched chain", treedyn::robots::chain30<double>()},
  }};
  run_dynamics_scalar<float>(robots, 0, cfg);
  run_dynamics_scalar<double>(robots, 1, cfg);
  for (const Robot& robot : robots) print_robot(robot);

  const DynamicsRun& humanoid = robots[0].runs[1];
  const DynamicsRun& chain = robots[1].runs[1];
  auto measured = [&](Algorithm k) { return chain.ns[k] / humanoid.ns[k]; };
  if (quick) print_bullet("--quick: the batches are too short for the chain / humanoid time ratios; run without it.");
  else print_bullet("Time chain30 / humanoid30 in double: crba " +
               ratio_against_prediction(measured(kCrba), {6462, 4419}, {2475, 2124}) + "; forward_dynamics_crba " +
               ratio_against_prediction(measured(kForwardDynamics), {14555, 11756}, {6476, 5597}) + "; rnea " +
               ratio_against_prediction(measured(kRnea), {2263, 1972}, {2275, 1996}) + ".");

  return std::all_of(robots.begin(), robots.end(), [](const Robot& robot) {
    return std::all_of(robot.runs.begin(), robot.runs.end(), [](const DynamicsRun& r) { return r.ok(); });
  });
}

}  // namespace demo
