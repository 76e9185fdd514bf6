// The contact layer's kernels. Lemke/size-k/scalar: Lemke's method on a dense monotone LCP of k unknowns
// (M = AᵀA + I/10 with A uniform in [−1, 1), q uniform in [−1, 1), one fixed draw per size), the workspace
// sized once; the counter `pivots` is the number of pivots the problem takes.
// ContactStep/<scene>/<cone>/<scalar>, cone pyramid, exact (warm-started, the default: from the same state every
// iteration, so from the step's own answer, as in a resting scene) or exact-cold (warm_start off; before the warm
// start, docs/contact.md#warm-start) (docs/contact.md#exact-friction-cone): one
// contact_step (ABA, OSCM of the contacts, the time-step problem, the impulse ABA, integrate) from the same
// state every iteration, μ = 0.5, n_f = 4, Δt = 1 ms: box-on-plane, a cube (free joint, half side 0.1 m, 1 kg)
// resting on its 4 corners on the plane z = 0 (pyramid LCP of size 24); stack3, three such cubes stacked (12
// contacts); ball-sliding, a ball (radius 0.1 m) sliding at 2 m/s on the bisector of two pyramid directions.
// Counters: the LCP size, Lemke's pivots or the exact cone's sweeps, and contact_metrics' largest cone,
// dissipation and approach violations of the step.
// ContactStep/pendulum-n-os/<cone>/double and ContactStep/pendulum-n-nmcos/<cone>/double: Jain (n.d.) §8's n-link
// pendulum (robots::SpherePendulum, minimal coordinates or free bodies with 5n hinge rows), one full step
// — forward_kinematics, detect_contacts (brute force over the O(n²) shape pairs, 5 mm margin) and
// contact_step (Δt = 0.1 ms, μ = 0.5, ε = 0.7, n_f = 4) — always from the same state: the paper's initial
// state advanced, outside the timing, by steps of the same kind until detection first reports a contact
// (the chain reaching the floor). Counters: the contacts, those above, and `sim_ms`, the
// simulated time of that state. ContactDetect/pendulum-n/double: forward_kinematics and detect_contacts
// alone from the OS state, the detection share of the OS step.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/contact/contact_metrics.hpp"
#include "treedyn/contact/contact_step.hpp"
#include "treedyn/kernels/lemke.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/robots/sphere_pendulum.hpp"
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

/// The counters every ContactStep benchmark reports: the LCP size, Lemke's pivots or the exact cone's sweeps, and
/// contact_metrics' largest violations of the last step (docs/contact.md#contact-metrics).
template <class S>
void contact_counters(benchmark::State& st, const treedyn::ContactStepWorkspace<S, treedyn::Dynamic>& ws,
                      const std::vector<treedyn::Contact<S>>& contacts) {
  const treedyn::ContactMetrics<S> m = treedyn::contact_metrics(ws, contacts);
  st.counters["lcp_size"] = ws.lcp_size();
  st.counters["pivots"] = ws.status().lcp.pivots;
  st.counters["cone"] = static_cast<double>(m.worst.cone);
  st.counters["dissipation"] = static_cast<double>(m.worst.dissipation);
  st.counters["approach"] = static_cast<double>(m.worst.approach);
}

const char* cone_name(treedyn::FrictionCone cone) { return cone == treedyn::FrictionCone::exact ? "exact" : "pyramid"; }

/// One free body (mass 1, inertia diag(I)) under gravity −9.81 z.
template <class S>
treedyn::Model<S> free_body(const treedyn::Matrix3<S>& inertia, int bodies = 1) {
  using namespace treedyn;
  ModelBuilder<S> b;
  for (int k = 0; k < bodies; ++k)
    b.add_body(no_parent, Joint<S>::free_flyer(), Transform<S>::identity(),
               RigidInertia<S>::from_mass_com_inertia(S(1), Vector3<S>::Zero(), inertia));
  return b.build().with_gravity(Vector3<S>(S(0), S(0), S(-9.81)));
}

/// ContactStep/<scene>/<cone>/<scalar>: one contact_step of `model` at (q, v) on `contacts`, Δt = 1 ms.
template <class S>
void register_scene(const std::string& scene, const std::string& scalar, const treedyn::Model<S>& model,
                    const std::vector<treedyn::Contact<S>>& contacts, const Eigen::Matrix<S, Eigen::Dynamic, 1>& q,
                    const Eigen::Matrix<S, Eigen::Dynamic, 1>& v) {
  using namespace treedyn;
  using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
  for (const int variant : {0, 1, 2}) {  // the pyramid, the exact cone warm-started (the default), cold
    const FrictionCone cone = variant == 0 ? FrictionCone::pyramid : FrictionCone::exact;
    const std::string name =
        "ContactStep/" + scene + "/" + cone_name(cone) + (variant == 2 ? "-cold" : "") + "/" + scalar;
    benchmark::RegisterBenchmark(name.c_str(), [model, contacts, q, v, cone, variant](benchmark::State& st) {
      Data<S> data(model);
      ContactStepWorkspace<S, Dynamic> ws(model, static_cast<int>(contacts.size()));
      ws.friction_cone = cone;
      ws.warm_start = variant != 2;  // warm: every step after the first starts from the last (same state: steady)
      const VectorX tau = VectorX::Zero(model.nv());
      for (auto _ : st) {
        benchmark::DoNotOptimize(contact_step(model, data, ws, q, v, tau, contacts, S(1e-3)).code);
        benchmark::ClobberMemory();
      }
      if (!ws.status().ok()) st.SkipWithError("contact_step failed");
      contact_counters(st, ws, contacts);
    });
  }
}

/// The scenes: a ball (radius 0.1 m) sliding at 2 m/s on the bisector of two pyramid directions; a cube (half
/// side 0.1 m) resting on its 4 corners; a stack of three such cubes (12 contacts); μ = 0.5, n_f = 4.
template <class S>
void register_scenes(const std::string& scalar) {
  using namespace treedyn;
  using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
  const S a = S(0.1);
  std::int64_t next_id = 0;
  const auto contact = [&next_id](int body_a, int body_b, const Vector3<S>& on_a, const Vector3<S>& on_b) {
    Contact<S> c;
    c.id = next_id++;  // an identity kept across steps: the exact cone's warm start
    c.body_a = body_a;
    c.body_b = body_b;
    c.point_a = on_a;
    c.point_b = on_b;
    c.mu = S(0.5);
    c.tangent = Vector3<S>::UnitX();
    return c;
  };
  {
    VectorX q = VectorX::Zero(7), v = VectorX::Zero(6);
    q(2) = a;
    q(6) = S(1);
    v(3) = v(4) = S(2) / std::sqrt(S(2));
    register_scene<S>("ball-sliding", scalar, free_body<S>(Matrix3<S>::Identity() * (S(0.4) * a * a)),
                      {contact(0, world, Vector3<S>(S(0), S(0), -a), Vector3<S>::Zero())}, q, v);
  }
  for (const int cubes : {1, 3}) {
    VectorX q = VectorX::Zero(7 * cubes), v = VectorX::Zero(6 * cubes);
    std::vector<Contact<S>> contacts;
    for (int k = 0; k < cubes; ++k) {
      q(7 * k + 2) = a + S(2 * k) * a;
      q(7 * k + 6) = S(1);
      for (const S x : {-a, a})
        for (const S y : {-a, a})
          contacts.push_back(contact(k, k == 0 ? world : k - 1, Vector3<S>(x, y, -a),
                                     k == 0 ? Vector3<S>(x, y, S(0)) : Vector3<S>(x, y, a)));
    }
    register_scene<S>(cubes == 1 ? "box-on-plane" : "stack3", scalar,
                      free_body<S>(Matrix3<S>::Identity() * (S(2) / S(3) * a * a), cubes), contacts, q, v);
  }
}

/// One pendulum step as the example takes it: kinematics, detection, contact_step.
template <class S>
struct PendulumStepper {
  const treedyn::Model<S>& model;
  const treedyn::CollisionGeometry<S>& geometry;
  treedyn::Data<S> data;
  treedyn::ContactStepWorkspace<S, treedyn::Dynamic> ws;
  std::vector<treedyn::Contact<S>> contacts;
  Eigen::Matrix<S, Eigen::Dynamic, 1> tau;

  PendulumStepper(const treedyn::Model<S>& m, const treedyn::CollisionGeometry<S>& g,
                  const std::vector<treedyn::BilateralConstraint<S>>& hinges)
      : model(m), geometry(g), data(m), ws(m, g.max_contacts(), 4, hinges), tau(Eigen::Matrix<S, Eigen::Dynamic, 1>::Zero(m.nv())) {
    contacts.reserve(static_cast<std::size_t>(g.max_contacts()));
  }
  int detect(const Eigen::Matrix<S, Eigen::Dynamic, 1>& q) {
    treedyn::forward_kinematics(model, data, q);
    return treedyn::detect_contacts(model, data, geometry, contacts, S(5e-3), {S(0.5), S(0.7), 4});
  }
  bool step(const Eigen::Matrix<S, Eigen::Dynamic, 1>& q, const Eigen::Matrix<S, Eigen::Dynamic, 1>& v) {
    detect(q);
    return treedyn::contact_step(model, data, ws, q, v, tau, contacts, S(1e-4)).ok();
  }
};

/// The pendulum state at the first step whose detection reports a contact; false if none within 2 s.
template <class S>
bool first_contact(PendulumStepper<S>& s, Eigen::Matrix<S, Eigen::Dynamic, 1>& q, Eigen::Matrix<S, Eigen::Dynamic, 1>& v,
                   int& steps) {
  for (steps = 0; steps < 20000; ++steps) {
    if (!s.step(q, v)) return false;
    if (!s.contacts.empty()) return true;
    q = s.ws.q_next;
    v = s.ws.v_next;
  }
  return false;
}

void register_pendulum(int n) {
  using namespace treedyn;
  using VectorX = Eigen::VectorXd;
  const auto p = std::make_shared<const robots::SpherePendulum<double>>(n);
  for (const bool nmc : {false, true})
   for (const FrictionCone cone : {FrictionCone::pyramid, FrictionCone::exact}) {
    const std::string name = "ContactStep/pendulum-" + std::to_string(n) + (nmc ? "-nmcos/" : "-os/") + cone_name(cone) +
                             "/double";
    benchmark::RegisterBenchmark(name.c_str(), [p, nmc, cone](benchmark::State& st) {
      PendulumStepper<double> s(nmc ? p->nmc : p->os, nmc ? p->nmc_geometry : p->os_geometry,
                                nmc ? p->hinges : std::vector<BilateralConstraint<double>>{});
      s.ws.friction_cone = cone;
      VectorX q = nmc ? p->nmc_q : p->os_q, v = nmc ? p->nmc_v : p->os_v;
      int steps = 0;
      if (!first_contact(s, q, v, steps)) {
        st.SkipWithError("no contact reached");
        return;
      }
      for (auto _ : st) {
        benchmark::DoNotOptimize(s.step(q, v));
        benchmark::ClobberMemory();
      }
      if (!s.ws.status().ok()) st.SkipWithError("contact_step failed");
      st.counters["contacts"] = static_cast<double>(s.contacts.size());
      contact_counters(st, s.ws, s.contacts);
      st.counters["sim_ms"] = steps * 0.1;
    });
  }
  const std::string name = "ContactDetect/pendulum-" + std::to_string(n) + "/double";
  benchmark::RegisterBenchmark(name.c_str(), [p](benchmark::State& st) {
    PendulumStepper<double> s(p->os, p->os_geometry, {});
    VectorX q = p->os_q, v = p->os_v;
    int steps = 0;
    if (!first_contact(s, q, v, steps)) {
      st.SkipWithError("no contact reached");
      return;
    }
    for (auto _ : st) {
      benchmark::DoNotOptimize(s.detect(q));
      benchmark::ClobberMemory();
    }
    st.counters["contacts"] = static_cast<double>(s.contacts.size());
  });
}

const bool registered = [] {
  register_scenes<double>("double");
  register_scenes<float>("float");
  for (const int k : {6, 12, 24, 48, 96}) {
    register_lemke<double>(k, "double");
    register_lemke<float>(k, "float");
  }
  for (const int n : {3, 6, 12, 15, 24, 30}) register_pendulum(n);
  return true;
}();

}  // namespace
