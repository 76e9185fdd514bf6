// The demo's text helpers and the branch-induced pattern of H (declared in demo.hpp).
#include <cstdarg>
#include <cstdio>
#include <string>

#include <treedyn/topology/topology.hpp>

#include "demo.hpp"

namespace demo {

BoolMatrix branch_pattern(const ParentArray& lambda) {
  const int n = static_cast<int>(lambda.size());
  BoolMatrix pattern = BoolMatrix::Constant(n, n, false);
  for (int i = 0; i < n; ++i) {
    for (const int j : treedyn::path_to_root(lambda, i)) {
      pattern(i, j) = true;
      pattern(j, i) = true;
    }
  }
  return pattern;
}

void print_pattern(const BoolMatrix& pattern) {
  for (Eigen::Index i = 0; i < pattern.rows(); ++i) {
    std::string line = "    ";
    for (Eigen::Index j = 0; j < pattern.cols(); ++j) {
      line += pattern(i, j) ? 'x' : '.';
      if (j + 1 < pattern.cols()) line += ' ';
    }
    std::printf("%s\n", line.c_str());
  }
}

[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string out(static_cast<std::size_t>(size > 0 ? size : 0) + 1, '\0');
  std::vsnprintf(&out[0], out.size(), fmt, again);
  va_end(again);
  out.pop_back();
  return out;
}

// Prints text as a bullet ("- " then "  " on continuation lines), wrapped at 100 columns.
void print_bullet(const std::string& text) {
  std::string line = "-";
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t next = text.find(' ', pos);
    if (next == std::string::npos) next = text.size();
    const std::string word = text.substr(pos, next - pos);
    if (line.size() + 1 + word.size() > 100) {
      std::printf("%s\n", line.c_str());
      line = " ";
    }
    line += " " + word;
    pos = next + 1;
  }
  std::printf("%s\n", line.c_str());
}

}  // namespace demo
