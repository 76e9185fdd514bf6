// treedyn robots::humanoid30: the 30-DoF humanoid of Featherstone (2005) §6 / Fig. 6 (free-flying torso, four
// 6-DoF limbs of revolute joints), with general geometry and general inertias.
//
// Citation: Featherstone, "Efficient Factorization of the Joint Space Inertia Matrix for Branched
// Kinematic Trees", IJRR 24(6) 2005 (docs/references.md), §6 and Fig. 6: "a single rigid
// torso and four 6-DoF limbs … 25 bodies connected together by 24 revolute joints; … a floating base,
// hence 30 DoF in total; … general geometry and general inertias". The paper gives no numbers: the
// values below are treedyn's own fixed choices (no randomness at run time), made "general" on purpose:
// no joint axis, offset, centre of mass or principal inertia axis is aligned with a frame axis, every
// inertia tensor is full (non-diagonal) and satisfies the triangle inequality with a margin.
//
// Structure (body index: what): 0 torso on a free-flyer joint; limb l = 0..3 (arm_l, arm_r, leg_l,
// leg_r) occupies bodies 1 + 6l … 6 + 6l, a serial chain hanging from the torso, so the body parent
// array is topologies::humanoid(4, 6) and the expanded DoF parent array is
// expand_parent_array(topologies::humanoid(4, 6), topologies::humanoid_dofs(4, 6, 6)) (D1ᵉ = 219,
// D2ᵉ = 1039). nq = 31, nv = 30. Every limb uses the same six links (humanoid_limb_link); the legs
// are twice as heavy (mass and inertia × 2). Mass: torso 20 kg + 2 × 7.9 + 2 × 15.8 = 67.4 kg.
// Gravity (0, 0, −9.81) with the torso's z axis up at the neutral configuration.
// Costs and allocation: building allocates the model (O(25) work); call it once, outside hot loops.
#pragma once

#include <stdexcept>
#include <string>

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/robots/common.hpp"

namespace treedyn::robots {

/// One link of a humanoid30 limb: the joint (axis in the predecessor frame), the tree placement of
/// the joint relative to the previous link (position and rotation vector), and the link's inertia
/// (mass, centre of mass, principal moments about the centre of mass and the rotation vector of the
/// principal axes), all in SI units.
template <class Scalar>
struct LimbLink {
  Vector3<Scalar> axis;
  Vector3<Scalar> position;
  Vector3<Scalar> rotation;
  Scalar mass;
  Vector3<Scalar> com;
  Vector3<Scalar> moments;
  Vector3<Scalar> principal_axes;
};

namespace detail {

/// Link k = 0..5 of every humanoid30 / chain30 limb, before the limb's mass scale. Link 0's position
/// and rotation are unused: the limb attachment places it (humanoid_limb_attachment).
template <class Scalar>
LimbLink<Scalar> humanoid_limb_link(int k) {
  using S = Scalar;
  using V = Vector3<Scalar>;
  switch (k) {
    case 0: return {V(S(0.15), S(0.2), S(0.97)), V::Zero(), V::Zero(), S(2.4), V(S(0.01), S(0.02), S(-0.06)),
                    V(S(0.012), S(0.010), S(0.006)), V(S(0.1), S(-0.2), S(0.3))};
    case 1: return {V(S(0.95), S(0.1), S(-0.3)), V(S(0.015), S(-0.01), S(-0.12)), V(S(0.05), S(0.1), S(-0.08)),
                    S(1.9), V(S(-0.02), S(0.01), S(-0.11)), V(S(0.021), S(0.019), S(0.004)), V(S(-0.3), S(0.1), S(0.2))};
    case 2: return {V(S(0.2), S(0.9), S(0.35)), V(S(-0.01), S(0.02), S(-0.24)), V(S(-0.1), S(0.05), S(0.12)),
                    S(1.5), V(S(0.015), S(-0.01), S(-0.09)), V(S(0.011), S(0.012), S(0.003)), V(S(0.2), S(0.25), S(-0.1))};
    case 3: return {V(S(-0.1), S(0.3), S(0.95)), V(S(0.02), S(0.005), S(-0.19)), V(S(0.07), S(-0.12), S(0.04)),
                    S(1.1), V(S(0.005), S(0.012), S(-0.08)), V(S(0.007), S(0.006), S(0.0018)), V(S(0.15), S(-0.05), S(0.3))};
    case 4: return {V(S(0.9), S(-0.35), S(0.25)), V(S(-0.005), S(0.01), S(-0.16)), V(S(-0.06), S(0.09), S(0.1)),
                    S(0.6), V(S(-0.008), S(0.004), S(-0.04)), V(S(0.0021), S(0.0017), S(0.0009)), V(S(-0.2), S(0.3), S(0.05))};
    case 5: return {V(S(0.3), S(0.25), S(0.92)), V(S(0.01), S(-0.015), S(-0.07)), V(S(0.12), S(0.03), S(-0.09)),
                    S(0.4), V(S(0.012), S(-0.006), S(-0.05)), V(S(0.0011), S(0.0014), S(0.0006)), V(S(0.05), S(-0.25), S(0.2))};
    default: break;
  }
  throw std::invalid_argument("treedyn::robots::humanoid_limb_link: link " + std::to_string(k) + " is not in 0..5");
}

/// Where limb l = 0..3 (arm_l, arm_r, leg_l, leg_r) is attached: the placement of its first joint.
template <class Scalar>
Transform<Scalar> humanoid_limb_attachment(int limb) {
  using S = Scalar;
  using V = Vector3<Scalar>;
  switch (limb) {
    case 0: return placement(V(S(0.03), S(0.21), S(0.42)), V(S(0.3), S(0.1), S(0.05)));
    case 1: return placement(V(S(0.03), S(-0.21), S(0.42)), V(S(-0.3), S(0.1), S(-0.05)));
    case 2: return placement(V(S(-0.01), S(0.11), S(-0.08)), V(S(0.08), S(-0.04), S(0.1)));
    case 3: return placement(V(S(-0.01), S(-0.11), S(-0.08)), V(S(-0.08), S(-0.04), S(-0.1)));
    default: break;
  }
  throw std::invalid_argument("treedyn::robots::humanoid_limb_attachment: limb " + std::to_string(limb) +
                              " is not in 0..3");
}

/// Mass scale of limb l: 1 for the arms, 2 for the legs.
template <class Scalar>
Scalar humanoid_limb_scale(int limb) {
  return limb < 2 ? Scalar(1) : Scalar(2);
}

inline const char* humanoid_limb_name(int limb) {
  static const char* const names[4] = {"arm_l", "arm_r", "leg_l", "leg_r"};
  return names[limb];
}

/// The torso: 20 kg, centre of mass off every axis, principal axes tilted.
template <class Scalar>
RigidInertia<Scalar> humanoid_torso_inertia() {
  using S = Scalar;
  using V = Vector3<Scalar>;
  return inertia_principal(S(20), V(S(0.012), S(-0.004), S(0.18)), V(S(0.62), S(0.54), S(0.21)),
                           V(S(0.04), S(-0.03), S(0.02)));
}

/// Adds link k of limb `limb` hanging from `parent` through `X_tree`; returns its body index.
template <class Scalar>
int add_limb_link(ModelBuilder<Scalar>& builder, int parent, int limb, int k, const Transform<Scalar>& X_tree) {
  const LimbLink<Scalar> link = humanoid_limb_link<Scalar>(k);
  const Scalar scale = humanoid_limb_scale<Scalar>(limb);
  return builder.add_body(parent, Joint<Scalar>::revolute(link.axis), X_tree,
                          inertia_principal(Scalar(scale * link.mass), link.com, Vector3<Scalar>(scale * link.moments),
                                            link.principal_axes),
                          std::string(humanoid_limb_name(limb)) + "_" + std::to_string(k + 1));
}

/// The tree transform of link k ≥ 1 relative to link k − 1.
template <class Scalar>
Transform<Scalar> humanoid_link_offset(int k) {
  const LimbLink<Scalar> link = humanoid_limb_link<Scalar>(k);
  return placement(link.position, link.rotation);
}

}  // namespace detail

/// The 30-DoF humanoid of Featherstone (2005) §6 (see the header comment). Body parent array
/// topologies::humanoid(4, 6); nq = 31, nv = 30; total mass 67.4 kg.
namespace detail {

/// The torso and the four 6-link limbs; each limb hangs from the torso (branched = true: humanoid30) or
/// from the previous limb's last link (branched = false: chain30).
template <class Scalar>
Model<Scalar> humanoid_bodies(bool branched) {
  ModelBuilder<Scalar> builder;
  const int torso = builder.add_body(no_parent, Joint<Scalar>::free_flyer(), Transform<Scalar>::identity(),
                                     humanoid_torso_inertia<Scalar>(), "torso");
  int parent = torso;
  for (int limb = 0; limb < 4; ++limb) {
    if (branched) parent = torso;
    for (int k = 0; k < 6; ++k) {
      const Transform<Scalar> X_tree = (k == 0) ? humanoid_limb_attachment<Scalar>(limb) : humanoid_link_offset<Scalar>(k);
      parent = add_limb_link(builder, parent, limb, k, X_tree);
    }
  }
  return builder.build();
}

}  // namespace detail

template <class Scalar>
Model<Scalar> humanoid30() {
  return detail::humanoid_bodies<Scalar>(true);
}

}  // namespace treedyn::robots
