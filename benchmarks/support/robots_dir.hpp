// The folder of the URDF robots (examples/robots), for the benchmarks that load one (bench_lanes: quadruped12).
// Defined in a unit CMake generates (support/robots_dir.cpp.in says why).
#pragma once

namespace treedyn::bench {
const char* robots_dir() noexcept;
}  // namespace treedyn::bench
