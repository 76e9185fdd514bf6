// measure_derivatives<T>: rnea_derivatives (∂τ/∂q, ∂τ/∂q̇ at q̈ = the state's τ vector) and aba_derivatives
// (∂q̈/∂q, ∂q̈/∂q̇ at (q, q̇, τ)), and the end frame's frame_velocity_derivatives (∂v_F/∂q) and
// frame_acceleration_derivatives (∂a_F/∂q, ∂a_F/∂q̇ at q̈ = τ) in local and world-aligned axes, in T against the
// 50-digit central differences of reference_derivatives. (∂v_F/∂q̇ = ∂a_F/∂q̈ = J: frame_jacobian's rows.)
// Compiled once per scalar (TREEDYN_TEST_SCALAR).
#include "accuracy/suite/measure_common.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"

namespace treedyn::accuracy {

template <class T>
std::vector<Measurement> measure_derivatives(const Case& c, const std::vector<Reference>& refs,
                                             const std::vector<DerivativeReference>& derivative_refs) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  using MatrixT = Eigen::Matrix<T, 6, Eigen::Dynamic>;
  const Model<T> model = c.model.template cast<T>();
  Data<T> data(model);
  RneaDerivativesWorkspace<T> rws(model);
  AbaDerivativesWorkspace<T> aws(model);
  Recorder<T> r{c, {}};
  const int n = model.nv(), tip = model.nbodies() - 1;
  const Transform<T> placement = end_placement().cast<T>();
  MatrixT dv_dq(6, n), dv_dv(6, n), da_dq(6, n), da_dv(6, n), da_da(6, n);
  for (std::size_t k = 0; k < c.states.size(); ++k) {
    const State& s = c.states[k];
    const Reference& ref = refs[k];
    const DerivativeReference& dref = derivative_refs[k];
    const VectorT q = s.q.cast<T>(), qd = s.qd.cast<T>(), tau = s.tau.cast<T>();
    rnea_derivatives(model, data, rws, q, qd, tau);
    r.add("rnea_derivatives dq", "derivative", derivative_error(widen(rws.dtau_dq), dref.dtau_dq, ref.H, false), 16, n);
    r.add("rnea_derivatives dv", "derivative", derivative_error(widen(rws.dtau_dv), dref.dtau_dv, ref.H, false), 16, n);
    for (int axes = 0; axes < 2; ++axes) {
      const auto row = [&](const char* name, const MatrixT& computed, const MatrixL& reference) {
        r.add(std::string(name) + " " + frame_axes_name[axes], "frame derivative",
              frame_derivative_error(widen(computed), reference, dref.frame_reach), 16, n);
      };
      frame_velocity_derivatives(model, data, tip, placement, q, qd, frame_axes[axes], dv_dq, dv_dv);
      row("frame_velocity_derivatives dq", dv_dq, dref.frame_dv_dq[axes]);
      frame_acceleration_derivatives(model, data, tip, placement, q, qd, tau, frame_axes[axes], dv_dq, da_dq, da_dv,
                                     da_da);
      row("frame_acceleration_derivatives dq", da_dq, dref.frame_da_dq[axes]);
      row("frame_acceleration_derivatives dv", da_dv, dref.frame_da_dv[axes]);
    }
    if (!solvable<T>(n, ref.kappa_s) && !c.beyond_solvable) continue;
    aba_derivatives(model, data, aws, q, qd, tau);
    r.add("aba_derivatives dq", "derivative", derivative_error(widen(aws.ddq_dq), dref.ddq_dq, ref.H, true), 16, n,
          ref.kappa_s);
    r.add("aba_derivatives dv", "derivative", derivative_error(widen(aws.ddq_dv), dref.ddq_dv, ref.H, true), 16, n,
          ref.kappa_s);
  }
  return r.out;
}

template std::vector<Measurement> measure_derivatives<TREEDYN_TEST_SCALAR>(const Case&, const std::vector<Reference>&,
                                                                           const std::vector<DerivativeReference>&);

}  // namespace treedyn::accuracy
