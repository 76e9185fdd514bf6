// MJCF equality constraints (mjcf.hpp, step L7; docs/mjcf.md#equality-constraints): each `<connect>`,
// `<weld>` and `<joint>` of `<equality>` as an Equality record beside the built model, its attributes from
// the element, else its default class's `<equality>` (MuJoCo's one default table for every equality type),
// else MuJoCo 2.2.2's defaults (MJCF reference, "equality"): active true, solref "0.02 1", solimp
// "0.9 0.95 0.001 0.5 2", the shared numeric default "0 1 0 0 0 …" (so relpose "0 1 0 0 0 0 0", whose zero
// quaternion means "the relative pose at qpos0", and polycoef "0 1 0 0 0"), anchor 0, torquescale 1.
// Bodies and joints are found by their MJCF names; an unknown name, a joint equality on a ball or free
// joint and a missing required attribute fail naming the element. `<tendon>` equalities are reported ignored
// (treedyn has no tendons).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "treedyn/mjcf/detail/body_tree.hpp"

namespace treedyn::mjcf::detail {

/// The MJCF body called `attribute` of e as a frame of the model; the world when the attribute is absent
/// and `world_if_absent`.
template <class Scalar>
Frame<Scalar> equality_body(const TreeBuilder<Scalar>& t, const Element& e, const char* attribute,
                            bool world_if_absent) {
  const auto name = e.text(attribute);
  if (!name) {
    if (!world_if_absent) e.fail(std::string("attribute ") + attribute + " is missing");
    return Frame<Scalar>{"world", no_parent, Transform<Scalar>::identity()};
  }
  if (*name == "world") return Frame<Scalar>{"world", no_parent, Transform<Scalar>::identity()};
  const auto found = t.element_of.find(*name);
  if (found == t.element_of.end() || std::string(found->second->Name()) != "body")
    e.fail(std::string("attribute ") + attribute + ": unknown body '" + *name + "'");
  return t.out.model.frame(*name);
}

/// The index in Loaded::joints of the MJCF joint called `attribute` of e (−1 when absent and optional); a
/// ball or free joint fails (a joint equality couples scalar coordinates).
template <class Scalar>
int equality_joint(const TreeBuilder<Scalar>& t, const Element& e, const char* attribute, bool optional) {
  const auto name = e.text(attribute);
  if (!name) {
    if (!optional) e.fail(std::string("attribute ") + attribute + " is missing");
    return -1;
  }
  for (std::size_t k = 0; k < t.out.joints.size(); ++k) {
    const JointInfo<Scalar>& j = t.out.joints[k];
    if (j.name != *name) continue;
    if (j.type != "hinge" && j.type != "slide")
      e.fail(std::string("attribute ") + attribute + ": joint '" + *name + "' is a " + j.type +
             " joint (a joint equality couples hinges and slides)");
    return static_cast<int>(k);
  }
  e.fail(std::string("attribute ") + attribute + ": unknown joint '" + *name + "'");
}

/// L7: the children of every `<equality>` element, in order, into t.out.equalities.
template <class Scalar>
void read_equalities(TreeBuilder<Scalar>& t) {
  for (const tinyxml2::XMLElement* group : t.doc.equalities)
    for_each_child(t.doc, group, [&](const tinyxml2::XMLElement* c) {
      const std::string kind = c->Name();
      if (kind == "tendon") {
        t.out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::ignored, where(t.doc.files, c),
                                                      "not read: treedyn has no tendons"});
        return;
      }
      const Element e{c, t.defaults(c, "main", "equality"), &t.doc.files};
      if (kind != "connect" && kind != "weld" && kind != "joint")
        e.fail("not an equality constraint (connect, weld, joint, tendon)");
      Equality<Scalar> q;
      q.type = kind;
      q.name = e.text_or("name", "");
      q.active = e.keyword_or("active", {"true", "false"}, "true") == "true";
      const std::vector<Scalar> solref = e.numbers_or<Scalar>("solref", 2, "0.02 1");
      const std::vector<Scalar> solimp = e.numbers_or<Scalar>("solimp", 5, "0.9 0.95 0.001 0.5 2");
      std::copy(solref.begin(), solref.end(), q.solref.begin());
      std::copy(solimp.begin(), solimp.end(), q.solimp.begin());
      if (kind == "joint") {
        q.joint1 = equality_joint(t, e, "joint1", false);
        q.joint2 = equality_joint(t, e, "joint2", true);
        const std::vector<Scalar> p = e.numbers_or<Scalar>("polycoef", 5, "0 1 0 0 0");
        std::copy(p.begin(), p.end(), q.polycoef.begin());
      } else {
        q.body1 = equality_body(t, e, "body1", false);
        q.body2 = equality_body(t, e, "body2", true);
        if (kind == "connect") {
          q.anchor = vec3(e.numbers<Scalar>("anchor", 3, 3));
        } else {
          q.anchor = vec3(e.numbers_or<Scalar>("anchor", 3, "0 0 0"));
          const std::vector<Scalar> r = e.numbers_or<Scalar>("relpose", 7, "0 1 0 0 0 0 0");
          const Eigen::Matrix<Scalar, 4, 1> xyzw(r[4], r[5], r[6], r[3]);
          q.relpose_given = xyzw.squaredNorm() > Scalar(0);
          if (q.relpose_given) {
            using std::sqrt;
            q.relpose_position = vec3(r);
            q.relpose_quaternion = xyzw / sqrt(Scalar(xyzw.squaredNorm()));
          }
          q.torquescale = e.number_or("torquescale", Scalar(1));
        }
      }
      t.out.equalities.push_back(q);
    });
}

}  // namespace treedyn::mjcf::detail
