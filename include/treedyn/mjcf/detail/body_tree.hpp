// The MJCF body tree as treedyn bodies (mjcf.hpp, steps L4–L6; docs/mjcf.md#joints-and-coordinates): the
// builder state, default classes, inertias; the walk itself is in detail/body_walk.hpp.
//
// MuJoCo places body M at (R_M, p_M) in its parent's frame, then applies its joints in order, each in the
// frame the previous ones left: a hinge k turns the frame about axis a_k through the anchor p_k by
// q_k − ref_k, a slide moves it along a_k by q_k − ref_k, a ball turns it about p_k, so the body's pose is
//   A · Π_k T(p_k) J_k(q_k − ref_k) T(−p_k),   A = its parent's frame · (R_M, p_M).
// treedyn's joints act at their successor body's origin, so joint k gets a body of its own whose frame is
// the anchor: its tree transform (the predecessor's pose in the previous treedyn body) is
//   C_k · T(p_k) · J_k(−ref_k),   C_1 = A,  C_k = T(−p_{k−1}) (k > 1),
// which makes q_k equal MuJoCo's qpos (the ref is folded in, J_k(−ref) J_k(q) = J_k(q − ref) on one axis).
// The MJCF frame then sits at O = T(−p_n) in the last treedyn body, which carries the body's inertia (mapped
// by O), its named frame (placed at O), its sites and its children; bodies 1 … n−1 are massless, named
// "body:joint". A free joint (top-level bodies only, alone) is the pose of the body in the world: X_T = 1.
// A body without joints is fixed (merged into its parent by the ModelBuilder, kept as a named frame).
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <tinyxml2.h>

#include "treedyn/mjcf/detail/document.hpp"
#include "treedyn/mjcf/detail/geom_inertia.hpp"
#include "treedyn/mjcf/load_types.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn::mjcf::detail {

template <class Scalar>
struct TreeBuilder {
  Document& doc;
  Loaded<Scalar>& out;
  ModelBuilder<Scalar> builder = {};
  int next_body_id = 1;  // MuJoCo's body ids (the world is 0): names for unnamed bodies
  int nq = 0, nv = 0;
  std::map<std::string, const tinyxml2::XMLElement*> element_of = {};  // treedyn body name → MJCF element
  Scalar boundmass = Scalar(0), boundinertia = Scalar(0);             // `<compiler>`'s (bounded())
  /// A named site met in the walk, made a frame by add_sites() once every body name is known.
  struct PendingSite {
    const tinyxml2::XMLElement* element;
    int parent;                 // the treedyn body it is fixed on (no_parent: the world)
    std::string body;           // its MJCF body ("world" for the world's)
    Pose<Scalar> placement;     // its pose in that treedyn body
  };
  std::vector<PendingSite> pending_sites = {};

  /// The default attributes of element e under the inherited class (its own `class` first): those of its
  /// own element type, or of `type` when given (every equality type reads the class's `<equality>`).
  const Attributes* defaults(const tinyxml2::XMLElement* e, const std::string& inherited, const char* type = nullptr) {
    const char* own = e->Attribute("class");
    const std::string cls = own ? own : inherited;
    const auto c = doc.classes.find(cls);
    if (c == doc.classes.end()) fail_at(doc.files, e, "unknown default class '" + cls + "'");
    static const Attributes none;
    const auto t = c->second.find(type != nullptr ? type : e->Name());
    return t == c->second.end() ? &none : &t->second;
  }

  /// add_body with a builder error re-thrown naming the MJCF element.
  int add(const tinyxml2::XMLElement* e, int parent, const Joint<Scalar>& j, const Pose<Scalar>& pred,
          const RigidInertia<Scalar>& I, const std::string& name) {
    try {
      const int b = builder.add_body(parent, j, pred.transform(), I, name);
      element_of[name] = e;
      return b;
    } catch (const std::invalid_argument& error) {
      fail_at(doc.files, e, error.what());
    }
  }

  /// `<inertial>`: mass, pos, orientation, diaginertia or fullinertia (the latter in the body frame); `moments`
  /// gets diaginertia's three numbers as the file gives them (MuJoCo checks those, not a rotated matrix's).
  MassProperties<Scalar> inertial(const Element& e, std::optional<Vector3<Scalar>>& moments) {
    const Pose<Scalar> P = pose<Scalar>(e, doc.compiler);
    const Scalar m = e.numbers<Scalar>("mass", 1, 1)[0];
    if (m < Scalar(0)) e.fail("negative mass");
    Matrix3<Scalar> I = Matrix3<Scalar>::Zero();
    if (e.has("fullinertia")) {
      for (const char* f : {"quat", "axisangle", "euler", "xyaxes", "zaxis", "diaginertia"})
        if (e.has(f)) e.fail(std::string("fullinertia with ") + f + " is not read (fullinertia is in the body frame)");
      const std::vector<Scalar> f = e.numbers<Scalar>("fullinertia", 6, 6);
      I << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
    } else {
      const Vector3<Scalar> d = vec3(e.numbers<Scalar>("diaginertia", 3, 3));
      I = P.R * d.asDiagonal() * P.R.transpose();
      moments = d;
    }
    return MassProperties<Scalar>{m, P.p, I};
  }

  /// The body's mass properties in its MJCF frame (`<inertial>`, else its geoms), raised to the compiler's
  /// boundmass and boundinertia, its principal moments checked (physical()); `local` is the body's pose in its
  /// parent's frame (see bounded()), `e` its element.
  MassProperties<Scalar> body_mass(const tinyxml2::XMLElement* e, const std::string& name, const std::string& cls,
                                   const std::vector<const tinyxml2::XMLElement*>& kids, const Pose<Scalar>& local) {
    bool sourced = true;
    std::optional<Vector3<Scalar>> moments;
    const tinyxml2::XMLElement* from = e;
    const MassProperties<Scalar> M = unbounded_mass(name, cls, kids, sourced, moments, from);  // sets the last three
    return physical(from, name, bounded(name, M, sourced, local), moments);
  }

  /// MuJoCo 2.2.2's check on every body but the world, after the bounds (measured: docs/mjcf.md#principal-moments):
  /// principal moments A, B, C with `A + B < C` in any order (exactly, no tolerance) are refused naming the body
  /// and `from` (its `<inertial>`, else the body), or, under `<compiler balanceinertia="true">`, replaced by
  /// their mean about the same centre of mass. The moments are diaginertia's numbers raised to boundinertia
  /// when the file gives them (`moments`), else the eigenvalues of Ī_C in the load's scalar.
  MassProperties<Scalar> physical(const tinyxml2::XMLElement* from, const std::string& name, MassProperties<Scalar> M,
                                  const std::optional<Vector3<Scalar>>& moments) {
    Vector3<Scalar> l;
    if (moments) {
      l = *moments;
      if (boundinertia > Scalar(0))
        for (int k = 0; k < 3; ++k) l(k) = l(k) < boundinertia ? boundinertia : l(k);
    } else {
      l = Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>>(M.I_c, Eigen::EigenvaluesOnly).eigenvalues();
    }
    if (!(l(0) + l(1) < l(2) || l(0) + l(2) < l(1) || l(1) + l(2) < l(0))) return M;
    if (!doc.compiler.balanceinertia) {
      std::ostringstream text;
      text.precision(std::numeric_limits<Scalar>::max_digits10);  // the moments as loaded, every digit
      text << "body '" << name << "': principal moments (" << l(0) << ", " << l(1) << ", " << l(2)
           << ") violate A + B >= C (no rigid body has them); MuJoCo 2.2.2 refuses them too; fix the inertia, or "
              "set <compiler balanceinertia=\"true\"/> to replace them by their mean as MuJoCo does";
      fail_at(doc.files, from, text.str());
    }
    M.I_c = Matrix3<Scalar>::Identity() * ((l(0) + l(1) + l(2)) / Scalar(3));
    out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::inertia_balanced, "body '" + name + "'",
                                                "principal moments violated A + B >= C: replaced by their mean "
                                                "(<compiler balanceinertia>)"});
    return M;
  }

  /// `<compiler boundmass boundinertia>` as MuJoCo 2.2.2 applies them (measured: docs/mjcf.md#mass-bounds):
  /// every body but the world, after its inertia is found, m' = max(m, boundmass) and each principal moment
  /// λ_k' = max(λ_k, boundinertia) about unchanged principal axes v_k, Ī_C' = Ī_C + Σ_k (λ_k' − λ_k) v_k v_kᵀ;
  /// the centre of mass stays. A body with no `<inertial>` and no geom mass (`sourced` false) has, in MuJoCo
  /// 2.2.2, its inertial frame at the body's own pos and quat read in the body frame: a bounded mass sits there.
  MassProperties<Scalar> bounded(const std::string& name, MassProperties<Scalar> M, bool sourced,
                                 const Pose<Scalar>& local) {
    const Scalar &m_min = boundmass, &I_min = boundinertia;
    bool changed = false;
    if (M.m < m_min) {
      M.m = m_min;
      if (!sourced) M.c = local.p;
      changed = true;
    }
    if (I_min > Scalar(0)) {
      const Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>> eigen(M.I_c);
      for (int k = 0; k < 3; ++k) {
        const Scalar lambda = eigen.eigenvalues()(k);
        if (!(lambda < I_min)) continue;
        const Vector3<Scalar> v = eigen.eigenvectors().col(k);
        M.I_c += (I_min - lambda) * v * v.transpose();
        changed = true;
      }
    }
    if (changed)
      out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::mass_bounded, "body '" + name + "'",
                                                  "mass or principal moments raised to <compiler> boundmass / "
                                                  "boundinertia"});
    return M;
  }

  /// The body's mass properties in its MJCF frame: `<inertial>`, else (inertiafromgeom auto / true) its geoms;
  /// `sourced` false when neither gives any.
  /// `moments` gets diaginertia's numbers and `from` the `<inertial>` element when the inertia comes from one.
  MassProperties<Scalar> unbounded_mass(const std::string& name, const std::string& cls,
                                        const std::vector<const tinyxml2::XMLElement*>& kids, bool& sourced,
                                        std::optional<Vector3<Scalar>>& moments, const tinyxml2::XMLElement*& from) {
    const tinyxml2::XMLElement* inertial_element = nullptr;
    std::vector<MassProperties<Scalar>> parts;
    bool mesh = false;
    for (const tinyxml2::XMLElement* k : kids) {
      const std::string kind = k->Name();
      if (kind == "inertial") inertial_element = k;
      if (kind != "geom") continue;
      const Element g{k, defaults(k, cls), &doc.files};
      if (auto p = geom_mass<Scalar>(g, doc.compiler)) parts.push_back(*p);
      else if (g.text_or("type", "sphere") == "mesh") mesh = true;
    }
    const std::string& mode = doc.compiler.inertiafromgeom;
    if (inertial_element != nullptr && mode != "true") {
      from = inertial_element;
      return inertial(Element{inertial_element, nullptr, &doc.files}, moments);
    }
    sourced = !parts.empty() && mode != "false";
    if (mode == "false") return MassProperties<Scalar>{};
    const std::string who = "body '" + name + "'";
    if (mesh)
      out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::mesh_mass_skipped, who,
                                                  "has mesh geoms and no <inertial>: their mass is not computed "
                                                  "(a mesh's volume needs the mesh) and is left out, never guessed"});
    if (!parts.empty())
      out.report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::inertia_from_geoms, who,
                                                  "inertia computed from " + std::to_string(parts.size()) + " geom(s)"});
    return combine(parts);
  }

  /// The body's inertia in a frame where the MJCF frame sits at pose O.
  static RigidInertia<Scalar> inertia_in(const MassProperties<Scalar>& M, const Pose<Scalar>& O) {
    return RigidInertia<Scalar>::from_mass_com_inertia(M.m, Vector3<Scalar>(O.R * M.c + O.p),
                                                       Matrix3<Scalar>(O.R * M.I_c * O.R.transpose()));
  }

  /// Site e, fixed on treedyn body `parent` at `placement`, kept for add_sites().
  void site(const tinyxml2::XMLElement* e, int parent, const std::string& body_name, const Pose<Scalar>& placement) {
    pending_sites.push_back(PendingSite{e, parent, body_name, placement});
  }
  void add_sites();
  void body(const tinyxml2::XMLElement* e, int parent, const Pose<Scalar>& parent_offset, const std::string& cls,
            bool top_level);
  int joints(const std::string& name, const std::string& cls, bool top_level,
             const std::vector<const tinyxml2::XMLElement*>& kids, int parent, const Pose<Scalar>& A,
             const MassProperties<Scalar>& M, Pose<Scalar>& offset);
  void joint_info(const Element& j, JointInfo<Scalar>& info);
};

}  // namespace treedyn::mjcf::detail
