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
//   Mimic joints (options.mimic): independent (default) loads the joint as an ordinary joint and returns
//   the relation in Loaded::mimics (checked: it names another revolute, continuous or prismatic joint);
//   reject refuses the file. The report lists, in order: every inertia repaired or kept although
//   unphysical (link, rule, relative change), every fixed link merged, every mimic joint made independent.
//   Numbers are read in binary64 by urdfdom, then rounded once to Scalar (no default Scalar: say which).
//   Errors: std::invalid_argument whose message starts "treedyn::urdf: <file or "<string>">: " and names
//   the element (link / joint) and the reason: missing file, malformed XML, no <robot>, a joint whose
//   parent or child link does not exist, a duplicate name, a link that is the child of two joints or any
//   other kinematic loop, mimic joints under MimicPolicy::reject and <mimic> naming no suitable joint,
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
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <exception>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/urdf/inertia_repair.hpp"

namespace treedyn::urdf {

/// What build_model does with a link inertia that is not physically valid (urdf/inertia_repair.hpp).
enum class InertiaPolicy {
  repair,  ///< replace it by the nearest valid one (principal axes kept) and report the change
  strict,  ///< reject, as the ModelBuilder does: not positive semidefinite, triangle inequality
  as_is,   ///< keep the numbers (reported); the algorithms run on them, a pivot ≤ 0 shows in their status
};

/// What build_model does with a <mimic> joint.
enum class MimicPolicy {
  independent,  ///< load it as an independent joint and return the relation beside the model (Loaded::mimics)
  reject,       ///< reject the file
};

/// Options of build_model. One Options serves load<float>, load<double>, … alike, so its numbers are
/// written as in the file: urdfdom parses every URDF number to double, and the loader converts each with
/// Scalar(…) where it is used (the gravity, like every link parameter, once per load).
struct Options {
  bool floating_base = false;  ///< a free flyer between the world and the root link (else the root is fixed)
  InertiaPolicy inertia = InertiaPolicy::repair;
  MimicPolicy mimic = MimicPolicy::independent;
  std::array<double, 3> gravity = {0.0, 0.0, -9.81};  ///< base coordinates (URDF has no gravity element)
};

/// One thing the loader did that the file did not say: a repaired or unphysical inertia, a mimic joint
/// loaded as independent, a fixed link merged into its parent.
struct Diagnostic {
  enum class Kind { inertia_repaired, inertia_kept, mimic_independent, fixed_link_merged };
  Kind kind = Kind::inertia_repaired;
  std::string element;                     ///< "link 'name'" or "joint 'name'"
  std::string what;                        ///< the rule broken and what was done, one sentence
  InertiaFault fault = InertiaFault::none; ///< inertia diagnostics: the rule broken
  /// inertia_repaired: ‖ΔĪ_C‖_F / ‖Ī_C‖_F (infinite from zero); a figure for people and logs, in double
  /// whatever the model's scalar, so one LoadReport type serves every load<Scalar>
  double relative_change = 0.0;

  /// "link 'camera': <what>".
  [[nodiscard]] std::string to_string() const { return element + ": " + what; }
};

/// Every diagnostic of one load, in the order the loader met them.
struct LoadReport {
  std::string source;                    ///< the file, or "<string>"
  std::vector<Diagnostic> diagnostics;

  [[nodiscard]] std::size_t count(Diagnostic::Kind kind) const noexcept {
    return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                  [kind](const Diagnostic& d) { return d.kind == kind; }));
  }
  /// One line per diagnostic, each starting with the source.
  [[nodiscard]] std::string to_string() const {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += source + ": " + d.to_string() + "\n";
    return out;
  }
};

/// A <mimic> relation, kept as metadata: q[index] = multiplier · q[mimicked_index] + offset. The model
/// treats both joints as independent; a program that wants the coupling enforces it.
template <class Scalar>
struct MimicJoint {
  std::string joint;             ///< the mimicking joint (its URDF name)
  std::string mimicked;          ///< the joint it follows (<mimic joint="…">)
  int index = -1;                ///< model.find_joint(joint); -1 when that joint is fixed (merged)
  int mimicked_index = -1;       ///< model.find_joint(mimicked); -1 when that joint is fixed (merged)
  Scalar multiplier = Scalar(1);
  Scalar offset = Scalar(0);
};

/// What load() returns: the model, the mimic relations beside it, and the report.
template <class Scalar>
struct Loaded {
  Model<Scalar> model;
  std::vector<MimicJoint<Scalar>> mimics;
  LoadReport report;
};

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

template <class Scalar>
Vector3<Scalar> vector3(const ::urdf::Vector3& v) {
  return Vector3<Scalar>(Scalar(v.x), Scalar(v.y), Scalar(v.z));
}

/// ^child X_parent of a URDF pose (the child frame's position and orientation in the parent frame).
template <class Scalar>
Transform<Scalar> pose_transform(const ::urdf::Pose& pose, const std::string& source, const std::string& who) {
  const Eigen::Matrix<Scalar, 4, 1> quat(Scalar(pose.rotation.x), Scalar(pose.rotation.y), Scalar(pose.rotation.z),
                                         Scalar(pose.rotation.w));
  const Vector3<Scalar> xyz = vector3<Scalar>(pose.position);
  if (!quat.allFinite() || !xyz.allFinite()) fail(source, who + "a non-finite number in <origin>");
  const Scalar norm = quat.norm();
  if (!(norm > Scalar(0))) fail(source, who + "<origin> rotation is degenerate");
  return transform_from(treedyn::detail::quaternion_rotation(quat / norm), xyz);
}

/// A link's <inertial> in its own frame (P4): mass, centre of mass c and Ī_C in link axes (zero when the
/// link has no <inertial>).
template <class Scalar>
struct LinkInertial {
  Scalar mass = Scalar(0);
  Vector3<Scalar> com = Vector3<Scalar>::Zero();
  Matrix3<Scalar> inertia_com = Matrix3<Scalar>::Zero();
};

/// P4: <inertial> (m, origin (c, R_I), Ī_C in the inertial frame) → (m, c, R_I Ī_C R_Iᵀ).
template <class Scalar>
LinkInertial<Scalar> link_inertial(const ::urdf::Link& link, const std::string& source) {
  LinkInertial<Scalar> out;
  if (!link.inertial) return out;
  const ::urdf::Inertial& in = *link.inertial;
  const std::string who = "link '" + link.name + "': ";
  const Transform<Scalar> X = pose_transform<Scalar>(in.origin, source, who);  // (R_Iᵀ, c)
  Matrix3<Scalar> Ic;
  Ic << Scalar(in.ixx), Scalar(in.ixy), Scalar(in.ixz),  //
      Scalar(in.ixy), Scalar(in.iyy), Scalar(in.iyz),    //
      Scalar(in.ixz), Scalar(in.iyz), Scalar(in.izz);
  out.mass = Scalar(in.mass);
  using std::isfinite;
  if (!isfinite(out.mass) || !Ic.allFinite()) fail(source, who + "a non-finite number in <inertial>");
  out.com = X.r;
  out.inertia_com = X.E.transpose() * Ic * X.E;
  return out;
}

/// P4 (repair): the robot's typical squared radius of gyration, the median of λ3 / m over the links with
/// mass and a rotational inertia (0 when there is none): the length scale of a point mass's floor (R2).
template <class Scalar>
Scalar typical_gyration_squared(const Structure& s, const ::urdf::ModelInterface& robot, const std::string& source) {
  std::vector<Scalar> ratios;
  for (const std::string& name : s.links) {
    const ::urdf::LinkConstSharedPtr link = robot.getLink(name);
    if (!link) continue;
    const LinkInertial<Scalar> in = link_inertial<Scalar>(*link, source);
    if (!(in.mass > Scalar(0))) continue;
    const Scalar largest =
        Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>>(in.inertia_com, Eigen::EigenvaluesOnly).eigenvalues()(2);
    if (largest > Scalar(0)) ratios.push_back(largest / in.mass);
  }
  if (ratios.empty()) return Scalar(0);
  const auto middle = ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2);
  std::nth_element(ratios.begin(), middle, ratios.end());
  return *middle;
}

/// The link's rigid-body inertia in its own frame (P4), after options.inertia; what was found and done is
/// added to `report` (under strict nothing is looked at here: the ModelBuilder's rules apply).
template <class Scalar>
RigidInertia<Scalar> link_inertia(const ::urdf::Link& link, const std::string& source, InertiaPolicy policy,
                                  const Scalar& gyration_squared, LoadReport& report) {
  LinkInertial<Scalar> in = link_inertial<Scalar>(link, source);
  if (policy != InertiaPolicy::strict && link.inertial && in.mass >= Scalar(0)) {
    const InertiaRepair<Scalar> r = repair_inertia<Scalar>(in.mass, in.com, in.inertia_com, gyration_squared);
    if (r.fault != InertiaFault::none) {
      Diagnostic d;
      d.element = "link '" + link.name + "'";
      d.fault = r.fault;
      d.what = inertia_fault_rule(r.fault);
      if (policy == InertiaPolicy::repair) {
        d.kind = Diagnostic::Kind::inertia_repaired;
        d.relative_change = static_cast<double>(r.relative_change);
        std::ostringstream change;
        change.precision(3);
        change << "; repaired to the nearest valid inertia (principal axes kept), a change of " << d.relative_change
               << " of |I_C|";
        d.what += change.str();
        in.inertia_com = r.inertia_com;
      } else {
        d.kind = Diagnostic::Kind::inertia_kept;
        d.what += "; loaded as is (InertiaPolicy::as_is)";
      }
      report.diagnostics.push_back(std::move(d));
    }
  }
  return RigidInertia<Scalar>::from_mass_com_inertia(in.mass, in.com, in.inertia_com);
}

/// A rotation Q with Q e_z = n for a unit n (exactly the identity when n = e_z).
template <class Scalar>
Matrix3<Scalar> rotation_to_axis(const Vector3<Scalar>& n) {
  if (n == Vector3<Scalar>::UnitZ()) return Matrix3<Scalar>::Identity();
  return Eigen::Quaternion<Scalar>::FromTwoVectors(Vector3<Scalar>::UnitZ(), n).toRotationMatrix();
}

/// The treedyn joint and limits of a URDF joint (P4); ^L X_B is set for a re-oriented planar joint.
template <class Scalar>
struct JointConversion {
  Joint<Scalar> joint = Joint<Scalar>::fixed();
  JointLimits<Scalar> limits = {};
  Transform<Scalar> link_from_body = Transform<Scalar>::identity();  // ^L X_B
};

template <class Scalar>
JointConversion<Scalar> convert_joint(const ::urdf::Joint& j, const std::string& source) {
  const std::string who = "joint '" + j.name + "': ";
  JointConversion<Scalar> out;
  const Vector3<Scalar> axis = vector3<Scalar>(j.axis);
  if (!axis.allFinite()) fail(source, who + "a non-finite number in <axis>");
  switch (j.type) {
    case ::urdf::Joint::REVOLUTE:
    case ::urdf::Joint::CONTINUOUS: out.joint = Joint<Scalar>::revolute(axis); break;
    case ::urdf::Joint::PRISMATIC: out.joint = Joint<Scalar>::prismatic(axis); break;
    case ::urdf::Joint::FIXED: out.joint = Joint<Scalar>::fixed(); break;
    case ::urdf::Joint::FLOATING: out.joint = Joint<Scalar>::free_flyer(); break;
    case ::urdf::Joint::PLANAR: {
      const Scalar norm = axis.norm();
      if (!(norm > std::numeric_limits<Scalar>::epsilon())) fail(source, who + "the planar joint's axis is zero");
      out.joint = Joint<Scalar>::planar();
      out.link_from_body = Transform<Scalar>{rotation_to_axis<Scalar>(axis / norm), Vector3<Scalar>::Zero()};
      break;
    }
    default: fail(source, who + "unknown joint type");
  }
  if (j.limits) {
    const ::urdf::JointLimits& l = *j.limits;
    out.limits.velocity = Scalar(l.velocity);
    out.limits.effort = Scalar(l.effort);
    if (j.type == ::urdf::Joint::REVOLUTE || j.type == ::urdf::Joint::PRISMATIC) {
      out.limits.lower = Scalar(l.lower);
      out.limits.upper = Scalar(l.upper);
    }
    using std::isnan;
    if (isnan(out.limits.lower) || isnan(out.limits.upper) || isnan(out.limits.velocity) || isnan(out.limits.effort))
      fail(source, who + "a NaN in <limit>");
  }
  return out;
}

/// P2–P3: the <mimic> relations in document order, checked (indices are set after P5). A mimic must name
/// another joint of the file, and both must have one coordinate (revolute, continuous, prismatic).
template <class Scalar>
std::vector<MimicJoint<Scalar>> read_mimics(const Structure& s, const ::urdf::ModelInterface& robot,
                                            const std::string& source) {
  const auto one_coordinate = [](const ::urdf::Joint& j) {
    return j.type == ::urdf::Joint::REVOLUTE || j.type == ::urdf::Joint::CONTINUOUS || j.type == ::urdf::Joint::PRISMATIC;
  };
  std::vector<MimicJoint<Scalar>> out;
  for (const JointEntry& e : s.joints) {
    const ::urdf::JointConstSharedPtr j = robot.getJoint(e.name);
    if (!j || !j->mimic) continue;
    const std::string who = "joint '" + e.name + "': ";
    MimicJoint<Scalar> m;
    m.joint = e.name;
    m.mimicked = j->mimic->joint_name;
    m.multiplier = Scalar(j->mimic->multiplier);
    m.offset = Scalar(j->mimic->offset);
    using std::isfinite;
    if (!isfinite(m.multiplier) || !isfinite(m.offset)) fail(source, who + "a non-finite number in <mimic>");
    if (m.mimicked == e.name) fail(source, who + "<mimic> names the joint itself");
    const ::urdf::JointConstSharedPtr followed = robot.getJoint(m.mimicked);
    if (!followed) fail(source, who + "<mimic> names joint '" + m.mimicked + "', which does not exist");
    if (!one_coordinate(*j) || !one_coordinate(*followed))
      fail(source, who + "<mimic> couples joint '" + m.mimicked +
                       "': both joints must be revolute, continuous or prismatic");
    out.push_back(std::move(m));
  }
  return out;
}

/// P4–P5 on checked input.
template <class Scalar>
Loaded<Scalar> assemble(const Structure& s, const ::urdf::ModelInterface& robot, const Options& options,
                        const std::string& source) {
  Loaded<Scalar> out;
  out.report.source = source;
  out.mimics = read_mimics<Scalar>(s, robot, source);
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
    return link_inertia<Scalar>(link, source, options.inertia, gyration_squared, out.report);
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
      if (c.joint.type == JointType::fixed)
        out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::fixed_link_merged, "link '" + e.child + "'",
                                                    "merged into link '" + e.parent + "' through fixed joint '" +
                                                        e.name + "'; kept as a named frame",
                                                    InertiaFault::none, 0.0});
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
  for (MimicJoint<Scalar>& m : out.mimics) {
    m.index = out.model.find_joint(m.joint).value_or(-1);  // -1: a fixed (merged) joint
    m.mimicked_index = out.model.find_joint(m.mimicked).value_or(-1);
    out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::mimic_independent, "joint '" + m.joint + "'",
                                                "mimics joint '" + m.mimicked +
                                                    "'; loaded as an independent joint (the relation is in "
                                                    "Loaded::mimics)",
                                                InertiaFault::none, 0.0});
  }
  return out;
}

/// P1: the file's text.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail(path, "cannot read the file");
  return text.str();
}

template <class Scalar>
Loaded<Scalar> build(const std::string& xml, const Options& options, const std::string& source) {
  const Structure s = read_structure(xml, source, options.mimic);
  const ::urdf::ModelInterfaceSharedPtr robot = parse_elements(xml, source);
  return assemble<Scalar>(s, *robot, options, source);
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
