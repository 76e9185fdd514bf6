// Reading a URDF document, steps P1–P3 of urdf/build_model.hpp: the text (UTF-8 and nesting checks, the
// file), the XML structure (links, joints, parents, loops, the root; TinyXML) and urdfdom's parse with its
// log captured (the URDF specification's <robot>, <link>, <joint>, <parent>, <child>; docs/references.md).
// Errors are std::invalid_argument through detail::fail, naming the source; set-up only (allocates).
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include "treedyn/urdf/load_types.hpp"

namespace treedyn::urdf {

namespace detail {

/// Deepest element nesting accepted (P1): TinyXML parses recursively, so deeper input could exhaust the stack.
constexpr int max_nesting = 512;

/// Thrown for every rejected input; the message is complete.
[[noreturn]] inline void fail(const std::string& source, const std::string& what) {
  throw std::invalid_argument("treedyn::urdf: " + source + ": " + what);
}

/// Collects console_bridge messages while alive (urdfdom reports parse errors only through its log).
class LogCapture final : public console_bridge::OutputHandler {
 public:
  LogCapture() : level_(console_bridge::getLogLevel()) {
    console_bridge::useOutputHandler(this);
    if (level_ > console_bridge::CONSOLE_BRIDGE_LOG_WARN) console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_WARN);
  }
  ~LogCapture() override {
    console_bridge::restorePreviousOutputHandler();
    console_bridge::setLogLevel(level_);
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level < console_bridge::CONSOLE_BRIDGE_LOG_ERROR) return;
    if (!errors_.empty()) errors_ += "; ";
    errors_ += text;
  }
  /// The errors logged, joined by "; " (empty when none).
  [[nodiscard]] const std::string& errors() const noexcept { return errors_; }

 private:
  console_bridge::LogLevel level_;
  std::string errors_;
};

/// P1: an upper bound on the element nesting depth, from one linear scan ('<x' opens, '</' and '/>' close).
inline int nesting_bound(const std::string& xml) noexcept {
  int depth = 0, deepest = 0;
  for (std::size_t k = 0; k + 1 < xml.size(); ++k) {
    if (xml[k] == '<' && xml[k + 1] != '/' && xml[k + 1] != '?' && xml[k + 1] != '!') deepest = std::max(deepest, ++depth);
    if ((xml[k] == '<' && xml[k + 1] == '/') || (xml[k] == '/' && xml[k + 1] == '>')) depth = std::max(0, depth - 1);
  }
  return deepest;
}

/// P1: the byte offset of the first byte that does not belong to well-formed UTF-8 (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF), or of the first NUL (XML 1.0 allows no U+0000); npos if
/// the text is clean.
inline std::size_t first_invalid_utf8(const std::string& text) noexcept {
  const auto byte = [&text](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  std::size_t k = 0;
  while (k < text.size()) {
    const unsigned char lead = byte(k);
    if (lead == 0) return k;
    if (lead < 0x80) { ++k; continue; }
    // the sequence's length and the range its second byte must lie in (the rest are 0x80–0xBF)
    std::size_t length = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) lo = 0xA0;  // no overlong form
      if (lead == 0xED) hi = 0x9F;  // no surrogate
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) lo = 0x90;  // no overlong form
      if (lead == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return k;  // a continuation byte without a lead, C0/C1 (overlong) or F5–FF
    }
    if (text.size() - k < length) return k;  // truncated at the end of the text
    if (byte(k + 1) < lo || byte(k + 1) > hi) return k;
    for (std::size_t c = 2; c < length; ++c)
      if (byte(k + c) < 0x80 || byte(k + c) > 0xBF) return k;
    k += length;
  }
  return std::string::npos;
}

/// One URDF joint as written in the file (P2).
struct JointEntry {
  std::string name, parent, child;
};

/// P2: the document's structure, checked: links, joints in document order, the root link.
struct Structure {
  std::vector<std::string> links;                    // document order
  std::vector<JointEntry> joints;                    // document order
  std::map<std::string, int> parent_joint;           // link → the joint whose child it is
  std::map<std::string, std::vector<int>> children;  // link → joints whose parent it is (document order)
  std::string root;
};

inline const char* attribute_or_empty(const TiXmlElement* e, const char* name) {
  const char* a = e->Attribute(name);
  return a ? a : "";
}

/// P2: a '%' is refused in every attribute but a file name: urdfdom would pass it to printf as a format
/// when it reports the value (a name, a malformed number). Depth-first in document order, so the first
/// offending attribute is named; iterative, so deep documents cannot overflow the stack.
inline void reject_percent_outside_file_names(const TiXmlElement* root, const std::string& source) {
  std::vector<const TiXmlElement*> pending{root};
  while (!pending.empty()) {
    const TiXmlElement* e = pending.back();
    pending.pop_back();
    for (const TiXmlAttribute* a = e->FirstAttribute(); a; a = a->Next())
      if (std::string(a->Value()).find('%') != std::string::npos && std::string(a->Name()) != "filename")
        fail(source, std::string("<") + e->Value() + "> attribute '" + a->Name() + "' = '" + a->Value() +
                         "': a '%' is not accepted outside file names");
    const std::size_t first_child = pending.size();  // children pushed last-first: popped in document order
    for (const TiXmlElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) pending.push_back(c);
    std::reverse(pending.begin() + static_cast<std::ptrdiff_t>(first_child), pending.end());
  }
}

inline Structure read_structure(const std::string& xml, const std::string& source, MimicPolicy mimic) {
  // P1
  if (const std::size_t at = first_invalid_utf8(xml); at != std::string::npos)
    fail(source, "malformed XML: not UTF-8 text (a NUL or an invalid UTF-8 sequence at byte " + std::to_string(at) +
                     ")");
  if (nesting_bound(xml) > max_nesting)
    fail(source, "malformed XML: elements nested deeper than " + std::to_string(max_nesting) + " levels");
  // P2
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  if (doc.Error())
    fail(source, std::string("malformed XML: ") + doc.ErrorDesc() + " (line " + std::to_string(doc.ErrorRow()) +
                     ", column " + std::to_string(doc.ErrorCol()) + ")");
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (!robot) fail(source, "no <robot> element");
  reject_percent_outside_file_names(robot, source);
  Structure s;
  std::set<std::string> link_set, joint_set;
  for (const TiXmlElement* l = robot->FirstChildElement("link"); l; l = l->NextSiblingElement("link")) {
    const std::string name = attribute_or_empty(l, "name");
    if (name.empty()) fail(source, "a <link> without a name");
    if (!link_set.insert(name).second) fail(source, "link '" + name + "': duplicate link name");
    s.links.push_back(name);
  }
  if (s.links.empty()) fail(source, "the robot has no <link>");
  for (const TiXmlElement* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    JointEntry e;
    e.name = attribute_or_empty(j, "name");
    if (e.name.empty()) fail(source, "a <joint> without a name");
    const std::string who = "joint '" + e.name + "': ";
    if (!joint_set.insert(e.name).second) fail(source, who + "duplicate joint name");
    const TiXmlElement* parent = j->FirstChildElement("parent");
    const TiXmlElement* child = j->FirstChildElement("child");
    if (!parent || !child) fail(source, who + "missing <parent> or <child>");
    e.parent = attribute_or_empty(parent, "link");
    e.child = attribute_or_empty(child, "link");
    if (!link_set.count(e.parent)) fail(source, who + "parent link '" + e.parent + "' does not exist");
    if (!link_set.count(e.child)) fail(source, who + "child link '" + e.child + "' does not exist");
    if (mimic == MimicPolicy::reject && j->FirstChildElement("mimic"))
      fail(source, who + "mimic joints are not supported (treedyn has no coupled joints; Options::mimic is reject)");
    const auto previous = s.parent_joint.find(e.child);
    if (previous != s.parent_joint.end())
      fail(source, who + "closed kinematic loop: link '" + e.child + "' is already the child of joint '" +
                       s.joints[static_cast<std::size_t>(previous->second)].name + "' (treedyn models trees only)");
    const int index = static_cast<int>(s.joints.size());
    s.parent_joint[e.child] = index;
    s.children[e.parent].push_back(index);
    s.joints.push_back(std::move(e));
  }
  // loops: with one parent joint per link, a cycle is a chain of parents that comes back to itself
  std::map<std::string, int> state;  // 0 unseen, 1 on the current chain, 2 leads to a root
  for (const std::string& start : s.links) {
    std::string link = start;
    while (state[link] == 0) {
      state[link] = 1;
      const auto up = s.parent_joint.find(link);
      if (up == s.parent_joint.end()) break;
      link = s.joints[static_cast<std::size_t>(up->second)].parent;
      if (state[link] == 1)
        fail(source, "joint '" + s.joints[static_cast<std::size_t>(up->second)].name +
                         "': closed kinematic loop through link '" + link + "' (treedyn models trees only)");
    }
    for (link = start; state[link] == 1;) {
      state[link] = 2;
      const auto up = s.parent_joint.find(link);
      if (up == s.parent_joint.end()) break;
      link = s.joints[static_cast<std::size_t>(up->second)].parent;
    }
  }
  std::vector<std::string> roots;
  for (const std::string& l : s.links)
    if (!s.parent_joint.count(l)) roots.push_back(l);
  if (roots.empty()) fail(source, "no root link (every link is the child of a joint)");
  if (roots.size() > 1)
    fail(source, "link '" + roots.at(1) + "': a second root link besides '" + roots.at(0) +
                     "' (every link but one must be the child of a joint)");
  s.root = roots.front();
  return s;
}

/// P3: urdfdom's model. urdfdom logs some errors and carries on (a malformed <inertial> is dropped, the
/// link left massless), so any error it logs rejects the input, with the log as the message.
inline ::urdf::ModelInterfaceSharedPtr parse_elements(const std::string& xml, const std::string& source) {
  ::urdf::ModelInterfaceSharedPtr model;
  std::string errors;
  // urdfdom builds some log messages from the file's text and hands them to console_bridge as printf
  // formats, so it must never see a '%'. read_structure admitted '%' only in file names (meshes), which
  // treedyn does not read: urdfdom parses a copy with those replaced.
  std::string text = xml;
  std::replace(text.begin(), text.end(), '%', '_');
  try {
    LogCapture capture;
    model = ::urdf::parseURDF(text);
    errors = capture.errors();
  } catch (const std::exception& e) {
    fail(source, std::string("urdfdom: ") + e.what());
  }
  if (!errors.empty()) fail(source, "urdfdom: " + errors);
  if (!model) fail(source, "urdfdom could not parse the robot (no reason given)");
  return model;
}

/// P1: the file's text. The message says why a file cannot be read: no name, no such file, a directory.
inline std::string read_file(const std::string& path) {
  if (path.find_first_not_of(" \t\r\n") == std::string::npos)
    throw std::invalid_argument("treedyn::urdf: no file name given (load takes a URDF file's path or URDF text)");
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) fail(path, "no such file");
  if (status.type() == std::filesystem::file_type::directory) fail(path, "is a directory, not a URDF file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file" + (error ? " (" + error.message() + ")" : std::string(" (no permission to read it?)")));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail(path, "cannot read the file");
  return text.str();
}

}  // namespace detail
}  // namespace treedyn::urdf
