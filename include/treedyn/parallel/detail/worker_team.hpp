// treedyn::detail::WorkerTeam: the worker threads of BatchRunner (batch.hpp) and LaneBatchRunner
// (lane_batch.hpp). A fixed team started in the constructor and joined in the destructor; a call runs one job
// on every member, the calling thread included, and returns when all have finished. Nothing is allocated per
// call: the job is passed by address. The waking policy (poll, then sleep) is measured in
// docs/batch.md#waking-the-workers.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace treedyn::detail {

/// A fixed team of worker threads 1..T−1 that run one job at a time with the calling thread as member 0.
/// The job is a callable job(t) held by the caller during run(); the team stores only its address.
///
/// Waking. A worker that has finished a job, and the caller that waits for the workers, first poll an atomic
/// for up to spin_time (a bounded spin, as OpenMP runtimes do), then sleep on a condition variable. Back-to-back
/// calls (a simulation or training loop) then start and end within a microsecond or so instead of a
/// sleeping thread's wake-up, which costs tens of microseconds on a virtual machine (measured in
/// docs/batch.md#waking-the-workers); a worker idle for longer than spin_time costs nothing.
class WorkerTeam {
 public:
  /// How long an idle thread polls before it sleeps.
  static constexpr std::chrono::microseconds spin_time{100};

  explicit WorkerTeam(int threads) {
    workers_.reserve(static_cast<std::size_t>(threads - 1));
    try {
      for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
    } catch (...) {
      stop();
      throw;
    }
  }
  ~WorkerTeam() { stop(); }
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  [[nodiscard]] int size() const noexcept { return static_cast<int>(workers_.size()) + 1; }

  /// job(0) on the calling thread and job(t) on worker t; returns when every member has finished.
  template <class Job>
  void run(Job& job) noexcept {
    if (workers_.empty()) {
      job(0);
      return;
    }
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      invoke_ = [](void* context, int t) { (*static_cast<Job*>(context))(t); };
      context_ = &job;
      pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);  // publishes invoke_, context_ and pending_
    }
    start_.notify_all();
    job(0);
    if (spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) return;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
  }

 private:
  /// Polls ready() for up to spin_time; true when it became true.
  template <class Ready>
  static bool spin_until(const Ready& ready) noexcept {
    const auto end = std::chrono::steady_clock::now() + spin_time;
    for (;;) {
      for (int i = 0; i < 64; ++i) {
        if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      if (std::chrono::steady_clock::now() >= end) return ready();
    }
  }

  void work(int t) noexcept {
    std::uint64_t seen = 0;
    for (;;) {
      const auto started = [&] {
        return stop_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
      };
      if (!spin_until(started)) {
        std::unique_lock<std::mutex> lock(mutex_);
        start_.wait(lock, started);
      }
      if (stop_.load(std::memory_order_acquire)) return;
      seen = generation_.load(std::memory_order_acquire);
      invoke_(context_, t);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        // The lock orders this notify after a caller's check of pending_ under it: no lost wake-up.
        const std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
      }
    }
  }

  void stop() noexcept {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true, std::memory_order_release);
    }
    start_.notify_all();
    for (std::thread& w : workers_)
      if (w.joinable()) w.join();
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  void (*invoke_)(void*, int) = nullptr;
  void* context_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace treedyn::detail
