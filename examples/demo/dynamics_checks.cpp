// Part 3's checks and timings, instantiated for float and double in this one unit: the algorithms come from
// the compiled component (treedyn/compiled.hpp, linked as treedyn::compiled), so the unit only calls them.

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <treedyn/compiled.hpp>

#include "dynamics.hpp"

namespace demo {

inline double max_abs(const Eigen::VectorXd& v) { return v.cwiseAbs().maxCoeff(); }

// Computes the outputs of the algorithms in S and evaluates every identity in double from them (so a
// residual measures the algorithms, not the evaluation of the identity). Each residual is relative to
// the size of the terms it is made of:
//   tau - (H qdd + C)         max_i |.| / max_i (|H| |qdd| + |C|)_i
//   H - [RNEA(e_j) - RNEA(0)] max_ij |.| / (max |H| + max |RNEA(q, 0, 0)|)   (gravity cancels here)
//   kinetic energy            |.| / (sum v_i'I_i v_i/2)
//   FD(RNEA(qdd)) - qdd       max |.| / max |qdd|
template <class S>
DynamicsRun check_dynamics(Fixture<S>& f, const BoolMatrix& pattern) {
  using Eigen::MatrixXd;
  using Eigen::VectorXd;
  const int n = f.model.nv();
  const double n_eps = static_cast<double>(n) * static_cast<double>(std::numeric_limits<S>::epsilon());
  DynamicsRun run;
  run.scalar = scalar_name<S>();

  f.tau = treedyn::rnea(f.model, f.data, f.q, f.qd, f.qdd);
  double energy_bodies = 0.0;  // from the body velocities of this rnea call
  for (int i = 0; i < f.model.nbodies(); ++i) {
    energy_bodies += f.model.inertia(i).template cast<double>().kinetic_energy(f.data.v[i].template cast<double>());
  }
  treedyn::crba(f.model, f.data, f.q);
  const MatrixXd H = treedyn::dense_H(f.model, f.data).template cast<double>();
  const VectorXd C = treedyn::bias(f.model, f.data, f.q, f.qd).template cast<double>();
  const VectorXd tau = f.tau.template cast<double>();
  const VectorXd qd = f.qd.template cast<double>();
  const VectorXd qdd = f.qdd.template cast<double>();

  const VectorXd terms = H.cwiseAbs() * qdd.cwiseAbs() + C.cwiseAbs();
  run.checks[kEquationOfMotion] = {max_abs(tau - (H * qdd + C)) / terms.maxCoeff(), kIdentityC * n_eps};

  const VectorX<S> zero = VectorX<S>::Zero(n);
  const VectorXd gravity = treedyn::rnea(f.model, f.data, f.q, zero, zero).template cast<double>();
  VectorX<S> unit = zero;
  double column_error = 0.0;
  for (int j = 0; j < n; ++j) {
    unit(j) = S(1);
    const VectorXd column = treedyn::rnea(f.model, f.data, f.q, zero, unit).template cast<double>() - gravity;
    column_error = std::max(column_error, max_abs(H.col(j) - column));
    unit(j) = S(0);
  }
  run.checks[kColumns] = {column_error / (H.cwiseAbs().maxCoeff() + max_abs(gravity)), kIdentityC * n_eps};

  const double energy_joints = 0.5 * qd.dot(H * qd);
  run.checks[kEnergy] = {std::abs(energy_joints - energy_bodies) / energy_bodies, kIdentityC * n_eps};

  const VectorXd eigenvalues = Eigen::SelfAdjointEigenSolver<MatrixXd>(H, Eigen::EigenvaluesOnly).eigenvalues();
  run.kappa = eigenvalues(n - 1) / eigenvalues(0);
  const VectorXd qdd_forward =
      treedyn::forward_dynamics_crba(f.model, f.data, f.q, f.qd, f.tau).template cast<double>();
  run.factor_ok = f.data.factor_status.ok();
  run.checks[kForward] = {max_abs(qdd_forward - qdd) / max_abs(qdd), kForwardC * n_eps * run.kappa};

  run.nonzero = H.array() != 0.0;
  run.off_pattern = (run.nonzero.array() && !pattern.array()).count();
  run.structural_zeros = (!run.nonzero.array() && pattern.array()).count();
  const Eigen::Index base = f.model.joint(0).nv();
  run.base_zeros = (!run.nonzero.topLeftCorner(base, base).array()).count();
  return run;
}


// The timed calls of a fixture, in Algorithm order; inputs were prepared by check_dynamics.
template <class S>
auto timed_calls(Fixture<S>& f) {
  auto inverse = [&f] { g_sink = static_cast<double>(treedyn::rnea(f.model, f.data, f.q, f.qd, f.qdd)(0)); };
  auto inertia = [&f] { g_sink = static_cast<double>(treedyn::crba(f.model, f.data, f.q)(0)); };
  auto forward = [&f] {
    g_sink = static_cast<double>(treedyn::forward_dynamics_crba(f.model, f.data, f.q, f.qd, f.tau)(0));
  };
  auto articulated = [&f] { g_sink = static_cast<double>(treedyn::aba(f.model, f.data, f.q, f.qd, f.tau)(0)); };
  auto modified = [&f] {
    g_sink = static_cast<double>(treedyn::modified_aba(f.model, f.data, f.q, f.qd, f.tau)(0));
  };
  auto minv_ltdl = [&f] { g_sink = static_cast<double>(treedyn::minverse_ltdl(f.model, f.data, f.minv_ltdl, f.q)(0, 0)); };
  auto minv_aba = [&f] { g_sink = static_cast<double>(treedyn::minverse_aba(f.model, f.data, f.minv_aba, f.q)(0, 0)); };
  return std::make_tuple(inverse, inertia, forward, articulated, modified, minv_ltdl, minv_aba);
}

// ns per call of each of the timed calls (a tuple of them): the median over batches, all calls
// interleaved. The calls need no fresh inputs, so no copy is timed or subtracted.
template <class Calls>
std::vector<double> ns_per_call(Calls& calls, const TimingConfig& cfg) {
  return std::apply([&cfg](auto&... call) { return measure(cfg, contender(call, no_copy)...).net_ns; }, calls);
}

// Checks and times both robots in scalar type S (stored in runs[slot]). All timed calls are
// interleaved, so the chain / humanoid time ratios compare measurements taken side by side.
template <class S, std::size_t R>
void run_dynamics_scalar(std::array<Robot, R>& robots, std::size_t slot, const TimingConfig& cfg) {
  static_assert(R == 1 || R == 2, "one robot (a URDF file) or the pair humanoid30 / chain30");
  Fixture<S> first(robots[0].model, robots[0].state);
  robots[0].runs[slot] = check_dynamics(first, robots[0].pattern);
  if constexpr (R == 2) {
    Fixture<S> second(robots[1].model, robots[1].state);
    robots[1].runs[slot] = check_dynamics(second, robots[1].pattern);
    auto calls = std::tuple_cat(timed_calls(first), timed_calls(second));
    const std::vector<double> ns = ns_per_call(calls, cfg);
    for (std::size_t k = 0; k < kAlgorithmCount; ++k) {
      robots[0].runs[slot].ns[k] = ns[k];
      robots[1].runs[slot].ns[k] = ns[kAlgorithmCount + k];
    }
  } else {
    auto calls = timed_calls(first);
    const std::vector<double> ns = ns_per_call(calls, cfg);
    for (std::size_t k = 0; k < kAlgorithmCount; ++k) robots[0].runs[slot].ns[k] = ns[k];
  }
}

template void run_dynamics_scalar<float, 1>(std::array<Robot, 1>&, std::size_t, const TimingConfig&);
template void run_dynamics_scalar<float, 2>(std::array<Robot, 2>&, std::size_t, const TimingConfig&);
template void run_dynamics_scalar<double, 1>(std::array<Robot, 1>&, std::size_t, const TimingConfig&);
template void run_dynamics_scalar<double, 2>(std::array<Robot, 2>&, std::size_t, const TimingConfig&);

}  // namespace demo
