// The demo on a URDF robot (built when the treedyn::urdf component exists), or an MJCF one (a .xml file, when
// treedyn::mjcf exists too): loading it, and parts 3 and 4 on it.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <treedyn/topology/topology.hpp>
#include <treedyn/urdf/build_model.hpp>
#ifdef TREEDYN_DEMO_MJCF
#include <treedyn/mjcf.hpp>
#endif

#include "dynamics.hpp"

namespace demo {

treedyn::Model<double> load_robot(const std::string& path, bool floating_base) {
#ifdef TREEDYN_DEMO_MJCF
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".xml") == 0) {  // MJCF: its own joints, free or not
    treedyn::mjcf::Loaded<double> loaded = treedyn::mjcf::load<double>(path);
    std::printf("Loaded %s (MJCF): %d bodies, %d DoFs%s. Load report:\n%s\n", path.c_str(), loaded.model.nbodies(),
                loaded.model.nv(), floating_base ? " (--floating-base is for URDF: the file's joints are used)" : "",
                loaded.report.diagnostics.empty() ? "  (nothing computed or ignored)\n" : loaded.report.to_string().c_str());
    return std::move(loaded.model);
  }
#endif
  treedyn::urdf::Options options;
  options.floating_base = floating_base;
  treedyn::urdf::Loaded<double> loaded = treedyn::urdf::load<double>(path, options);
  // nothing is repaired silently: every inertia repaired, fixed link merged and mimic joint made
  // independent is listed before the robot is used
  std::printf("Loaded %s: %d bodies, %d DoFs%s. Load report:\n%s\n", path.c_str(), loaded.model.nbodies(),
              loaded.model.nv(), floating_base ? ", free-flying root link" : "",
              loaded.report.diagnostics.empty() ? "  (nothing repaired or merged)\n" : loaded.report.to_string().c_str());
  return std::move(loaded.model);
}

// A robot from a URDF file: its topology numbers, then the same checks, sparsity pattern and
// timings as the built-in robots of part 3 (run_dynamics_scalar on the robot alone), then part 4.
bool run_urdf(treedyn::Model<double> model, const std::string& path, bool floating_base, const TimingConfig& cfg) {
  std::array<Robot, 1> robot{{{path.c_str(), floating_base ? "URDF, free-flying root link" : "URDF, root link fixed",
                               std::move(model)}}};
  const ParentArray mu(robot[0].model.dof_parents().begin(), robot[0].model.dof_parents().end());
  const std::vector<int> d = treedyn::depths(mu);
  const treedyn::CostMetrics cost = treedyn::cost_metrics(mu);
  std::printf("URDF robot %s: %d bodies, n = %d DoFs, depth %d; H has %lld nonzeros below its diagonal (D1) and its\n"
              "LTDL factorization takes %lld multiply-adds (D2; Featherstone (2005) eqs. 8-9)\n\n",
              path.c_str(), robot[0].model.nbodies(), cost.n, d.empty() ? 0 : *std::max_element(d.begin(), d.end()),
              cost.D1, cost.D2);
  if (cost.n == 0) return true;
  run_dynamics_scalar<float>(robot, 0, cfg);
  run_dynamics_scalar<double>(robot, 1, cfg);
  print_robot(robot[0]);
  const bool compliance_ok = print_leaf_compliance(robot[0].model);
  return compliance_ok &&
         std::all_of(robot[0].runs.begin(), robot[0].runs.end(), [](const DynamicsRun& r) { return r.ok(); });
}

}  // namespace demo
