// Fijany's Schur forms of the OSCM for one tip frame on a chain (Fijany (1994) §III.C–D).
// Names Kernel/model/scalar: OSCMSchur (oscm_schur, Λ⁻¹ = 𝒟 − ℰᵀ𝒜⁻¹ℰ = J M⁻¹ Jᵀ) and OSIMSchur (osim_schur,
// Λ = 𝒮 + ℛᵀ𝒴⁻¹ℛ), each a full call at q (operators, block LDLᵀ, tip products). Models "chain<n>": the
// revolute chain robots::random_chain(n, 1), n = 10 … 500, with one frame on the tip at a fixed offset.
#include <benchmark/benchmark.h>

#include <string>

#include "support/fixture.hpp"
#include "treedyn/algorithms/oscm_schur.hpp"
#include "treedyn/algorithms/osim_schur.hpp"

namespace {

template <class S>
void register_oscm_schur(const std::string& name, const treedyn::Model<S>& model, const std::string& scalar) {
  treedyn::OperationalFrames<S> frames(model);
  frames.add(model.nbodies() - 1, treedyn::xlt(treedyn::Vector3<S>(S(0.1), S(0), S(0.05))));
  const treedyn::bench::VecX<S> q = treedyn::bench::state(model).q;
  const std::string suffix = "/" + name + "/" + scalar;
  const auto add = [&](const std::string& kernel, auto call) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(), [model, frames, q, call](benchmark::State& st) {
      treedyn::Data<S> data(model);
      treedyn::OscmSchurWorkspace<S> ws(model, frames);
      for (auto _ : st) {
        benchmark::DoNotOptimize(call(model, data, ws, q).data());
        benchmark::ClobberMemory();
      }
      if (!ws.status.ok()) st.SkipWithError("factorization failed");
    });
  };
  add("OSCMSchur", [](const auto& m, auto& d, auto& ws, const auto& x) -> const auto& { return treedyn::oscm_schur(m, d, ws, x); });
  add("OSIMSchur", [](const auto& m, auto& d, auto& ws, const auto& x) -> const auto& { return treedyn::osim_schur(m, d, ws, x); });
}

const int registered = [] {
  for (const int n : treedyn::bench::oscm_chain_lengths()) {
    const treedyn::bench::NamedModel c = treedyn::bench::chain(n);
    treedyn::bench::for_each_scalar(c.model, [&c](const auto& model, const std::string& scalar) {
      register_oscm_schur(c.name, model, scalar);
    });
  }
  return 0;
}();

}  // namespace
