// treedyn robots: shared helpers for the ready-made models (rotation vectors, modified DH, DH chains,
// inertias).
//
// Reference: modified (Craig) Denavit–Hartenberg convention, J. J. Craig, Introduction to Robotics,
// 3rd ed., Pearson 2005, §3.4: ^{i−1}T_i = Rx(α_{i−1}) Tx(a_{i−1}) Rz(θ_i) Tz(d_i); Featherstone, Rigid
// Body Dynamics Algorithms, Springer 2008, §4.2 (tree transforms X_T) and eq. 2.63 (parallel axes).
// Costs: O(1) each (add_dh_chain: O(links)); called only while a model is built. Nothing here allocates but
// add_dh_chain, through the ModelBuilder.
#pragma once

#include <cmath>
#include <initializer_list>

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn::robots::detail {

/// π in the model's scalar (4 atan 1: exact to the scalar's precision, also for extended types).
template <class Scalar>
Scalar pi() {
  using std::atan;
  return Scalar(4) * atan(Scalar(1));
}

/// The rotation matrix of a rotation vector (axis · angle); the identity for the zero vector.
template <class Scalar>
Matrix3<Scalar> rotation_from_vector(const Vector3<Scalar>& rv) {
  using std::sqrt;
  const Scalar angle2 = rv.squaredNorm();
  if (angle2 == Scalar(0)) return Matrix3<Scalar>::Identity();
  const Scalar angle = sqrt(angle2);
  return treedyn::detail::axis_rotation(Vector3<Scalar>(rv / angle), angle);
}

/// The tree transform of a frame placed at p with axes R (columns = child axes in parent
/// coordinates) given as a rotation vector.
template <class Scalar>
Transform<Scalar> placement(const Vector3<Scalar>& p, const Vector3<Scalar>& rv) {
  return transform_from(rotation_from_vector(rv), p);
}

/// The constant part of a modified-DH link transform, Rx(α_{i−1}) Tx(a_{i−1}) Tz(d_i) (Tz commutes
/// with the joint rotation Rz(θ_i), so the joint is a revolute joint about the new z axis):
/// child axes Rx(α), origin (a, −d sin α, d cos α) in the parent frame.
template <class Scalar>
Transform<Scalar> modified_dh(const Scalar& a, const Scalar& alpha, const Scalar& d) {
  using std::cos;
  using std::sin;
  const Matrix3<Scalar> R = treedyn::detail::axis_rotation(Vector3<Scalar>::UnitX().eval(), alpha);
  return transform_from(R, Vector3<Scalar>(a, -d * sin(alpha), d * cos(alpha)));
}

/// Rigid inertia from mass, centre of mass and the inertia about the centre of mass given by its
/// principal moments and the rotation vector of the principal axes (Ī_C = R diag(moments) Rᵀ).
template <class Scalar>
RigidInertia<Scalar> inertia_principal(const Scalar& mass, const Vector3<Scalar>& com, const Vector3<Scalar>& moments,
                                       const Vector3<Scalar>& axes_rv) {
  const Matrix3<Scalar> R = rotation_from_vector(axes_rv);
  const Matrix3<Scalar> Ic = R * moments.asDiagonal() * R.transpose();
  return RigidInertia<Scalar>::from_mass_com_inertia(mass, com, Ic);
}

/// Rigid inertia from mass, centre of mass and the six entries of the inertia about the centre of
/// mass (axes parallel to the body frame).
template <class Scalar>
RigidInertia<Scalar> inertia_entries(const Scalar& mass, const Vector3<Scalar>& com, const Scalar& xx,
                                     const Scalar& xy, const Scalar& xz, const Scalar& yy, const Scalar& yz,
                                     const Scalar& zz) {
  return RigidInertia<Scalar>::from_mass_com_inertia(mass, com,
                                                     Symmetric3<Scalar>::from_entries(xx, xy, yy, xz, yz, zz));
}

/// One link of a modified-DH serial chain: the constants a_{i−1}, α_{i−1}, d_i of its revolute joint about
/// its own z axis (modified_dh), its rigid inertia and its name.
template <class Scalar>
struct DhLink {
  Scalar a, alpha, d;
  RigidInertia<Scalar> inertia;
  const char* name;
};

/// Adds `links` to `b` as a serial chain hanging from `parent`, in order, each on a revolute joint about its
/// z axis placed by modified_dh(a, α, d) (the PUMA 560 and the Panda arm). Returns the index of the last
/// body added (`parent` when there is none).
template <class Scalar>
int add_dh_chain(ModelBuilder<Scalar>& b, int parent, std::initializer_list<DhLink<Scalar>> links) {
  const Joint<Scalar> z = Joint<Scalar>::revolute(Vector3<Scalar>::UnitZ());
  int i = parent;
  for (const DhLink<Scalar>& link : links)
    i = b.add_body(i, z, modified_dh(link.a, link.alpha, link.d), link.inertia, link.name);
  return i;
}

}  // namespace treedyn::robots::detail
