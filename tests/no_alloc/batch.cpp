// No allocation in the batched calls (treedyn/parallel/batch.hpp) after the runner is built: the caller and
// the worker threads alike (the counting operator new is process-wide and atomic).
#include "no_alloc/batch_calls.hpp"

#include "treedyn/parallel/batch.hpp"

TEST_CASE("batched aba, rnea, crba and for_each allocate nothing, on any thread", "[no_alloc][batch]") {
  const Model<double> model = robots::humanoid30<double>();
  const int n = 37;
  test::BatchCalls<double> calls(model, n);
  for (const int threads : {1, 2, 3}) {
    INFO("threads = " << threads);
    BatchRunner<double> batch(model, threads);
    BatchStatus each, none;
    calls.require_allocation_free(batch, [&] {
      each = batch.for_each(n, [&](const Model<double>& m, Data<double>& d, int k) {
        (void)aba(m, d, calls.Q.col(k), calls.QD.col(k), calls.TAU.col(k));
        return d.aba_status;
      });
      none = batch.for_each(0, [](const Model<double>&, Data<double>&, int) {});
    });
    CHECK(each.first_failed == n - 1);
    CHECK(none.ok());
  }
}

TEST_CASE("the counting guard sees an allocation made on a worker thread", "[no_alloc][batch]") {
  const Model<double> model = robots::humanoid30<double>();
  BatchRunner<double> batch(model, 2);
  static void* volatile sink = nullptr;  // stored to a volatile: the allocation cannot be elided
  const long long counted = allocations_in([&] {
    batch.for_each(2, [](const Model<double>&, Data<double>&, int, int t) {
      if (t == 1) {
        sink = ::operator new(16);
        ::operator delete(sink);
      }
    });
  });
  CHECK(counted == (TREEDYN_COUNTING_NEW ? 1 : 0));
}
