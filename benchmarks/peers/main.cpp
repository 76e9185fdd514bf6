// bench_peers: treedyn beside Pinocchio (and RBDL, when TREEDYN_PEERS_RBDL; MuJoCo, when TREEDYN_PEERS_MUJOCO)
// on the same URDF robots, in one process (issue 40).
//   1. Every library loads examples/robots/{arm7, humanoid30, chain30, quadruped12, puma560}.urdf with its own
//      loader (humanoid30, chain30 and quadruped12 on a free flyer), Pinocchio's simple_humanoid and
//      baxter_simple, and the first three again as "<robot>-revolute" (revolute_variant below). One state per
//      robot, in treedyn's convention (the fixture's: q = random_configuration(model, 42),
//      v = τ = LinSpaced(−1, 1), q̈ = LinSpaced(½, −½)); each peer converts it to its own (peer.hpp,
//      pinocchio_map.hpp).
//   2. Agreement, before anything is timed: τ (RNEA), C (bias), H (CRBA), q̈ (ABA), H⁻¹, x = H⁻¹ b (the sparse
//      factor and solve, b = LinSpaced(1, 2)), Λ⁻¹ = J H⁻¹ Jᵀ (OSCM: a 6-row frame at each tip body) and q̈ of treedyn's modified ABA (against treedyn's ABA) of every
//      library and scalar against treedyn in double, as max|X − X_ref| / max|X_ref|. Double must agree within
//      1e-10, float within the bounds below; otherwise the program says which and exits 1 without timing.
//      The figures go to stderr and into the benchmark context ("check/<robot>/<quantity>/<library-scalar>").
//   3. Timings named Kernel/model/library-scalar (RNEA, Bias, CRBA, ABA, Minverse: treedyn's minverse_aba
//      against Pinocchio's computeMinverse; Factor and Solve: the sparse factor of H and one solve with it;
//      OSCM: treedyn's oscm against Pinocchio's computeDelassusMatrix; ModifiedABA: treedyn's alone, which table.py sets beside the ABA row's peers;
//      and the whole-body kernels of peer_whole_body.hpp, treedyn against Pinocchio: CCRBA, JacobianCoM,
//      ForwardKinematics, FramePlacements, JacobianTimeVariation (J̇ of the tip frames), first checked on A_g,
//      J_com, the bodies' placements and J̇), and the derivatives of peer_derivatives.hpp, treedyn against
//      Pinocchio: RNEADerivatives and ABADerivatives, first checked on [∂τ/∂q, ∂τ/∂q̇] and [∂q̈/∂q, ∂q̈/∂q̇], and
//      FrameVelocityDerivatives and FrameAccelerationDerivatives of the tip frames in their own axes, checked on
//      [∂v/∂q, ∂a/∂q, ∂a/∂q̇, ∂a/∂q̈]), and
//      the batches of peer_batch.hpp on batch_robots, ABA and RNEA over the 1024 states of batch_states, per core
//      (model "<robot>-batch1024": treedyn one state at a time, treedyn-lanes W states per kernel call, Pinocchio's
//      abaInParallel / rneaInParallel on one thread; first checked on every state's q̈ and τ), registered kernel by kernel so each library's runs of one
//      kernel and robot are adjacent (run.sh adds --benchmark_enable_random_interleaving), with the canary
//      Canary/llt30/eigen-double: Eigen's dense LLT of a fixed 30×30 SPD matrix, the same work in every run,
//      whose spread across repetitions says how steady the machine was.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

#include "peer.hpp"
#include "peer_extra.hpp"
#include "peer_batch.hpp"
#include "peer_derivatives.hpp"
#include "peer_whole_body.hpp"
#ifdef TREEDYN_PEERS_MUJOCO
#include "mujoco_peer.hpp"
#endif
#ifdef TREEDYN_PEERS_RBDL
#include "rbdl_peer.hpp"
#endif
#include "treedyn/model/configuration.hpp"
#include "treedyn/urdf/build_model.hpp"

#ifndef TREEDYN_PEERS_ROBOTS
#error "TREEDYN_PEERS_ROBOTS (the examples/robots folder) is set by benchmarks/peers/CMakeLists.txt"
#endif
#ifndef TREEDYN_PEERS_MODELS
#error "TREEDYN_PEERS_MODELS (Pinocchio's models/ folder) is set by benchmarks/peers/CMakeLists.txt"
#endif

namespace {

using namespace treedyn::peers;

// "<robot>-revolute": the same file with every `continuous` joint written as `revolute` with limits of ±4 rad
// (which no dynamics kernel reads), so that Pinocchio loads RevoluteUnaligned joints (q = θ) instead of the
// RevoluteUnboundedUnaligned ones (q = (cos θ, sin θ)) its parser makes of `continuous`: both are what a
// Pinocchio user gets from such a file, so both are timed. treedyn loads both as the same revolute joints.
std::string revolute_variant(const std::string& name, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = text.str(), out;
  const std::string from = "type=\"continuous\">";
  std::size_t pos = 0;
  for (std::size_t at; (at = xml.find(from, pos)) != std::string::npos;) {
    const std::size_t end = xml.find("</joint>", at);
    if (end == std::string::npos) throw std::runtime_error(path + ": a continuous joint without </joint>");
    out += xml.substr(pos, at - pos) + "type=\"revolute\">" + xml.substr(at + from.size(), end - at - from.size()) +
           "  <limit lower=\"-4\" upper=\"4\" effort=\"1000\" velocity=\"100\"/>\n  </joint>";
    pos = end + std::string("</joint>").size();
  }
  out += xml.substr(pos);
  const std::string file = (std::filesystem::temp_directory_path() / ("treedyn_peers_" + name + ".urdf")).string();
  std::ofstream(file) << out;
  return file;
}

std::vector<Robot> robots() {
  const std::string dir = TREEDYN_PEERS_ROBOTS;
  std::vector<Robot> out = {{"arm7", dir + "/arm7.urdf", false},
                            {"humanoid30", dir + "/humanoid30.urdf", true},
                            {"chain30", dir + "/chain30.urdf", true},
                            {"quadruped12", dir + "/quadruped12.urdf", true},
                            {"puma560", dir + "/puma560.urdf", false},
                            // Pinocchio's own robots (its models/ folder in the peers' tree)
                            {"simple_humanoid", std::string(TREEDYN_PEERS_MODELS) + "/simple_humanoid.urdf", true},
                            {"baxter_simple", std::string(TREEDYN_PEERS_MODELS) + "/baxter_simple.urdf", false}};
  for (std::size_t i = 0, n = 3; i < n; ++i) {  // the project's generated robots have continuous joints
    const std::string name = out[i].name + "-revolute";
    out.push_back({name, revolute_variant(name, out[i].urdf), out[i].floating});
  }
  return out;
}

// Agreement bounds, relative to the largest entry of treedyn's double result. Double: the brief's 1e-10.
// Float against double: measured, then bounded with room (the worst seen is printed every run).
constexpr double double_bound = 1e-10;
constexpr double float_bound = 1e-3;

struct Outputs {
  VecX<double> tau, C, qdd;
  MatX<double> H, Minv;
  VecX<double> x, qdd_mod;  // from the library's ExtraPeer, if any (empty: no such kernel)
  MatX<double> oscm;
};

template <class S>
Outputs outputs(Peer<S>& p, ExtraPeer<S>* e) {
  Outputs o{p.check_rnea().template cast<double>(), p.check_bias().template cast<double>(),
            p.check_aba().template cast<double>(), p.check_crba().template cast<double>(),
            p.check_minverse().template cast<double>(), {}, {}, {}};
  if (e) {
    o.oscm = e->check_oscm().template cast<double>();
    o.x = e->check_solve().template cast<double>();
    o.qdd_mod = e->check_modified_aba().template cast<double>();
  }
  return o;
}

template <class X>
double relative(const X& x, const X& ref) {
  if (x.rows() != ref.rows() || x.cols() != ref.cols() || !x.allFinite()) return INFINITY;
  return (x - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff();
}

// The whole-body kernels' outputs (peer_whole_body.hpp): X the bodies' placements after forward kinematics,
// Xf after the frame placements, Jdot the tip frames' J̇ stacked.
struct WholeBodyOutputs {
  MatX<double> Ag, Jcom, X, Xf, Jdot;
};

template <class S>
WholeBodyOutputs whole_body_outputs(WholeBodyPeer<S>& w) {
  return {w.check_ccrba().template cast<double>(), w.check_jcom().template cast<double>(),
          w.check_placements(false).template cast<double>(), w.check_placements(true).template cast<double>(),
          w.check_jdot().template cast<double>()};
}

// Every peer object lives for the whole program: the registered benchmarks call into them.
std::vector<std::unique_ptr<Peer<double>>> peers_double;
std::vector<std::unique_ptr<Peer<float>>> peers_float;
std::vector<std::unique_ptr<ExtraPeer<double>>> extras_double;
std::vector<std::unique_ptr<ExtraPeer<float>>> extras_float;

// One library on one robot in one scalar, to register: exactly one of the two pointers is set.
struct Entry {
  std::string robot, tag;  // tag: library-scalar
  Peer<double>* d = nullptr;
  Peer<float>* f = nullptr;
  ExtraPeer<double>* ed = nullptr;  // its extra kernels, if any
  ExtraPeer<float>* ef = nullptr;
  bool minverse = true;  // false: the library has no full H⁻¹ routine (check_minverse returned nothing)
  bool solve = false;    // the library has a sparse factor and solve (check_solve returned x)
  bool modified = false; // the library has a modified ABA
  bool oscm = false;     // the library has an OSCM route
};
std::vector<Entry> entries;


template <class S>
struct Kernel {
  const char* name;
  void (Peer<S>::*call)();
};
template <class S>
const Kernel<S> kernels[5] = {{"RNEA", &Peer<S>::time_rnea},
                             {"Bias", &Peer<S>::time_bias},
                             {"CRBA", &Peer<S>::time_crba},
                             {"ABA", &Peer<S>::time_aba},
                             {"Minverse", &Peer<S>::time_minverse}};

template <class S>
const Kernel<S> extra_kernels[4] = {{"Factor", nullptr}, {"Solve", nullptr}, {"OSCM", nullptr}, {"ModifiedABA", nullptr}};
template <class S>
void (ExtraPeer<S>::*const extra_calls[4])() = {&ExtraPeer<S>::time_factor, &ExtraPeer<S>::time_solve,
                                                 &ExtraPeer<S>::time_oscm, &ExtraPeer<S>::time_modified_aba};

const char* const whole_body_kernels[5] = {"CCRBA", "JacobianCoM", "ForwardKinematics", "FramePlacements",
                                           "JacobianTimeVariation"};
const char* const derivative_kernels[4] = {"RNEADerivatives", "ABADerivatives", "FrameVelocityDerivatives",
                                           "FrameAccelerationDerivatives"};
template <class S>
void (DerivativesPeer<S>::*const derivative_calls[4])() = {
    &DerivativesPeer<S>::time_rnea_derivatives, &DerivativesPeer<S>::time_aba_derivatives,
    &DerivativesPeer<S>::time_frame_velocity_derivatives, &DerivativesPeer<S>::time_frame_acceleration_derivatives};

const char* const batch_kernels[2] = {"ABA", "RNEA"};
template <class S>
void (BatchPeer<S>::*const batch_calls[2])() = {&BatchPeer<S>::time_aba, &BatchPeer<S>::time_rnea};

template <class S>
void (WholeBodyPeer<S>::*const whole_body_calls[5])() = {
    &WholeBodyPeer<S>::time_ccrba, &WholeBodyPeer<S>::time_jcom, &WholeBodyPeer<S>::time_forward_kinematics,
    &WholeBodyPeer<S>::time_frame_placements, &WholeBodyPeer<S>::time_jdot};

// Timed loop: one virtual call of the library's kernel per iteration, the same for every library.
template <class P>
void add(const std::string& name, P* p, void (P::*call)()) {
  benchmark::RegisterBenchmark(name.c_str(), [p, call](benchmark::State& st) {
    for (auto _ : st) {
      (p->*call)();
      benchmark::ClobberMemory();
    }
  });
}

/// The peers of one interface P (whole body, derivatives, batches), kept for the whole program (the registered
/// benchmarks call into them), with one entry per model and library-scalar: exactly one pointer is set.
template <template <class> class P>
struct Kept {
  struct Entry {
    std::string model, tag;  // tag: library-scalar
    P<double>* d = nullptr;
    P<float>* f = nullptr;
  };
  std::vector<std::unique_ptr<P<double>>> doubles;
  std::vector<std::unique_ptr<P<float>>> floats;
  std::vector<Entry> entries;

  void keep(const std::string& model, std::vector<std::unique_ptr<P<double>>>& d, std::vector<std::unique_ptr<P<float>>>& f) {
    for (auto& x : d) {
      entries.push_back({model, x->library() + "-double", x.get(), nullptr});
      doubles.push_back(std::move(x));
    }
    for (auto& x : f) {
      entries.push_back({model, x->library() + "-float", nullptr, x.get()});
      floats.push_back(std::move(x));
    }
  }

  /// Registers kernel k of every entry as <names[k]>/<model>/<library-scalar>, kernel by kernel.
  template <std::size_t K>
  void register_all(const char* const (&names)[K], void (P<double>::*const (&d_calls)[K])(),
                    void (P<float>::*const (&f_calls)[K])()) const {
    for (std::size_t k = 0; k < K; ++k)
      for (const Entry& e : entries) {
        const std::string name = std::string(names[k]) + "/" + e.model + "/" + e.tag;
        if (e.d) add(name, e.d, d_calls[k]);
        if (e.f) add(name, e.f, f_calls[k]);
      }
  }
};
Kept<WholeBodyPeer> whole_body;
Kept<DerivativesPeer> derivatives;
Kept<BatchPeer> batches;

/// treedyn's model of `robot`, from which the states are drawn (in treedyn's convention).
treedyn::Model<double> state_model(const Robot& robot) {
  treedyn::urdf::Options o;
  o.floating_base = robot.floating;
  return treedyn::urdf::load<double>(robot.urdf, o).model;
}

/// One library-scalar's relative differences from treedyn in double, by quantity; NaN: no such routine.
using Differences = std::vector<std::pair<const char*, double>>;

/// Prints one check line of `model` and `tag` (library-scalar) and adds each difference to the benchmark
/// context as check/<model>/<quantity>/<tag>; false if one exceeds `bound`.
bool report_check(const std::string& model, const std::string& tag, const Differences& diffs, double bound) {
  bool ok = true;
  std::fprintf(stderr, "check %-20s %-20s", model.c_str(), tag.c_str());
  for (const auto& [name, diff] : diffs) {
    if (std::isnan(diff)) {
      std::fprintf(stderr, "  %s none", name);
      continue;
    }
    const bool good = diff <= bound;
    ok = ok && good;
    std::fprintf(stderr, "  %s %.1e%s", name, diff, good ? "" : " FAIL");
    char value[32];
    std::snprintf(value, sizeof value, "%.2e", diff);
    benchmark::AddCustomContext("check/" + model + "/" + name + "/" + tag, value);
  }
  std::fprintf(stderr, "   (bound %.0e)\n", bound);
  return ok;
}

bool check_robot(const Robot& robot) {
  const std::vector<JointSlot> layout = treedyn_layout(robot);
  std::vector<std::unique_ptr<Peer<double>>> d;
  std::vector<std::unique_ptr<Peer<float>>> f;
  std::vector<std::unique_ptr<ExtraPeer<double>>> ed;  // ed[i] belongs to d[i] (null: no extra kernels)
  std::vector<std::unique_ptr<ExtraPeer<float>>> ef;
  // A peer whose loader refuses the robot (RBDL matches bodies by link name; MuJoCo rejects massless bodies)
  // is left out of that robot, saying why; treedyn and Pinocchio must load every robot.
  auto optional = [&](const char* library, auto make_peer, auto make_extra) {
    try {
      auto p = make_peer();
      auto e = make_extra();
      d.push_back(std::move(p));
      ed.push_back(std::move(e));
    } catch (const std::exception& err) {
      std::fprintf(stderr, "skip  %-20s %-16s %s\n", robot.name.c_str(), library, err.what());
    }
  };
  d.push_back(make_treedyn_double(robot));
  ed.push_back(make_treedyn_extra_double(robot));
  d.push_back(make_pinocchio_double(robot, layout));
  ed.push_back(make_pinocchio_extra_double(robot, layout));
#ifdef TREEDYN_PEERS_RBDL
  optional("rbdl-double", [&] { return make_rbdl_double(robot, layout); },
           [] { return std::unique_ptr<ExtraPeer<double>>(); });
#endif
#ifdef TREEDYN_PEERS_MUJOCO
  optional("mujoco-double", [&] { return make_mujoco_double(robot, layout); },
           [&] { return make_mujoco_extra_double(robot, layout); });
#endif
  f.push_back(make_treedyn_float(robot));
  ef.push_back(make_treedyn_extra_float(robot));
  f.push_back(make_pinocchio_float(robot, layout));
  ef.push_back(make_pinocchio_extra_float(robot, layout));

  // the state, from treedyn's model of the robot (the fixture's recipe)
  const treedyn::Model<double> model = state_model(robot);
  const VecX<double> q = treedyn::random_configuration(model, 42);
  const VecX<double> v = VecX<double>::LinSpaced(model.nv(), -1, 1);
  const VecX<double> a = VecX<double>::LinSpaced(model.nv(), 0.5, -0.5);
  const VecX<double> tau = VecX<double>::LinSpaced(model.nv(), -1, 1);
  for (auto& p : d) p->set_state(q, v, a, tau);
  const VecX<double> b = VecX<double>::LinSpaced(model.nv(), 1, 2);
  const std::vector<std::string> tips = tip_joints(robot);
  for (auto& e : ed)
    if (e) e->set_frames(tips);
  for (auto& e : ef)
    if (e) e->set_frames(tips);
  for (auto& p : f) p->set_state(q.cast<float>(), v.cast<float>(), a.cast<float>(), tau.cast<float>());
  for (auto& e : ed)
    if (e) e->set_state(q, v, tau, b);
  for (auto& e : ef)
    if (e) e->set_state(q.cast<float>(), v.cast<float>(), tau.cast<float>(), b.cast<float>());

  Outputs ref = outputs(*d[0], ed[0].get());
  ref.qdd_mod = ref.qdd;  // the modified ABA's reference is treedyn's ABA in double
  bool ok = true;
  // One library-scalar's differences from treedyn in double; a NaN difference means "no such routine".
  auto report = [&](const std::string& tag, const Differences& diffs, double bound) {
    ok = report_check(robot.name, tag, diffs, bound) && ok;
  };
  auto differences = [&](const Outputs& o) -> Differences {
    auto optional = [](const auto& x, const auto& r) { return x.size() == 0 ? NAN : relative(x, r); };
    return {{"tau", relative(o.tau, ref.tau)},          {"C", relative(o.C, ref.C)},
            {"H", relative(o.H, ref.H)},                {"qdd", relative(o.qdd, ref.qdd)},
            {"Minv", optional(o.Minv, ref.Minv)},       {"x", optional(o.x, ref.x)},
            {"OSCM", optional(o.oscm, ref.oscm)},       {"qdd_mod", optional(o.qdd_mod, ref.qdd_mod)}};
  };
  report("treedyn-double", differences(Outputs{ref.tau, ref.C, ref.qdd, ref.H, ref.Minv, {}, ed[0]->check_modified_aba(), {}}),
         double_bound);  // treedyn's modified ABA against its ABA (its other rows are the reference)
  for (std::size_t i = 1; i < d.size(); ++i)
    report(d[i]->library() + "-double", differences(outputs(*d[i], ed[i].get())), double_bound);
  for (std::size_t i = 0; i < f.size(); ++i)
    report(f[i]->library() + "-float", differences(outputs(*f[i], ef[i].get())), float_bound);

  // The whole-body kernels (peer_whole_body.hpp): treedyn and Pinocchio, J̇ at the same tip frames as the OSCM.
  std::vector<std::unique_ptr<WholeBodyPeer<double>>> wd;
  std::vector<std::unique_ptr<WholeBodyPeer<float>>> wf;
  wd.push_back(make_treedyn_whole_body_double(robot));
  wd.push_back(make_pinocchio_whole_body_double(robot, layout));
  wf.push_back(make_treedyn_whole_body_float(robot));
  wf.push_back(make_pinocchio_whole_body_float(robot, layout));
  for (auto& w : wd) {
    w->set_frames(tips);
    w->set_state(q, v);
  }
  for (auto& w : wf) {
    w->set_frames(tips);
    w->set_state(q.cast<float>(), v.cast<float>());
  }
  const WholeBodyOutputs wref = whole_body_outputs(*wd[0]);
  auto whole_body_differences = [&](const WholeBodyOutputs& o) -> Differences {
    return {{"Ag", relative(o.Ag, wref.Ag)},   {"Jcom", relative(o.Jcom, wref.Jcom)}, {"X", relative(o.X, wref.X)},
            {"Xf", relative(o.Xf, wref.Xf)},   {"Jdot", relative(o.Jdot, wref.Jdot)}};
  };
  for (std::size_t i = 1; i < wd.size(); ++i)
    report(wd[i]->library() + "-double", whole_body_differences(whole_body_outputs(*wd[i])), double_bound);
  for (std::size_t i = 0; i < wf.size(); ++i)
    report(wf[i]->library() + "-float", whole_body_differences(whole_body_outputs(*wf[i])), float_bound);
  for (auto& w : wd)
    benchmark::AddCustomContext("frames/" + robot.name + "/" + w->library(), std::to_string(w->nframes()));
  whole_body.keep(robot.name, wd, wf);

  // The derivatives (peer_derivatives.hpp): treedyn and Pinocchio, rows and columns in treedyn's order.
  std::vector<std::unique_ptr<DerivativesPeer<double>>> dd;
  std::vector<std::unique_ptr<DerivativesPeer<float>>> df;
  dd.push_back(make_treedyn_derivatives_double(robot));
  dd.push_back(make_pinocchio_derivatives_double(robot, layout));
  df.push_back(make_treedyn_derivatives_float(robot));
  df.push_back(make_pinocchio_derivatives_float(robot, layout));
  for (auto& x : dd) {
    x->set_frames(tips);
    x->set_state(q, v, a, tau);
  }
  for (auto& x : df) {
    x->set_frames(tips);
    x->set_state(q.cast<float>(), v.cast<float>(), a.cast<float>(), tau.cast<float>());
  }
  const MatX<double> dref_rnea = dd[0]->check_rnea_derivatives(), dref_aba = dd[0]->check_aba_derivatives(),
                     dref_frame = dd[0]->check_frame_derivatives();
  auto derivative_differences = [&](auto& x) -> Differences {
    return {{"dRNEA", relative(MatX<double>(x.check_rnea_derivatives().template cast<double>()), dref_rnea)},
            {"dABA", relative(MatX<double>(x.check_aba_derivatives().template cast<double>()), dref_aba)},
            {"dFrame", relative(MatX<double>(x.check_frame_derivatives().template cast<double>()), dref_frame)}};
  };
  for (std::size_t i = 1; i < dd.size(); ++i)
    report(dd[i]->library() + "-double", derivative_differences(*dd[i]), double_bound);
  for (std::size_t i = 0; i < df.size(); ++i)
    report(df[i]->library() + "-float", derivative_differences(*df[i]), float_bound);
  derivatives.keep(robot.name, dd, df);

  for (std::size_t i = 0; i < d.size(); ++i) {
    Entry e{robot.name, d[i]->library() + "-double", d[i].get(), nullptr, ed[i].get(), nullptr,
            d[i]->check_minverse().size() > 0};
    e.solve = ed[i] && ed[i]->check_solve().size() > 0;
    e.modified = ed[i] && ed[i]->check_modified_aba().size() > 0;
    e.oscm = ed[i] && ed[i]->check_oscm().size() > 0;
    entries.push_back(e);
    peers_double.push_back(std::move(d[i]));
    extras_double.push_back(std::move(ed[i]));
  }
  for (std::size_t i = 0; i < f.size(); ++i) {
    Entry e{robot.name, f[i]->library() + "-float", nullptr, f[i].get(), nullptr, ef[i].get(),
            f[i]->check_minverse().size() > 0};
    e.solve = ef[i] && ef[i]->check_solve().size() > 0;
    e.modified = ef[i] && ef[i]->check_modified_aba().size() > 0;
    e.oscm = ef[i] && ef[i]->check_oscm().size() > 0;
    entries.push_back(e);
    peers_float.push_back(std::move(f[i]));
    extras_float.push_back(std::move(ef[i]));
  }
  return ok;
}

// The batch comparison's robots (issue 43: humanoid30, chain30 and a real quadruped; arm7 as a fixed base) and
// its states: q_k = random_configuration(model, 1000 + k), v, q̈ and τ uniform in [−1, 1] (std::mt19937, seed 43).
const char* const batch_robots[4] = {"arm7", "humanoid30", "chain30", "quadruped12"};
constexpr int batch_size = 1024;

struct BatchStates {
  MatX<double> Q, V, A, TAU;
};

BatchStates batch_states(const Robot& robot) {
  const treedyn::Model<double> model = state_model(robot);
  BatchStates s{MatX<double>(model.nq(), batch_size), MatX<double>(model.nv(), batch_size),
                MatX<double>(model.nv(), batch_size), MatX<double>(model.nv(), batch_size)};
  std::mt19937 rng(43);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < batch_size; ++k) {
    s.Q.col(k) = treedyn::random_configuration(model, 1000 + k);
    for (MatX<double>* m : {&s.V, &s.A, &s.TAU})
      for (Eigen::Index r = 0; r < m->rows(); ++r) (*m)(r, k) = u(rng);
  }
  return s;
}

// The batches on one robot: every library-scalar's q̈ and τ of every state against treedyn's in double.
bool check_batch(const Robot& robot) {
  const std::vector<JointSlot> layout = treedyn_layout(robot);
  const BatchStates s = batch_states(robot);
  std::vector<std::unique_ptr<BatchPeer<double>>> d;
  std::vector<std::unique_ptr<BatchPeer<float>>> f;
  d.push_back(make_treedyn_batch_double(robot, false));
  d.push_back(make_treedyn_batch_double(robot, true));
  d.push_back(make_pinocchio_batch_double(robot, layout));
  f.push_back(make_treedyn_batch_float(robot, false));
  f.push_back(make_treedyn_batch_float(robot, true));
  f.push_back(make_pinocchio_batch_float(robot, layout));
  for (auto& p : d) p->set_states(s.Q, s.V, s.A, s.TAU);
  for (auto& p : f) p->set_states(s.Q.cast<float>(), s.V.cast<float>(), s.A.cast<float>(), s.TAU.cast<float>());
  const MatX<double> qdd = d[0]->check_aba(), tau = d[0]->check_rnea();
  const std::string model = robot.name + "-batch" + std::to_string(batch_size);
  bool ok = true;
  for (std::size_t i = 1; i < d.size(); ++i)
    ok = report_check(model, d[i]->library() + "-double",
                      {{"qdd", relative(d[i]->check_aba(), qdd)}, {"tau", relative(d[i]->check_rnea(), tau)}},
                      double_bound) && ok;
  for (auto& p : f)
    ok = report_check(model, p->library() + "-float",
                      {{"qdd", relative(MatX<double>(p->check_aba().template cast<double>()), qdd)},
                       {"tau", relative(MatX<double>(p->check_rnea().template cast<double>()), tau)}},
                      float_bound) && ok;
  batches.keep(model, d, f);
  return ok;
}

// The canary: Eigen's dense LLT of a fixed, well-conditioned 30×30 SPD matrix (no library's code).
void canary(benchmark::State& st) {
  Eigen::MatrixXd B(30, 30);
  for (int i = 0; i < 30; ++i)
    for (int j = 0; j < 30; ++j) B(i, j) = std::sin(1.0 + i + 31.0 * j);
  const Eigen::MatrixXd A = B * B.transpose() + 30.0 * Eigen::MatrixXd::Identity(30, 30);
  Eigen::LLT<Eigen::MatrixXd> llt(30);
  for (auto _ : st) {
    llt.compute(A);
    benchmark::DoNotOptimize(llt.matrixLLT().data());
    benchmark::ClobberMemory();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bool ok = true;
  try {
    for (const Robot& robot : robots()) {
      ok = check_robot(robot) && ok;
      for (const char* name : batch_robots)
        if (robot.name == name) ok = check_batch(robot) && ok;
    }
    benchmark::AddCustomContext("batch/states", std::to_string(batch_size));
    benchmark::AddCustomContext("batch/lanes/double", std::to_string(treedyn_lane_width_double()));
    benchmark::AddCustomContext("batch/lanes/float", std::to_string(treedyn_lane_width_float()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_peers: %s\n", e.what());
    return 1;
  }
  if (!ok) {
    std::fprintf(stderr, "bench_peers: the libraries disagree (FAIL above); nothing timed\n");
    return 1;
  }
  benchmark::RegisterBenchmark("Canary/llt30/eigen-double", canary);
  for (int k = 0; k < 5; ++k)
    for (const Entry& e : entries) {
      if (k == 4 && !e.minverse) continue;
      const std::string name = std::string(kernels<double>[k].name) + "/" + e.robot + "/" + e.tag;
      if (e.d) add(name, e.d, kernels<double>[k].call);
      if (e.f) add(name, e.f, kernels<float>[k].call);
    }
  for (int k = 0; k < 4; ++k)
    for (const Entry& e : entries) {
      if (!(k < 2 ? e.solve : k == 2 ? e.oscm : e.modified)) continue;
      const std::string name = std::string(extra_kernels<double>[k].name) + "/" + e.robot + "/" + e.tag;
      if (e.ed) add(name, e.ed, extra_calls<double>[k]);
      if (e.ef) add(name, e.ef, extra_calls<float>[k]);
    }
  whole_body.register_all(whole_body_kernels, whole_body_calls<double>, whole_body_calls<float>);
  derivatives.register_all(derivative_kernels, derivative_calls<double>, derivative_calls<float>);
  batches.register_all(batch_kernels, batch_calls<double>, batch_calls<float>);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
