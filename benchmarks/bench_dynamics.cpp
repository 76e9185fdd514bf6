// Dynamics kernels on the ready-made robots: RNEA, CRBA (kinematics
// included, as the peers measure it), and forward dynamics three ways: CRBA + bias + packed LTDL + solve,
// the articulated-body method (ABA) and the modified ABA of Ascher–Pai–Cloutier.
// Names: Kernel/model/scalar, e.g. CRBA/humanoid30/double. Inputs are built outside the timed loop.
#include <benchmark/benchmark.h>

#include <string>
#include <utility>

#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/robots/robots.hpp"

namespace {

template <class S>
void register_robot(const std::string& robot, const treedyn::Model<S>& model, const std::string& scalar) {
  using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
  const VecX q = treedyn::random_configuration(model, 42);
  const VecX qd = VecX::LinSpaced(model.nv(), S(-1), S(1));
  const VecX qdd = VecX::LinSpaced(model.nv(), S(0.5), S(-0.5));
  const std::string suffix = "/" + robot + "/" + scalar;
  auto add = [&](const std::string& kernel, auto body) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(), [model, q, qd, qdd, body](benchmark::State& st) {
      treedyn::Data<S> data(model);
      for (auto _ : st) {
        body(model, data, q, qd, qdd);
        benchmark::ClobberMemory();
      }
    });
  };
  add("RNEA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::rnea(m, d, q_, v_, a_).data());
  });
  add("CRBA", [](const auto& m, auto& d, const VecX& q_, const VecX&, const VecX&) {
    benchmark::DoNotOptimize(treedyn::crba(m, d, q_).data());
  });
  add("ForwardDynamicsCRBA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::forward_dynamics_crba(m, d, q_, v_, a_).data());
  });
  add("ABA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::aba(m, d, q_, v_, a_).data());
  });
  add("ModifiedABA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::modified_aba(m, d, q_, v_, a_).data());
  });
}

const int registered = [] {
  const std::pair<std::string, treedyn::Model<double>> robots[] = {
      {"humanoid30", treedyn::robots::humanoid30<double>()},
      {"chain30", treedyn::robots::chain30<double>()},
      {"arm7", treedyn::robots::arm7<double>()}};
  for (const auto& r : robots) {
    register_robot<double>(r.first, r.second, "double");
    register_robot<float>(r.first, r.second.cast<float>(), "float");
  }
  return 0;
}();

}  // namespace
