// The walk over the MJCF body tree (mjcf.hpp, step L4; the placement rules are in detail/body_tree.hpp's
// header comment and docs/mjcf.md#joints-and-coordinates): bodies in document order (depth first, as
// MuJoCo numbers them), each body's joints in order, then its sites, then its child bodies. Sites become
// frames once every body is in (add_sites): MuJoCo keeps bodies and sites in separate namespaces, treedyn's
// frames share one, so a site named like a body is named "site:<name>" (docs/mjcf.md#sites).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "treedyn/mjcf/detail/body_tree.hpp"

namespace treedyn::mjcf::detail {

/// range, limited, ref, armature, damping of joint j into info.
template <class Scalar>
void TreeBuilder<Scalar>::joint_info(const Element& j, JointInfo<Scalar>& info) {
  const bool angular = info.type == "hinge" || info.type == "ball";
  const auto value = [&](const Scalar& x) { return angular ? angle(doc.compiler, x) : x; };
  const std::vector<Scalar> range = j.numbers_or<Scalar>("range", 2, "0 0");
  const std::string limited = j.keyword_or("limited", {"true", "false", "auto"}, "auto");
  // MuJoCo 2.2.2 (docs/mjcf.md#limits): a range is "given" when it is not "0 0"; limited="auto" then means
  // limited under autolimits="true" and is refused under autolimits="false", MuJoCo's default
  const bool has_range = range[0] != Scalar(0) || range[1] != Scalar(0);
  if (limited == "auto" && has_range && !doc.compiler.autolimits)
    j.fail("joint '" + info.name + "' has a range but no limited; MuJoCo 2.2.2 refuses this too: set "
           "<compiler autolimits=\"true\"/> or limited=\"true\" / \"false\"");
  info.limited = limited == "true" || (limited == "auto" && has_range);
  info.range_lower = value(range[0]);
  info.range_upper = value(range[1]);
  info.ref = value(j.number_or("ref", Scalar(0)));
  info.armature = j.number_or("armature", Scalar(0));
  info.damping = j.number_or("damping", Scalar(0));
  if (j.number_or("stiffness", Scalar(0)) != Scalar(0))
    out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::ignored, "joint '" + info.name + "'",
                                                "stiffness is not applied (treedyn has no joint springs)"});
  if (info.limited && info.range_lower > info.range_upper) j.fail("range: lower above upper");
}

/// The joints of body e as treedyn bodies; returns the last one (or `parent` when there is none) and sets
/// `offset` to the pose of the MJCF frame in it.
template <class Scalar>
int TreeBuilder<Scalar>::joints(const std::string& name, const std::string& cls,
                                bool top_level, const std::vector<const tinyxml2::XMLElement*>& kids, int parent,
                                const Pose<Scalar>& A, const MassProperties<Scalar>& M, Pose<Scalar>& offset) {
  std::vector<Element> js;
  for (const tinyxml2::XMLElement* k : kids) {
    const std::string kind = k->Name();
    if (kind == "joint") js.push_back(Element{k, defaults(k, cls), &doc.files});
    if (kind == "freejoint") js.push_back(Element{k, nullptr, &doc.files});
  }
  offset = A;
  int b = parent;
  for (std::size_t k = 0; k < js.size(); ++k) {
    const Element& j = js[k];
    const bool free = std::string(j.xml->Name()) == "freejoint";
    JointInfo<Scalar> info;
    info.type = free ? "free" : j.keyword_or("type", {"hinge", "slide", "ball", "free"}, "hinge");
    info.body = name;
    const char* own = j.xml->Attribute("name");
    info.name = own ? own : (k + 1 == js.size() ? name : name + ":joint" + std::to_string(k));
    if (info.type == "free" && (!top_level || js.size() != 1))
      j.fail("a free joint must be the only joint of a top-level body");
    const Vector3<Scalar> p = vec3(j.numbers_or<Scalar>("pos", 3, "0 0 0"));
    const Vector3<Scalar> a = unit<Scalar>(j, vec3(j.numbers_or<Scalar>("axis", 3, "0 0 1")), "axis");
    joint_info(j, info);
    Joint<Scalar> joint = Joint<Scalar>::free_flyer();
    Pose<Scalar> ref;  // J_k(−ref_k)
    if (info.type == "hinge") {
      joint = Joint<Scalar>::revolute(a);
      ref.R = treedyn::detail::axis_rotation(a, Scalar(-info.ref));
    } else if (info.type == "slide") {
      joint = Joint<Scalar>::prismatic(a);
      ref.p = -info.ref * a;
    } else if (info.type == "ball") {
      joint = Joint<Scalar>::spherical();
    }
    const Pose<Scalar> pred = info.type == "free" ? Pose<Scalar>{} : offset * Pose<Scalar>::translation(p) * ref;
    const bool last = k + 1 == js.size();
    offset = info.type == "free" ? Pose<Scalar>{} : Pose<Scalar>::translation(-p);
    const RigidInertia<Scalar> I = last ? inertia_in(M, offset) : RigidInertia<Scalar>::zero();
    b = add(j.xml, b, joint, pred, I, last ? name : name + ":" + info.name);
    builder.set_joint_name(b, info.name);
    if (info.limited && info.type != "ball") {
      JointLimits<Scalar> limits;
      limits.lower = info.range_lower;
      limits.upper = info.range_upper;
      builder.set_joint_limits(b, limits);
    }
    info.q_index = nq;
    info.v_index = nv;
    nq += joint.nq();
    nv += joint.nv();
    out.joints.push_back(info);
  }
  return b;
}

/// Body e (MJCF frame at parent_offset in treedyn body `parent`), then its subtree.
template <class Scalar>
void TreeBuilder<Scalar>::body(const tinyxml2::XMLElement* e, int parent, const Pose<Scalar>& parent_offset,
                               const std::string& inherited, bool top_level) {
  const int id = next_body_id++;
  const char* own = e->Attribute("name");
  const std::string name = own ? own : "body" + std::to_string(id);
  const char* childclass = e->Attribute("childclass");
  const std::string cls = childclass ? childclass : inherited;
  if (doc.classes.count(cls) == 0) fail_at(doc.files, e, "unknown default class '" + cls + "'");
  std::vector<const tinyxml2::XMLElement*> kids;
  for_each_child(doc, e, [&](const tinyxml2::XMLElement* c) { kids.push_back(c); });
  const Pose<Scalar> local = pose<Scalar>(Element{e, nullptr, &doc.files}, doc.compiler);
  const Pose<Scalar> A = parent_offset * local;
  const MassProperties<Scalar> M = body_mass(e, name, cls, kids, local);
  Pose<Scalar> O;
  const std::size_t first_joint = out.joints.size();
  int b = joints(name, cls, top_level, kids, parent, A, M, O);
  for (std::size_t k = first_joint; k < out.joints.size(); ++k)  // errors about these bodies name the MJCF body
    element_of[k + 1 == out.joints.size() ? name : name + ":" + out.joints[k].name] = e;
  if (b == parent) {  // no joint: a fixed body, merged into its parent, its frame named
    b = add(e, parent, Joint<Scalar>::fixed(), A, inertia_in(M, Pose<Scalar>{}), name);
    O = Pose<Scalar>{};
  } else if (!O.p.isZero()) {
    builder.set_frame_placement(b, O.transform());
  }
  for (const tinyxml2::XMLElement* k : kids) {
    const std::string kind = k->Name();
    if (kind == "site") {
      const Element s{k, defaults(k, cls), &doc.files};
      if (k->Attribute("name")) site(k, b, name, O * pose<Scalar>(s, doc.compiler));
    } else if (kind == "body") {
      body(k, b, O, cls, false);
    } else if (kind != "joint" && kind != "freejoint" && kind != "inertial" && kind != "geom" && kind != "camera" &&
               kind != "light") {
      out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::ignored, where(doc.files, k),
                                                  "not read in a body (a later slice)"});
    }
  }
}

/// Every named site as a frame, once all bodies are in, in MuJoCo's site order (the world's sites first, then
/// each body's in body order); a site whose name a body (or a joint's treedyn body) already has becomes
/// `site:<name>`, reported (docs/mjcf.md#sites). Loaded::sites maps each MJCF site name to its frame.
template <class Scalar>
void TreeBuilder<Scalar>::add_sites() {
  std::stable_partition(pending_sites.begin(), pending_sites.end(),
                        [](const PendingSite& s) { return s.parent == no_parent; });
  for (const PendingSite& s : pending_sites) {
    const std::string name = s.element->Attribute("name");
    std::string frame = name;
    if (element_of.count(name) != 0 && std::string(element_of.at(name)->Name()) != "site") {
      frame = "site:" + name;
      out.report.diagnostics.push_back(Diagnostic{
          Diagnostic::Kind::site_renamed, "site '" + name + "'",
          "named like a body: its frame is '" + frame + "' (MuJoCo's bodies and sites have separate names, "
          "treedyn's frames one; Loaded::site(\"" + name + "\") finds it)"});
    }
    add(s.element, s.parent, Joint<Scalar>::fixed(), s.placement, RigidInertia<Scalar>::zero(), frame);
    out.sites.push_back(SiteInfo{name, s.body, frame});
  }
}

}  // namespace treedyn::mjcf::detail
