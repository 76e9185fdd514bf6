// Printing a Status: to_string and operator<< (docs/errors.md#statuses). Set-up and logging only: to_string
// allocates; a hot path that must report without allocating reads the fields or code_name() itself.
#pragma once

#include <ostream>
#include <string>

#include "treedyn/status.hpp"

namespace treedyn {

/// One line naming what failed and where, e.g. "non_positive_pivot at body 6 (aba)", "success".
[[nodiscard]] inline std::string to_string(const Status& s) {
  std::string text = code_name(s.code);
  if (s.ok()) return text;
  if (s.row >= 0) text += (s.names_body() ? " at body " : " at row ") + std::to_string(s.row);
  if (s.call != nullptr) text += std::string(" (") + s.call + ")";
  return text;
}

inline std::ostream& operator<<(std::ostream& out, const Status& s) { return out << to_string(s); }

}  // namespace treedyn
