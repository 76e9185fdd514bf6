// The Schur-complement M⁻¹ of Fijany (1994) §IV and the block-tridiagonal solvers on the chain's 𝒜.
// Names Kernel/model/scalar: MinverseSchur (full M⁻¹ = 𝒢 − ℬᵀ𝒜⁻¹ℬ, O(N²)), MinverseApplySchur (M⁻¹τ, O(N)),
// BlockTridiagonalLDLT and BlockCyclicReduction (factor + solve of 𝒜 z = y, one right-hand side; both copy
// their input inside the loop), BlockTridiagonalCopy (that copy alone). Models from support/fixture.hpp: the
// chains and humanoid30 (a tree: its 𝒜 is solved by the leaves-first kernel, so the block-tridiagonal
// solvers are not run on it).
#include <benchmark/benchmark.h>

#include <string>

#include "support/fixture.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/kernels/block_cyclic_reduction.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"

namespace {

template <class S>
void register_schur(const std::string& robot, const treedyn::Model<S>& model, const std::string& scalar) {
  using VecX = treedyn::bench::VecX<S>;
  const treedyn::bench::State<S> s = treedyn::bench::state(model);
  const VecX &q = s.q, &tau = s.tau;
  const std::string suffix = "/" + robot + "/" + scalar;
  benchmark::RegisterBenchmark(("MinverseSchur" + suffix).c_str(), [model, q](benchmark::State& st) {
    treedyn::Data<S> data(model);
    treedyn::SchurWorkspace<S> ws(model);
    for (auto _ : st) {
      benchmark::DoNotOptimize(treedyn::minverse_schur(model, data, ws, q).data());
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark(("MinverseApplySchur" + suffix).c_str(), [model, q, tau](benchmark::State& st) {
    treedyn::Data<S> data(model);
    treedyn::SchurWorkspace<S> ws(model);
    for (auto _ : st) {
      benchmark::DoNotOptimize(treedyn::minverse_apply_schur(model, data, ws, q, tau).data());
      benchmark::ClobberMemory();
    }
  });
  treedyn::Data<S> data(model);
  treedyn::SchurWorkspace<S> ws(model);
  if (!ws.is_chain()) return;
  treedyn::schur_operators(model, data, ws, q);
  const treedyn::BlockTridiagonal<S> A = ws.A_chain;
  const VecX y = VecX::LinSpaced(A.dim(), S(1), S(-1));
  // The three block solvers share one loop: reset x (and whatever the body resets), run the body.
  const auto add_solver = [&](const std::string& kernel, auto body) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(), [A, y, body](benchmark::State& st) {
      treedyn::BlockTridiagonal<S> F = A;
      treedyn::BlockCyclicReduction<S> bcr(A.sizes());
      VecX x = y;
      for (auto _ : st) {
        x = y;
        body(F, bcr, x);
        benchmark::DoNotOptimize(x.data());
        benchmark::ClobberMemory();
      }
    });
  };
  add_solver("BlockTridiagonalCopy", [A](treedyn::BlockTridiagonal<S>& F, treedyn::BlockCyclicReduction<S>&, VecX&) {
    F = A;
    benchmark::DoNotOptimize(F.diag(0).data());
  });
  add_solver("BlockTridiagonalLDLT", [A](treedyn::BlockTridiagonal<S>& F, treedyn::BlockCyclicReduction<S>&, VecX& x) {
    F = A;
    benchmark::DoNotOptimize(treedyn::block_tridiagonal_factor(F).row);
    treedyn::block_tridiagonal_solve(F, x);
  });
  add_solver("BlockCyclicReduction", [A](treedyn::BlockTridiagonal<S>&, treedyn::BlockCyclicReduction<S>& bcr, VecX& x) {
    benchmark::DoNotOptimize(treedyn::block_cyclic_reduction(A, bcr, x).row);
  });
}

const int registered = [] {
  for (const int n : treedyn::bench::minverse_chain_lengths()) {
    const treedyn::bench::NamedModel c = treedyn::bench::chain(n);
    treedyn::bench::for_each_scalar(c.model, [&c](const auto& model, const std::string& scalar) {
      register_schur(c.name, model, scalar);
    });
  }
  treedyn::bench::for_each_scalar(treedyn::bench::humanoid30().model, [](const auto& model, const std::string& scalar) {
    register_schur("humanoid30", model, scalar);
  });
  return 0;
}();

}  // namespace
