// MJCF attribute values (mjcf.hpp, step L2): an element's attribute, else its default class's; numbers
// parsed straight into the model's Scalar (parse_number: strtof / strtod / strtold for the built-in types,
// the type's own string constructor otherwise, e.g. Boost.Multiprecision), so a long double or 50-digit load
// keeps every digit the file gives (docs/mjcf.md#numbers); every one finite and the count the attribute needs;
// every error names the file, the line (tinyxml2's GetLineNum) and the element (docs/mjcf.md#errors).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <tinyxml2.h>

namespace treedyn::mjcf::detail {

/// The number spelled by the whole of `token` in Scalar, rounded once from the decimal text; nullopt when the
/// token is not one decimal number (digits, sign, point, exponent: no hexadecimal, inf or nan, in any Scalar)
/// or its value is not finite in Scalar or outside long double's range. A built-in type reads it with its own
/// strtof / strtod / strtold; a Scalar with a string constructor (Boost.Multiprecision) with that, after
/// strtold has checked the spelling; any other Scalar is rounded from strtold's long double.
template <class Scalar>
std::optional<Scalar> parse_number(const std::string& token) {
  if (token.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;
  const char* const begin = token.c_str();
  const char* const end = begin + token.size();
  char* stop = nullptr;
  errno = 0;
  Scalar x(0);
  if constexpr (std::is_same_v<Scalar, float>) x = std::strtof(begin, &stop);
  else if constexpr (std::is_same_v<Scalar, double>) x = std::strtod(begin, &stop);
  else {
    const long double spelled = std::strtold(begin, &stop);
    if constexpr (!std::is_constructible_v<Scalar, const char*>) {
      x = Scalar(spelled);  // long double, and any type without a string constructor: rounded from long double
    } else {
      if (stop == end && !token.empty() && errno != ERANGE) {
        try {
          x = Scalar(begin);
        } catch (const std::exception&) {  // a spelling strtold takes and the type does not
          return std::nullopt;
        }
      }
    }
  }
  if (token.empty() || stop != end || errno == ERANGE || !(x * Scalar(0) == Scalar(0))) return std::nullopt;
  return x;
}

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

  /// The numbers of the attribute in Scalar (parse_number); between min_count and max_count of them, each
  /// finite. An absent attribute gives none when min_count is 0 and fails otherwise.
  template <class Scalar>
  [[nodiscard]] std::vector<Scalar> numbers(const char* name, std::size_t min_count, std::size_t max_count) const {
    const std::optional<std::string> t = text(name);
    if (!t) {
      if (min_count > 0) fail(std::string("attribute ") + name + " is missing");
      return {};
    }
    return numbers_in<Scalar>(name, *t, min_count, max_count);
  }
  /// Exactly n numbers, or those of the text `fallback` (a MuJoCo default, parsed in Scalar as if the file
  /// gave it) when the attribute is absent.
  template <class Scalar>
  [[nodiscard]] std::vector<Scalar> numbers_or(const char* name, std::size_t n, const char* fallback) const {
    return numbers_in<Scalar>(name, text_or(name, fallback), n, n);
  }
  /// One number, or `fallback` when absent.
  template <class Scalar>
  [[nodiscard]] Scalar number_or(const char* name, const Scalar& fallback) const {
    return has(name) ? numbers<Scalar>(name, 1, 1)[0] : fallback;
  }
  /// The numbers of the text `text_of` of attribute `name`: between min_count and max_count of them, each finite.
  template <class Scalar>
  [[nodiscard]] std::vector<Scalar> numbers_in(const char* name, const std::string& text_of, std::size_t min_count,
                                               std::size_t max_count) const {
    std::vector<Scalar> out;
    std::size_t k = 0;
    while (true) {
      k = text_of.find_first_not_of(" \t\n\r", k);
      if (k == std::string::npos) break;
      const std::size_t stop = std::min(text_of.find_first_of(" \t\n\r", k), text_of.size());
      const std::optional<Scalar> x = parse_number<Scalar>(text_of.substr(k, stop - k));
      if (!x) fail(std::string("attribute ") + name + "=\"" + text_of + "\": malformed or non-finite number");
      out.push_back(*x);
      k = stop;
    }
    if (out.size() < min_count || out.size() > max_count)
      fail(std::string("attribute ") + name + "=\"" + text_of + "\": " + std::to_string(out.size()) + " numbers, expected " +
           (min_count == max_count ? std::to_string(min_count)
                                   : std::to_string(min_count) + " to " + std::to_string(max_count)));
    return out;
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
