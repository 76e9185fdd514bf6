// A check handler (treedyn/detail/check.hpp) that records each failure and returns, for the tests of
// the "handler returns" contract: the failing call must return at once with its outputs untouched.
#pragma once

#include <vector>

#include "treedyn/detail/check.hpp"

namespace treedyn::test {

/// Installs the recording handler for one scope (the previous handler comes back at its end).
struct Recorder {
  static inline std::vector<CheckFailure> seen;
  static void record(const CheckFailure& f) { seen.push_back(f); }
  CheckHandler previous;
  Recorder() : previous(set_check_handler(&Recorder::record)) { seen.clear(); }
  ~Recorder() { set_check_handler(previous); }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
};

}  // namespace treedyn::test
