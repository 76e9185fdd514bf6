// Converting URDF elements to treedyn's, step P4 of urdf/build_model.hpp: <origin> poses to transforms,
// <inertial> to rigid-body inertias under the inertia policy (urdf/inertia_repair.hpp), <joint> and <limit>
// to joints and limits (a planar joint re-oriented onto e_z), <mimic> to MimicJoint (the URDF
// specification: <origin>, <inertial>, <axis>, <limit>, <mimic>; docs/references.md).
// Numbers are rounded once from urdfdom's binary64 to Scalar; set-up only (allocates).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <urdf_parser/urdf_parser.h>

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/urdf/detail/xml_reading.hpp"
#include "treedyn/urdf/inertia_repair.hpp"
#include "treedyn/urdf/load_types.hpp"

namespace treedyn::urdf {
namespace detail {

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

/// P2–P3: the <mimic> relations in document order (indices are set after P5). A mimic naming the joint
/// itself is an error; one naming a joint that does not exist, or where either joint lacks one coordinate
/// (fixed, floating, planar), is reported (Kind::mimic_skipped) and skipped: the joint loads as it is.
template <class Scalar>
std::vector<MimicJoint<Scalar>> read_mimics(const Structure& s, const ::urdf::ModelInterface& robot,
                                            const std::string& source, LoadReport& report) {
  const auto one_coordinate = [](const ::urdf::Joint& j) {
    return j.type == ::urdf::Joint::REVOLUTE || j.type == ::urdf::Joint::CONTINUOUS || j.type == ::urdf::Joint::PRISMATIC;
  };
  const auto skip = [&report](const std::string& joint, const std::string& why) {
    report.diagnostics.push_back(Diagnostic{Diagnostic::Kind::mimic_skipped, "joint '" + joint + "'",
                                            why + "; the <mimic> is skipped", InertiaFault::none, 0.0});
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
    if (!followed) {
      skip(e.name, "<mimic> names joint '" + m.mimicked + "', which does not exist");
    } else if (!one_coordinate(*j)) {
      skip(e.name, "<mimic> on a joint without one coordinate (it is not revolute, continuous or prismatic)");
    } else if (!one_coordinate(*followed)) {
      skip(e.name, "<mimic> names joint '" + m.mimicked +
                       "', which is not revolute, continuous or prismatic");
    } else {
      out.push_back(std::move(m));
    }
  }
  return out;
}

}  // namespace detail
}  // namespace treedyn::urdf
