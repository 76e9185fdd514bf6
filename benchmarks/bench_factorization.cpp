// Tree-sparse factorization against dense Cholesky (Featherstone (2005) §4, Table 2).
//
// Names: Kernel/model/scalar, e.g. LTDLPacked/humanoid30/double. Every in-place contender copies
// its input into preallocated storage inside the timed loop, and the copy alone is reported beside it;
// Eigen's LLT/LDLT::compute likewise copy their argument into their own preallocated storage.
//   Copy / CopyPacked   the dense n×n copy / the packed (n + D1 entries) copy alone
//   LTDL, LTL           faithful Featherstone (2005) App. A / §2 kernels on the dense matrix (column-major)
//   LTDLPacked          optimised LTDL on packed ancestor rows (kernels/ltdl_packed.hpp)
//   DenseLLT, DenseLDLT Eigen::LLT / Eigen::LDLT compute() on a preallocated object
//   LTDLSolve, LTDLSolvePacked, DenseLLTSolve: x ← H⁻¹ b with the factors already computed
#include <benchmark/benchmark.h>

#include <string>
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

#include "treedyn/kernels/kernels.hpp"
#include "treedyn/kernels/random_tree_matrix.hpp"
#include "treedyn/topology/topology.hpp"

namespace {

namespace topo = treedyn::topologies;

template <class S>
using MatrixX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;

struct Topology {
  std::string name;
  std::vector<int> lambda;
};

std::vector<Topology> topologies() {
  std::vector<Topology> t;
  for (int n : {15, 30, 63, 127, 255}) t.push_back({"chain" + std::to_string(n), topo::chain(n)});
  for (int m : {7, 15, 31, 63, 127}) t.push_back({"side" + std::to_string(2 * m), topo::short_side_branches(m)});
  for (int m : {4, 5, 6, 7, 8}) t.push_back({"tree" + std::to_string((1 << m) - 1), topo::binary_tree(m)});
  for (int m : {4, 6, 8, 11, 16}) t.push_back({"grid" + std::to_string(m * m), topo::grid_spanning_tree(m)});
  for (int p : {2, 6, 14, 30, 62})
    t.push_back({"humanoid" + std::to_string(6 + 4 * p),
                 treedyn::expand_parent_array(topo::humanoid(4, p), topo::humanoid_dofs(4, p, 6))});
  return t;
}

/// Registers `name`: each iteration copies `input` into preallocated storage, then runs kernel(storage).
/// copy_input = false skips the copy, for Eigen's compute(), which copies its argument itself.
template <class Input, class Kernel>
void register_in_place(const std::string& name, Input input, Kernel kernel, bool copy_input = true) {
  benchmark::RegisterBenchmark(name.c_str(), [input = std::move(input), kernel, copy_input](benchmark::State& st) {
    Input work = input;
    for (auto _ : st) {
      if (copy_input) work = input;
      kernel(work);
      benchmark::DoNotOptimize(work.data());
      benchmark::ClobberMemory();
    }
  });
}

template <class S>
void register_all(const Topology& t, const std::string& scalar) {
  const std::string suffix = "/" + t.name + "/" + scalar;
  const std::vector<int> lambda = t.lambda;
  const int n = static_cast<int>(lambda.size());
  const MatrixX<S> A0 = treedyn::random_tree_spd<S>(lambda, 2005);  // A = Jᵀ J + I on lambda's pattern
  const treedyn::AncestorPattern pattern(lambda);
  VectorX<S> packed0(pattern.nonzeros());
  pattern.pack(A0, packed0);
  const VectorX<S> b = VectorX<S>::LinSpaced(n, S(1), S(2));

  register_in_place("Copy" + suffix, A0, [](MatrixX<S>&) {});
  register_in_place("CopyPacked" + suffix, packed0, [](VectorX<S>&) {});
  register_in_place("LTDL" + suffix, A0, [lambda](MatrixX<S>& A) { benchmark::DoNotOptimize(treedyn::ltdl(A, lambda)); });
  register_in_place("LTL" + suffix, A0, [lambda](MatrixX<S>& A) { benchmark::DoNotOptimize(treedyn::ltl(A, lambda)); });
  register_in_place("LTDLPacked" + suffix, packed0,
                    [pattern](VectorX<S>& v) { benchmark::DoNotOptimize(treedyn::ltdl_packed(v, pattern)); });
  // Eigen's compute() copies its argument into the preallocated decomposition itself.
  auto llt = std::make_shared<Eigen::LLT<MatrixX<S>>>(A0);
  register_in_place("DenseLLT" + suffix, A0, [llt](MatrixX<S>& A) { llt->compute(A); }, false);
  auto ldlt = std::make_shared<Eigen::LDLT<MatrixX<S>>>(A0);
  register_in_place("DenseLDLT" + suffix, A0, [ldlt](MatrixX<S>& A) { ldlt->compute(A); }, false);

  MatrixX<S> F = A0;
  treedyn::ltdl(F, lambda);
  register_in_place("LTDLSolve" + suffix, b, [F, lambda](VectorX<S>& x) { treedyn::ltdl_solve(F, lambda, x); });
  VectorX<S> Fp = packed0;
  treedyn::ltdl_packed(Fp, pattern);
  register_in_place("LTDLSolvePacked" + suffix, b,
                    [Fp, pattern](VectorX<S>& x) { treedyn::ltdl_solve_packed(Fp, pattern, x); });
  register_in_place("DenseLLTSolve" + suffix, b, [llt](VectorX<S>& x) { llt->solveInPlace(x); });
}

const int registered = [] {
  for (const Topology& t : topologies()) {
    register_all<double>(t, "double");
    register_all<float>(t, "float");
  }
  return 0;
}();

}  // namespace
