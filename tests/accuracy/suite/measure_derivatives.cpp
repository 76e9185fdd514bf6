// measure_derivatives<T>: rnea_derivatives (∂τ/∂q, ∂τ/∂q̇ at q̈ = the state's τ vector) and aba_derivatives
// (∂q̈/∂q, ∂q̈/∂q̇ at (q, q̇, τ)) in T against the 50-digit central differences of reference_derivatives.
// Compiled once per scalar (TREEDYN_TEST_SCALAR).
#include "accuracy/suite/measure_common.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"

namespace treedyn::accuracy {

template <class T>
std::vector<Measurement> measure_derivatives(const Case& c, const std::vector<Reference>& refs,
                                             const std::vector<DerivativeReference>& derivative_refs) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const Model<T> model = c.model.template cast<T>();
  Data<T> data(model);
  RneaDerivativesWorkspace<T> rws(model);
  AbaDerivativesWorkspace<T> aws(model);
  Recorder<T> r{c, {}};
  const int n = model.nv();
  for (std::size_t k = 0; k < c.states.size(); ++k) {
    const State& s = c.states[k];
    const Reference& ref = refs[k];
    const DerivativeReference& dref = derivative_refs[k];
    const VectorT q = s.q.cast<T>(), qd = s.qd.cast<T>(), tau = s.tau.cast<T>();
    rnea_derivatives(model, data, rws, q, qd, tau);
    r.add("rnea_derivatives dq", "derivative", derivative_error(widen(rws.dtau_dq), dref.dtau_dq, ref.H, false), 16, n);
    r.add("rnea_derivatives dv", "derivative", derivative_error(widen(rws.dtau_dv), dref.dtau_dv, ref.H, false), 16, n);
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
