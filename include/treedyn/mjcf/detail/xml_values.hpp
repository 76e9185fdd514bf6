// MJCF attribute values (mjcf.hpp, step L2): an element's attribute, else its default class's; numbers
// parsed with strtod (binary64), every one finite and the count the attribute needs; every error names the
// file, the line (tinyxml2's GetLineNum) and the element (docs/mjcf.md#errors).
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <tinyxml2.h>

namespace treedyn::mjcf::detail {

/// An attribute table: name → text (a default class's entries for one element type).
using Attributes = std::map<std::string, std::string>;

/// Which file each parsed document came from (an `<include>` brings its own document).
using Files = std::map<const tinyxml2::XMLDocument*, std::string>;

[[noreturn]] inline void fail(const std::string& file, const std::string& what) {
  throw std::invalid_argument("treedyn::mjcf: " + file + ": " + what);
}

/// "file:line: <joint> 'name'" for the element e.
inline std::string where(const Files& files, const tinyxml2::XMLElement* e) {
  const auto f = files.find(e->GetDocument());
  std::string out = (f == files.end() ? std::string("<string>") : f->second) + ":" + std::to_string(e->GetLineNum()) +
                    ": <" + e->Name() + ">";
  if (const char* name = e->Attribute("name")) out += std::string(" '") + name + "'";
  return out;
}

[[noreturn]] inline void fail_at(const Files& files, const tinyxml2::XMLElement* e, const std::string& why) {
  throw std::invalid_argument("treedyn::mjcf: " + where(files, e) + ": " + why);
}

/// An element with the default-class attributes that apply to it.
struct Element {
  const tinyxml2::XMLElement* xml = nullptr;
  const Attributes* defaults = nullptr;  ///< null: none (body, inertial, freejoint)
  const Files* files = nullptr;

  /// The attribute's text from the element, else from its default class; empty when neither has it.
  [[nodiscard]] std::optional<std::string> text(const char* name) const {
    if (const char* own = xml->Attribute(name)) return std::string(own);
    if (defaults != nullptr)
      if (const auto d = defaults->find(name); d != defaults->end()) return d->second;
    return std::nullopt;
  }
  [[nodiscard]] bool has(const char* name) const { return text(name).has_value(); }
  [[nodiscard]] std::string text_or(const char* name, const std::string& fallback) const {
    return text(name).value_or(fallback);
  }
  [[noreturn]] void fail(const std::string& why) const { fail_at(*files, xml, why); }

  /// The numbers of the attribute; between min_count and max_count of them, each finite. An absent attribute
  /// gives none when min_count is 0 and fails otherwise.
  [[nodiscard]] std::vector<double> numbers(const char* name, std::size_t min_count, std::size_t max_count) const {
    const std::optional<std::string> t = text(name);
    std::vector<double> out;
    if (!t) {
      if (min_count > 0) fail(std::string("attribute ") + name + " is missing");
      return out;
    }
    const char* p = t->c_str();
    while (true) {
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
      if (*p == '\0') break;
      char* end = nullptr;
      errno = 0;
      const double x = std::strtod(p, &end);
      const bool separated = end != p && (*end == '\0' || *end == ' ' || *end == '\t' || *end == '\n' || *end == '\r');
      if (!separated || !std::isfinite(x) || errno == ERANGE)
        fail(std::string("attribute ") + name + "=\"" + *t + "\": malformed or non-finite number");
      out.push_back(x);
      p = end;
    }
    if (out.size() < min_count || out.size() > max_count)
      fail(std::string("attribute ") + name + "=\"" + *t + "\": " + std::to_string(out.size()) + " numbers, expected " +
           (min_count == max_count ? std::to_string(min_count)
                                   : std::to_string(min_count) + " to " + std::to_string(max_count)));
    return out;
  }
  /// Exactly n numbers, or `fallback` when the attribute is absent.
  [[nodiscard]] std::vector<double> numbers_or(const char* name, std::size_t n, std::vector<double> fallback) const {
    return has(name) ? numbers(name, n, n) : fallback;
  }
  /// One number, or `fallback` when absent.
  [[nodiscard]] double number_or(const char* name, double fallback) const {
    return has(name) ? numbers(name, 1, 1)[0] : fallback;
  }
  /// One of `choices`, or `fallback` when absent.
  [[nodiscard]] std::string keyword_or(const char* name, const std::vector<std::string>& choices,
                                       const std::string& fallback) const {
    const std::string t = text_or(name, fallback);
    for (const std::string& c : choices)
      if (t == c) return t;
    std::string list;
    for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
    fail(std::string("attribute ") + name + "=\"" + t + "\": not one of " + list);
  }
};

}  // namespace treedyn::mjcf::detail
