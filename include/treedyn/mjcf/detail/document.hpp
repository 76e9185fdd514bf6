// The MJCF document (mjcf.hpp, steps L1–L2): the text read and parsed by tinyxml2, `<include file>` spliced
// in where it stands (a missing file and a cycle of includes are errors naming the including element),
// `<compiler>`, `<option gravity>` and the `<default>` classes with their nesting (docs/mjcf.md#what-is-read).
#pragma once

#include <filesystem>
#include <fstream>
#include <list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "treedyn/mjcf/detail/orientation.hpp"
#include "treedyn/mjcf/detail/xml_values.hpp"
#include "treedyn/mjcf/load_types.hpp"

namespace treedyn::mjcf::detail {

/// A default class: element type (joint, geom, site, …) → its attributes.
using DefaultClass = std::map<std::string, Attributes>;

/// The parsed file and its includes, with what the top-level elements say.
struct Document {
  std::list<tinyxml2::XMLDocument> documents;  // stable addresses: elements point into them
  Files files;
  std::string source;                          // the main file, or "<string>"
  std::string directory;                       // where include paths start ("" for a string: the working directory)
  Compiler compiler;
  const tinyxml2::XMLElement* gravity = nullptr;  // the last `<option>` with a gravity (parsed in Scalar by gravity())
  const tinyxml2::XMLElement* boundmass = nullptr;     // the last `<compiler>` with a boundmass (parsed in Scalar by
  const tinyxml2::XMLElement* boundinertia = nullptr;  // bound()), and with a boundinertia
  std::map<std::string, DefaultClass> classes;  // "main" and every named class
  std::vector<const tinyxml2::XMLElement*> worldbodies;
  std::vector<const tinyxml2::XMLElement*> equalities;  // the `<equality>` elements (detail/equality.hpp)
  std::vector<std::string> include_stack;       // the files being read, for the cycle check
};

/// The text of the regular file at `path` (not a directory, device or pipe, which could block or never end).
inline std::string read_text(const std::string& path, const std::string& who) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::invalid_argument("treedyn::mjcf: " + who + "cannot open file '" + path + "' (not a regular file)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("treedyn::mjcf: " + who + "cannot open file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Parses `text` as one more document of `doc`, named `file`; returns its `<mujoco>` root.
inline const tinyxml2::XMLElement* parse(Document& doc, const std::string& text, const std::string& file) {
  tinyxml2::XMLDocument& d = doc.documents.emplace_back();
  doc.files[&d] = file;
  if (d.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
    fail(file, std::string("malformed XML at line ") + std::to_string(d.ErrorLineNum()) + ": " + d.ErrorStr());
  const tinyxml2::XMLElement* root = d.RootElement();
  if (root == nullptr || std::string(root->Name()) != "mujoco") fail(file, "no <mujoco> root element");
  return root;
}

/// Calls f(child) for every child element of `parent`, in order, with each `<include file>` replaced by the
/// children of its file's `<mujoco>` root.
template <class F>
void for_each_child(Document& doc, const tinyxml2::XMLElement* parent, F&& f) {
  for (const tinyxml2::XMLElement* c = parent->FirstChildElement(); c != nullptr; c = c->NextSiblingElement()) {
    if (std::string(c->Name()) != "include") {
      f(c);
      continue;
    }
    const char* name = c->Attribute("file");
    if (name == nullptr || *name == '\0') fail_at(doc.files, c, "no file attribute");
    const std::string path = (std::string(name).front() == '/' || doc.directory.empty()) ? name : doc.directory + "/" + name;
    for (const std::string& open : doc.include_stack)
      if (open == path) fail_at(doc.files, c, "include cycle: '" + path + "' is already being read");
    std::string text;
    try {
      text = read_text(path, "");
    } catch (const std::invalid_argument&) {
      fail_at(doc.files, c, "included file '" + path + "' cannot be opened");
    }
    doc.include_stack.push_back(path);
    for_each_child(doc, parse(doc, text, path), f);
    doc.include_stack.pop_back();
  }
}

/// `<default>` (class `name`, inheriting `inherited`): its element tables, then its nested classes.
inline void read_default(Document& doc, const tinyxml2::XMLElement* e, const DefaultClass& inherited) {
  const char* cls = e->Attribute("class");
  const std::string name = cls ? cls : "main";
  if (doc.classes.count(name) != 0) fail_at(doc.files, e, "duplicate default class '" + name + "'");
  DefaultClass table = inherited;
  std::vector<const tinyxml2::XMLElement*> nested;
  for_each_child(doc, e, [&](const tinyxml2::XMLElement* c) {
    if (std::string(c->Name()) == "default") {
      nested.push_back(c);
      return;
    }
    Attributes& a = table[c->Name()];
    for (const tinyxml2::XMLAttribute* x = c->FirstAttribute(); x != nullptr; x = x->Next()) a[x->Name()] = x->Value();
  });
  doc.classes[name] = table;
  for (const tinyxml2::XMLElement* n : nested) read_default(doc, n, table);
}

/// `<compiler>`: angle, eulerseq, autolimits, inertiafromgeom, boundmass, boundinertia, balanceinertia read;
/// coordinate="global" refused; settotalmass reported ignored.
inline void read_compiler(Document& doc, const tinyxml2::XMLElement* x, LoadReport& report) {
  const Element e{x, nullptr, &doc.files};
  Compiler& c = doc.compiler;
  c.degrees = e.keyword_or("angle", {"degree", "radian"}, c.degrees ? "degree" : "radian") == "degree";
  c.eulerseq = e.text_or("eulerseq", c.eulerseq);
  c.autolimits = e.keyword_or("autolimits", {"true", "false"}, c.autolimits ? "true" : "false") == "true";
  c.inertiafromgeom = e.keyword_or("inertiafromgeom", {"auto", "true", "false"}, c.inertiafromgeom);
  if (e.text_or("coordinate", "local") != "local") e.fail("coordinate=\"global\" is not read (local only)");
  if (e.has("boundmass")) doc.boundmass = x;
  if (e.has("boundinertia")) doc.boundinertia = x;
  c.balanceinertia = e.keyword_or("balanceinertia", {"true", "false"}, c.balanceinertia ? "true" : "false") == "true";
  if (e.has("settotalmass"))
    report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::ignored, "compiler",
                                            "settotalmass is not applied yet: masses are as in the file"});
}

/// L1–L2: the document of `text` (from `file`), its compiler, option, defaults and worldbody elements.
inline void read_document(Document& doc, const std::string& text, LoadReport& report) {
  const tinyxml2::XMLElement* root = parse(doc, text, doc.source);
  std::vector<const tinyxml2::XMLElement*> defaults;
  for_each_child(doc, root, [&](const tinyxml2::XMLElement* c) {
    const std::string name = c->Name();
    if (name == "compiler") read_compiler(doc, c, report);
    else if (name == "option") {
      if (c->Attribute("gravity")) doc.gravity = c;
    } else if (name == "default") defaults.push_back(c);
    else if (name == "worldbody") doc.worldbodies.push_back(c);
    else if (name == "equality") doc.equalities.push_back(c);
    else if (name != "asset" && name != "visual" && name != "statistic" && name != "size")
      report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::ignored, where(doc.files, c), "not read (a later slice)"});
  });
  doc.classes["main"] = {};
  bool main_seen = false;
  for (const tinyxml2::XMLElement* d : defaults) {
    if (d->Attribute("class") == nullptr && !main_seen) {
      doc.classes.erase("main");
      main_seen = true;
    }
    read_default(doc, d, d->Attribute("class") ? doc.classes.at("main") : DefaultClass{});
  }
}

/// `<compiler boundmass>` or `boundinertia` (`name`) in Scalar, 0 when no `<compiler>` gives it (a negative
/// one bounds nothing, as in MuJoCo 2.2.2, which accepts it).
template <class Scalar>
Scalar bound(const Document& doc, const char* name) {
  const tinyxml2::XMLElement* x = std::string(name) == "boundmass" ? doc.boundmass : doc.boundinertia;
  if (x == nullptr) return Scalar(0);
  return Element{x, nullptr, &doc.files}.numbers<Scalar>(name, 1, 1)[0];
}

/// `<option gravity>` in Scalar, MuJoCo's (0, 0, −9.81) when no `<option>` gives it.
template <class Scalar>
Vector3<Scalar> gravity(const Document& doc) {
  if (doc.gravity == nullptr) return Vector3<Scalar>(Scalar(0), Scalar(0), Scalar(-981) / Scalar(100));
  return vec3(Element{doc.gravity, nullptr, &doc.files}.numbers<Scalar>("gravity", 3, 3));
}

}  // namespace treedyn::mjcf::detail
