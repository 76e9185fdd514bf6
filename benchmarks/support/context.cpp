// Every benchmark program reports how it was built, so that runs compared over time (names
// Kernel/model/scalar) carry the compiler and flags that produced them in their JSON/console context.
#include <benchmark/benchmark.h>

#include <treedyn/version.hpp>

#ifndef TREEDYN_BENCH_COMPILER
#define TREEDYN_BENCH_COMPILER "unknown"
#endif
#ifndef TREEDYN_BENCH_FLAGS
#define TREEDYN_BENCH_FLAGS "unknown"
#endif

namespace {

[[maybe_unused]] const bool context_added = [] {
  benchmark::AddCustomContext("treedyn_version", TREEDYN_VERSION_STRING);
  benchmark::AddCustomContext("compiler", TREEDYN_BENCH_COMPILER);
  benchmark::AddCustomContext("cxx_flags", TREEDYN_BENCH_FLAGS);
  return true;
}();

}  // namespace
