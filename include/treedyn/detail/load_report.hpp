// What a model loader's report is made of (mjcf/load_types.hpp and urdf/load_types.hpp derive their LoadReport
// from ReportBase): counting the diagnostics of one kind, and the report's lines as one text. Setup code;
// allocates.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace treedyn::detail {

/// How many of `diagnostics` have kind `kind`.
template <class Diagnostic, class Kind>
std::size_t count_kind(const std::vector<Diagnostic>& diagnostics, Kind kind) noexcept {
  return static_cast<std::size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(), [kind](const Diagnostic& d) { return d.kind == kind; }));
}

/// The lines, each ended by a newline.
inline std::string joined_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

/// A load report's data: the source (a file, or "<string>") and the diagnostics in the order they were met;
/// Report (the derived type) says in lines() how they read.
template <class Report, class Diagnostic>
struct ReportBase {
  std::string source;
  std::vector<Diagnostic> diagnostics;

  [[nodiscard]] std::size_t count(typename Diagnostic::Kind kind) const noexcept {
    return count_kind(diagnostics, kind);
  }
  /// The report's lines, each ended by a newline.
  [[nodiscard]] std::string to_string() const { return joined_lines(static_cast<const Report&>(*this).lines()); }
};

}  // namespace treedyn::detail
