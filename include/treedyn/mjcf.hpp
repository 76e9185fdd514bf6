// treedyn::mjcf::load: a treedyn Model from a MuJoCo MJCF model file, parsed with tinyxml2.
//
// Reference: the MJCF reference of MuJoCo 2.2.2 (mujoco.readthedocs.io, "XML Reference": <compiler>,
// <option>, <default>, <worldbody>, <body>, <inertial>, <joint>, <freejoint>, <geom>, <site>, <include>),
// read through tinyxml2 (Debian libtinyxml2-dev). Optional component: usable only when linking the CMake
// target treedyn::mjcf (which exists only when tinyxml2 was found); the core stays header-only.
// What is read, what is refused and the coordinate map: docs/mjcf.md#what-is-read.
//
// Contract
//   load<Scalar>(path_or_xml, options) -> Loaded<Scalar>{model, joints, sites, equalities, report}. The argument is
//   MJCF text when its first non-blank character is '<', a file path otherwise (load_from_file /
//   _from_string say which). q and v are MuJoCo's qpos and qvel in MuJoCo's joint order, with treedyn's conventions: a
//   quaternion is stored (x, y, z, w); a free joint's velocity is [ω_body; v_body] (MuJoCo: [ṗ_world;
//   ω_body]); a hinge or slide's ref is folded into the tree transform, so q equals qpos. Joints keep their
//   MJCF names (an unnamed one: its body's name), every named body and site is a named frame (a site named like a body:
//   "site:<name>", found by Loaded::site(name); docs/mjcf.md#sites); Loaded::joints
//   holds each joint's qpos / qvel address, range, ref, armature and damping (armature and damping are not in
//   treedyn's H or bias). Gravity: `<option gravity>`. Numbers are parsed from their decimal text straight
//   into Scalar (docs/mjcf.md#numbers); frames, inertias and geom inertias are then computed in Scalar.
//   Errors: std::invalid_argument starting "treedyn::mjcf: <file>" and, for an element, ":<line>: <element>
//   'name': " and the reason: no such file, malformed XML, no <mujoco>, an unknown joint type or keyword, a
//   malformed or non-finite number or the wrong count of them, a zero axis or quaternion, a joint with a
//   range and no limited under autolimits="false" (MuJoCo 2.2.2's default, which refuses it too;
//   docs/mjcf.md#limits), an unknown default class, a free joint not alone in a top-level body, an include
//   that cannot be opened or that includes itself, a body whose pivot would vanish for want of mass (a
//   massless moving leaf, or a massless body whose descendants do not span its joint's motions), what the ModelBuilder refuses (duplicate names,
//   unphysical inertias), principal moments violating A + B ≥ C as MuJoCo 2.2.2 refuses them
//   (docs/mjcf.md#principal-moments; averaged instead under `<compiler balanceinertia="true">`), and an equality naming an unknown body or joint or coupling a ball or free joint.
//   Loaded::equalities holds the `<equality>` constraints (connect, weld, joint) as records. Cost: O(elements · log elements) after parsing; allocates (setup only).
//
// Steps (labels used in the code)
//   L1  read the text (the file or the string)
//   L2  parse; splice `<include>`s; read `<compiler>`, `<option>`, `<default>` (detail/document.hpp)
//   L3  frames from pos and every orientation form (detail/orientation.hpp)
//   L4  walk the bodies, joints as treedyn bodies (detail/body_tree.hpp, detail/body_walk.hpp)
//   L5  inertias from `<inertial>` or primitive geoms (detail/geom_inertia.hpp)
//   L6  build; refuse bodies whose pivot would vanish (urdf/detail/massless_links.hpp's tests)
//   L7  the `<equality>` constraints as records beside the model (detail/equality.hpp)
#pragma once

#include <string>

#include "treedyn/mjcf/detail/body_walk.hpp"
#include "treedyn/mjcf/detail/document.hpp"
#include "treedyn/mjcf/detail/equality.hpp"
#include "treedyn/mjcf/load_types.hpp"
#include "treedyn/urdf/detail/massless_links.hpp"

namespace treedyn::mjcf {

namespace detail {

/// L6: a body whose pivot vanishes for want of mass is refused, naming its MJCF element.
template <class Scalar>
void refuse_massless(const TreeBuilder<Scalar>& t, const Model<Scalar>& model) {
  std::vector<int> bad = urdf::detail::pivotless_bodies(model);
  if (bad.empty())
    if (const int b = urdf::detail::massless_body_without_pivot_at_neutral(model); b >= 0) bad.push_back(b);
  if (bad.empty()) return;
  const std::string& name = model.name(bad.front());
  fail_at(t.doc.files, t.element_of.at(name),
          "body '" + name + "' has no mass where treedyn needs one: its joint's pivot would be zero (a moving body "
          "with nothing below it carrying inertia, or whose descendants do not span its joint's motions); give it an "
          "<inertial> or a geom");
}

template <class Scalar>
Loaded<Scalar> build(const std::string& text, const std::string& source, const std::string& directory) {
  Loaded<Scalar> out;
  out.report.source = source;
  Document doc;
  doc.source = source;
  doc.directory = directory;
  if (source != "<string>") doc.include_stack.push_back(source);
  read_document(doc, text, out.report);  // L2
  TreeBuilder<Scalar> t{doc, out, {}, 1, 0, 0, {}, bound<Scalar>(doc, "boundmass"), bound<Scalar>(doc, "boundinertia")};
  t.builder.set_gravity(gravity<Scalar>(doc));
  for (const tinyxml2::XMLElement* world : doc.worldbodies)  // L4
    for_each_child(doc, world, [&](const tinyxml2::XMLElement* c) {
      const std::string kind = c->Name();
      if (kind == "body") t.body(c, no_parent, Pose<Scalar>{}, "main", true);
      else if (kind == "site" && c->Attribute("name"))
        t.site(c, no_parent, "world", pose<Scalar>(Element{c, t.defaults(c, "main"), &doc.files}, doc.compiler));
    });
  t.add_sites();
  try {  // L6
    out.model = t.builder.build();
  } catch (const std::invalid_argument& error) {
    fail(source, error.what());
  }
  refuse_massless(t, out.model);
  read_equalities(t);  // L7
  return out;
}

inline bool is_text(const std::string& path_or_xml) noexcept {
  const std::size_t first = path_or_xml.find_first_not_of(" \t\r\n");
  return first != std::string::npos && path_or_xml[first] == '<';
}

}  // namespace detail

/// The model, the joint metadata and the load report from MJCF text; errors name "<string>" as the file;
/// `<include>` paths start in the working directory.
template <class Scalar>
[[nodiscard]] Loaded<Scalar> load_from_string(const std::string& xml, const Options& = {}) {
  return detail::build<Scalar>(xml, "<string>", "");
}

/// The model, the joint metadata and the load report from an MJCF file; `<include>` paths start in its folder.
template <class Scalar>
[[nodiscard]] Loaded<Scalar> load_from_file(const std::string& path, const Options& = {}) {
  if (path.empty()) detail::fail("<no file>", "no file name given");
  const std::size_t slash = path.find_last_of('/');
  return detail::build<Scalar>(detail::read_text(path, path + ": "), path,
                               slash == std::string::npos ? std::string() : path.substr(0, slash));
}

/// From MJCF text (first non-blank character '<') or from the file at that path.
template <class Scalar>
[[nodiscard]] Loaded<Scalar> load(const std::string& path_or_xml, const Options& options = {}) {
  return detail::is_text(path_or_xml) ? load_from_string<Scalar>(path_or_xml, options)
                                      : load_from_file<Scalar>(path_or_xml, options);
}

}  // namespace treedyn::mjcf
