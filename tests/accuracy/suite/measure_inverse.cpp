// measure_inverse<T>: every mass-matrix inverse (LTDL, ABA-based, Schur complement) and the operator forms
// H⁻¹b (Schur, Fixman) in T against the 50-digit reference. Compiled once per scalar (TREEDYN_TEST_SCALAR).
#include <memory>
#include <stdexcept>

#include "accuracy/suite/measure_common.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_apply_fixman.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"

namespace treedyn::accuracy {

namespace {

/// The workspace of a method that accepts only some models, or none (the constructor's rejection).
template <class W, class M>
std::unique_ptr<W> workspace_if_supported(const M& model) {
  try {
    return std::make_unique<W>(model);
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
}

}  // namespace

template <class T>
std::vector<Measurement> measure_inverse(const Case& c, const std::vector<Reference>& refs) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const Model<T> model = c.model.template cast<T>();
  Data<T> data(model);
  MinverseAbaWorkspace<T> aba_ws(model);
  MinverseLtdlWorkspace<T> ltdl_ws(model);
  const auto schur_ws = workspace_if_supported<SchurWorkspace<T>>(model);
  const auto fixman_ws = fixman_supported(model) ? workspace_if_supported<FixmanWorkspace<T>>(model) : nullptr;
  Recorder<T> r{c, {}};
  const int n = model.nv();
  for (std::size_t k = 0; k < c.states.size(); ++k) {
    const State& s = c.states[k];
    const Reference& ref = refs[k];
    if (!solvable<T>(n, ref.kappa_s)) continue;
    const VectorT q = s.q.cast<T>(), b = s.tau.cast<T>();
    const VectorL x_ref = ref.Hinv * s.tau.cast<long double>();
    const auto inverse = [&](const std::string& name, const MatrixL& Minv) {
      r.add(name, "scaled", scaled_error(Minv, ref.Hinv), 16, n, ref.kappa_s);
    };
    const auto apply = [&](const std::string& name, const VectorL& x) {
      r.add(name, "energy", energy_error(x, x_ref, ref.H), 16, n, ref.kappa_s);
      r.add(name, "backward", backward_error(ref.H, x, widen(s.tau)), 16, n);
      r.add(name, "scaled backward", scaled_backward_error(ref.H, x, widen(s.tau)), 16, n);
    };
    inverse("minverse_ltdl", widen(minverse_ltdl(model, data, ltdl_ws, q)));
    inverse("minverse_aba", widen(minverse_aba(model, data, aba_ws, q)));
    if (schur_ws) {
      inverse("minverse_schur", widen(minverse_schur(model, data, *schur_ws, q)));
      apply("minverse_apply_schur", widen(minverse_apply_schur(model, data, *schur_ws, q, b)));
    }
    if (fixman_ws) apply("minverse_apply_fixman", widen(minverse_apply_fixman(model, data, *fixman_ws, q, b)));
  }
  return r.out;
}

template std::vector<Measurement> measure_inverse<TREEDYN_TEST_SCALAR>(const Case&, const std::vector<Reference>&);

}  // namespace treedyn::accuracy
