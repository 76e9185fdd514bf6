// LaneBatchRunner: BatchRunner's batched calls with W states in the SIMD lanes of each kernel call
// (docs/lanes.md#the-batch-runner-on-lanes).
//
// Not an algorithm of its own: the states k = 0..n−1, the COLUMNS of caller-owned matrices as for BatchRunner
// (parallel/batch.hpp), are packed W at a time into one state of Lanes<T, W> (pack p holds the states
// pW … pW+W−1 in its lanes 0 … W−1) and the library's kernel runs once per pack on the lane scalar
// (lanes/lanes.hpp); the packs are spread over the threads as BatchRunner spreads states (contiguous ranges,
// the caller on range 0). Results land in the caller's matrices in state order.
//
//   treedyn::LaneBatchRunner<float> batch(model, 2);    // W = native_lane_width<float>, 2 threads
//   treedyn::BatchStatus s = batch.aba(Q, QD, TAU, QDD); // the same calls, checks and statuses as BatchRunner
//
// Tail. When n is not a multiple of W, the last pack's unused lanes hold a copy of its first state: they
// compute a valid state and are never written back (a masked tail).
//
// Statuses and failing states. A lane of a kernel on Lanes fails on its own: it turns NaN and its neighbours
// stay as they were (docs/lanes.md#how-the-kernels-see-lanes). So after each pack the lanes whose inputs the
// scalar kernel would reject at entry (a non-finite input, a zero quaternion: lanes/lane_status.hpp) or whose
// output holds a NaN or an infinity are computed again by the scalar kernel on a Data<T> of the thread, and
// that state's output and status are the scalar call's. Every state's status (and
// the count, the first failure and its status) is therefore exactly BatchRunner's, and a failing state's
// output is what the scalar kernel leaves (NaN). The lanes that succeed hold the lane kernel's numbers: the
// same arithmetic as the scalar path except sin/cos, vectorised (a few ulps: docs/lanes.md#sin-and-cos). Each
// lane depends on its own state only, so a state's result does not depend on n, W's packing, the thread
// count or the other states, and repeated calls give the same bits.
//
// Other calls. for_each_pack(n, f) hands f each pack's lane Model and Data (and the thread's scalar ones), with
// gather_lanes and failing_lanes to do what aba's packs do: the Python derivative batches run on it.
//
// Model and memory. The runner holds model.cast<Lanes<T, W>>() (the kernels on lanes read a Model of lanes)
// and, per thread, a Data<Lanes<T, W>> and the pack of inputs, built by that thread; BatchRunner<T> (the
// threads and a Data<T> per thread for the scalar re-runs) is a member. Only the constructor allocates; every
// call is noexcept and allocation-free (tests/no_alloc/lane_batch.cpp). The Model must outlive the runner
// (the scalar re-runs read it); one call at a time per runner.
//
// Needs <experimental/simd> (lanes/lanes.hpp), so it is not in the umbrella header.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/lanes/lane_status.hpp"
#include "treedyn/lanes/lanes.hpp"
#include "treedyn/parallel/batch.hpp"

namespace treedyn {

/// BatchRunner's aba, rnea and crba with W states per kernel call (see the header comment).
template <class T, int W = native_lane_width<T>, int N = Dynamic>
class LaneBatchRunner {
 public:
  using Lane = Lanes<T, W>;
  using ModelType = Model<T, N>;
  using DataType = Data<T, N>;
  using LaneModel = Model<Lane, N>;
  using LaneData = Data<Lane, N>;
  static constexpr int width = W;

  /// threads ≤ 0: std::thread::hardware_concurrency(). Casts the model to lanes and builds, on each thread,
  /// its Data<T>, Data<Lanes<T, W>> and input pack. `model` must outlive the runner.
  explicit LaneBatchRunner(const ModelType& model, int threads = 0)
      : scalar_(model, threads), lane_model_(model.template cast<Lane>()),
        lanes_(static_cast<std::size_t>(scalar_.threads())) {
    scalar_.for_each_thread([&](int t) {
      PerThread& p = lanes_[static_cast<std::size_t>(t)];
      p.data.emplace(lane_model_);
      p.in[0].resize(model.nq());
      p.in[1].resize(model.nv());
      p.in[2].resize(model.nv());
    });
  }

  [[nodiscard]] int threads() const noexcept { return scalar_.threads(); }
  [[nodiscard]] const ModelType& model() const noexcept { return scalar_.model(); }
  [[nodiscard]] const LaneModel& lane_model() const noexcept { return lane_model_; }

  /// Forward dynamics by aba.hpp, as BatchRunner::aba: QDD.col(k) = FD(Q.col(k), QD.col(k), TAU.col(k)).
  template <class Dq, class Dv, class Dt, class Da, class S = detail::NoBatchStatuses>
  BatchStatus aba(const Eigen::MatrixBase<Dq>& Q, const Eigen::MatrixBase<Dv>& QD, const Eigen::MatrixBase<Dt>& TAU,
                  Eigen::MatrixBase<Da>& QDD, S* statuses = nullptr) noexcept {
    if (!detail::dynamics_shapes_ok({"LaneBatchRunner::aba", "TAU", "QDD"}, model(), Q, QD, TAU, QDD, statuses))
      return BatchStatus::invalid_argument();
    return packs(detail::BatchAba{}, QDD, statuses, Q, QD, TAU);
  }

  /// Inverse dynamics by rnea.hpp, as BatchRunner::rnea: TAU.col(k) = RNEA(Q.col(k), QD.col(k), QDD.col(k)).
  template <class Dq, class Dv, class Da, class Dt, class S = detail::NoBatchStatuses>
  BatchStatus rnea(const Eigen::MatrixBase<Dq>& Q, const Eigen::MatrixBase<Dv>& QD, const Eigen::MatrixBase<Da>& QDD,
                   Eigen::MatrixBase<Dt>& TAU, S* statuses = nullptr) noexcept {
    if (!detail::dynamics_shapes_ok({"LaneBatchRunner::rnea", "QDD", "TAU"}, model(), Q, QD, QDD, TAU, statuses))
      return BatchStatus::invalid_argument();
    return packs(detail::BatchRnea{}, TAU, statuses, Q, QD, QDD);
  }

  /// Joint-space inertia by crba.hpp, as BatchRunner::crba: H.col(k) = the packed H(Q.col(k)).
  template <class Dq, class Dh, class S = detail::NoBatchStatuses>
  BatchStatus crba(const Eigen::MatrixBase<Dq>& Q, Eigen::MatrixBase<Dh>& H, S* statuses = nullptr) noexcept {
    if (!detail::crba_shapes_ok("LaneBatchRunner::crba", model(), Q, H, statuses)) return BatchStatus::invalid_argument();
    return packs(detail::BatchCrba{}, H, statuses, Q);
  }

  using LaneVector = Eigen::Matrix<Lane, Eigen::Dynamic, 1>;

  /// For a call this runner does not have (e.g. the derivatives): f(lane_model, lane_data, model, data, k0,
  /// count, t) once per pack of states k0 … k0 + count − 1 (count = W but for the last pack), over the threads as
  /// aba's packs; t is the thread, for workspaces of your own. f returns the pack's BatchStatus
  /// (BatchStatus::add for each of its states). gather_lanes and failing_lanes do what aba's packs do.
  template <class F>
  BatchStatus for_each_pack(int n, F&& f) noexcept {
    TREEDYN_CHECK(n >= 0, "LaneBatchRunner::for_each_pack", "n", "n >= 0", -1, n, return BatchStatus::invalid_argument());
    return scalar_.for_each((n + W - 1) / W, [&](const ModelType& m, DataType& d, int p, int t) {
      const int k0 = p * W;
      return f(lane_model_, *lanes_[static_cast<std::size_t>(t)].data, m, d, k0, std::min(W, n - k0), t);
    });
  }

  /// Lane j of `pack` = column k0 + j of X for j < count, column k0 for the tail lanes j ≥ count. `pack` has
  /// X.rows() entries already (sized once, outside the hot loop: nothing here allocates).
  template <class Dx>
  static void gather_lanes(const Eigen::MatrixBase<Dx>& X, LaneVector& pack, int k0, int count) noexcept {
    TREEDYN_ASSERT(pack.size() == X.rows(), "LaneBatchRunner::gather_lanes: pack must have X.rows() entries");
    for (int j = 0; j < W; ++j) {
      const auto x = X.col(k0 + (j < count ? j : 0));
      for (Eigen::Index i = 0; i < x.size(); ++i) pack(i).set_lane(j, x(i));
    }
  }

  /// The lanes to compute again by the scalar call: those whose state the scalar kernels refuse at entry — a q
  /// the outward pass refuses (lane_configuration_statuses), a non-finite entry in the other inputs — the lane
  /// kernel may give finite numbers there (crba does not read the free flyer's position), and those with a NaN or
  /// an infinity in an output (a non-positive articulated pivot, an overflow). `others`: the other inputs and the
  /// outputs, each an Eigen expression of Lane (at least one).
  template <class... X>
  std::array<bool, W> failing_lanes(const LaneVector& q, const X&... others) const noexcept {
    auto bad = Lane(0) != Lane(0);  // all false
    ((bad = bad || non_finite_lanes(others)), ...);
    const LaneStatus<W> qs = lane_configuration_statuses(lane_model_, q, "LaneBatchRunner");
    std::array<bool, W> out{};
    for (int j = 0; j < W; ++j) out[static_cast<std::size_t>(j)] = bad.lane(j) || !qs[j].ok();
    return out;
  }

 private:

  /// A thread's lane Data and input pack (q, then the nv-row inputs), on cache lines of its own and allocated
  /// by that thread (see BatchRunner's PerThread).
  struct alignas(64) PerThread {
    std::optional<LaneData> data;
    std::array<LaneVector, 3> in;
  };

  /// OUT.col(k) = kernel(model, data, X.col(k)…).first for k = 0..n−1, n = the inputs' columns: one lane
  /// kernel call per pack of W states, the failing lanes again by the scalar kernel (the header comment).
  template <class Kernel, class Do, class S, class... Dx>
  BatchStatus packs(const Kernel& kernel, Eigen::MatrixBase<Do>& OUT, S* statuses,
                    const Eigen::MatrixBase<Dx>&... X) noexcept {
    return for_each_pack(static_cast<int>(OUT.cols()), [&](const LaneModel&, LaneData&, const ModelType& m,
                                                           DataType& d, int k0, int count, int t) {
      PerThread& lanes = lanes_[static_cast<std::size_t>(t)];
      int a = 0;
      (gather_lanes(X, lanes.in[static_cast<std::size_t>(a++)], k0, count), ...);
      const auto& y = lane_call(kernel, lanes, std::index_sequence_for<Dx...>{}).first;
      const std::array<bool, W> failed = failing_inputs_or(y, lanes, std::make_index_sequence<sizeof...(Dx) - 1>{});
      BatchStatus pack;
      for (int j = 0; j < count; ++j) {
        const int k = k0 + j;
        FactorStatus s = FactorStatus::success();
        if (!failed[static_cast<std::size_t>(j)]) {
          for (Eigen::Index i = 0; i < y.size(); ++i) OUT(i, k) = y(i).lane(j);
        } else {  // this state alone, by the scalar kernel: its output and status are the scalar call's
          const auto result = kernel(m, d, X.col(k)...);
          OUT.col(k) = result.first;
          s = result.second;
        }
        pack.add(k, detail::batch_record(statuses, k, s));
      }
      return pack;
    });
  }

  /// failing_lanes on a pack's q, its other inputs (in[1 + I]) and the output y.
  template <class Y, std::size_t... I>
  std::array<bool, W> failing_inputs_or(const Y& y, const PerThread& lanes, std::index_sequence<I...>) const noexcept {
    return failing_lanes(lanes.in[0], y, lanes.in[1 + I]...);
  }

  template <class Kernel, std::size_t... I>
  auto lane_call(const Kernel& kernel, PerThread& lanes, std::index_sequence<I...>) const noexcept {
    return kernel(lane_model_, *lanes.data, lanes.in[I]...);
  }

  BatchRunner<T, N> scalar_;
  LaneModel lane_model_;
  std::vector<PerThread> lanes_;
};

}  // namespace treedyn
