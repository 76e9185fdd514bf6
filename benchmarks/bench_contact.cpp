// The contact layer's kernels. Lemke/size-k/scalar: Lemke's method on a dense monotone LCP of k unknowns
// (M = AᵀA + I/10 with A uniform in [−1, 1), q uniform in [−1, 1), one fixed draw per size), the workspace
// sized once; the counter `pivots` is the number of pivots the problem takes.
// ContactStep/box-on-plane/scalar: one contact_step (ABA, OSCM of the 4 corner contacts, the time-step LCP
// of size 24, the impulse ABA, integrate) of a cube (free joint, half side 0.1 m, 1 kg) resting on the
// plane z = 0 under gravity, μ = 0.5, n_f = 4, Δt = 1 ms, from the same state every iteration.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/contact/contact_step.hpp"
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

template <class S>
void register_box_on_plane(const std::string& scalar) {
  using namespace treedyn;
  using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
  const S a = S(0.1);
  ModelBuilder<S> b;
  b.add_body(no_parent, Joint<S>::free_flyer(), Transform<S>::identity(),
             RigidInertia<S>::from_mass_com_inertia(S(1), Vector3<S>::Zero(), Matrix3<S>::Identity() * (S(2) / S(3) * a * a)));
  const Model<S> model = b.build();
  std::vector<Contact<S>> contacts;
  for (const S x : {-a, a})
    for (const S y : {-a, a}) {
      Contact<S> c;
      c.point_a = Vector3<S>(x, y, -a);
      c.point_b = Vector3<S>(x, y, S(0));
      contacts.push_back(c);
    }
  VectorX q = VectorX::Zero(7);
  q(2) = a;
  q(6) = S(1);
  const std::string name = "ContactStep/box-on-plane/" + scalar;
  benchmark::RegisterBenchmark(name.c_str(), [model, contacts, q](benchmark::State& st) {
    Data<S> data(model);
    ContactStepWorkspace<S, Dynamic> ws(model, 4);
    const VectorX v = VectorX::Zero(6), tau = VectorX::Zero(6);
    for (auto _ : st) {
      benchmark::DoNotOptimize(contact_step(model, data, ws, q, v, tau, contacts, S(1e-3)).code);
      benchmark::ClobberMemory();
    }
    if (!ws.status().ok()) st.SkipWithError("contact_step failed");
    st.counters["lcp_size"] = ws.lcp_size();
    st.counters["pivots"] = ws.status().lcp.pivots;
  });
}

const bool registered = [] {
  register_box_on_plane<double>("double");
  register_box_on_plane<float>("float");
  for (const int k : {6, 12, 24, 48, 96}) {
    register_lemke<double>(k, "double");
    register_lemke<float>(k, "float");
  }
  return true;
}();

}  // namespace
