// No allocation in the batched calls on lanes (treedyn/parallel/lane_batch.hpp) after the runner is built: the
// caller and the worker threads alike, the lane packs, the masked tail and the scalar re-run of a failing state.
// Built only where <experimental/simd> is (tests/CMakeLists.txt, as test_lanes).
#include "no_alloc/batch_calls.hpp"

#include "treedyn/parallel/lane_batch.hpp"

TEST_CASE("batched aba, rnea and crba on lanes allocate nothing, on any thread", "[no_alloc][batch][lanes]") {
  const Model<double> model = robots::humanoid30<double>();
  test::BatchCalls<double> d(model, 37);  // 4 lanes: 9 packs and a tail of 1
  test::BatchCalls<float> f(model, 37);   // 8 lanes: 4 packs and a tail of 5
  const Model<float> model_f = model.cast<float>();
  for (const int threads : {1, 2, 3}) {
    INFO("threads = " << threads);
    LaneBatchRunner<double, 4> lanes_d(model, threads);
    LaneBatchRunner<float, 8> lanes_f(model_f, threads);
    d.require_allocation_free(lanes_d, [] {});
    f.require_allocation_free(lanes_f, [] {});
  }
}
