// The contact layer's kernels. Lemke/size-k/scalar: Lemke's method on a dense monotone LCP of k unknowns
// (M = AᵀA + I/10 with A uniform in [−1, 1), q uniform in [−1, 1), one fixed draw per size), the workspace
// sized once; the counter `pivots` is the number of pivots the problem takes.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include <Eigen/Core>

#include "treedyn/contact/lemke.hpp"
#include "treedyn/topology/generators.hpp"

namespace {

template <class S>
void register_lemke(int k, const std::string& scalar) {
  using MatrixX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
  treedyn::SplitMix64 gen(static_cast<std::uint64_t>(1000 + k));
  MatrixX A(k, k);
  VectorX q(k);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) A(i, j) = static_cast<S>(gen.uniform(-1.0, 1.0));
  for (int i = 0; i < k; ++i) q(i) = static_cast<S>(gen.uniform(-1.0, 1.0));
  const MatrixX M = A.transpose() * A + MatrixX::Identity(k, k) / S(10);
  const std::string name = "Lemke/size-" + std::to_string(k) + "/" + scalar;
  benchmark::RegisterBenchmark(name.c_str(), [M, q, k](benchmark::State& st) {
    treedyn::LemkeWorkspace<S> ws(k);
    for (auto _ : st) {
      benchmark::DoNotOptimize(treedyn::lemke(ws, M, q).residual);
      benchmark::ClobberMemory();
    }
    st.counters["pivots"] = ws.status().pivots;
  });
}

const bool registered = [] {
  for (const int k : {6, 12, 24, 48, 96}) {
    register_lemke<double>(k, "double");
    register_lemke<float>(k, "float");
  }
  return true;
}();

}  // namespace
