// The compile-time budget's reference translation unit: the umbrella header and the core algorithms,
// instantiated for float and double (rnea, crba, forward_dynamics_crba, aba, modified_aba, minverse_ltdl,
// minverse_aba, frame_jacobian, oscm) on a model the caller gives, as a controller's source file does.
// Building the model (the builder, a robot, cast) is core_model.cpp's, measured beside it.
// tests/compile_budget/measure.sh compiles both at -O2 and reports the CPU time and peak memory; the
// figures in docs/cmake.md#compile-cost come from that report. Linked together they are a program that runs each
// algorithm once and exits non-zero when a result is not finite.
// Built with -DTREEDYN_BUDGET_COMPILED it includes treedyn/compiled.hpp instead: the same calls, declared
// extern and linked from treedyn::compiled, as a controller that uses the compiled component compiles.
#include <cmath>

#ifdef TREEDYN_BUDGET_COMPILED
#include <treedyn/compiled.hpp>
#else
#include <treedyn/treedyn.hpp>
#endif

template <class Scalar>
bool run_core_algorithms(const treedyn::Model<Scalar>& model) {
  treedyn::Data<Scalar> data(model);
  treedyn::MinverseAbaWorkspace<Scalar> minv(model);
  treedyn::MinverseLtdlWorkspace<Scalar> minv_ltdl(model);
  treedyn::OperationalFrames<Scalar> frames(model);
  frames.add(model.nbodies() - 1, treedyn::Transform<Scalar>::identity());
  const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> q = treedyn::neutral(model);
  const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> v = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>::Constant(model.nv(), Scalar(0.1));
  Scalar sum(0);
  sum += treedyn::rnea(model, data, q, v, v).sum();
  sum += treedyn::crba(model, data, q).sum();
  sum += treedyn::forward_dynamics_crba(model, data, q, v, v).sum();
  sum += treedyn::aba(model, data, q, v, v).sum();
  sum += treedyn::modified_aba(model, data, q, v, v).sum();
  sum += treedyn::minverse_ltdl(model, data, minv_ltdl, q).sum();
  sum += treedyn::minverse_aba(model, data, minv, q).sum();
  treedyn::forward_kinematics(model, data, q);
  sum += treedyn::frame_jacobian(model, data, model.nbodies() - 1, treedyn::Transform<Scalar>::identity()).sum();
  sum += treedyn::oscm(model, data, frames, q).sum();
  using std::isfinite;
  return isfinite(static_cast<double>(sum));
}

// TREEDYN_BUDGET_SCALAR=float (or double) instantiates one scalar only: measure.sh's per-scalar figures,
// what a project that compiles each scalar in its own unit pays per unit.
#if !defined(TREEDYN_BUDGET_SCALAR)
template bool run_core_algorithms<float>(const treedyn::Model<float>&);
template bool run_core_algorithms<double>(const treedyn::Model<double>&);
#else
template bool run_core_algorithms<TREEDYN_BUDGET_SCALAR>(const treedyn::Model<TREEDYN_BUDGET_SCALAR>&);
#endif
