// Part 1 of the demo: a controller tick on a robot, the calls of the README's "A controller tick" with
// their times. At a random state of the robot (q from random_configuration, q̇ and τ uniform in
// [-1, 1]) it runs compute_all_terms (kinematics, frame placements, H and its factor, C and g once),
// frame_placement and frame_jacobian (world-aligned) on one frame, q̈ = H⁻¹(τ − C) by solve_H, and q̈ by
// aba; it prints the frame's position, the norms of what it computed, and ns per call (median of the
// batches; the calls interleaved). Check: the factorization succeeds, the tick's g equals
// gravity_torques and its C equals bias (to the bit), and the two q̈ agree to kForwardC·n·ε·κ(H) (κ(H)
// from Eigen::SelfAdjointEigenSolver); a failure is named.
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include <treedyn/algorithms/aba.hpp>
#include <treedyn/algorithms/compute_all_terms.hpp>
#include <treedyn/algorithms/crba.hpp>
#include <treedyn/algorithms/factor_h.hpp>
#include <treedyn/algorithms/forward_kinematics.hpp>
#include <treedyn/algorithms/frame_jacobian.hpp>
#include <treedyn/algorithms/frame_placements.hpp>
#include <treedyn/algorithms/gravity_torques.hpp>
#include <treedyn/algorithms/rnea.hpp>
#include <treedyn/model/configuration.hpp>
#include <treedyn/status_io.hpp>

#include "dynamics.hpp"

namespace demo {
namespace {

using Model = treedyn::Model<double>;
using Vec = Eigen::VectorXd;

/// The frame the tick tracks: the model's last named frame on a moving body, or else the deepest body's
/// origin. Returns its body, placement and a name for the output.
treedyn::Frame<double> tick_frame(const Model& model) {
  for (auto f = model.frames().rbegin(); f != model.frames().rend(); ++f)
    if (f->body != treedyn::no_parent) return *f;
  int deepest = 0, best_depth = -1;
  for (int i = 0; i < model.nbodies(); ++i) {
    int depth = 0;
    for (int j = i; j != treedyn::no_parent; j = model.parent(j)) ++depth;
    if (depth > best_depth) {
      best_depth = depth;
      deepest = i;
    }
  }
  return {model.name(deepest) + " (body origin)", deepest, treedyn::Transform<double>::identity()};
}

Vec uniform_vector(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Vec v(n);
  for (int i = 0; i < n; ++i) v(i) = uniform(rng);
  return v;
}

}  // namespace

bool run_tick(const Model& model, const TimingConfig& cfg, bool quick) {
  treedyn::Data<double> data(model);
  const int n = model.nv();
  const Vec q = treedyn::random_configuration(model, kStateSeed);
  const Vec qd = uniform_vector(n, kStateSeed + 1), tau = uniform_vector(n, kStateSeed + 2), zero = Vec::Zero(n);
  const treedyn::Frame<double> frame = tick_frame(model);
  Vec x(n), g(n);

  // One tick, as a controller runs it (README, "A controller tick on a URDF robot").
  const treedyn::FactorStatus factor = treedyn::compute_all_terms(model, data, q, qd);
  const Eigen::Vector3d p_frame = treedyn::frame_placement(model, data, frame).r;
  const double J_norm = treedyn::frame_jacobian(model, data, frame.body, frame.placement,
                                                treedyn::ReferenceFrame::world_aligned).norm();
  g = data.g;
  const Vec C = data.C;
  x = tau - C;
  treedyn::solve_H(model, data, x);
  const Vec qdd_aba = treedyn::aba(model, data, q, qd, tau);

  std::printf("Frame %s on body %s: at (%.4f, %.4f, %.4f) m in world coordinates; |J| = %.4g (6 x %d, world-aligned)\n",
              frame.name.c_str(), model.name(frame.body).c_str(), p_frame.x(), p_frame.y(), p_frame.z(), J_norm, n);
  std::printf("|g(q)| = %.4g N·m (gravity torques), |C(q, qd)| = %.4g, |qdd| = %.4g\n", g.norm(), C.norm(),
              qdd_aba.norm());

  std::vector<std::string> failures;
  if (!factor) failures.push_back("compute_all_terms: H is not positive definite (" + treedyn::to_string(factor) + ")");
  if (!(treedyn::gravity_torques(model, data, q) == g)) failures.push_back("compute_all_terms: g differs from gravity_torques");
  if (!(treedyn::bias(model, data, q, qd) == C)) failures.push_back("compute_all_terms: C differs from bias");
  if (!data.aba_status) failures.push_back("aba: " + treedyn::to_string(data.aba_status));
  const Eigen::VectorXd eigenvalues =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(treedyn::dense_H(model, data), Eigen::EigenvaluesOnly).eigenvalues();
  const double kappa = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
  const double bound = kForwardC * n * std::numeric_limits<double>::epsilon() * kappa;
  const double diff = (qdd_aba - x).norm() / qdd_aba.norm();
  std::printf("qdd by aba against CRBA + LTDL: relative difference %.2e, bound %g n eps kappa(H) = %.2e (kappa(H) = %.3g)\n",
              diff, kForwardC, bound, kappa);
  if (!(diff <= bound))
    failures.push_back("qdd of aba and of CRBA + LTDL differ by " + format("%.2e", diff) + " > bound " +
                       format("%.2e", bound));

  // Timings: each call alone, then the whole tick; the inputs stay fixed, so no call needs a fresh copy.
  auto fk = [&] { g_sink = treedyn::forward_kinematics(model, data, q)[0].r(0); };
  auto jac = [&] {
    g_sink = treedyn::frame_jacobian(model, data, frame.body, frame.placement, treedyn::ReferenceFrame::world_aligned)(0, 0);
  };
  auto crba = [&] { g_sink = treedyn::crba(model, data, q)(0); };
  auto bias = [&] { g_sink = treedyn::bias(model, data, q, qd)(0); };
  auto gravity = [&] { g_sink = treedyn::gravity_torques(model, data, q)(0); };
  auto solve = [&] {
    treedyn::factor_H(model, data);
    x = tau - data.C;
    treedyn::solve_H(model, data, x);
    g_sink = x(0);
  };
  auto aba = [&] { g_sink = treedyn::aba(model, data, q, qd, tau)(0); };
  auto all_terms = [&] { g_sink = static_cast<double>(treedyn::compute_all_terms(model, data, q, qd).ok()); };
  auto tick = [&] {
    all_terms();
    jac();
    x = tau - data.C;
    treedyn::solve_H(model, data, x);
    g_sink = x(0);
  };
  const Timing t = measure(cfg, contender(fk, no_copy), contender(jac, no_copy), contender(crba, no_copy),
                           contender(bias, no_copy), contender(gravity, no_copy), contender(solve, no_copy),
                           contender(aba, no_copy), contender(all_terms, no_copy), contender(tick, no_copy));
  static const char* const names[] = {"forward_kinematics", "frame_jacobian",    "crba",
                                      "bias",               "gravity_torques",   "factor_H + solve_H",
                                      "aba",                "compute_all_terms", "the tick (all terms, J, solve)"};
  std::printf("\nns per call (median of %d batches >= %g ms%s):\n", cfg.batches, cfg.batch_seconds * 1e3,
              quick ? "; --quick: short batches, rough" : "");
  for (std::size_t k = 0; k < t.net_ns.size(); ++k) std::printf("  %-30s %10.0f\n", names[k], t.net_ns[k]);
  for (const std::string& f : failures) std::printf("  FAIL: %s\n", f.c_str());
  return failures.empty();
}

}  // namespace demo
