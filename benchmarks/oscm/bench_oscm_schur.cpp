// Fijany's Schur forms of the OSCM for one tip frame on a chain (Fijany (1994) §III.C–D).
// Names Kernel/model/scalar: OSCMSchur (oscm_schur, Λ⁻¹ = 𝒟 − ℰᵀ𝒜⁻¹ℰ = J M⁻¹ Jᵀ) and OSIMSchur (osim_schur,
// Λ = 𝒮 + ℛᵀ𝒴⁻¹ℛ), each a full call at q (operators, block LDLᵀ, tip products). Models "chain<n>": the
// revolute chain robots::random_chain(n, 1), n = 10 … 500, with one frame on the tip at a fixed offset.
#include <benchmark/benchmark.h>

#include <string>

#include "treedyn/algorithms/oscm_schur.hpp"
#include "treedyn/algorithms/osim_schur.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/robots/robots.hpp"

namespace {

template <class S>
void register_oscm_schur(int n, const std::string& scalar) {
  const treedyn::Model<S> model = treedyn::robots::random_chain<double>(n, 1).template cast<S>();
  treedyn::OperationalFrames<S> frames(model);
  frames.add(model.nbodies() - 1, treedyn::xlt(treedyn::Vector3<S>(S(0.1), S(0), S(0.05))));
  const Eigen::Matrix<S, Eigen::Dynamic, 1> q = treedyn::random_configuration(model, 42);
  const std::string suffix = "/chain" + std::to_string(n) + "/" + scalar;
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
  for (const int n : {10, 20, 50, 100, 200, 500}) {
    register_oscm_schur<double>(n, "double");
    register_oscm_schur<float>(n, "float");
  }
  return 0;
}();

}  // namespace
