// treedyn robots::collinear_masses: Ascher, Pai & Cloutier's Examples 2–3, two bodies on collinear prismatic joints.
//
// Citation: U. Ascher, D. Pai, B. Cloutier, "Forward Dynamics, Elimination Methods, and Formulation
// Stiffness in Robot Simulation", 1996 (docs/references.md), Examples 2–3 and Table 2; the exact setting
// and the expected values are stated here. The paper numbers links tip → base (docs/notation.md).
// Our numbering: body 0 ("base") = the paper's link 2, mass m_base (= 1 in Table 2); body 1 ("tip") = its link 1,
// mass m_tip (the paper's m1 ∈ {1e6 … 1e9}). Both joints are prismatic along the same unit 6-vector s = [0; axis]
// (case 1: axis = e_z; case 2: axis = (0, 1, 1)/√2), the tree transform is the identity (the paper's Φ21 = I),
// gravity is zero. Each body is a point mass at its origin with a small isotropic rotational inertia:
// The paper says the link lengths are "proportional to the masses", but with Φ21 = I and a purely linear s only
// the m·1₃ block of each inertia is ever read, so lengths cannot change D or q̈.
// In exact arithmetic H = [[m_base + m_tip, m_tip], [m_tip, m_tip]], the base pivot is m_base and, for
// τ = (9.81, 981) (the paper's τ_2, τ_1), q̈_base = −971.19, q̈_tip = 981/m_tip + 971.19.
// Building allocates; call it once, outside hot loops.
#pragma once

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn::robots {

/// Two point masses on collinear prismatic joints along `axis` (normalised by the builder), no gravity.
template <class Scalar>
Model<Scalar> collinear_masses(const Scalar& m_base, const Scalar& m_tip, const Vector3<Scalar>& axis) {
  const Joint<Scalar> slide = Joint<Scalar>::prismatic(axis);
  const auto point = [](const Scalar& m) {
    return RigidInertia<Scalar>::from_mass_com_inertia(m, Vector3<Scalar>::Zero(),
                                                       Matrix3<Scalar>(Matrix3<Scalar>::Identity() * m));
  };
  ModelBuilder<Scalar> b;
  const int base = b.add_body(no_parent, slide, Transform<Scalar>::identity(), point(m_base), "base");
  b.add_body(base, slide, Transform<Scalar>::identity(), point(m_tip), "tip");
  b.set_gravity(Vector3<Scalar>::Zero());
  return b.build();
}

}  // namespace treedyn::robots
