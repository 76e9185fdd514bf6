// What the test_mjcf units share: the path of a fixture and the message a refused load gives.
#pragma once

#include <stdexcept>
#include <string>

#include "support/source_paths.hpp"
#include "treedyn/mjcf.hpp"

namespace treedyn::test {

/// The path of tests/mjcf/fixtures/`name`.
inline std::string mjcf_fixture(const std::string& name) { return std::string(TREEDYN_MJCF_TEST_DIR) + "/" + name; }

/// The message of the std::invalid_argument that mjcf::load<double> throws on `xml` (empty when it loads).
inline std::string mjcf_error_of(const std::string& xml) {
  try {
    (void)mjcf::load<double>(xml);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

}  // namespace treedyn::test
