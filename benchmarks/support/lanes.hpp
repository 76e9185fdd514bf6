// What bench_lanes' units share (benchmarks/lanes/): the models, the lane states, and the registration of a
// list of kernels in every scalar, one state per call (float, double) and W states per call in SIMD lanes.
// Each unit of bench_lanes registers its own kernels (the dynamics, the derivatives): kept in separate units so
// that adding a kernel does not change how GCC inlines the others (docs/lanes.md#speed).
//
// A kernel is called as kernel(model, data, ws, q, q̇, x) and returns something whose data() the benchmark keeps;
// x is q̈ or τ (and a scratch vector for solve_H), ws a Workspace<S>(model) built before the loop, data holds
// crba's H and forward_kinematics' frames of q (run before the loop). Names: <Kernel>/<model>/<scalar> with
// scalar float, double, lanes-double2, lanes-float4 (one SSE2 register), lanes-double4, lanes-float8 (one AVX
// register); the counter per_state is the time per state (the call's time / W). The lane runs evaluate the
// model cast to Lanes (model.cast<Lanes<T, W>>(): every lane reads its own copy of the model's numbers).
// States: lane j at random_configuration(model, 42 + j) with q̇ and q̈ as the fixture's (lane 0 is the scalar
// runs' state).
#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "support/fixture.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/lanes/lanes.hpp"
#include "treedyn/model/data.hpp"
#if TREEDYN_BENCH_LANES_URDF
#include "support/robots_dir.hpp"
#include "treedyn/urdf/build_model.hpp"
#endif

namespace treedyn::bench {

/// The workspace of kernels that need none.
template <class S>
struct NoWorkspace {
  explicit NoWorkspace(const Model<S>&) noexcept {}
};

/// Times `kernel` on (model, q, q̇, x) as <name>/<model>/<scalar>; per_state = the call's time / W.
template <template <class> class Workspace, class S, class V, class Kernel>
void register_lane_kernel(const std::string& name, const Model<S>& model, const V& q, const V& qd, const V& x,
                          double W, const Kernel& kernel) {
  benchmark::RegisterBenchmark(name.c_str(), [model, q, qd, x, W, kernel](benchmark::State& st) {
    Data<S> data(model);
    crba(model, data, q);
    forward_kinematics(model, data, q);
    Workspace<S> ws(model);
    V xs = x;
    for (auto _ : st) {
      benchmark::DoNotOptimize(kernel(model, data, ws, q, qd, xs));
      benchmark::ClobberMemory();
    }
    st.counters["per_state"] = benchmark::Counter(W, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  });
}

/// The kernels of `kernels(each)` in scalar S, one state per call, on the fixture's state.
template <template <class> class Workspace, class S, class Kernels>
void register_scalar(const NamedModel& nm, const std::string& scalar, const Kernels& kernels) {
  const Model<S> model = nm.model.template cast<S>();
  const State<S> s = state(model);
  kernels([&](const char* kernel_name, const auto& kernel) {
    register_lane_kernel<Workspace>(std::string(kernel_name) + "/" + nm.name + "/" + scalar, model, s.q, s.qd, s.qdd,
                                    1.0, kernel);
  });
}

/// The same kernels on Lanes<T, W>, W states per call.
template <template <class> class Workspace, class T, int W, class Kernels>
void register_lanes(const NamedModel& nm, const std::string& scalar, const Kernels& kernels) {
  using L = Lanes<T, W>;
  using VecL = Eigen::Matrix<L, Eigen::Dynamic, 1>;
  const Model<L> model = nm.model.template cast<L>();
  const Model<T> scalar_model = nm.model.template cast<T>();
  const State<T> s0 = state(scalar_model);
  VecL q(model.nq()), qd(model.nv()), qdd(model.nv());
  for (int j = 0; j < W; ++j) {
    const auto qj = random_configuration(scalar_model, 42u + static_cast<unsigned>(j));
    for (int k = 0; k < model.nq(); ++k) q(k).set_lane(j, qj(k));
    for (int k = 0; k < model.nv(); ++k) {
      qd(k).set_lane(j, s0.qd(k));
      qdd(k).set_lane(j, s0.qdd(k));
    }
  }
  kernels([&](const char* kernel_name, const auto& kernel) {
    register_lane_kernel<Workspace>(std::string(kernel_name) + "/" + nm.name + "/" + scalar, model, q, qd, qdd,
                                    double(W), kernel);
  });
}

/// The models timed: the built-in humanoid30, chain30 and arm7, and with the URDF component the quadruped12 of
/// examples/robots on a free flyer (a commercial quadruped's size and mass).
inline std::vector<NamedModel> lane_models() {
  std::vector<NamedModel> out = {humanoid30(), {"chain30", robots::chain30<double>()}, {"arm7", robots::arm7<double>()}};
#if TREEDYN_BENCH_LANES_URDF
  urdf::Options options;
  options.floating_base = true;
  out.push_back({"quadruped12", urdf::load<double>(std::string(robots_dir()) + "/quadruped12.urdf", options).model});
#endif
  return out;
}

/// Every model in every scalar of the table above.
template <template <class> class Workspace, class Kernels>
bool register_every_scalar(const Kernels& kernels) {
  for (const NamedModel& nm : lane_models()) {
    register_scalar<Workspace, double>(nm, "double", kernels);
    register_scalar<Workspace, float>(nm, "float", kernels);
    register_lanes<Workspace, double, 2>(nm, "lanes-double2", kernels);  // one SSE2 register
    register_lanes<Workspace, float, 4>(nm, "lanes-float4", kernels);
    register_lanes<Workspace, double, 4>(nm, "lanes-double4", kernels);  // one AVX register, two SSE2 registers
    register_lanes<Workspace, float, 8>(nm, "lanes-float8", kernels);
  }
  return true;
}

}  // namespace treedyn::bench
