// The demo's shared pieces: the timing harness of parts 1 and 2 (interleaved batches, medians), the
// scalar names, the text helpers and each part's entry point. The parts live in their own units
// (factorization.cpp, dynamics*.cpp, compliance.cpp, urdf.cpp) so that no one unit instantiates every
// algorithm for both scalars: each compiles in a fraction of the time and memory of the whole.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <treedyn/topology/parent_array.hpp>

#include <treedyn/fwd.hpp>

namespace treedyn {
template <class Scalar, int N>
class Model;  // treedyn/model/model.hpp, not included here: only the robot units need it
}  // namespace treedyn

namespace demo {

using treedyn::ParentArray;
using BoolMatrix = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;
using Clock = std::chrono::steady_clock;

// ---- timing -------------------------------------------------------------------------------------

struct TimingConfig {
  double batch_seconds = 0.020;  // a batch runs the contender until at least this much time has elapsed
  int batches = 5;               // the reported time is the median over the batches
};

inline volatile double g_sink = 0.0;  // results of timed calls land here so the calls cannot be optimised away

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Calls per clock reading such that one chunk of calls takes about chunk_seconds (at least one call).
template <class F>
long long calibrate(F& f, double chunk_seconds) {
  f();  // warm up caches
  long long reps = 1;
  for (;;) {
    const Clock::time_point t0 = Clock::now();
    for (long long r = 0; r < reps; ++r) f();
    const double elapsed = seconds_since(t0);
    if (elapsed >= chunk_seconds / 8.0 || reps >= (1LL << 40)) {
      const double scaled = static_cast<double>(reps) * chunk_seconds / elapsed;
      return std::max(1LL, static_cast<long long>(scaled));
    }
    reps *= 2;
  }
}

// The bare copy of a contender that needs no fresh input (part 2's dynamics calls leave their inputs
// unchanged): it is never run, so its chunks are empty and its time per call is 0.
struct NoCopy {
  void operator()() const {}
};
inline constexpr NoCopy no_copy{};
inline long long calibrate(const NoCopy&, double) { return 0; }

struct BatchTimes {
  double gross_ns;  // contender, copy included, per call
  double copy_ns;   // the bare copy, per call (0 for a NoCopy)
};

// One batch: chunks of contender calls alternating with (shorter) chunks of the bare input copy, until
// the contender has run for batch_seconds. Pairing the two in time makes the subtraction robust
// against the machine's load changing between measurements. reps_c = 0 (a NoCopy): contender chunks only.
template <class F, class C>
BatchTimes paired_batch(F& f, long long reps_f, C& copy, long long reps_c, double batch_seconds) {
  double t_f = 0.0, t_c = 0.0;
  long long calls_f = 0, calls_c = 0;
  while (t_f < batch_seconds) {
    Clock::time_point t0 = Clock::now();
    for (long long r = 0; r < reps_f; ++r) f();
    t_f += seconds_since(t0);
    calls_f += reps_f;
    if (reps_c == 0) continue;
    t0 = Clock::now();
    for (long long r = 0; r < reps_c; ++r) copy();
    t_c += seconds_since(t0);
    calls_c += reps_c;
  }
  const double copy_ns = calls_c == 0 ? 0.0 : t_c * 1e9 / static_cast<double>(calls_c);
  return {t_f * 1e9 / static_cast<double>(calls_f), copy_ns};
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return (v.size() % 2 == 1) ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// A contender: the timed call (copy + kernel) and the bare copy it starts with (no_copy: none).
template <class F, class C>
struct Contender {
  F& call;
  C& copy;
};
template <class F, class C>
Contender<F, C> contender(F& call, C& copy) {
  return {call, copy};
}

struct Timing {
  std::vector<double> net_ns;   // per contender: median over batches of (gross - copy), ns per call
  std::vector<double> copy_ns;  // per contender: median over batches of its bare copy, ns per call
};

// Times each contender. Batches are interleaved (batch b of every contender runs before batch b + 1 of
// any), so a slow phase of the machine affects all contenders alike.
template <class... K>
Timing measure(const TimingConfig& cfg, K... k) {
  constexpr std::size_t count = sizeof...(K);
  const double chunk = cfg.batch_seconds / 40.0;  // contender chunk; copy chunks are ~10x shorter
  const std::array<long long, count> reps_f{calibrate(k.call, chunk)...};
  const std::array<long long, count> reps_c{calibrate(k.copy, chunk / 10.0)...};
  std::array<std::vector<double>, count> net, copies;
  for (int b = 0; b < cfg.batches; ++b) {
    std::size_t i = 0;
    auto one = [&](auto& kk) {
      const BatchTimes t = paired_batch(kk.call, reps_f[i], kk.copy, reps_c[i], cfg.batch_seconds);
      net[i].push_back(t.gross_ns - t.copy_ns);
      copies[i].push_back(t.copy_ns);
      ++i;
    };
    (one(k), ...);
  }
  Timing result;
  for (std::size_t i = 0; i < count; ++i) {
    result.net_ns.push_back(median(net[i]));
    result.copy_ns.push_back(median(copies[i]));
  }
  return result;
}

template <class S>
const char* scalar_name();
template <>
inline const char* scalar_name<float>() { return "float"; }
template <>
inline const char* scalar_name<double>() { return "double"; }

// ---- text and patterns (support.cpp) -------------------------------------------------------------

// pattern(i, j): H(i, j) is structurally nonzero: i == j, or i is an ancestor of j, or j of i.
BoolMatrix branch_pattern(const ParentArray& lambda);
// The pattern as rows of 'x' (true) and '.' (false).
void print_pattern(const BoolMatrix& pattern);
// printf into a std::string.
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...);
// Prints text as a bullet ("- " then "  " on continuation lines), wrapped at 100 columns.
void print_bullet(const std::string& text);

// ---- the parts -----------------------------------------------------------------------------------

// Part 1 (tick.cpp): a controller tick on the robot with its timings. True if its check passed.
bool run_tick(const treedyn::Model<double, treedyn::Dynamic>& model, const TimingConfig& cfg, bool quick);
// Part 2 (factorization.cpp): the sparsity study. True if every row passed its checks.
bool run_factorization(const TimingConfig& cfg, bool quick);
// Part 3 (dynamics.cpp): identities and timings on humanoid30 and chain30. True if every check passed.
bool run_dynamics(const TimingConfig& cfg, bool quick);
// Part 4 (compliance.cpp): the compliance Λ⁻¹ of humanoid30's hands and feet by oscm against oscm_dense.
bool print_humanoid_compliance();
#ifdef TREEDYN_DEMO_URDF
// urdf.cpp: loads a URDF robot and prints its load report (std::invalid_argument etc. on a bad file).
treedyn::Model<double, treedyn::Dynamic> load_robot(const std::string& path, bool floating_base);
// urdf.cpp: parts 3 and 4 on a robot loaded from a URDF file.
bool run_urdf(treedyn::Model<double, treedyn::Dynamic> model, const std::string& path, bool floating_base,
              const TimingConfig& cfg);
// Part 4 on the URDF robot (compliance.cpp): Λ⁻¹ of every leaf body of the model (no children), at its own
// origin, by oscm against oscm_dense.
bool print_leaf_compliance(const treedyn::Model<double, treedyn::Dynamic>& model);
#endif

}  // namespace demo
