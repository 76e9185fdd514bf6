// Operational-space compliance Λ = J M⁻¹ Jᵀ: the recursive kernel (OSCM, oscm.hpp; and
// OSCMFaithful, the pseudo-code as written, Ω on every path body), the
// dense reference path (OSCMDense: CRBA + LTDL + J·solve(Jᵀ)) and the inverse (OSIM: oscm + dense LᵀDL).
// Cases: humanoid30 with its four feet/hands (24 rows) and with the two feet; random chains n = 10 … 500
// with one tip frame (slope in n); a 60-body random tree with n_c = 1 … 16 frames (growth in n_c). The
// ratio to the CRBA takes CRBA/humanoid30/double from bench_dynamics (each kernel is registered once, in
// the program of its family). Names Kernel/case/scalar. Frames and inputs are built outside
// the timed loop (OperationalFrames allocates once at setup).
#include <benchmark/benchmark.h>

#include <functional>
#include <string>

#include "support/fixture.hpp"
#include "treedyn/algorithms/algorithms.hpp"

namespace {

using treedyn::FrameRows;
using treedyn::Model;
using treedyn::OperationalFrames;
using treedyn::Transform;

/// Frame set in double; cast when a float case is registered.
using FrameSpec = std::function<void(const Model<double>&, OperationalFrames<double>&)>;

template <class S>
OperationalFrames<S> build_frames(const Model<double>& md, const Model<S>& model, const FrameSpec& spec) {
  OperationalFrames<double> fd(md);
  spec(md, fd);
  OperationalFrames<S> frames(model);
  for (int a = 0; a < fd.size(); ++a)
    frames.add(fd.body(a), fd.placement(a).template cast<S>(), fd.selection(a), fd.name(a));
  return frames;
}

template <class S>
void register_case(const std::string& name, const Model<double>& md, const Model<S>& model, const FrameSpec& spec,
                   const std::string& scalar) {
  const treedyn::bench::VecX<S> q = treedyn::bench::state(model).q;
  const OperationalFrames<S> frames = build_frames(md, model, spec);
  const std::string suffix = "/" + name + "/" + scalar;
  auto add = [&](const std::string& kernel, auto body) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(), [model, q, frames, body](benchmark::State& st) {
      treedyn::Data<S> data(model);
      OperationalFrames<S> f = frames;
      for (auto _ : st) {
        benchmark::DoNotOptimize(body(model, data, q, f).data());
        benchmark::ClobberMemory();
      }
      st.counters["rows"] = f.rows();
    });
  };
  add("OSCM", [](const auto& m, auto& d, const auto& q_, auto& f) -> const auto& { return treedyn::oscm(m, d, f, q_); });
  add("OSCMFaithful",
      [](const auto& m, auto& d, const auto& q_, auto& f) -> const auto& { return treedyn::oscm_faithful(m, d, f, q_); });
  add("OSCMDense",
      [](const auto& m, auto& d, const auto& q_, auto& f) -> const auto& { return treedyn::oscm_dense(m, d, f, q_); });
  add("OSIM", [](const auto& m, auto& d, const auto& q_, auto& f) -> const auto& { return treedyn::osim(m, d, f, q_); });
}

void register_both(const std::string& name, const Model<double>& md, const FrameSpec& spec) {
  treedyn::bench::for_each_scalar(md, [&](const auto& model, const std::string& scalar) {
    register_case(name, md, model, spec, scalar);
  });
}

const int registered = [] {
  const Model<double> humanoid = treedyn::bench::humanoid30().model;
  const Transform<double> sole = treedyn::xlt(Eigen::Vector3d(0.0, 0.0, -0.08));
  register_both("humanoid30-4frames", humanoid, [sole](const Model<double>&, OperationalFrames<double>& f) {
    for (int limb = 0; limb < 4; ++limb) f.add(6 + 6 * limb, sole);  // hands (limbs 0, 1), feet (2, 3)
  });
  register_both("humanoid30-2frames", humanoid, [sole](const Model<double>&, OperationalFrames<double>& f) {
    f.add(18, sole);
    f.add(24, sole);
  });
  for (int n : treedyn::bench::oscm_chain_lengths()) {
    const treedyn::bench::NamedModel c = treedyn::bench::chain(n);
    register_both(c.name, c.model, [](const Model<double>& m, OperationalFrames<double>& f) {
      f.add(m.nbodies() - 1, Transform<double>::identity());
    });
  }
  const Model<double> tree = treedyn::robots::random_tree<double>(60, 7);
  for (int nc : {1, 2, 4, 8, 16})
    register_both("tree60-nc" + std::to_string(nc), tree, [nc](const Model<double>& m, OperationalFrames<double>& f) {
      for (int a = 0; a < nc; ++a) f.add(m.nbodies() - 1 - (a * 37) % m.nbodies(), Transform<double>::identity());
    });
  return 0;
}();

}  // namespace
