// bench_peers: treedyn beside Pinocchio (and RBDL, when TREEDYN_PEERS_RBDL) on the same URDF robots, in one
// process (issue 40).
//   1. Every library loads examples/robots/{arm7, humanoid30, chain30}.urdf with its own loader (humanoid30
//      and chain30 on a free flyer), and each again as "<robot>-revolute" (revolute_variant below). One
//      state per robot, in treedyn's convention (the fixture's: q = random_configuration(model, 42),
//      v = τ = LinSpaced(−1, 1), q̈ = LinSpaced(½, −½)); each peer converts it to its own (peer.hpp,
//      pinocchio_peer.hpp).
//   2. Agreement, before anything is timed: τ (RNEA), C (bias), H (CRBA), q̈ (ABA) and H⁻¹ of every library
//      and scalar against treedyn in double, as max|X − X_ref| / max|X_ref|. Double must agree within
//      1e-10, float within the bounds below; otherwise the program says which and exits 1 without timing.
//      The figures go to stderr and into the benchmark context ("check/<robot>/<quantity>/<library-scalar>").
//   3. Timings named Kernel/model/library-scalar (RNEA, Bias, CRBA, ABA, Minverse: treedyn's minverse_aba
//      against Pinocchio's computeMinverse), registered kernel by kernel so each library's runs of one
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
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "peer.hpp"
#ifdef TREEDYN_PEERS_RBDL
#include "rbdl_peer.hpp"
#endif
#include "treedyn/model/configuration.hpp"
#include "treedyn/urdf/build_model.hpp"

#ifndef TREEDYN_PEERS_ROBOTS
#error "TREEDYN_PEERS_ROBOTS (the examples/robots folder) is set by benchmarks/peers/CMakeLists.txt"
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
                            {"chain30", dir + "/chain30.urdf", true}};
  for (std::size_t i = 0, n = out.size(); i < n; ++i) {
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
};

template <class S>
Outputs outputs(Peer<S>& p) {
  return {p.check_rnea().template cast<double>(), p.check_bias().template cast<double>(),
          p.check_aba().template cast<double>(), p.check_crba().template cast<double>(),
          p.check_minverse().template cast<double>()};
}

template <class X>
double relative(const X& x, const X& ref) {
  if (x.rows() != ref.rows() || x.cols() != ref.cols() || !x.allFinite()) return INFINITY;
  return (x - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff();
}

// Every peer object lives for the whole program: the registered benchmarks call into them.
std::vector<std::unique_ptr<Peer<double>>> peers_double;
std::vector<std::unique_ptr<Peer<float>>> peers_float;

// One library on one robot in one scalar, to register: exactly one of the two pointers is set.
struct Entry {
  std::string robot, tag;  // tag: library-scalar
  Peer<double>* d = nullptr;
  Peer<float>* f = nullptr;
  bool minverse = true;  // false: the library has no full H⁻¹ routine (check_minverse returned nothing)
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

// Timed loop: one virtual call of the library's kernel per iteration, the same for every library.
template <class S>
void add(const std::string& name, Peer<S>* p, void (Peer<S>::*call)()) {
  benchmark::RegisterBenchmark(name.c_str(), [p, call](benchmark::State& st) {
    for (auto _ : st) {
      (p->*call)();
      benchmark::ClobberMemory();
    }
  });
}

bool check_robot(const Robot& robot) {
  const std::vector<JointSlot> layout = treedyn_layout(robot);
  std::vector<std::unique_ptr<Peer<double>>> d;
  std::vector<std::unique_ptr<Peer<float>>> f;
  d.push_back(make_treedyn_double(robot));
  d.push_back(make_pinocchio_double(robot, layout));
#ifdef TREEDYN_PEERS_RBDL
  d.push_back(make_rbdl_double(robot, layout));
#endif
  f.push_back(make_treedyn_float(robot));
  f.push_back(make_pinocchio_float(robot, layout));

  // the state, from treedyn's model of the robot (the fixture's recipe)
  const treedyn::Model<double> model = [&] {
    treedyn::urdf::Options o;
    o.floating_base = robot.floating;
    return treedyn::urdf::load<double>(robot.urdf, o).model;
  }();
  const VecX<double> q = treedyn::random_configuration(model, 42);
  const VecX<double> v = VecX<double>::LinSpaced(model.nv(), -1, 1);
  const VecX<double> a = VecX<double>::LinSpaced(model.nv(), 0.5, -0.5);
  const VecX<double> tau = VecX<double>::LinSpaced(model.nv(), -1, 1);
  for (auto& p : d) p->set_state(q, v, a, tau);
  for (auto& p : f) p->set_state(q.cast<float>(), v.cast<float>(), a.cast<float>(), tau.cast<float>());

  const Outputs ref = outputs(*d[0]);
  bool ok = true;
  auto report = [&](const std::string& tag, const Outputs& o, double bound) {
    const std::pair<const char*, double> diffs[] = {{"tau", relative(o.tau, ref.tau)}, {"C", relative(o.C, ref.C)},
                                                    {"H", relative(o.H, ref.H)},       {"qdd", relative(o.qdd, ref.qdd)},
                                                    {"Minv", relative(o.Minv, ref.Minv)}};
    std::fprintf(stderr, "check %-20s %-16s", robot.name.c_str(), tag.c_str());
    for (const auto& [name, diff] : diffs) {
      if (std::string(name) == "Minv" && o.Minv.size() == 0) {  // the library has no H⁻¹ routine
        std::fprintf(stderr, "  Minv none");
        continue;
      }
      const bool good = diff <= bound;
      ok = ok && good;
      std::fprintf(stderr, "  %s %.1e%s", name, diff, good ? "" : " FAIL");
      char value[32];
      std::snprintf(value, sizeof value, "%.2e", diff);
      benchmark::AddCustomContext("check/" + robot.name + "/" + name + "/" + tag, value);
    }
    std::fprintf(stderr, "   (bound %.0e)\n", bound);
  };
  for (std::size_t i = 1; i < d.size(); ++i) report(d[i]->library() + "-double", outputs(*d[i]), double_bound);
  for (auto& p : f) report(p->library() + "-float", outputs(*p), float_bound);

  for (auto& p : d) {
    entries.push_back({robot.name, p->library() + "-double", p.get(), nullptr, p->check_minverse().size() > 0});
    peers_double.push_back(std::move(p));
  }
  for (auto& p : f) {
    entries.push_back({robot.name, p->library() + "-float", nullptr, p.get(), p->check_minverse().size() > 0});
    peers_float.push_back(std::move(p));
  }
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
    for (const Robot& robot : robots()) ok = check_robot(robot) && ok;
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
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
