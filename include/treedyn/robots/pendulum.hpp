// treedyn robots::pendulum: the multi-link pendulum benchmark of Jain (n.d.) §8.
//
// Citation: A. Jain, "Minimal Coordinates Formulation of Contact Dynamics" (docs/references.md),
// §8: "n identical 1kg mass spherical bodies connected with pin hinges.
// The radius of the sphere is scaled based on the number of links to maintain a 12m overall length of
// the pendulum. The pendulum base is located at a height of 10m".
// Model: n spheres of mass 1 kg and radius r = 12/(2n) m, solid-sphere inertia (2/5) m r² about the
// centre (the paper does not give it: an assumption). The world is x horizontal, y up (the
// floor is y = 0, the wall x = 4), motion in the xy-plane, so every hinge is revolute about z. Sphere
// 0's hinge is fixed at (0, 10, 0); each body frame sits on its hinge with axes parallel to the
// parent's; at q = 0 the pendulum hangs straight down: sphere k's centre is r below its hinge
// ((0, −r, 0) in its frame) and sphere k + 1's hinge, the contact point of the two spheres, is 2r
// below ((0, −2r, 0)). q(k) is the angle of sphere k relative to sphere k − 1, positive
// counter-clockwise about z (towards +x, the wall, when moving up from hanging). Gravity
// (0, −9.8, 0) (the paper's 9.8, not 9.81). The paper's initial state (π/4 away from the wall, base hinge at
// 1 rad/s towards it) is left to the caller. nq = nv = n; total mass n kg.
// Costs and allocation: building allocates the model; call it once, outside hot loops.
#pragma once

#include <stdexcept>
#include <string>

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn::robots {

/// The n-link pendulum of touching 1 kg spheres of Jain (n.d.) §8 (see the header comment); n ≥ 1.
template <class Scalar>
Model<Scalar> pendulum(int n) {
  if (n < 1) throw std::invalid_argument("treedyn::robots::pendulum: n = " + std::to_string(n) + " must be >= 1");
  const Scalar r = Scalar(12) / Scalar(2 * n);
  const Scalar m = Scalar(1);
  const Scalar I = Scalar(2) / Scalar(5) * m * r * r;
  const Joint<Scalar> z = Joint<Scalar>::revolute(Vector3<Scalar>::UnitZ());
  const RigidInertia<Scalar> sphere = RigidInertia<Scalar>::from_mass_com_inertia(
      m, Vector3<Scalar>(Scalar(0), -r, Scalar(0)), Symmetric3<Scalar>::identity() * I);
  ModelBuilder<Scalar> b;
  int parent = no_parent;
  for (int k = 0; k < n; ++k) {
    const Vector3<Scalar> hinge = (k == 0) ? Vector3<Scalar>(Scalar(0), Scalar(10), Scalar(0))
                                           : Vector3<Scalar>(Scalar(0), Scalar(-2) * r, Scalar(0));
    parent = b.add_body(parent, z, xlt(hinge), sphere, "sphere" + std::to_string(k));
  }
  b.set_gravity(Vector3<Scalar>(Scalar(0), Scalar(-9.8), Scalar(0)));
  return b.build();
}

}  // namespace treedyn::robots
