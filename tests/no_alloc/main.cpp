// test_no_alloc's main, the counting operator new and the check that both guards fire.
#define CATCH_CONFIG_MAIN
#include "no_alloc/no_alloc_support.hpp"

namespace no_alloc {
std::atomic<bool> g_counting{false};
std::atomic<long long> g_allocations{0};
}  // namespace no_alloc

#if TREEDYN_COUNTING_NEW
// The replacements pair malloc with free on purpose; GCC's -Wmismatched-new-delete cannot see
// that once they are inlined into each other and reports a false positive at -O2.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t size) {
  if (no_alloc::g_counting) ++no_alloc::g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

TEST_CASE("the guards work: an Eigen allocation and a plain new are both caught", "[no_alloc]") {
  // A plain `delete new int` may be elided by the optimiser (C++14 [expr.new]); a pointer stored to a
  // volatile sink may not, so this probe allocates in every build.
  static void* volatile sink = nullptr;
  const long long counted = allocations_in([] {
    sink = ::operator new(16);
    ::operator delete(sink);
  });
  REQUIRE(counted == (TREEDYN_COUNTING_NEW ? 1 : 0));
  Eigen::internal::set_is_malloc_allowed(false);
  REQUIRE_THROWS_AS(Eigen::VectorXd(16), std::logic_error);
  Eigen::internal::set_is_malloc_allowed(true);
}
