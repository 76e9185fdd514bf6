// What the measure_*.cpp units share: the recorder that turns an error into a Measurement in units of ε, the
// widening of a computed result to long double, and the test of whether a forward problem is meaningful in T.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "accuracy/suite/accuracy.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"

namespace treedyn::accuracy {

template <class Derived>
MatrixL widen(const Eigen::MatrixBase<Derived>& a) {
  return a.template cast<long double>();
}

/// True while 8·n·ε·κ_s < 1: the scaled H rounded to T is safely positive definite (accuracy.hpp).
template <class T>
bool solvable(int n, double kappa_s) {
  return 8.0 * n * test::eps<T>() * kappa_s < 1.0;
}

template <class T>
struct Recorder {
  const Case& c;
  std::vector<Measurement> out;

  /// Records `error` (absolute, in the metric's units) against the bound c·n·ε·κ.
  void add(const std::string& algorithm, const std::string& metric, double error, double constant, int n,
           double kappa = 1.0) {
    Measurement m;
    m.model = c.name;
    m.kind = c.kind;
    m.algorithm = algorithm;
    m.metric = metric;
    m.scalar = std::is_same<T, float>::value ? "float" : "double";
    m.error = error / test::eps<T>();
    m.c = constant;
    m.n = n;
    m.kappa = kappa;
    out.push_back(m);
  }
};

/// The metrics of H (crba), τ = H a + C at a = the state's τ vector (rnea) and C (bias) computed in T, on one
/// state (the scalar kernels in measure_dynamics, the lane kernels in measure_lanes).
template <class T>
void record_h_tau_c(Recorder<T>& r, const State& s, const Reference& ref, const MatrixL& H, const VectorL& tau,
                    const VectorL& C, int n) {
  r.add("crba", "scaled", scaled_error(H, ref.H), 16, n);
  const VectorL tau_ref = ref.H * s.tau.cast<long double>() + ref.C;
  r.add("rnea", "tau", tau_error(tau, tau_ref, ref.H), 16, n);
  r.add("bias", "tau", tau_error(C, ref.C, ref.H), 16, n);
}

/// True when the forward dynamics of case c's state (reference ref) is checked in T: while it is solvable, or
/// beyond for the cases that ask for it (accuracy.hpp).
template <class T>
bool forward_checked(const Case& c, int n, const Reference& ref) {
  return solvable<T>(n, ref.kappa_s) || c.beyond_solvable;
}

/// The forward-dynamics metrics of q̈ computed by `name` on one state: energy (a forward error, × κ_s),
/// backward and scaled backward against r = τ − C.
template <class T>
void record_forward(Recorder<T>& r, const std::string& name, const State& s, const Reference& ref, const VectorL& qdd,
                    int n) {
  const VectorL rhs = s.tau.cast<long double>() - ref.C;
  r.add(name, "energy", energy_error(qdd, ref.qdd, ref.H), 16, n, ref.kappa_s);
  r.add(name, "backward", backward_error(ref.H, qdd, rhs), 16, n);
  r.add(name, "scaled backward", scaled_backward_error(ref.H, qdd, rhs), 16, n);
}

/// The end frame's Jacobians (local and world-aligned) computed in T on one state.
template <class T>
void record_jacobians(Recorder<T>& r, const FrameReference& fr, const MatrixL& J_local, const MatrixL& J_world, int n) {
  r.add("frame_jacobian local", "jacobian", jacobian_error(J_local, fr.J_local, fr.distance), 16, n);
  r.add("frame_jacobian world", "jacobian", jacobian_error(J_world, fr.J_world, fr.distance), 16, n);
}

}  // namespace treedyn::accuracy
