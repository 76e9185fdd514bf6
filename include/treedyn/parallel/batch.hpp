// BatchRunner: one algorithm over many states on all cores (reinforcement learning, sampling-based MPC).
//
// Not an algorithm of its own: it runs the library's kernels (aba.hpp, rnea.hpp, crba.hpp, or any callable)
// over states k = 0..n−1 whose inputs and outputs are the COLUMNS of caller-owned matrices, e.g. for the
// forward dynamics Q (nq × n), QD, TAU (nv × n) in and QDD (nv × n) out.
//
//   treedyn::BatchRunner<double> batch(model, 2);      // 2 threads: the caller and 1 worker
//   treedyn::BatchStatus s = batch.aba(Q, QD, TAU, QDD);
//   if (!s) std::printf("%d states failed, the first is %d\n", s.failures, s.first_failed);
//
// Threads. The runner owns threads() − 1 worker threads (std::thread, started in the constructor, joined
// in the destructor) and one Data per thread; a call splits the states into threads() contiguous ranges,
// range t = [⌊n·t/T⌋, ⌊n·(t+1)/T⌋) (batch_range), and the calling thread works on range 0 while worker t
// works on range t. Each state is computed by the same kernel as a serial loop, on its own Data and with
// no reduction across states, so every result is bit for bit what `for k: kernel(model, data, col k)`
// gives, whatever the thread count. A call never allocates: between calls the workers poll for a short
// while, then wait on a condition variable (detail::WorkerTeam), the job is passed by pointer (no
// std::function), and the per-thread Data and status slots exist from construction. Only the constructor allocates (threads, Data) and it is not noexcept.
//
// Contract. The Model must outlive the runner. One call at a time per runner (a runner is not a queue:
// calling one runner from two threads at once is undefined); several runners may run side by side.
// The callable of for_each must not throw (a throw on a worker ends the program) and may touch only state
// k's columns and the Data it is given, or per-thread workspaces indexed by its thread argument.
// Sizes are checked at entry with the library's checks (detail/check.hpp); if the check handler returns,
// the call returns BatchStatus::invalid_argument() before any state is computed.
// Failures of single states (an invalid quaternion, a non-positive joint pivot) do not stop the batch:
// the call returns how many states failed, the first of them and its FactorStatus; with a per-state
// status vector (size n) every state's status is written too. The failing states' outputs are NaN,
// as the kernels leave them; every other state is computed normally.
//
// This header pulls <thread>, <mutex> and <condition_variable>, so the umbrella header treedyn/treedyn.hpp
// does not include it; the CMake target treedyn::treedyn links Threads::Threads for it.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/status.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/parallel/detail/worker_team.hpp"

namespace treedyn {

/// What a batched call reports: how many states failed, the smallest failing index and its status.
struct BatchStatus {
  int failures = 0;           ///< states whose kernel reported a failure
  int first_failed = -1;      ///< the smallest such state index; -1 when none failed
  FactorStatus first_status;  ///< that state's status (success when none failed)

  [[nodiscard]] constexpr bool ok() const noexcept { return failures == 0 && first_status.ok(); }
  /// Counts state k's status s (states added in increasing k).
  void add(int k, const FactorStatus& s) noexcept {
    if (!s.ok() && failures++ == 0) {
      first_failed = k;
      first_status = s;
    }
  }
  /// Counts the failures of a later group of states (a thread's range, a lane pack).
  void add(const BatchStatus& s) noexcept {
    if (s.failures > 0 && failures == 0) {
      first_failed = s.first_failed;
      first_status = s.first_status;
    }
    failures += s.failures;
  }
  constexpr explicit operator bool() const noexcept { return ok(); }
  /// A size check failed and the check handler returned: nothing was computed.
  static constexpr BatchStatus invalid_argument() noexcept { return {0, -1, FactorStatus::invalid_argument("BatchRunner")}; }
};

/// The states [begin, end) of thread t of `threads` in a batch of n: contiguous, sizes differing by ≤ 1.
struct BatchRange {
  int begin, end;
};
[[nodiscard]] inline BatchRange batch_range(int n, int threads, int t) noexcept {
  const auto split = [&](int i) { return static_cast<int>(static_cast<long long>(n) * i / threads); };
  return {split(t), split(t + 1)};
}

namespace detail {

/// The states one thread saw fail; one cache line per thread, merged in thread order after a call.
struct alignas(64) BatchSlot : BatchStatus {};

/// Stand-in for "no per-state status vector".
struct NoBatchStatuses {};

/// x is rows × n: `rows_what` names rows (e.g. "model.nv()"), n is Q.cols(), one column per state.
template <class X>
bool batch_shape_ok(const char* fn, const char* argument, const X& x, long long rows, const char* rows_what,
                    long long n) noexcept {
  TREEDYN_CHECK(static_cast<long long>(x.rows()) == rows, fn, argument, rows_what, rows, x.rows(), return false);
  TREEDYN_CHECK(static_cast<long long>(x.cols()) == n, fn, argument, "Q.cols() (states)", n, x.cols(), return false);
  return true;
}

/// The per-state status vector, when given, has one entry per state.
template <class S>
bool batch_statuses_ok(const char* fn, const S* statuses, int n) noexcept {
  if constexpr (std::is_same_v<S, NoBatchStatuses>) return true;
  else return statuses == nullptr || size_ok(fn, "statuses", *statuses, n, "Q.cols()");
}

/// Writes state k's status into the per-state vector, when given; returns it.
template <class S>
FactorStatus batch_record(S* statuses, int k, const FactorStatus& s) noexcept {
  if constexpr (!std::is_same_v<S, NoBatchStatuses>)
    if (statuses != nullptr) (*statuses)[static_cast<std::size_t>(k)] = s;
  return s;
}

/// The names a dynamics call reports its checks under: the call, its third input and its output.
struct DynamicsNames {
  const char* function;
  const char* input;
  const char* output;
};

/// The sizes of a batched (Q, QD, X) -> OUT call: Q nq × n, QD, X and OUT nv × n, statuses n.
template <class Model, class Dq, class Dv, class Dx, class Do, class S>
bool dynamics_shapes_ok(const DynamicsNames& names, const Model& model, const Eigen::MatrixBase<Dq>& Q,
                        const Eigen::MatrixBase<Dv>& QD, const Eigen::MatrixBase<Dx>& X,
                        const Eigen::MatrixBase<Do>& OUT, const S* statuses) noexcept {
  const char* fn = names.function;
  const int n = static_cast<int>(Q.cols());
  const int nv = model.nv();
  return batch_shape_ok(fn, "Q", Q, model.nq(), "model.nq()", n) && batch_shape_ok(fn, "QD", QD, nv, "model.nv()", n) &&
         batch_shape_ok(fn, names.input, X, nv, "model.nv()", n) &&
         batch_shape_ok(fn, names.output, OUT, nv, "model.nv()", n) && batch_statuses_ok(fn, statuses, n);
}

/// The sizes of a batched crba: Q nq × n, H (packed) nonzeros × n, statuses n.
template <class Model, class Dq, class Dh, class S>
bool crba_shapes_ok(const char* fn, const Model& model, const Eigen::MatrixBase<Dq>& Q, const Eigen::MatrixBase<Dh>& H,
                    const S* statuses) noexcept {
  const int n = static_cast<int>(Q.cols());
  return batch_shape_ok(fn, "Q", Q, model.nq(), "model.nq()", n) &&
         batch_shape_ok(fn, "H", H, model.h_pattern().nonzeros(), "model.h_pattern().nonzeros()", n) &&
         batch_statuses_ok(fn, statuses, n);
}

/// The kernels of the batched calls as (result, status) of one state: aba.hpp's q̈ with data.aba_status,
/// rnea.hpp's τ and crba.hpp's packed H with data.config_status. Generic in the scalar: the lane runner
/// (parallel/lane_batch.hpp) calls them on lane packs and on single states alike.
struct BatchAba {
  template <class M, class D, class Q, class V, class X>
  auto operator()(const M& model, D& data, const Q& q, const V& qd, const X& tau) const noexcept {
    const auto& qdd = treedyn::aba(model, data, q, qd, tau);
    return std::pair<const std::decay_t<decltype(qdd)>&, FactorStatus>(qdd, data.aba_status);
  }
};
struct BatchRnea {
  template <class M, class D, class Q, class V, class X>
  auto operator()(const M& model, D& data, const Q& q, const V& qd, const X& qdd) const noexcept {
    const auto& tau = treedyn::rnea(model, data, q, qd, qdd);
    return std::pair<const std::decay_t<decltype(tau)>&, FactorStatus>(tau, data.config_status);
  }
};
struct BatchCrba {
  template <class M, class D, class Q>
  auto operator()(const M& model, D& data, const Q& q) const noexcept {
    const auto& H = treedyn::crba(model, data, q);
    return std::pair<const std::decay_t<decltype(H)>&, FactorStatus>(H, data.config_status);
  }
};

}  // namespace detail

/// Runs a kernel over the columns of caller-owned matrices on threads() threads (see the header comment).
template <class Scalar, int N = Dynamic>
class BatchRunner {
 public:
  using ModelType = Model<Scalar, N>;
  using DataType = Data<Scalar, N>;
  using Statuses = std::vector<FactorStatus>;

  /// threads ≤ 0: std::thread::hardware_concurrency() (1 if unknown). Starts threads − 1 workers and
  /// builds one Data per thread. `model` must outlive the runner.
  explicit BatchRunner(const ModelType& model, int threads = 0)
      : model_(&model), team_(resolve(threads)), slots_(static_cast<std::size_t>(team_.size())),
        data_(static_cast<std::size_t>(team_.size())) {
    // Each thread builds its own Data (PerThread).
    for_each_thread([&](int t) { data_[static_cast<std::size_t>(t)].data.emplace(model); });
  }

  /// f(t) once on each thread t = 0..threads()−1 (the caller is 0), e.g. to build per-thread buffers there
  /// (see PerThread). Not for the hot path: an exception thrown by f on any thread is rethrown here (the
  /// first, in thread order) after every thread has finished; and it allocates.
  template <class F>
  void for_each_thread(F&& f) {
    std::vector<std::exception_ptr> failed(static_cast<std::size_t>(threads()));
    auto job = [&](int t) {
      try {
        f(t);
      } catch (...) {
        failed[static_cast<std::size_t>(t)] = std::current_exception();
      }
    };
    team_.run(job);
    for (const std::exception_ptr& e : failed)
      if (e) std::rethrow_exception(e);
  }

  [[nodiscard]] int threads() const noexcept { return team_.size(); }
  [[nodiscard]] const ModelType& model() const noexcept { return *model_; }
  /// Thread t's Data (t = 0 is the calling thread's), e.g. to read a by-product after a call.
  [[nodiscard]] DataType& data(int t) noexcept { return *data_[static_cast<std::size_t>(t)].data; }

  /// f(model, data, k) — or f(model, data, k, t), t the thread — for k = 0..n−1 over the threads. f may
  /// return a FactorStatus (a failure of item k is then counted), a BatchStatus (item k stands for a group of
  /// states, e.g. a lane pack: its failures are added, in item order), or nothing. noexcept: f must not throw.
  template <class F>
  BatchStatus for_each(int n, F&& f) noexcept {
    TREEDYN_CHECK(n >= 0, "BatchRunner::for_each", "n", "n >= 0", -1, n, return BatchStatus::invalid_argument());
    if (n == 0) return {};
    const int T = threads();
    auto job = [&](int t) {
      detail::BatchSlot& slot = slots_[static_cast<std::size_t>(t)];
      slot = detail::BatchSlot{};
      DataType& data = *data_[static_cast<std::size_t>(t)].data;
      const BatchRange r = batch_range(n, T, t);
      for (int k = r.begin; k < r.end; ++k) {
        using Result = decltype(call(f, data, k, t));
        if constexpr (std::is_same_v<Result, FactorStatus>) slot.add(k, call(f, data, k, t));
        else if constexpr (std::is_same_v<Result, BatchStatus>) slot.add(call(f, data, k, t));
        else call(f, data, k, t);
      }
    };
    team_.run(job);
    BatchStatus out;
    for (const detail::BatchSlot& slot : slots_) out.add(slot);
    return out;
  }

  /// Forward dynamics by aba.hpp: QDD.col(k) = FD(Q.col(k), QD.col(k), TAU.col(k)), n = Q.cols().
  /// Status per state: data.aba_status.
  template <class Dq, class Dv, class Dt, class Da, class S = detail::NoBatchStatuses>
  BatchStatus aba(const Eigen::MatrixBase<Dq>& Q, const Eigen::MatrixBase<Dv>& QD, const Eigen::MatrixBase<Dt>& TAU,
                  Eigen::MatrixBase<Da>& QDD, S* statuses = nullptr) noexcept {
    return dynamics({"BatchRunner::aba", "TAU", "QDD"}, Q, QD, TAU, QDD, statuses, detail::BatchAba{});
  }

  /// Inverse dynamics by rnea.hpp: TAU.col(k) = RNEA(Q.col(k), QD.col(k), QDD.col(k)), n = Q.cols().
  /// Status per state: data.config_status.
  template <class Dq, class Dv, class Da, class Dt, class S = detail::NoBatchStatuses>
  BatchStatus rnea(const Eigen::MatrixBase<Dq>& Q, const Eigen::MatrixBase<Dv>& QD, const Eigen::MatrixBase<Da>& QDD,
                   Eigen::MatrixBase<Dt>& TAU, S* statuses = nullptr) noexcept {
    return dynamics({"BatchRunner::rnea", "QDD", "TAU"}, Q, QD, QDD, TAU, statuses, detail::BatchRnea{});
  }

  /// Joint-space inertia by crba.hpp: H.col(k) = the packed H(Q.col(k)) (model.h_pattern().nonzeros()
  /// rows; dense_H unpacks one column's worth through a Data), n = Q.cols(). Status: data.config_status.
  template <class Dq, class Dh, class S = detail::NoBatchStatuses>
  BatchStatus crba(const Eigen::MatrixBase<Dq>& Q, Eigen::MatrixBase<Dh>& H, S* statuses = nullptr) noexcept {
    if (!detail::crba_shapes_ok("BatchRunner::crba", *model_, Q, H, statuses)) return BatchStatus::invalid_argument();
    return for_each(static_cast<int>(Q.cols()), [&](const ModelType& m, DataType& d, int k) {
      const auto result = detail::BatchCrba{}(m, d, Q.col(k));
      H.col(k) = result.first;
      return detail::batch_record(statuses, k, result.second);
    });
  }

 private:
  static int resolve(int threads) noexcept {
    if (threads > 0) return threads;
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : static_cast<int>(hw);
  }

  template <class F>
  decltype(auto) call(F& f, DataType& data, int k, int t) const {
    if constexpr (std::is_invocable_v<F&, const ModelType&, DataType&, int, int>) return f(*model_, data, k, t);
    else return f(*model_, data, k);
  }

  /// OUT.col(k) = kernel(model, data, Q.col(k), QD.col(k), X.col(k)).first for the nv-row X and OUT;
  /// .second is the state's status.
  template <class Dq, class Dv, class Dx, class Do, class S, class Kernel>
  BatchStatus dynamics(const detail::DynamicsNames& names, const Eigen::MatrixBase<Dq>& Q,
                       const Eigen::MatrixBase<Dv>& QD, const Eigen::MatrixBase<Dx>& X, Eigen::MatrixBase<Do>& OUT,
                       S* statuses, const Kernel& kernel) noexcept {
    if (!detail::dynamics_shapes_ok(names, *model_, Q, QD, X, OUT, statuses)) return BatchStatus::invalid_argument();
    return for_each(static_cast<int>(Q.cols()), [&](const ModelType& m, DataType& d, int k) {
      const auto result = kernel(m, d, Q.col(k), QD.col(k), X.col(k));
      OUT.col(k) = result.first;
      return detail::batch_record(statuses, k, result.second);
    });
  }

  /// A thread's Data on cache lines of its own: the object (the kernels write status fields inside it) on
  /// lines aligned for it, and its arrays allocated by the thread that uses them (built there by the
  /// constructor). glibc's malloc serves each thread from an arena of its own, so no cache line holds the
  /// end of one thread's array and the start of another's: built in turn on one thread, the Data of
  /// neighbouring threads were packed into one heap, and where an array's end met the next thread's, the
  /// two threads' writes bounced that line between the cores on every state.
  struct alignas(64) PerThread {
    std::optional<DataType> data;
  };

  const ModelType* model_;
  detail::WorkerTeam team_;
  std::vector<detail::BatchSlot> slots_;
  std::vector<PerThread> data_;
};

}  // namespace treedyn
