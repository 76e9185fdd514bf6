// treedyn argument checks: every public call checks what it is given, in every build.
//
// Unlike TREEDYN_ASSERT (detail/assert.hpp, debug builds only), TREEDYN_CHECK stays in optimised builds:
// a Data or workspace built for another model, a vector of the wrong size, an index out of range or an
// irregular parent array is caught at the call's entry, before anything is read or written.
//
// On a failed check the current handler is called with a CheckFailure naming the function, the argument,
// what was expected and, for a size or an index, the expected and the given number. The default handler
// prints one line to stderr and calls std::abort():
//     treedyn: aba: argument 'q': given 6, expected model.nq() = 7
// set_check_handler(fn) installs another handler and returns the previous one (thread-safe; a null
// pointer restores the default). Hot calls are noexcept, so a handler must not throw. A handler that
// returns is allowed: the failing call then returns at once, before it has written any output (its
// outputs keep the values they had, and a call that returns a FactorStatus returns a failed one). That
// is the documented, tested contract; a handler that logs and returns lets a program carry on with the
// stale outputs, so most programs keep the default.
//
// The success path is one comparison and a predicted branch; it never allocates. The failure path is
// out of line (cold) and may print.
//
// Defining TREEDYN_DISABLE_CHECKS before including any treedyn header (e.g. -DTREEDYN_DISABLE_CHECKS)
// compiles every check out; the misuses above are then undefined behaviour again. It is never the
// default.
#pragma once

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "treedyn/detail/scalar.hpp"
#include "treedyn/status.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define TREEDYN_CHECK_LIKELY(x) __builtin_expect(static_cast<bool>(x), 1)
#define TREEDYN_CHECK_COLD __attribute__((cold, noinline))
#else
#define TREEDYN_CHECK_LIKELY(x) static_cast<bool>(x)
#define TREEDYN_CHECK_COLD
#endif

namespace treedyn {

/// What a failed check reports to the handler. Every pointer is a string literal (never null).
struct CheckFailure {
  const char* function;       ///< the public call, e.g. "aba"
  const char* argument;       ///< the argument found wrong, e.g. "q"
  const char* expected;       ///< what was expected, e.g. "model.nq()" or "data built for this model"
  long long expected_size;    ///< the expected size (or the index bound), -1 when not a size
  long long actual_size;      ///< the size (or the index) given, -1 when not a size
};

/// A check handler. It must not throw; if it returns, the failing call returns without writing outputs.
using CheckHandler = void (*)(const CheckFailure&);

namespace detail {

/// Prints the failure as one line to stderr.
inline void print_check_failure(const CheckFailure& f) noexcept {
  if (f.expected_size < 0 && f.actual_size >= 0)
    std::fprintf(stderr, "treedyn: %s: argument '%s': invalid at entry %lld, expected %s\n", f.function, f.argument,
                 f.actual_size, f.expected);
  else if (f.expected_size >= 0)
    std::fprintf(stderr, "treedyn: %s: argument '%s': given %lld, expected %s = %lld\n", f.function, f.argument,
                 f.actual_size, f.expected, f.expected_size);
  else
    std::fprintf(stderr, "treedyn: %s: argument '%s': invalid, expected %s\n", f.function, f.argument, f.expected);
  std::fflush(stderr);
}

/// The default handler: print, then std::abort().
[[noreturn]] inline void abort_on_check_failure(const CheckFailure& f) noexcept {
  print_check_failure(f);
  std::abort();
}

inline std::atomic<CheckHandler> check_handler_slot{&abort_on_check_failure};

/// The out-of-line failure path of TREEDYN_CHECK.
TREEDYN_CHECK_COLD inline void check_failed(const char* function, const char* argument, const char* expected,
                                            long long expected_size, long long actual_size) noexcept {
  const CheckFailure failure{function, argument, expected, expected_size, actual_size};
  check_handler_slot.load(std::memory_order_acquire)(failure);
}

}  // namespace detail

/// Installs `handler` (null: the default, which prints and aborts) and returns the previous handler.
inline CheckHandler set_check_handler(CheckHandler handler) noexcept {
  if (handler == nullptr) handler = &detail::abort_on_check_failure;
  return detail::check_handler_slot.exchange(handler, std::memory_order_acq_rel);
}

/// The handler now installed.
inline CheckHandler check_handler() noexcept { return detail::check_handler_slot.load(std::memory_order_acquire); }

}  // namespace treedyn

/// TREEDYN_CHECK(condition, function, argument, expected, expected_size, actual_size, on_failure):
/// when `condition` is false, reports the failure to the handler, then runs the statement `on_failure`
/// (a `return …;` leaving the outputs untouched) if the handler returned. The sizes are -1 when the check
/// is not about a size or an index.
#ifndef TREEDYN_DISABLE_CHECKS
#define TREEDYN_CHECK(condition, function, argument, expected, expected_size, actual_size, on_failure)          \
  do {                                                                                                         \
    if (!TREEDYN_CHECK_LIKELY(condition)) {                                                                    \
      ::treedyn::detail::check_failed(function, argument, expected, static_cast<long long>(expected_size),     \
                                      static_cast<long long>(actual_size));                                    \
      on_failure;                                                                                              \
    }                                                                                                          \
  } while (false)
#else
#define TREEDYN_CHECK(condition, function, argument, expected, expected_size, actual_size, on_failure) \
  do { /* unevaluated: no code, no unused-variable warnings */                                         \
    static_cast<void>(sizeof((condition) ? 1 : 0));                                                    \
    static_cast<void>(sizeof(function));                                                               \
    static_cast<void>(sizeof(argument));                                                               \
    static_cast<void>(sizeof(expected));                                                               \
    static_cast<void>(sizeof(expected_size));                                                          \
    static_cast<void>(sizeof(actual_size));                                                            \
  } while (false)
#endif

namespace treedyn::detail {

// The checks every public call makes, each one comparison on success. Each returns false after a failed
// check whose handler returned; the caller then returns without writing its outputs.

/// `x` (anything with size()) has `n` entries; `what` names n, e.g. "model.nq()".
template <class X>
bool size_ok(const char* function, const char* argument, const X& x, long long n, const char* what) noexcept {
  TREEDYN_CHECK(static_cast<long long>(x.size()) == n, function, argument, what, n, x.size(), return false);
  return true;
}

/// A matrix argument is rows × cols.
template <class X>
bool shape_ok(const char* function, const char* argument, const X& x, long long rows, long long cols,
              const char* what) noexcept {
  TREEDYN_CHECK(static_cast<long long>(x.rows()) == rows, function, argument, what, rows, x.rows(), return false);
  TREEDYN_CHECK(static_cast<long long>(x.cols()) == cols, function, argument, what, cols, x.cols(), return false);
  return true;
}

/// 0 <= i < n.
inline bool index_ok(const char* function, const char* argument, long long i, long long n, const char* what) noexcept {
  TREEDYN_CHECK(i >= 0 && i < n, function, argument, what, n, i, return false);
  return true;
}

/// A Data or workspace remembering model id `built_for` is used with the model of id `model_id`.
inline bool same_model(const char* function, const char* argument, unsigned long long built_for,
                       unsigned long long model_id) noexcept {
  TREEDYN_CHECK(built_for == model_id, function, argument, "one built for this model", -1, -1, return false);
  return true;
}

}  // namespace treedyn::detail

namespace treedyn::detail {

// Finite inputs. A NaN or an infinity in an input vector is not a programming error (it is a value, like
// a zero quaternion): it goes to a Status, never to the check handler, and it is checked in every build
// (TREEDYN_DISABLE_CHECKS leaves it in). Every hot call checks each input vector it reads (q, q̇, q̈, τ,
// b, …) with finite_ok, and a per-body force container with forces_finite_ok, before it writes an output;
// on failure it sets its outputs to NaN as for an invalid configuration and reports the status where it
// reports that (docs/errors.md#finite-inputs).
//
// The success path is one vectorised reduction, Σ x_k·0, which is 0 exactly when every x_k is finite
// (0·∞ and 0·NaN are NaN, and a NaN survives every sum): one multiply and one add per entry, no branch per
// entry, no allocation. The failure path is out of line and finds the first bad entry. A symbolic Scalar
// (detail/scalar.hpp) has no value to test: its inputs always pass.

/// The out-of-line failure path of finite_ok: `status` names the first entry of x that is not finite.
template <class X>
TREEDYN_CHECK_COLD bool first_non_finite(const char* call, const char* argument, const X& x, Status& status) noexcept {
  using Scalar = typename X::Scalar;
  for (long long k = 0; k < static_cast<long long>(x.size()); ++k) {
    if (!(x(static_cast<Eigen::Index>(k)) * Scalar(0) == Scalar(0))) {
      status = Status::non_finite_input(argument, static_cast<int>(k), Status::Index::entry, call);
      return false;
    }
  }
  return true;  // not reached for IEEE scalars: the sum was not 0, so some entry was not finite
}

/// True when every entry of `x` (an Eigen vector or expression) is finite: the one reduction Σ x_k·0 == 0
/// (see above). A symbolic Scalar always passes.
template <class X>
bool all_finite(const X& x) noexcept {
  using Scalar = typename X::Scalar;
  if constexpr (!is_numeric<Scalar>::value) {
    static_cast<void>(x);
    return true;
  } else {
    return (x.array() * Scalar(0)).sum() == Scalar(0);
  }
}

/// True when every entry of the vector `x` (an Eigen vector or expression) is finite. Otherwise false, with
/// `status` = non_finite_input naming `call` (a string literal, e.g. "aba"), `argument` (e.g. "qd") and the
/// entry (Index::entry, 0-based). The one check of finite inputs every hot call uses (see above).
template <class X>
bool finite_ok(const char* call, const char* argument, const X& x, Status& status) noexcept {
  if (TREEDYN_CHECK_LIKELY(all_finite(x))) return true;
  return first_non_finite(call, argument, x, status);
}

/// The same for a container of per-body spatial forces (`f[i]`, 6 entries each; f.size() bodies): the
/// status names `argument` and the BODY (Index::body) whose force is not finite.
template <class Scalar, class F>
bool forces_finite_ok(const char* call, const char* argument, const F& f, Status& status) noexcept {
  if constexpr (is_numeric<Scalar>::value) {
    using I = decltype(f.size());
    for (I i = 0; i < f.size(); ++i) {
      const auto& fi = f[i];
      if (!TREEDYN_CHECK_LIKELY((fi.array() * Scalar(0)).sum() == Scalar(0))) {
        status = Status::non_finite_input(argument, static_cast<int>(i), Status::Index::body, call);
        return false;
      }
    }
  } else {
    static_cast<void>(call);
    static_cast<void>(argument);
    static_cast<void>(f);
    static_cast<void>(status);
  }
  return true;
}

}  // namespace treedyn::detail

namespace treedyn::detail {

/// True when an input of Scalar `Given` meets a model of Scalar `Wanted` as the pair (A, B).
template <class Wanted, class Given, class A, class B>
inline constexpr bool scalar_pair = std::is_same<Wanted, A>::value && std::is_same<Given, B>::value;

}  // namespace treedyn::detail

/// TREEDYN_SAME_SCALAR(ModelScalar, Derived, "q"): at a public entry point, a compile-time error naming the
/// argument (a string literal) when the Eigen input `Derived` has another Scalar than the model's, e.g.
///     treedyn: q is a double vector but the model is Model<float>: cast one (model.cast<double>() or q.cast<float>())
/// instead of pages of Eigen's mixed-scalar errors. The one such check of the library: every entry point
/// that takes vectors uses it, once per vector argument. Costs nothing at run time.
#define TREEDYN_SAME_SCALAR(ModelScalar, Derived, name)                                                          \
  static_assert(!::treedyn::detail::scalar_pair<ModelScalar, typename Derived::Scalar, float, double>,            \
                "treedyn: " name " is a double vector but the model is Model<float>: cast one "                  \
                "(model.cast<double>() or " name ".cast<float>())");                                             \
  static_assert(!::treedyn::detail::scalar_pair<ModelScalar, typename Derived::Scalar, double, float>,            \
                "treedyn: " name " is a float vector but the model is Model<double>: cast one "                  \
                "(model.cast<float>() or " name ".cast<double>())");                                             \
  static_assert(std::is_same<ModelScalar, typename Derived::Scalar>::value ||                                    \
                    ::treedyn::detail::scalar_pair<ModelScalar, typename Derived::Scalar, float, double> ||      \
                    ::treedyn::detail::scalar_pair<ModelScalar, typename Derived::Scalar, double, float>,        \
                "treedyn: " name " has another Scalar than the model: cast one (model.cast<T>() or " name        \
                ".cast<T>())")
