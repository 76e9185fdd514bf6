// treedyn::urdf::build_model: a treedyn Model from a URDF robot description, parsed by urdfdom.
//
// Reference: the URDF specification (wiki.ros.org/urdf/XML: <robot>, <link>, <inertial>, <joint>,
// <origin>, <axis>, <limit>, <mimic>), read through urdfdom (Debian liburdfdom-dev); errors follow the
// library's rule (std::invalid_argument naming the element). Optional component: usable only when linking the
// CMake target treedyn::urdf (which exists only when urdfdom was found); the core stays header-only.
//
// Contract
//   load<Scalar>(path_or_xml, options) -> Loaded<Scalar>{model, mimics, report}; build_model<Scalar>(…) ->
//   its model alone. The argument is URDF text when its first non-blank character is '<', a file path
//   otherwise (load_from_file / _from_string and build_model_from_file / _from_string say which).
//   Bodies are the URDF links, in the file's joint order whenever it lists parents before children
//   (otherwise the earliest joint whose parent is placed comes next); body i's name is its link's name,
//   its joint's name is the URDF joint's name (model.body_index, model.joint_index, model.frame).
//   Joint types: revolute, continuous (revolute, unbounded), prismatic, about / along any axis; fixed
//   (merged into the parent body, the link kept as a named frame); floating (free flyer); planar (motion
//   in the plane normal to <axis>: see P4). options.floating_base puts a free flyer between the world and
//   the root link; otherwise the root link is fixed to the world. <limit> lower / upper / velocity /
//   effort are kept as model.limits(i) (continuous: no position limits). Gravity options.gravity
//   (default (0, 0, −9.81); Model::with_gravity changes it later).
//   Inertias (options.inertia, rules and repair in urdf/inertia_repair.hpp): repair (default) replaces a
//   link's Ī_C that is not positive semidefinite, breaks the triangle inequality, or is rank-deficient
//   with mass by the nearest valid one; strict lets the ModelBuilder reject what it rejects (the first two
//   rules) and keeps the rest, as before the policies existed; as_is keeps every number (the builder's
//   physical checks are off) and reports what repair would have changed. Negative mass is an error
//   under every policy.
//   Massless links (P6, urdf/detail/massless_links.hpp): a massless link on a moving joint with nothing
//   below it carrying inertia has a zero pivot, and so has a massless link on a joint of several DoFs whose
//   descendants do not span its motions (a floating base with one revolute child; found at the neutral
//   configuration); repair gives it √ε of the median link mass as an isotropic point mass at its origin,
//   strict refuses the file naming the link, as_is reports it.
//   Mimic joints (options.mimic): independent (default) loads the joint as an ordinary joint and returns
//   the relation in Loaded::mimics; a <mimic> naming a missing joint, or on or naming a joint without one
//   coordinate (fixed, …), is reported and skipped; reject refuses the file. The report (LoadReport::lines)
//   lists the repairs first (inertias, massless links), then inertias kept although unphysical, mimics
//   skipped and made independent, and one line for all the fixed links merged.
//   Unambiguous after `using namespace treedyn;` (urdfdom's global ::urdf): treedyn::load_urdf<Scalar>.
//   Numbers are read in binary64 by urdfdom, then rounded once to Scalar (no default Scalar: say which).
//   Errors: std::invalid_argument whose message starts "treedyn::urdf: <file or "<string>">: " and names
//   the element (link / joint) and the reason: no file name given, no such file, a directory, malformed XML, no <robot>, a joint whose
//   parent or child link does not exist, a duplicate name, a link that is the child of two joints or any
//   other kinematic loop, mimic joints under MimicPolicy::reject and a <mimic> naming its own joint,
//   unknown joint types, non-finite numbers (gravity included), a zero axis, invalid limits, negative
//   mass, and under strict the inertias the ModelBuilder rejects. Nothing else escapes: urdfdom's own parse errors (logged through console_bridge) are
//   captured and become the message. Not thread-safe while parsing: console_bridge's output handler is
//   process-wide and is swapped for the duration of the urdfdom call.
//   Cost: O(links · log links) after parsing; allocates (setup only, never in the hot algorithms).
//
// Steps (labels used in the code)
//   P1  read the text: the file (or the string itself); refuse text that is not UTF-8 (or holds a NUL) and
//       absurd nesting before any recursive parse: TinyXML trusts a UTF-8 lead byte's length and would
//       read past the end of a truncated sequence
//   P2  parse the XML; refuse '%' outside file names (urdfdom logs some values as printf formats); list
//       the joints in document order; check names, parents, children, loops, mimic (under reject)
//   P3  let urdfdom parse the elements (poses, inertials, axes, limits), capturing its log
//   P4  order the links (parents first, file order otherwise) and add one body per link:
//         joint frame J: URDF <origin> (xyz, rpy) is the pose of J in the parent link frame, so
//           ^J X_parent-link = (Rᵀ, xyz) with R = Rz(yaw) Ry(pitch) Rx(roll)    (transform_from)
//         X_T = ^J X_parent-link · ^parent-link X_parent-body
//         planar with axis n ≠ e_z: body frame B = J rotated by Q (Q e_z = n), so X_T ← (Qᵀ, 0) · X_T,
//           the link frame L sits at ^L X_B = (Q, 0) on the body (its named frame), its inertia is
//           re-expressed in B and its children are placed through ^L X_B
//         inertia: <inertial> (m, origin (c, R_I), Ī_C in the inertial frame) → (m, c, R_I Ī_C R_Iᵀ),
//           then options.inertia on (m, c, Ī_C) before the builder sees it
//   P5  build: fixed joints merge into their parent bodies; builder errors are re-thrown naming the file;
//       the mimic relations get the built model's joint indices
//   P6  massless links whose pivot would vanish: found on the built model, then under repair the model is
//       assembled again with their added inertia
#pragma once
// Parts: load_types.hpp (the policies, Options, LoadReport, MimicJoint, Loaded), detail/xml_reading.hpp
// (P1–P3), detail/element_conversion.hpp (P4 per element), all included here; assembly (P4–P5) and the
// public calls are below.
#pragma once

#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include <urdf_parser/urdf_parser.h>

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/urdf/detail/element_conversion.hpp"
#include "treedyn/urdf/detail/massless_links.hpp"
#include "treedyn/urdf/detail/xml_reading.hpp"
#include "treedyn/urdf/inertia_repair.hpp"
#include "treedyn/urdf/load_types.hpp"

namespace treedyn::urdf {

namespace detail {

/// P4–P5 on checked input.
/// P4: the report line of a fixed link merged into its parent.
inline Diagnostic merged_diagnostic(const JointEntry& e) {
  return Diagnostic{Diagnostic::Kind::fixed_link_merged, "link '" + e.child + "'",
                    "merged into link '" + e.parent + "' through fixed joint '" + e.name + "'; kept as a named frame",
                    InertiaFault::none, 0.0};
}

/// P5: the mimic relations get the built model's joint indices, and a line each in the report.
template <class Scalar>
void index_mimics(Loaded<Scalar>& out) {
  for (MimicJoint<Scalar>& m : out.mimics) {
    m.index = out.model.find_joint(m.joint).value_or(-1);
    m.mimicked_index = out.model.find_joint(m.mimicked).value_or(-1);
    out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::mimic_independent, "joint '" + m.joint + "'",
                                                "mimics joint '" + m.mimicked +
                                                    "'; loaded as an independent joint (the relation is returned "
                                                    "beside the model: Loaded::mimics in C++, load_urdf(..., mimics=True) in Python)",
                                                InertiaFault::none, 0.0});
  }
}

/// P4–P5 on checked input; `added` maps a link to an inertia added to its own (the P6 repair).
template <class Scalar>
Loaded<Scalar> assemble(const Structure& s, const ::urdf::ModelInterface& robot, const Options& options,
                        const std::string& source, const std::map<std::string, RigidInertia<Scalar>>& added) {
  Loaded<Scalar> out;
  out.report.source = source;
  out.mimics = read_mimics<Scalar>(s, robot, source, out.report);
  const Vector3<Scalar> gravity(Scalar(options.gravity[0]), Scalar(options.gravity[1]), Scalar(options.gravity[2]));
  if (!gravity.allFinite()) fail(source, "Options::gravity is not finite (in this Scalar)");
  const Scalar gyration_squared =
      options.inertia == InertiaPolicy::repair ? typical_gyration_squared<Scalar>(s, robot, source) : Scalar(0);
  ModelBuilder<Scalar> builder;
  builder.set_gravity(gravity);
  builder.set_physical_inertia_check(options.inertia != InertiaPolicy::as_is);
  std::map<std::string, int> body_of;                          // link → builder body
  std::map<std::string, Transform<Scalar>> link_from_body;     // link → ^L X_B
  std::string context;                                         // what a builder error is about
  const auto inertia_of = [&](const ::urdf::Link& link) {
    RigidInertia<Scalar> I = link_inertia<Scalar>(link, source, options.inertia, gyration_squared, out.report);
    if (const auto extra = added.find(link.name); extra != added.end()) I += extra->second;
    return I;
  };
  try {
    // P4: the root link
    const ::urdf::LinkConstSharedPtr root = robot.getLink(s.root);
    if (!root) fail(source, "link '" + s.root + "': missing from urdfdom's model");
    context = "link '" + s.root + "': ";
    const Joint<Scalar> root_joint = options.floating_base ? Joint<Scalar>::free_flyer() : Joint<Scalar>::fixed();
    body_of[s.root] = builder.add_body(no_parent, root_joint, Transform<Scalar>::identity(), inertia_of(*root), s.root);
    link_from_body[s.root] = Transform<Scalar>::identity();
    // P4: the other links, parents first, the earliest ready joint of the file next
    std::set<int> ready;
    const auto release = [&](const std::string& link) {
      const auto c = s.children.find(link);
      if (c != s.children.end()) ready.insert(c->second.begin(), c->second.end());
    };
    release(s.root);
    while (!ready.empty()) {
      const JointEntry& e = s.joints[static_cast<std::size_t>(*ready.begin())];
      ready.erase(ready.begin());
      const ::urdf::JointConstSharedPtr j = robot.getJoint(e.name);
      const ::urdf::LinkConstSharedPtr child = robot.getLink(e.child);
      if (!j || !child) fail(source, "joint '" + e.name + "': missing from urdfdom's model");
      context = "joint '" + e.name + "' (child link '" + e.child + "'): ";
      const JointConversion<Scalar> c = convert_joint<Scalar>(*j, source);
      const Transform<Scalar> X_J = pose_transform<Scalar>(j->parent_to_joint_origin_transform, source, context);
      const Transform<Scalar> body_from_link = c.link_from_body.inverse();  // ^B X_L = (Qᵀ, 0)
      const Transform<Scalar> X_T = body_from_link * X_J * link_from_body.at(e.parent);
      const RigidInertia<Scalar> I_B = apply_transpose_inertia(c.link_from_body, inertia_of(*child));
      const int body = builder.add_body(body_of.at(e.parent), c.joint, X_T, I_B, e.child);
      builder.set_joint_name(body, e.name);
      builder.set_joint_limits(body, c.limits);
      if (c.joint.type == JointType::planar) builder.set_frame_placement(body, c.link_from_body);
      if (c.joint.type == JointType::fixed) out.report.diagnostics.push_back(merged_diagnostic(e));
      body_of[e.child] = body;
      link_from_body[e.child] = c.link_from_body;
      release(e.child);
    }
    // P5
    context.clear();
    out.model = builder.build();
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    if (message.rfind("treedyn::urdf:", 0) == 0) throw;
    fail(source, context + message);
  }
  index_mimics(out);
  return out;
}

/// P6: the massless links whose pivot would vanish (detail/massless_links.hpp, M1 and M3): refused under
/// strict, reported under as_is, given the M2 inertia under repair (the model is assembled again with it,
/// and M3 is asked again until every pivot at the neutral configuration is positive).
template <class Scalar>
Loaded<Scalar> treat_massless(const Structure& s, const ::urdf::ModelInterface& robot, const Options& options,
                              const std::string& source, Loaded<Scalar> out) {
  const std::string leaf = "massless link on a moving joint with nothing below it carrying inertia: the joint's "
                           "pivot is zero and the forward dynamics are undefined";
  const std::string spans = "massless link whose joint's pivot is singular at the neutral configuration (what its "
                            "moving descendants pass up does not span the joint's motions, as for a floating base "
                            "with one revolute child): the forward dynamics are undefined";
  std::vector<std::string> links, whos, whys;  // the links found, as reported
  const auto found = [&](int b, const std::string& why) {
    links.push_back(out.model.name(b));
    whos.push_back("link '" + out.model.name(b) + "' (joint '" + out.model.joint_name(b) + "')");
    whys.push_back(why);
  };
  for (const int b : pivotless_bodies(out.model)) found(b, leaf);                    // M1
  if (links.empty())
    if (const int b = massless_body_without_pivot_at_neutral(out.model); b >= 0) found(b, spans);  // M3
  if (links.empty()) return out;
  if (options.inertia == InertiaPolicy::strict)
    fail(source, whos.front() + ": " + whys.front() + " (" + std::to_string(links.size()) +
                     " such link(s); give each an <inertial>, or load with InertiaPolicy::repair)");
  std::vector<Scalar> masses;
  for (const std::string& name : s.links)
    if (const ::urdf::LinkConstSharedPtr link = robot.getLink(name)) masses.push_back(link_inertial<Scalar>(*link, source).mass);
  const RigidInertia<Scalar> I = massless_repair_inertia(median_mass(masses), typical_gyration_squared<Scalar>(s, robot, source));
  const bool repaired = options.inertia == InertiaPolicy::repair && I.matrix().allFinite();  // not for absurd scales
  std::ostringstream given;
  if (repaired) {
    given.precision(3);
    given << "; given a point mass of " << static_cast<double>(I.m) << " kg at its origin with rotational inertia "
          << static_cast<double>(I.I.matrix()(0, 0)) << " kg m^2 about every axis (sqrt(eps) of the median link mass)";
    std::map<std::string, RigidInertia<Scalar>> added;
    while (added.size() < links.size()) {
      for (const std::string& link : links) added[link] = I;
      Loaded<Scalar> again = assemble<Scalar>(s, robot, options, source, added);
      std::swap(out, again);
      const int b = massless_body_without_pivot_at_neutral(out.model);              // M3 again
      if (b >= 0 && added.count(out.model.name(b)) == 0) found(b, spans);
    }
  }
  const std::string kept = options.inertia == InertiaPolicy::as_is ? "; loaded as is (InertiaPolicy::as_is)"
                                                                   : "; loaded as is (the repair inertia overflows)";
  for (std::size_t k = 0; k < links.size(); ++k) {
    Diagnostic d{repaired ? Diagnostic::Kind::massless_repaired : Diagnostic::Kind::massless_kept, whos[k],
                 whys[k] + (repaired ? given.str() : kept), InertiaFault::none,
                 repaired ? std::numeric_limits<double>::infinity() : 0.0};
    out.report.diagnostics.push_back(std::move(d));
  }
  return out;
}

template <class Scalar>
Loaded<Scalar> build(const std::string& xml, const Options& options, const std::string& source) {
  const Structure s = read_structure(xml, source, options.mimic);
  const ::urdf::ModelInterfaceSharedPtr robot = parse_elements(xml, source);
  return treat_massless<Scalar>(s, *robot, options, source, assemble<Scalar>(s, *robot, options, source, {}));
}

/// True when the argument is URDF text (first non-blank character '<'), false for a path.
inline bool is_text(const std::string& path_or_xml) noexcept {
  const std::size_t first = path_or_xml.find_first_not_of(" \t\r\n");
  return first != std::string::npos && path_or_xml[first] == '<';
}

}  // namespace detail

/// The model, the mimic relations and the load report from URDF text; errors name "<string>" as the file.
template <class Scalar>
[[nodiscard]] Loaded<Scalar> load_from_string(const std::string& xml, const Options& options = {}) {
  return detail::build<Scalar>(xml, options, "<string>");
}

/// The model, the mimic relations and the load report from a URDF file; errors name the path.
template <class Scalar>
[[nodiscard]] Loaded<Scalar> load_from_file(const std::string& path, const Options& options = {}) {
  return detail::build<Scalar>(detail::read_file(path), options, path);
}

/// The model, the mimic relations and the load report from URDF text (first non-blank character '<') or
/// from the file at that path.
template <class Scalar>
[[nodiscard]] Loaded<Scalar> load(const std::string& path_or_xml, const Options& options = {}) {
  return detail::is_text(path_or_xml) ? load_from_string<Scalar>(path_or_xml, options)
                                      : load_from_file<Scalar>(path_or_xml, options);
}

/// A Model from URDF text; errors name "<string>" as the file (the report is dropped: see load_from_string).
template <class Scalar>
[[nodiscard]] Model<Scalar> build_model_from_string(const std::string& xml, const Options& options = {}) {
  return load_from_string<Scalar>(xml, options).model;
}

/// A Model from a URDF file; errors name the path (the report is dropped: see load_from_file).
template <class Scalar>
[[nodiscard]] Model<Scalar> build_model_from_file(const std::string& path, const Options& options = {}) {
  return load_from_file<Scalar>(path, options).model;
}

/// A Model from URDF text (first non-blank character '<') or from the file at that path (the report is
/// dropped: see load).
template <class Scalar>
[[nodiscard]] Model<Scalar> build_model(const std::string& path_or_xml, const Options& options = {}) {
  return load<Scalar>(path_or_xml, options).model;
}

}  // namespace treedyn::urdf

namespace treedyn {

/// urdf::load under a name that stays unambiguous after `using namespace treedyn;` (urdfdom declares a
/// global namespace ::urdf, so an unqualified urdf::load is ambiguous there): the model, the mimic
/// relations and the load report from URDF text or a file.
template <class Scalar>
[[nodiscard]] urdf::Loaded<Scalar> load_urdf(const std::string& path_or_xml, const urdf::Options& options = {}) {
  return urdf::load<Scalar>(path_or_xml, options);
}

/// urdf::Options under a name that stays unambiguous after `using namespace treedyn;`.
using UrdfOptions = urdf::Options;

}  // namespace treedyn
