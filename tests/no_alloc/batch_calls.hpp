// The inputs and the guarded calls shared by no_alloc/batch.cpp (BatchRunner) and no_alloc/lane_batch.cpp
// (LaneBatchRunner): both runners have the same aba, rnea and crba.
#pragma once

#include <cstdint>
#include <vector>

#include "no_alloc/no_alloc_support.hpp"
#include "treedyn/parallel/batch.hpp"

namespace treedyn::test {

/// n states of `md` in scalar T (random configurations; the last has a zero free-flyer quaternion, so the
/// failure path runs too) and the outputs of aba, rnea and crba.
template <class T>
struct BatchCalls {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  Matrix Q, QD, TAU, QDD, TAU_out, H;
  std::vector<FactorStatus> statuses;

  BatchCalls(const Model<double>& md, int n)
      : Q(md.nq(), n), QD(Matrix::Constant(md.nv(), n, T(0.25))), TAU(Matrix::Constant(md.nv(), n, T(-0.5))),
        QDD(md.nv(), n), TAU_out(md.nv(), n), H(md.h_pattern().nonzeros(), n), statuses(static_cast<std::size_t>(n)) {
    for (int k = 0; k < n; ++k) Q.col(k) = random_configuration(md, static_cast<std::uint64_t>(k)).template cast<T>();
    Q.col(n - 1).template segment<4>(md.q_offset(0) + 3).setZero();
  }

  /// The runner's aba (with per-state statuses), rnea and crba, then more(), twice (first call and steady
  /// state) inside the allocation guard; each of the three names state n − 1 as the first failure.
  template <class Runner, class More>
  void require_allocation_free(Runner& batch, More&& more) {
    const int n = static_cast<int>(Q.cols());
    for (int call = 0; call < 2; ++call) {
      INFO((call == 0 ? "first call" : "steady state"));
      BatchStatus s[3];
      CHECK(allocations_in([&] {
              s[0] = batch.aba(Q, QD, TAU, QDD, &statuses);
              s[1] = batch.rnea(Q, QD, QDD, TAU_out);
              s[2] = batch.crba(Q, H);
              more();
            }) == 0);
      for (const BatchStatus& si : s) CHECK(si.first_failed == n - 1);
    }
  }
};

}  // namespace treedyn::test
