// MinverseApplyFixman/<model>/<scalar>: one M⁻¹b by Fixman's soft/hard variables (O(n); Lee, Wang &
// Chirikjian (2007), Fig. 3) on the shared random revolute chains n = 6…1000 (support/fixture.hpp), float
// and double. The workspace, q and b (the fixture's τ) are built outside the loop; the call writes only into
// the workspace, so nothing needs copying.
// humanoid30 is a branched tree, which the method rejects (FixmanWorkspace throws), so it is not timed.
#include <benchmark/benchmark.h>

#include <string>

#include "support/fixture.hpp"
#include "treedyn/algorithms/minverse_apply_fixman.hpp"

namespace {

template <class Scalar>
void register_fixman(const std::string& name, const treedyn::Model<Scalar>& model, const std::string& scalar) {
  benchmark::RegisterBenchmark(("MinverseApplyFixman/" + name + "/" + scalar).c_str(),
                               [model](benchmark::State& state) {
                                 treedyn::FixmanWorkspace<Scalar> ws(model);
                                 treedyn::Data<Scalar> fdata(model);
                                 const treedyn::bench::State<Scalar> s = treedyn::bench::state(model);
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(
                                       treedyn::minverse_apply_fixman(model, fdata, ws, s.q, s.tau).data());
                                   benchmark::ClobberMemory();
                                 }
                                 state.counters["n"] = static_cast<double>(model.nv());
                               });
}

const bool registered = [] {
  for (const int n : treedyn::bench::minverse_chain_lengths()) {
    const treedyn::bench::NamedModel c = treedyn::bench::chain(n);
    treedyn::bench::for_each_scalar(c.model, [&c](const auto& model, const std::string& scalar) {
      register_fixman(c.name, model, scalar);
    });
  }
  return true;
}();

}  // namespace
