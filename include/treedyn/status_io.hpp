// Printing a Status: to_string and operator<< (docs/errors.md#statuses). Set-up and logging only: to_string
// allocates; a hot path that must report without allocating reads the fields or code_name() itself.
#pragma once

#include <ostream>
#include <string>

#include "treedyn/status.hpp"

namespace treedyn {

/// One line naming what failed and where, e.g. "non_positive_pivot at body 6 (aba)", "success",
/// "non_finite_input in qd at entry 3 (aba)".
[[nodiscard]] inline std::string to_string(const Status& s) {
  std::string text = code_name(s.code);
  if (s.ok()) return text;
  if (s.argument != nullptr) text += std::string(" in ") + s.argument;
  if (s.row >= 0) {
    const char* at = s.index == Status::Index::body ? " at body " : s.index == Status::Index::entry ? " at entry " : " at row ";
    text += at + std::to_string(s.row);
  }
  if (s.call != nullptr) text += std::string(" (") + s.call + ")";
  return text;
}

inline std::ostream& operator<<(std::ostream& out, const Status& s) { return out << to_string(s); }

}  // namespace treedyn
