// treedyn Joint: the library's joint models (XJ(q), constant motion subspace S, nq / nv).
//
// Reference: docs/notation.md (S_i); Featherstone, Rigid Body Dynamics Algorithms, Springer
// 2008, Table 4.1. Library convention: S is constant in the successor (child) frame for every joint, and
// velocities are body-frame quantities, so c_J = Ṡ q̇ = 0 for all of them.
//
//   joint        nq/nv  q                          XJ(q) = ^successor X_predecessor           S (columns)
//   revolute     1/1    angle about unit axis a    rot(R(a, q)ᵀ)                              [a; 0]
//   prismatic    1/1    displacement along a       xlt(q a)                                   [0; a]
//   helical      1/1    angle, pitch p (m/rad)     (R(a, q)ᵀ, p q a)                          [a; p a]
//   spherical    4/3    quaternion (x,y,z,w) ¹       rot(R(quat)ᵀ)                              [1₃; 0]
//   planar       3/3    (x, y, θ) in the xy-plane  rot(Rz(θ)ᵀ)·xlt([x, y, 0])                 [0; e_x], [0; e_y], [e_z; 0]
//   free_flyer   7/6    (p, quaternion x,y,z,w)    (R(quat)ᵀ, p)                              1₆ (v = [ω; v_O])
//   fixed        0/0    —                          identity (merged into the parent at build)  —
// ¹ (spherical and free flyer) The quaternion is normalised on use: any nonzero finite quaternion stands
//   for the rotation of q / |q|, at the cost of one square root per joint. A zero or non-finite one has no
//   rotation: configuration_ok() is false for it, and the algorithms report it as
//   FactorStatus::invalid_configuration naming the body, with NaN outputs.
// R(a, q) is the rotation by q about a (Rodrigues); its columns are the child axes in parent coordinates.
// A helical joint with p = 0 gives bit for bit the revolute joint's transform and subspace.
// Joints are dispatched by a plain switch (no variant machinery, which would cost compile time).
// Everything is fixed-size and noexcept; nothing allocates. Axis validity (finite, non-zero; it is
// normalised) is checked by ModelBuilder, which throws std::invalid_argument naming the body.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "treedyn/detail/scalar.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn {

enum class JointType : unsigned char { fixed, revolute, prismatic, helical, spherical, planar, free_flyer };

/// A joint's motion subspace: 6 × nv with nv ≤ 6, stored inline (no heap).
template <class Scalar>
using MotionSubspace = Eigen::Matrix<Scalar, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;

namespace detail {

/// R(a, angle) = cos·1 + sin·a× + (1 − cos)·a aᵀ for a unit axis a (Rodrigues), entry by entry.
template <class Scalar>
Matrix3<Scalar> axis_rotation(const Vector3<Scalar>& a, const Scalar& angle) noexcept {
  using std::cos;
  using std::sin;
  const Scalar c = cos(angle), s = sin(angle), one_c = Scalar(1) - c;
  const Matrix3<Scalar> ax = skew(a);
  Matrix3<Scalar> R;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) R(i, j) = one_c * (a(i) * a(j)) + s * ax(i, j);
  for (int i = 0; i < 3; ++i) R(i, i) += c;
  return R;
}

/// Rotation matrix of the quaternion stored as (x, y, z, w) in q[0..3], normalised on use: any nonzero
/// finite quaternion gives the rotation of q / |q| (a zero one is rejected by Joint::configuration_ok).
/// With (x, y, z, w) unit: R = 1 − 2 (v·v 1 − v vᵀ) + 2 w v×, v = (x, y, z), entry by entry.
template <class Derived>
Matrix3<typename Derived::Scalar> quaternion_rotation(const Eigen::MatrixBase<Derived>& q) noexcept {
  using Scalar = typename Derived::Scalar;
  using std::sqrt;
  const Scalar n2 = q(0) * q(0) + q(1) * q(1) + q(2) * q(2) + q(3) * q(3);
  const Scalar inv = Scalar(1) / Scalar(sqrt(n2));
  const Scalar x = q(0) * inv, y = q(1) * inv, z = q(2) * inv, w = q(3) * inv;
  const Scalar tx = Scalar(2) * x, ty = Scalar(2) * y, tz = Scalar(2) * z;
  const Scalar twx = tx * w, twy = ty * w, twz = tz * w;
  const Scalar txx = tx * x, txy = ty * x, txz = tz * x, tyy = ty * y, tyz = tz * y, tzz = tz * z;
  Matrix3<Scalar> R;
  R(0, 0) = Scalar(1) - (tyy + tzz);
  R(0, 1) = txy - twz;
  R(0, 2) = txz + twy;
  R(1, 0) = txy + twz;
  R(1, 1) = Scalar(1) - (txx + tzz);
  R(1, 2) = tyz - twx;
  R(2, 0) = txz - twy;
  R(2, 1) = tyz + twx;
  R(2, 2) = Scalar(1) - (txx + tyy);
  return R;
}

}  // namespace detail

template <class Scalar>
struct Joint {
  JointType type = JointType::fixed;
  Vector3<Scalar> axis = Vector3<Scalar>::UnitZ();  ///< unit axis (revolute, prismatic, helical)
  Scalar pitch = Scalar(0);                         ///< helical pitch, metres per radian

  static Joint revolute(const Vector3<Scalar>& a) { return Joint{JointType::revolute, a, Scalar(0)}; }
  static Joint prismatic(const Vector3<Scalar>& a) { return Joint{JointType::prismatic, a, Scalar(0)}; }
  static Joint helical(const Vector3<Scalar>& a, const Scalar& p) { return Joint{JointType::helical, a, p}; }
  static Joint spherical() { return Joint{JointType::spherical, Vector3<Scalar>::UnitZ(), Scalar(0)}; }
  static Joint planar() { return Joint{JointType::planar, Vector3<Scalar>::UnitZ(), Scalar(0)}; }
  static Joint free_flyer() { return Joint{JointType::free_flyer, Vector3<Scalar>::UnitZ(), Scalar(0)}; }
  static Joint fixed() { return Joint{JointType::fixed, Vector3<Scalar>::UnitZ(), Scalar(0)}; }

  /// Configuration dimension.
  [[nodiscard]] int nq() const noexcept {
    switch (type) {
      case JointType::fixed: return 0;
      case JointType::revolute:
      case JointType::prismatic:
      case JointType::helical: return 1;
      case JointType::spherical: return 4;
      case JointType::planar: return 3;
      case JointType::free_flyer: return 7;
    }
    return 0;
  }
  /// Velocity dimension (degrees of freedom).
  [[nodiscard]] int nv() const noexcept {
    switch (type) {
      case JointType::fixed: return 0;
      case JointType::revolute:
      case JointType::prismatic:
      case JointType::helical: return 1;
      case JointType::spherical:
      case JointType::planar: return 3;
      case JointType::free_flyer: return 6;
    }
    return 0;
  }
  /// True when q lives on a manifold (quaternion): integrate / difference are not plain +/−.
  [[nodiscard]] bool has_quaternion() const noexcept {
    return type == JointType::spherical || type == JointType::free_flyer;
  }
  /// False when this joint's configuration segment q (nq entries) holds a quaternion that is zero or not
  /// finite (detail::quaternion_ok); such a q has no rotation. Any other q is accepted (a nonzero quaternion
  /// is normalised on use). Always true for a symbolic Scalar, whose values cannot be checked.
  template <class Derived>
  [[nodiscard]] bool configuration_ok(const Eigen::MatrixBase<Derived>& q) const noexcept {
    if (!has_quaternion()) return true;
    const int k = type == JointType::spherical ? 0 : 3;  // the quaternion's first entry
    return detail::quaternion_ok(Scalar(q(k) * q(k) + q(k + 1) * q(k + 1) + q(k + 2) * q(k + 2) + q(k + 3) * q(k + 3)));
  }
  [[nodiscard]] const char* type_name() const noexcept {
    switch (type) {
      case JointType::fixed: return "fixed";
      case JointType::revolute: return "revolute";
      case JointType::prismatic: return "prismatic";
      case JointType::helical: return "helical";
      case JointType::spherical: return "spherical";
      case JointType::planar: return "planar";
      case JointType::free_flyer: return "free_flyer";
    }
    return "unknown";
  }

  /// XJ(q) = ^successor X_predecessor for this joint's configuration segment q (nq entries).
  template <class Derived>
  [[nodiscard]] Transform<Scalar> transform(const Eigen::MatrixBase<Derived>& q) const noexcept {
    using std::cos;
    using std::sin;
    switch (type) {
      case JointType::revolute:
        return Transform<Scalar>{detail::axis_rotation(axis, Scalar(q(0))).transpose(), Vector3<Scalar>::Zero()};
      case JointType::prismatic:
        return Transform<Scalar>{Matrix3<Scalar>::Identity(), axis * q(0)};
      case JointType::helical:
        return Transform<Scalar>{detail::axis_rotation(axis, Scalar(q(0))).transpose(), axis * (pitch * q(0))};
      case JointType::spherical:
        return Transform<Scalar>{detail::quaternion_rotation(q.template head<4>()).transpose(), Vector3<Scalar>::Zero()};
      case JointType::planar: {
        const Scalar c = cos(Scalar(q(2))), s = sin(Scalar(q(2)));
        Matrix3<Scalar> E;  // Rz(θ)ᵀ
        E << c, s, Scalar(0), -s, c, Scalar(0), Scalar(0), Scalar(0), Scalar(1);
        return Transform<Scalar>{E, Vector3<Scalar>(q(0), q(1), Scalar(0))};
      }
      case JointType::free_flyer:
        return Transform<Scalar>{detail::quaternion_rotation(q.template segment<4>(3)).transpose(),
                                 q.template head<3>()};
      case JointType::fixed: break;
    }
    return Transform<Scalar>::identity();
  }

  /// S: the constant motion subspace in successor coordinates, 6 × nv.
  [[nodiscard]] MotionSubspace<Scalar> motion_subspace() const noexcept {
    MotionSubspace<Scalar> S = MotionSubspace<Scalar>::Zero(6, nv());
    switch (type) {
      case JointType::revolute: S.col(0).template head<3>() = axis; break;
      case JointType::prismatic: S.col(0).template tail<3>() = axis; break;
      case JointType::helical:
        S.col(0).template head<3>() = axis;
        S.col(0).template tail<3>() = pitch * axis;
        break;
      case JointType::spherical: S.template topRows<3>().setIdentity(); break;
      case JointType::planar:
        S(3, 0) = Scalar(1);
        S(4, 1) = Scalar(1);
        S(2, 2) = Scalar(1);
        break;
      case JointType::free_flyer: S.setIdentity(); break;
      case JointType::fixed: break;
    }
    return S;
  }

  template <class NewScalar>
  [[nodiscard]] Joint<NewScalar> cast() const {
    return Joint<NewScalar>{type, axis.template cast<NewScalar>(), NewScalar(pitch)};
  }
};

/// A 1-DoF joint folded with its constant tree transform X_T = (E_T, r_T), so that the body transform
/// ^i X_λ(i) = XJ(q) · X_T costs 18 multiply-adds after sin/cos instead of Rodrigues plus a composition.
/// With R(a, q)ᵀ = cos q·1 − sin q·a× + (1 − cos q)·a aᵀ and compose (E2, r2)·(E1, r1) = (E2 E1, r1 + E1ᵀ r2):
///   E = R(a, q)ᵀ E_T = Q + cos q·M − sin q·P    with P = a× E_T, Q = a aᵀ E_T, M = E_T − Q
///   r = r_T + (p q + d q) E_Tᵀ a               (p: helical pitch; d = 1 for a prismatic joint, 0 otherwise)
/// Built once with the model; never allocates.
template <class Scalar>
struct JointPlacement {
  JointType type = JointType::fixed;
  Matrix3<Scalar> P, Q, M;     ///< revolute / helical
  Vector3<Scalar> r_T, E_Ta;   ///< r_T and E_Tᵀ a
  Matrix3<Scalar> E_T;         ///< prismatic
  Scalar pitch = Scalar(0);

  static JointPlacement make(const Joint<Scalar>& joint, const Transform<Scalar>& X_T) {
    JointPlacement out;
    out.type = joint.type;
    out.E_T = X_T.E;
    out.r_T = X_T.r;
    out.E_Ta = X_T.E.transpose() * joint.axis;
    out.P = skew(joint.axis) * X_T.E;
    out.Q = joint.axis * (joint.axis.transpose() * X_T.E);
    out.M = X_T.E - out.Q;
    out.pitch = joint.pitch;
    return out;
  }

  /// True when transform() below applies (revolute, helical and prismatic joints).
  [[nodiscard]] bool is_one_dof() const noexcept {
    return type == JointType::revolute || type == JointType::helical || type == JointType::prismatic;
  }

  /// ^i X_λ(i) for a 1-DoF joint at angle / displacement q (equal to joint.transform(q) * X_T).
  [[nodiscard]] Transform<Scalar> transform(const Scalar& q) const noexcept {
    using std::cos;
    using std::sin;
    if (type == JointType::prismatic) return Transform<Scalar>{E_T, r_T + q * E_Ta};
    const Scalar c = cos(q), s = sin(q);
    Transform<Scalar> X{Q, r_T};
    X.E += c * M - s * P;
    if (type == JointType::helical) X.r += (pitch * q) * E_Ta;
    return X;
  }
};

}  // namespace treedyn
