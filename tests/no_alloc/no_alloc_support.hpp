// The no-allocation promise: every public kernel, float and double, dynamic and fixed size, first call
// and steady state, runs without touching the heap. This header is shared by every translation unit of
// test_no_alloc (one family of kernels per file, so no unit instantiates everything at once).
//
// Two independent guards: a counting replacement of the global operator new (defined once, in main.cpp),
// and Eigen's EIGEN_RUNTIME_NO_MALLOC switch with EIGEN_STACK_ALLOCATION_LIMIT = 0 (so Eigen cannot hide
// a temporary on the stack either) and an eigen_assert that throws even under NDEBUG. Every unit includes
// this header first, so Eigen is configured identically in all of them.
#pragma once
#include <atomic>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

// A failed Eigen assertion throws, even under NDEBUG. Inside a noexcept kernel that ends the program
// with the assertion's text (std::terminate), which is the loudest possible failure of this test.
[[noreturn]] inline void eigen_assert_failed(const char* condition) {
  throw std::logic_error(std::string("eigen_assert failed: ") + condition);
}
#define EIGEN_RUNTIME_NO_MALLOC
#define EIGEN_STACK_ALLOCATION_LIMIT 0
#define eigen_assert(condition) \
  do {                          \
    if (!(condition)) eigen_assert_failed(#condition); \
  } while (false)

#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include <Eigen/Core>

#include "support/random.hpp"
#include "support/tree_matrices.hpp"
#include "treedyn/treedyn.hpp"
#include "treedyn/robots/robots.hpp"


// The counting operator new. AddressSanitizer brings its own allocator, which a replacement of the
// global operator new cannot be mixed with (objects allocated before main by ASan's operator new are
// freed by ours), so under ASan only Eigen's runtime guard above checks the kernels; the ordinary
// build (the `ci` preset) runs both guards.
#if defined(__SANITIZE_ADDRESS__)
#define TREEDYN_COUNTING_NEW 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TREEDYN_COUNTING_NEW 0
#endif
#endif
#ifndef TREEDYN_COUNTING_NEW
#define TREEDYN_COUNTING_NEW 1
#endif


namespace no_alloc {
// Atomic: the batched kernels (treedyn/parallel/batch.hpp) run on worker threads too, whose allocations
// count alike.
extern std::atomic<bool> g_counting;          ///< operator new counts while this is set (main.cpp)
extern std::atomic<long long> g_allocations;  ///< the count

/// Heap allocations made by f() (operator new calls), with Eigen's malloc guard armed meanwhile.
template <class F>
long long allocations_in(F&& f) {
  g_allocations = 0;
  g_counting = true;
  Eigen::internal::set_is_malloc_allowed(false);
  f();
  Eigen::internal::set_is_malloc_allowed(true);
  g_counting = false;
  return g_allocations;
}

}  // namespace no_alloc

using no_alloc::allocations_in;
using namespace treedyn;
