// The kernels over treedyn::Lanes (include/treedyn/lanes/lanes.hpp, docs/lanes.md#speed): W states per call in
// SIMD lanes against the scalar float and double kernel, one state per call, in the same run: RNEA, CRBA, ABA,
// FDCRBA (forward_dynamics_crba), FactorSolveH (factor_H, then solve_H of a copy of q̇, on the H of a crba run
// before the loop) and FrameJacobian (world-aligned, last body, after a forward_kinematics run before the loop).
// Models: humanoid30, chain30, arm7 and, with the URDF component, quadruped12 (examples/robots).
// Names: <Kernel>/<model>/<scalar> with scalar float, double, lanes-double2, lanes-float4 (one SSE2 register),
// lanes-double4, lanes-float8 (one AVX register); the counter
// per_state is the time per state (the call's time / W). The lane runs evaluate the model cast to
// Lanes (model.cast<Lanes<T, W>>(): every lane reads its own copy of the model's numbers; sharing one
// Model<T> is the next step of issue 43). States: lane j at random_configuration(model, 42 + j) with
// q̇ and q̈ as the fixture's (lane 0 is the scalar runs' state).
#include <benchmark/benchmark.h>

#include <string>
#include <type_traits>
#include <vector>

#include "support/fixture.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/lanes/lanes.hpp"
#include "treedyn/model/data.hpp"
#if TREEDYN_BENCH_LANES_URDF
#include "support/robots_dir.hpp"
#include "treedyn/urdf/build_model.hpp"
#endif

namespace {

/// The kernels timed, each (model, data, q, q̇, x) → something whose data() the benchmark keeps; x is q̈ or τ,
/// and a scratch vector for solve_H. data holds crba's H and forward_kinematics' frames of q (run before the loop).
const auto kernels = [](auto&& each) {
  each("RNEA", [](const auto& m, auto& d, const auto& q, const auto& qd, auto& x) { return treedyn::rnea(m, d, q, qd, x).data(); });
  each("CRBA", [](const auto& m, auto& d, const auto& q, const auto&, auto&) { return treedyn::crba(m, d, q).data(); });
  each("ABA", [](const auto& m, auto& d, const auto& q, const auto& qd, auto& x) { return treedyn::aba(m, d, q, qd, x).data(); });
  each("FDCRBA", [](const auto& m, auto& d, const auto& q, const auto& qd, auto& x) {
    return treedyn::forward_dynamics_crba(m, d, q, qd, x).data();
  });
  each("FactorSolveH", [](const auto& m, auto& d, const auto&, const auto& qd, auto& x) {
    treedyn::factor_H(m, d);
    x = qd;  // the right-hand side afresh (an nv-vector copy, in the time): x ← H⁻¹ⁿ x would drift to denormals
    treedyn::solve_H(m, d, x);
    return x.data();
  });
  each("FrameJacobian", [](const auto& m, auto& d, const auto&, const auto&, auto&) {
    return treedyn::frame_jacobian(m, d, m.nbodies() - 1, std::decay_t<decltype(m.tree_transform(0))>::identity(),
                                   treedyn::ReferenceFrame::world_aligned)
        .data();
  });
};

/// Times `kernel` on (model, q, q̇, x) as <name>/<model>/<scalar>; per_state = the call's time / W.
template <class S, class V, class Kernel>
void register_kernel(const std::string& name, const treedyn::Model<S>& model, const V& q, const V& qd, const V& x,
                     double W, const Kernel& kernel) {
  benchmark::RegisterBenchmark(name.c_str(), [model, q, qd, x, W, kernel](benchmark::State& st) {
    treedyn::Data<S> data(model);
    treedyn::crba(model, data, q);
    treedyn::forward_kinematics(model, data, q);
    V xs = x;
    for (auto _ : st) {
      benchmark::DoNotOptimize(kernel(model, data, q, qd, xs));
      benchmark::ClobberMemory();
    }
    st.counters["per_state"] = benchmark::Counter(W, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  });
}

template <class S>
void register_scalar(const treedyn::bench::NamedModel& nm, const std::string& scalar) {
  const treedyn::Model<S> model = nm.model.template cast<S>();
  const treedyn::bench::State<S> s = treedyn::bench::state(model);
  kernels([&](const char* kernel_name, const auto& kernel) {
    register_kernel(std::string(kernel_name) + "/" + nm.name + "/" + scalar, model, s.q, s.qd, s.qdd, 1.0, kernel);
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
  kernels([&](const char* kernel_name, const auto& kernel) {
    register_kernel(std::string(kernel_name) + "/" + nm.name + "/" + scalar, model, q, qd, qdd, double(W), kernel);
  });
}

/// The models timed: the built-in humanoid30, chain30 and arm7, and with the URDF component the quadruped12 of
/// examples/robots on a free flyer (a commercial quadruped's size and mass).
std::vector<treedyn::bench::NamedModel> lane_models() {
  std::vector<treedyn::bench::NamedModel> out = {treedyn::bench::humanoid30(),
                                                 {"chain30", treedyn::robots::chain30<double>()},
                                                 {"arm7", treedyn::robots::arm7<double>()}};
#if TREEDYN_BENCH_LANES_URDF
  treedyn::urdf::Options options;
  options.floating_base = true;
  out.push_back({"quadruped12",
                 treedyn::urdf::load<double>(std::string(treedyn::bench::robots_dir()) + "/quadruped12.urdf", options).model});
#endif
  return out;
}

const bool registered = [] {
  for (const treedyn::bench::NamedModel& nm : lane_models()) {
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
