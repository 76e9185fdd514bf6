// The types of an MJCF load (treedyn::mjcf::load): Options, the LoadReport of Diagnostics, the per-joint
// metadata MuJoCo keeps and a treedyn Model has no place for (JointInfo) and Loaded. Included by mjcf.hpp,
// whose header comment states the contract (docs/mjcf.md#what-is-read); nothing here needs tinyxml2.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
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
    ignored,             ///< an element or attribute read and not used (equality, actuator, boundmass, …)
  };
  Kind kind = Kind::ignored;
  std::string element;  ///< "body 'name'", "geom 'name'", "equality", …
  std::string what;     ///< what was done, one sentence
};

/// Every diagnostic of one load, in the order the loader met them (source, diagnostics, count(kind),
/// to_string() from detail/load_report.hpp).
struct LoadReport : treedyn::detail::ReportBase<LoadReport, Diagnostic> {
  /// The report for people, one line each, every line starting with the source: meshes first, then the
  /// inertias computed from geoms, then what was ignored.
  [[nodiscard]] std::vector<std::string> lines() const {
    using K = Diagnostic::Kind;
    std::vector<std::string> out;
    for (const K kind : {K::mesh_mass_skipped, K::inertia_from_geoms, K::ignored})
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
  bool limited = false;   ///< range applies (limited="true", or autolimits with a range given)
  Scalar range_lower = Scalar(0), range_upper = Scalar(0);  ///< radians or metres (ball: upper is the cone angle)
  Scalar ref = Scalar(0);        ///< qpos0 of a hinge or slide; folded into the tree transform
  Scalar armature = Scalar(0);   ///< added to H's diagonal by MuJoCo, not by treedyn
  Scalar damping = Scalar(0);    ///< −damping · v passive force in MuJoCo, not in treedyn
};

/// What load() returns: the model, the joint metadata in MuJoCo's joint order, and the report.
template <class Scalar>
struct Loaded {
  Model<Scalar> model;
  std::vector<JointInfo<Scalar>> joints;
  LoadReport report;
};

}  // namespace treedyn::mjcf
