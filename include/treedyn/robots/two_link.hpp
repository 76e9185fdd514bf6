// treedyn robots::two_link: Ascher, Pai & Cloutier's planar 2-link chain of uniform rectangular links.
//
// Citation: U. Ascher, D. Pai, B. Cloutier, "Forward Dynamics, Elimination Methods, and Formulation
// Stiffness in Robot Simulation", 1996 (docs/references.md), Example 1 and Table 1;
// numbering: docs/notation.md.
// Parameters are in THE PAPER's numbering, which runs tip to base: link 1 is the DISTAL link (l1, m1),
// link 2 the base-connected one (l2, m2). Model body 0 is paper link 2 (named "link2"), body 1 is paper
// link 1 ("link1"); q(0) is the base joint, q(1) the distal one.
// Each link is a uniform rectangle of length l, width w and mass m in its body's xy-plane, lying along
// the body's x axis; its revolute joint (about z) is at its proximal end, its centre of mass at
// (l/2, 0, 0), its inertia about the centre of mass that of a thin plate: I_xx = m w²/12,
// I_yy = m l²/12, I_zz = m (l² + w²)/12. Body 1's joint sits at (l2, 0, 0) of body 0. Gravity
// (0, −9.81, 0): in the plane, perpendicular to the arm at q = 0 (arm straight along x).
// Defaults: Example 1 / Fig. 1 (l1 = 2.0, m1 = 10, l2 = 0.02, m2 = 0.1, w = 0.02). Table 1 uses
// l1 + l2 = 1, m1 + m2 = 1, l_k = m_k, w = 0.1.
// Closed form (a = base link = paper's 2, b = distal = paper's 1, c = cos q(1)):
//   H00 = I_a + m_a l_a²/4 + I_b + m_b (l_a² + l_b²/4 + l_a l_b c), H01 = I_b + m_b (l_b²/4 + l_a l_b c/2),
//   H11 = I_b + m_b l_b²/4, with I = I_zz about the centre of mass.
// nq = nv = 2. Costs and allocation: building allocates the model; call it once, outside hot loops.
#pragma once

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn::robots {

namespace detail {

/// Uniform rectangle of length l (along x), width w (along y) and mass m, joint at its x = 0 end.
template <class Scalar>
RigidInertia<Scalar> rectangle_link(const Scalar& l, const Scalar& m, const Scalar& w) {
  const Scalar xx = m * w * w / Scalar(12);
  const Scalar yy = m * l * l / Scalar(12);
  return RigidInertia<Scalar>::from_mass_com_inertia(
      m, Vector3<Scalar>(l / Scalar(2), Scalar(0), Scalar(0)),
      Symmetric3<Scalar>::from_entries(xx, Scalar(0), yy, Scalar(0), Scalar(0), xx + yy));
}

}  // namespace detail

/// Ascher, Pai & Cloutier's planar two-link chain (see the header comment); l1, m1 distal, l2, m2 base-connected.
template <class Scalar>
Model<Scalar> two_link(const Scalar& l1 = Scalar(2), const Scalar& m1 = Scalar(10), const Scalar& l2 = Scalar(0.02),
                       const Scalar& m2 = Scalar(0.1), const Scalar& width = Scalar(0.02)) {
  const Joint<Scalar> z = Joint<Scalar>::revolute(Vector3<Scalar>::UnitZ());
  ModelBuilder<Scalar> b;
  const int base_link = b.add_body(no_parent, z, Transform<Scalar>::identity(), detail::rectangle_link(l2, m2, width),
                                   "link2");
  b.add_body(base_link, z, xlt(Vector3<Scalar>(l2, Scalar(0), Scalar(0))), detail::rectangle_link(l1, m1, width),
             "link1");
  b.set_gravity(Vector3<Scalar>(Scalar(0), Scalar(-9.81), Scalar(0)));
  return b.build();
}

}  // namespace treedyn::robots
