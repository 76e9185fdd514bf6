// MinverseApplyFixman/<model>/<scalar>: one M⁻¹b by Fixman's soft/hard variables (O(n); Lee, Wang &
// Chirikjian (2007), Fig. 3) on the shared random revolute chains n = 6…1000 (chains.hpp), float and
// double. The workspace, q and b are built outside the loop; the call writes only into the workspace, so
// nothing needs copying.
// humanoid30 is a branched tree, which the method rejects (FixmanWorkspace throws), so it is not timed.
#include <benchmark/benchmark.h>

#include "minverse/chains.hpp"
#include "treedyn/algorithms/minverse_apply_fixman.hpp"
#include "treedyn/model/configuration.hpp"

namespace {

template <class Scalar>
void register_fixman(const std::string& scalar) {
  for (const int n : minverse_bench::chain_lengths()) {
    auto [name, model] = minverse_bench::chain<Scalar>(n);
    benchmark::RegisterBenchmark(("MinverseApplyFixman/" + name + "/" + scalar).c_str(),
                                 [model = model](benchmark::State& state) {
                                   treedyn::FixmanWorkspace<Scalar> ws(model);
                                   treedyn::Data<Scalar> fdata(model);
                                   const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> q =
                                       treedyn::random_configuration(model, 1);
                                   const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> b =
                                       Eigen::Matrix<Scalar, Eigen::Dynamic, 1>::LinSpaced(model.nv(), Scalar(-1),
                                                                                           Scalar(1));
                                   for (auto _ : state) {
                                     benchmark::DoNotOptimize(
                                         treedyn::minverse_apply_fixman(model, fdata, ws, q, b).data());
                                     benchmark::ClobberMemory();
                                   }
                                   state.counters["n"] = static_cast<double>(model.nv());
                                 });
  }
}

const bool registered = [] {
  register_fixman<float>("float");
  register_fixman<double>("double");
  return true;
}();

}  // namespace
