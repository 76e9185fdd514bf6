// H⁻¹ and H⁻¹τ by the LTDL and ABA routes, on chains of n = 6 … 1000 revolute links
// (support/fixture.hpp), humanoid30, chain30, tree7 (a 7-body binary tree of revolute joints) and tree40
// (a random 40-DoF revolute tree), float and double. Names Kernel/model/scalar:
//   MinverseLTDL             minverse_ltdl: CRBA + packed LTDL + the tree inverse (full symmetric H⁻¹)
//   MinverseLTDLDenseFactor  the same with the dense in-place ltdl and ltdl_inverse (why packed is used)
//   MinverseABA              minverse_aba: the O(n²) ABA-based inverse (full symmetric H⁻¹)
//   MinverseApplyLTDL        H⁻¹τ from q: CRBA + packed LTDL + ltdl_solve_packed
//   ABA                      H⁻¹τ from q by the ABA, q̇ = 0 on a zero-gravity copy of the model (chains
//                            only: ABA/humanoid30 is bench_dynamics', the same kernel at the same cost)
//   MinverseApplyDenseLLT    H⁻¹τ from q: CRBA + Eigen::LLT compute() on a preallocated object + solve
// Every input (q, τ, Data, the LLT object) is built outside the timed loop.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "support/fixture.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltdl_inverse.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"

namespace {

using treedyn::Data;
using treedyn::Model;

/// The model with gravity off, so that ABA(q, 0, τ) = H⁻¹τ.
template <class S>
Model<S> zero_gravity(const Model<S>& m) {
  treedyn::ModelBuilder<S> b;
  b.set_gravity(treedyn::Vector3<S>::Zero());
  for (int i = 0; i < m.nbodies(); ++i) b.add_body(m.parent(i), m.joint(i), m.tree_transform(i), m.inertia(i));
  return b.build();
}

template <class S>
void register_model(const std::string& name, const Model<S>& model_with_gravity, const std::string& scalar,
                    bool with_aba) {
  using VecX = treedyn::bench::VecX<S>;
  using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  const Model<S> model = zero_gravity(model_with_gravity);
  const treedyn::bench::State<S> s = treedyn::bench::state(model);
  const VecX &q = s.q, &tau = s.tau;
  const std::string suffix = "/" + name + "/" + scalar;
  // body(model, data, q, τ, x, dense, llt, ws) runs one call; x is a preallocated n-vector, dense a preallocated
  // n×n, ws the MinverseLtdlWorkspace (minverse_ltdl's output H⁻¹).
  auto add = [&](const std::string& kernel, auto body) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(), [model, q, tau, body](benchmark::State& st) {
      Data<S> data(model);
      VecX x = tau;
      MatX dense = MatX::Zero(model.nv(), model.nv());
      auto llt = std::make_shared<Eigen::LLT<MatX>>(model.nv());
      treedyn::MinverseLtdlWorkspace<S> minv(model);
      for (auto _ : st) {
        body(model, data, q, tau, x, dense, *llt, minv);
        benchmark::ClobberMemory();
      }
    });
  };
  add("MinverseLTDL", [](const auto& m, auto& d, const VecX& q_, const VecX&, VecX&, MatX&, auto&, auto& ws) {
    benchmark::DoNotOptimize(treedyn::minverse_ltdl(m, d, ws, q_).data());
  });
  add("MinverseLTDLDenseFactor",
      [](const auto& m, auto& d, const VecX& q_, const VecX&, VecX&, MatX& A, auto&, auto& ws) {
    treedyn::crba(m, d, q_);
    treedyn::dense_H(m, d, A);
    benchmark::DoNotOptimize(treedyn::ltdl(A, m.dof_parents()).ok());
    treedyn::ltdl_inverse(A, m.dof_parents(), ws.Minv);
    benchmark::DoNotOptimize(ws.Minv.data());
  });
  benchmark::RegisterBenchmark(("MinverseABA" + suffix).c_str(), [model, q](benchmark::State& st) {
    Data<S> data(model);
    treedyn::MinverseAbaWorkspace<S> ws(model);
    for (auto _ : st) {
      benchmark::DoNotOptimize(treedyn::minverse_aba(model, data, ws, q).data());
      benchmark::ClobberMemory();
    }
  });
  add("MinverseApplyLTDL", [](const auto& m, auto& d, const VecX& q_, const VecX& t, VecX& x, MatX&, auto&, auto&) {
    treedyn::crba(m, d, q_);
    d.H_factor = d.H;
    benchmark::DoNotOptimize(treedyn::ltdl_packed(d.H_factor, m.h_pattern()).ok());
    x = t;
    treedyn::ltdl_solve_packed(d.H_factor, m.h_pattern(), x);
    benchmark::DoNotOptimize(x.data());
  });
  if (with_aba)
    add("ABA", [](const auto& m, auto& d, const VecX& q_, const VecX& t, VecX& x, MatX&, auto&, auto&) {
      x.setZero();  // q̇ = 0
      benchmark::DoNotOptimize(treedyn::aba(m, d, q_, x, t).data());
    });
  add("MinverseApplyDenseLLT",
      [](const auto& m, auto& d, const VecX& q_, const VecX& t, VecX& x, MatX& A, auto& llt, auto&) {
    treedyn::crba(m, d, q_);
    treedyn::dense_H(m, d, A);
    llt.compute(A);
    x = t;
    llt.solveInPlace(x);
    benchmark::DoNotOptimize(x.data());
  });
}

const int registered = [] {
  for (int n : treedyn::bench::minverse_chain_lengths()) {
    const treedyn::bench::NamedModel c = treedyn::bench::chain(n);
    treedyn::bench::for_each_scalar(c.model, [&c](const auto& model, const std::string& scalar) {
      register_model(c.name, model, scalar, true);
    });
  }
  // humanoid30, chain30 (its unbranched equivalent), tree7 (binary, depth 3) and tree40 (40 revolute
  // joints on a random tree)
  const std::vector<treedyn::bench::NamedModel> robots = {
      treedyn::bench::humanoid30(),
      {"chain30", treedyn::robots::chain30<double>()},
      {"tree7", treedyn::robots::random_model<double>(treedyn::topologies::binary_tree(3), 7)},
      {"tree40", treedyn::robots::random_model<double>(treedyn::topologies::random_tree(40, 7), 7)}};
  for (const treedyn::bench::NamedModel& r : robots)
    treedyn::bench::for_each_scalar(r.model, [&r](const auto& model, const std::string& scalar) {
      register_model(r.name, model, scalar, false);
    });
  return 0;
}();

}  // namespace
