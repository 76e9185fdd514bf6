// RNEA over treedyn::Lanes (include/treedyn/lanes/lanes.hpp, docs/lanes.md#speed): W states per call in
// SIMD lanes against the scalar float and double RNEA, one state per call, in the same run.
// Names: RNEA/<model>/<scalar> with scalar float, double, lanes-double2, lanes-float4 (one SSE2 register),
// lanes-double4, lanes-float8 (one AVX register); the counter
// per_state is the time per state (the call's time / W). The lane runs evaluate the model cast to
// Lanes (model.cast<Lanes<T, W>>(): every lane reads its own copy of the model's numbers; sharing one
// Model<T> is the next step of issue 43). States: lane j at random_configuration(model, 42 + j) with
// q̇ and q̈ as the fixture's (lane 0 is the scalar runs' state).
#include <benchmark/benchmark.h>

#include <string>

#include "support/fixture.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/lanes/lanes.hpp"
#include "treedyn/model/data.hpp"

namespace {

template <class S>
void register_scalar(const treedyn::bench::NamedModel& nm, const std::string& scalar) {
  const treedyn::Model<S> model = nm.model.template cast<S>();
  const treedyn::bench::State<S> s = treedyn::bench::state(model);
  benchmark::RegisterBenchmark(("RNEA/" + nm.name + "/" + scalar).c_str(), [model, s](benchmark::State& st) {
    treedyn::Data<S> data(model);
    for (auto _ : st) {
      benchmark::DoNotOptimize(treedyn::rnea(model, data, s.q, s.qd, s.qdd).data());
      benchmark::ClobberMemory();
    }
    st.counters["per_state"] = benchmark::Counter(1.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  });
}

template <class T, int W>
void register_lanes(const treedyn::bench::NamedModel& nm, const std::string& scalar) {
  using L = treedyn::Lanes<T, W>;
  using VecL = Eigen::Matrix<L, Eigen::Dynamic, 1>;
  const treedyn::Model<L> model = nm.model.template cast<L>();
  const treedyn::Model<T> scalar_model = nm.model.template cast<T>();
  const treedyn::bench::State<T> s0 = treedyn::bench::state(scalar_model);
  VecL q(model.nq()), qd(model.nv()), qdd(model.nv());
  for (int j = 0; j < W; ++j) {
    const auto qj = treedyn::random_configuration(scalar_model, 42u + static_cast<unsigned>(j));
    for (int k = 0; k < model.nq(); ++k) q(k).set_lane(j, qj(k));
    for (int k = 0; k < model.nv(); ++k) {
      qd(k).set_lane(j, s0.qd(k));
      qdd(k).set_lane(j, s0.qdd(k));
    }
  }
  benchmark::RegisterBenchmark(("RNEA/" + nm.name + "/" + scalar).c_str(), [model, q, qd, qdd](benchmark::State& st) {
    treedyn::Data<L> data(model);
    for (auto _ : st) {
      benchmark::DoNotOptimize(treedyn::rnea(model, data, q, qd, qdd).data());
      benchmark::ClobberMemory();
    }
    st.counters["per_state"] = benchmark::Counter(double(W), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  });
}

const bool registered = [] {
  for (const treedyn::bench::NamedModel& nm : {treedyn::bench::humanoid30(), treedyn::bench::NamedModel{"chain30", treedyn::robots::chain30<double>()},
                                               treedyn::bench::NamedModel{"arm7", treedyn::robots::arm7<double>()}}) {
    register_scalar<double>(nm, "double");
    register_scalar<float>(nm, "float");
    register_lanes<double, 2>(nm, "lanes-double2");  // one SSE2 register
    register_lanes<float, 4>(nm, "lanes-float4");
    register_lanes<double, 4>(nm, "lanes-double4");  // one AVX register, two SSE2 registers
    register_lanes<float, 8>(nm, "lanes-float8");
  }
  return true;
}();

}  // namespace
