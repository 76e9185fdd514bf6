// Batched forward dynamics on BatchRunner (treedyn/parallel/batch.hpp) and on LaneBatchRunner
// (treedyn/parallel/lane_batch.hpp, W states in the SIMD lanes of each kernel call): ABA over 1024 humanoid30
// states, the columns of Q, QD, TAU → QDD, on 1 and on 2 threads (the caller and one worker). Wall time
// (UseRealTime), items = states; the 2-thread figure over the 1-thread one is the parallel speed-up, a lanes
// figure over its scalar one the SIMD speed-up (docs/lanes.md#the-batch-runner-on-lanes).
// Names: ABA/humanoid30-batch1024-threads<T>/<scalar> for BatchRunner<scalar>, .../<scalar>-lanes<W> for
// LaneBatchRunner<scalar, W> (W = native_lane_width<scalar> of the build's flags);
// BatchDispatch/humanoid30-empty-threads2/double is the cost of a call with nothing to compute. Inputs and the
// runners are built outside the timed loop.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "support/fixture.hpp"
#include "treedyn/parallel/batch.hpp"
#if __has_include(<experimental/simd>)
#include "treedyn/parallel/lane_batch.hpp"
#define TREEDYN_BENCH_BATCH_LANES 1
#endif

namespace {

constexpr int batch_size = 1024;

/// ABA over batch_size humanoid30 states on Runner (BatchRunner<T> or LaneBatchRunner<T, W>) with `threads`
/// threads; `scalar` is the name's last part.
template <class T, class Runner>
void register_batch(int threads, const std::string& scalar) {
  const std::string name =
      "ABA/humanoid30-batch" + std::to_string(batch_size) + "-threads" + std::to_string(threads) + "/" + scalar;
  benchmark::RegisterBenchmark(name.c_str(), [threads](benchmark::State& st) {
    const treedyn::Model<double> md = treedyn::bench::humanoid30().model;
    const treedyn::Model<T> model = md.cast<T>();
    const treedyn::bench::State<double> s = treedyn::bench::state(md);  // q̇, τ of every column
    using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    Matrix Q(model.nq(), batch_size), QD = s.qd.cast<T>().replicate(1, batch_size),
        TAU = s.tau.cast<T>().replicate(1, batch_size), QDD(model.nv(), batch_size);
    for (int k = 0; k < batch_size; ++k)
      Q.col(k) = treedyn::random_configuration(md, 42 + static_cast<std::uint64_t>(k)).template cast<T>();
    Runner batch(model, threads);
    for (auto _ : st) {
      benchmark::DoNotOptimize(batch.aba(Q, QD, TAU, QDD));
      benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(st.iterations() * batch_size);
  })->UseRealTime()->Unit(benchmark::kMicrosecond);
}

/// The cost of one call itself: for_each over one empty state per thread (the workers' wake-up and the
/// caller's wait), to set against a batch's time.
void register_dispatch(int threads) {
  const std::string name = "BatchDispatch/humanoid30-empty-threads" + std::to_string(threads) + "/double";
  benchmark::RegisterBenchmark(name.c_str(), [threads](benchmark::State& st) {
    const treedyn::Model<double> model = treedyn::bench::humanoid30().model;
    treedyn::BatchRunner<double> batch(model, threads);
    for (auto _ : st) {
      benchmark::DoNotOptimize(batch.for_each(threads, [](const treedyn::Model<double>&, treedyn::Data<double>& d, int) {
        benchmark::DoNotOptimize(d.qdd.data());
      }));
    }
  })->UseRealTime()->Unit(benchmark::kMicrosecond);
}

const int registered = [] {
  for (const int threads : {1, 2}) {
    register_batch<double, treedyn::BatchRunner<double>>(threads, "double");
    register_batch<float, treedyn::BatchRunner<float>>(threads, "float");
#ifdef TREEDYN_BENCH_BATCH_LANES
    using treedyn::native_lane_width;
    register_batch<double, treedyn::LaneBatchRunner<double>>(
        threads, "double-lanes" + std::to_string(native_lane_width<double>));
    register_batch<float, treedyn::LaneBatchRunner<float>>(threads, "float-lanes" + std::to_string(native_lane_width<float>));
#endif
  }
  register_dispatch(2);
  return 0;
}();

}  // namespace
