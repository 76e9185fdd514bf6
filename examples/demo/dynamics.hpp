// Part 3 of the demo, shared by its units: a robot, its state and fixture in one scalar type, the
// identities checked and the algorithms timed. dynamics_checks.cpp has the checks and timings (both
// scalars, the algorithms from the compiled component); dynamics.cpp the driver and its output.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <Eigen/Core>

#include <treedyn/model/data.hpp>
#include <treedyn/model/model.hpp>
#include <treedyn/algorithms/minverse_aba.hpp>
#include <treedyn/algorithms/minverse_ltdl.hpp>

#include "demo.hpp"

namespace demo {

template <class S>
using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;

// Residual bounds: c n eps for the identities evaluated from one set of outputs, c n eps kappa(H) for
// forward dynamics, which solves with H.
constexpr double kIdentityC = 10.0;
constexpr double kForwardC = 10.0;
constexpr std::uint64_t kStateSeed = 2005;  // seed of random_configuration and of qd, qdd

// The state every identity and timing of one robot uses. It is drawn once in double; the float run
// gets exactly these numbers, rounded once (as its model is the double model, rounded once).
struct State {
  Eigen::VectorXd q, qd, qdd;
};

// q = random_configuration(model, seed); qd, qdd uniform in [-1, 1].
State random_state(const treedyn::Model<double>& model, std::uint64_t seed);

// One robot in scalar type S: its model, workspace and inputs.
template <class S>
struct Fixture {
  Fixture(const treedyn::Model<double>& model_double, const State& state)
      : model(model_double.cast<S>()),
        data(model),
        minv_aba(model),
        minv_ltdl(model),
        q(state.q.cast<S>()),
        qd(state.qd.cast<S>()),
        qdd(state.qdd.cast<S>()),
        tau(VectorX<S>::Zero(model.nv())) {}

  treedyn::Model<S> model;
  treedyn::Data<S> data;
  treedyn::MinverseAbaWorkspace<S> minv_aba;
  treedyn::MinverseLtdlWorkspace<S> minv_ltdl;
  VectorX<S> q, qd, qdd;
  VectorX<S> tau;  // rnea(q, qd, qdd): the input of forward dynamics
};

struct Check {
  double residual = 0.0;  // relative, see check_dynamics
  double bound = 0.0;
  double ratio() const { return residual / bound; }
  bool ok() const { return residual <= bound; }  // false for NaN
};

enum Identity : std::size_t { kEquationOfMotion, kColumns, kEnergy, kForward, kIdentityCount };

const std::array<const char*, kIdentityCount> kIdentityNames{{
    "tau - (H qdd + C)",
    "H - [RNEA(q,0,e_j) - RNEA(q,0,0)]",
    "qd'H qd/2 - sum v_i'I_i v_i/2",
    "FD(q, qd, RNEA(q, qd, qdd)) - qdd",
}};

enum Algorithm : std::size_t {
  kRnea, kCrba, kForwardDynamics, kAba, kModifiedAba, kMinverseLtdl, kMinverseAba, kAlgorithmCount
};

const std::array<const char*, kAlgorithmCount> kAlgorithmNames{
    {"rnea", "crba", "forward_dynamics_crba", "aba", "modified_aba", "minverse_ltdl", "minverse_aba"}};

// The results of one robot in one scalar type.
struct DynamicsRun {
  const char* scalar = "";
  std::array<Check, kIdentityCount> checks{};
  BoolMatrix nonzero;                // H(i, j) != 0, H = crba(q)
  long long off_pattern = 0;         // nonzeros where the branch pattern has a zero (must be 0)
  long long structural_zeros = 0;    // exact zeros inside the branch pattern (allowed)
  long long base_zeros = 0;          // ... of which in the first body's joint block
  double kappa = 0.0;                // condition number of H, in double
  bool factor_ok = true;             // data.factor_status of forward_dynamics_crba
  std::array<double, kAlgorithmCount> ns{};  // time per call

  bool ok() const {
    return factor_ok && off_pattern == 0 &&
           std::all_of(checks.begin(), checks.end(), [](const Check& c) { return c.ok(); });
  }
};

struct Robot {
  const char* name;
  const char* description;
  treedyn::Model<double> model;
  State state;
  BoolMatrix pattern;               // branch-induced pattern of H, from the expanded DoF parent array
  std::array<DynamicsRun, 2> runs;  // float, double

  Robot(const char* robot_name, const char* robot_description, treedyn::Model<double> robot_model);
};

// Checks and times the robots (one: a URDF file; two: humanoid30 and chain30) in scalar type S, into
// runs[slot]; instantiated for float and double in dynamics_checks.cpp.
template <class S, std::size_t R>
void run_dynamics_scalar(std::array<Robot, R>& robots, std::size_t slot, const TimingConfig& cfg);

extern template void run_dynamics_scalar<float, 1>(std::array<Robot, 1>&, std::size_t, const TimingConfig&);
extern template void run_dynamics_scalar<float, 2>(std::array<Robot, 2>&, std::size_t, const TimingConfig&);
extern template void run_dynamics_scalar<double, 1>(std::array<Robot, 1>&, std::size_t, const TimingConfig&);
extern template void run_dynamics_scalar<double, 2>(std::array<Robot, 2>&, std::size_t, const TimingConfig&);

// The robot's pattern of H, residuals against their bounds and times, both scalar types side by side.
void print_robot(const Robot& robot);

}  // namespace demo
