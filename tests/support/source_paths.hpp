// The source folders that the file-reading tests (test_urdf, test_mjcf) open. They are variables, defined in
// one small unit that CMake generates per test executable (tests/support/source_paths.cpp.in), not paths
// compiled into every unit: a path on the command line differs between two checkouts, so every unit of those
// tests missed the compiler cache in each fresh clone (CI); now only the generated unit does.
#pragma once

namespace treedyn::test::paths {
extern const char* const robots_dir;     ///< examples/robots
extern const char* const urdf_test_dir;  ///< tests/urdf
extern const char* const mjcf_test_dir;  ///< tests/mjcf/fixtures
extern const char* const peers_dir;      ///< ../shared/peers (the peers' sources; the tests skip them when absent)
}  // namespace treedyn::test::paths

#define TREEDYN_ROBOTS_DIR ::treedyn::test::paths::robots_dir
#define TREEDYN_MJCF_ROBOTS_DIR ::treedyn::test::paths::robots_dir
#define TREEDYN_URDF_TEST_DIR ::treedyn::test::paths::urdf_test_dir
#define TREEDYN_MJCF_TEST_DIR ::treedyn::test::paths::mjcf_test_dir
#define TREEDYN_PEERS_DIR ::treedyn::test::paths::peers_dir
