// Batched forward dynamics on BatchRunner (treedyn/parallel/batch.hpp): ABA over 1024 humanoid30 states,
// the columns of Q, QD, TAU → QDD, on 1 and on 2 threads (the caller and one worker). Wall time
// (UseRealTime), items = states; the 2-thread figure over the 1-thread one is the parallel speed-up.
// Names: ABA/humanoid30-batch1024-threads<T>/double; BatchDispatch/humanoid30-empty-threads2/double is the
// cost of a call with nothing to compute. Inputs and the runner are built outside the timed loop.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "support/fixture.hpp"
#include "treedyn/parallel/batch.hpp"

namespace {

constexpr int batch_size = 1024;

void register_batch(int threads) {
  const std::string name = "ABA/humanoid30-batch" + std::to_string(batch_size) + "-threads" + std::to_string(threads) +
                           "/double";
  benchmark::RegisterBenchmark(name.c_str(), [threads](benchmark::State& st) {
    const treedyn::Model<double> model = treedyn::bench::humanoid30().model;
    const treedyn::bench::State<double> s = treedyn::bench::state(model);  // q̇, τ of every column
    Eigen::MatrixXd Q(model.nq(), batch_size), QD = s.qd.replicate(1, batch_size),
        TAU = s.tau.replicate(1, batch_size), QDD(model.nv(), batch_size);
    for (int k = 0; k < batch_size; ++k)
      Q.col(k) = treedyn::random_configuration(model, 42 + static_cast<std::uint64_t>(k));
    treedyn::BatchRunner<double> batch(model, threads);
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
  register_batch(1);
  register_batch(2);
  register_dispatch(2);
  return 0;
}();

}  // namespace
