// The types of an MJCF load (treedyn::mjcf::load): Options, the LoadReport of Diagnostics, the per-joint
// metadata MuJoCo keeps and a treedyn Model has no place for (JointInfo), the equality constraints
// (Equality) and Loaded. Included by mjcf.hpp,
// whose header comment states the contract (docs/mjcf.md#what-is-read); nothing here needs tinyxml2.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "treedyn/detail/load_report.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn::mjcf {

/// Options of mjcf::load. The gravity comes from the file (`<option gravity>`, MuJoCo's default
/// (0, 0, −9.81) when absent); nothing else is needed yet.
struct Options {};

/// One thing the loader did that the file did not say outright: an inertia computed from geoms, a geom whose
/// mass could not be computed (a mesh), an element or attribute read and ignored.
struct Diagnostic {
  enum class Kind {
    inertia_from_geoms,  ///< a body's inertia summed from its primitive geoms
    mesh_mass_skipped,   ///< a geom whose volume needs its mesh: contributes nothing, never guessed
    mass_bounded,        ///< a body's mass or principal moments raised to `<compiler>` boundmass / boundinertia
    ignored,             ///< an element or attribute read and not used (actuator, sensor, settotalmass, …)
    site_renamed,        ///< a site named like a body: its frame is `site:<name>` (Loaded::site finds it)
    inertia_balanced,    ///< principal moments violating A + B ≥ C averaged (`<compiler balanceinertia>`)
  };
  Kind kind = Kind::ignored;
  std::string element;  ///< "body 'name'", "geom 'name'", "equality", …
  std::string what;     ///< what was done, one sentence
};

/// Every diagnostic of one load, in the order the loader met them (source, diagnostics, count(kind),
/// to_string() from detail/load_report.hpp).
struct LoadReport : treedyn::detail::ReportBase<LoadReport, Diagnostic> {
  /// The report for people, one line each, every line starting with the source: meshes first, then the
  /// inertias computed from geoms, then the masses raised to the compiler's bounds, then the inertias
  /// balanced, then the sites renamed, then what was ignored.
  [[nodiscard]] std::vector<std::string> lines() const {
    using K = Diagnostic::Kind;
    std::vector<std::string> out;
    for (const K kind : {K::mesh_mass_skipped, K::inertia_from_geoms, K::mass_bounded, K::inertia_balanced, K::site_renamed,
                         K::ignored})
      for (const Diagnostic& d : diagnostics)
        if (d.kind == kind) out.push_back(source + ": " + d.element + ": " + d.what);
    return out;
  }
};

/// An MJCF joint as MuJoCo describes it, beside the treedyn joint it became (model.joint_index(name)).
/// The numbers a treedyn Model has no place for (ref, armature, damping, a ball joint's range) live here.
template <class Scalar>
struct JointInfo {
  std::string name;       ///< the MJCF name (an unnamed joint: its body's name, then "body:joint<k>")
  std::string body;       ///< the MJCF body it is in
  std::string type;       ///< "hinge", "slide", "ball" or "free"
  int q_index = 0;        ///< first coordinate in q (equal to MuJoCo's jnt_qposadr)
  int v_index = 0;        ///< first coordinate in v (equal to MuJoCo's jnt_dofadr)
  bool limited = false;   ///< range applies (limited="true", or autolimits="true" and a range not "0 0")
  Scalar range_lower = Scalar(0), range_upper = Scalar(0);  ///< radians or metres (ball: upper is the cone angle)
  Scalar ref = Scalar(0);        ///< qpos0 of a hinge or slide; folded into the tree transform
  Scalar armature = Scalar(0);   ///< added to H's diagonal by MuJoCo, not by treedyn
  Scalar damping = Scalar(0);    ///< −damping · v passive force in MuJoCo, not in treedyn
};

/// A named MJCF site and the model frame it became (docs/mjcf.md#sites): the frame has the site's name unless a
/// body has it (MuJoCo's bodies and sites have separate names, treedyn's frames one), then `site:<name>`.
struct SiteInfo {
  std::string name;   ///< the MJCF name (MuJoCo's mj_name2id(m, mjOBJ_SITE, name))
  std::string body;   ///< the MJCF body it is on ("world" for a site of `<worldbody>`)
  std::string frame;  ///< the model frame: model.frame(frame), frame_placement(model, data, that frame)
};

/// An MJCF equality constraint (`<equality>`: connect, weld, joint), read and kept beside the model, which
/// stays a tree (docs/mjcf.md#equality-constraints). Numbers as MuJoCo 2.2.2 stores them in eq_solref,
/// eq_solimp and eq_data, with treedyn's quaternion order; the defaults are MuJoCo's.
template <class Scalar>
struct Equality {
  std::string type;         ///< "connect", "weld" or "joint"
  std::string name;         ///< the MJCF name (empty when it has none)
  bool active = true;
  std::array<Scalar, 2> solref{};  ///< (timeconst, dampratio) or (−stiffness, −damping); default (0.02, 1)
  std::array<Scalar, 5> solimp{};  ///< (dmin, dmax, width, midpoint, power); default (0.9, 0.95, 0.001, 0.5, 2)
  /// connect, weld: the MJCF bodies body1 and body2 as frames of the model (model.frame(name): the treedyn
  /// body each is fixed on and ^frame X_body); an omitted body2 is the world: {"world", no_parent, 1}.
  Frame<Scalar> body1, body2;
  /// connect: the point in body1's frame held at the same place as its image in body2's (found at qpos0);
  /// weld: the point in body2's frame where the weld's wrench acts (`anchor`, default 0)
  Vector3<Scalar> anchor = Vector3<Scalar>::Zero();
  /// weld: `relpose`, body2's pose relative to body1 (the anchor's position in body1's frame and the
  /// orientation of body2 in body1's, (x, y, z, w) normalised); when the file's quaternion is zero (MuJoCo's
  /// default "0 1 0 0 0 0 0") relpose_given is false and the relative pose is the one at qpos0
  Vector3<Scalar> relpose_position = Vector3<Scalar>::Zero();
  Eigen::Matrix<Scalar, 4, 1> relpose_quaternion = Eigen::Matrix<Scalar, 4, 1>::Zero();
  bool relpose_given = false;
  Scalar torquescale = Scalar(1);  ///< weld: torque-to-force ratio of the wrench
  /// joint: indices into Loaded::joints (MuJoCo's joint ids) of joint1 and joint2 (−1 when joint2 is omitted:
  /// joint1 held at polycoef[0] + its qpos0), and polycoef: q1 − q1₀ = Σ_k polycoef[k] (q2 − q2₀)^k
  int joint1 = -1, joint2 = -1;
  std::array<Scalar, 5> polycoef{};
};

/// What load() returns: the model, the joint metadata in MuJoCo's joint order, the named sites in MuJoCo's
/// site order, the equality constraints in the file's order, and the report. A body's frame is
/// model.frame(its MJCF name); a site's is site(its MJCF name).
template <class Scalar>
struct Loaded {
  Model<Scalar> model;
  std::vector<JointInfo<Scalar>> joints;
  std::vector<SiteInfo> sites;
  std::vector<Equality<Scalar>> equalities;
  LoadReport report;

  /// The model frame of the MJCF site called `mjcf_name` (set-up call; throws std::invalid_argument naming
  /// it when there is no such site).
  [[nodiscard]] const Frame<Scalar>& site(const std::string& mjcf_name) const {
    for (const SiteInfo& s : sites)
      if (s.name == mjcf_name) return model.frame(s.frame);
    throw std::invalid_argument("treedyn::mjcf: no site '" + mjcf_name + "'");
  }
};

}  // namespace treedyn::mjcf
