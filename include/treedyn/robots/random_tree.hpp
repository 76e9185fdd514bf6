// treedyn robots::random_tree: a random model from a seed, mixing every joint type, for tests.
//
// Citation: the topology is topologies::random_tree (treedyn/topology/generators.hpp; regular parent
// arrays of Featherstone (2005) eq. 2); the joint models are joint.hpp's; the random numbers come from
// treedyn::SplitMix64 (Steele, Lea, Flood, OOPSLA 2014) with integer-only reductions, so the
// sequence of draws is the same on every platform and compiler, and the same (nbodies, seed) always
// gives the same model.
// What is drawn, per builder body i (nbodies of them, parents from topologies::random_tree):
//   joint type: body 0 one of the six moving types; bodies 1..6 a random permutation of the remaining
//     six types including fixed, so every model with nbodies ≥ 7 contains all seven types
//     (revolute, prismatic, helical, spherical, planar, free flyer, fixed); later bodies any type
//     (free flyer and fixed rarer: 1/16 each);
//   axis: a uniform random direction (revolute, prismatic, helical); helical pitch in [−0.2, 0.2] m/rad;
//   tree transform: a uniform random rotation and an offset in [−0.5, 0.5]³ m;
//   inertia: mass in [0.5, 2] kg, centre of mass in [−0.2, 0.2]³ m, principal moments (a, b, c) with
//     a, b in [0.02, 0.2] kg m² and c strictly inside the triangle inequality (|a − b|, a + b),
//     principal axes a uniform random rotation.
// Bodies on fixed joints merge into their parents when the model is built (a fixed body on the base
// merges into the base), so the built model has nbodies minus the number of fixed bodies; each fixed
// body stays a named frame ("body<i>"). Angles and offsets are drawn as 24-bit integers, exact in
// every scalar; the derived rotations go through sin, cos and sqrt of the scalar type.
// random_model draws the same quantities on a given parent array (random_chain: on a chain), from a
// given set of moving joint types (see its comment).
// Costs and allocation: O(nbodies), allocates the model; for tests and benchmarks set-up only.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>
#include <stdexcept>
#include <string>

#include "treedyn/model/configuration.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/topology/generators.hpp"

namespace treedyn::robots {

namespace detail {

template <class Scalar>
Matrix3<Scalar> random_rotation(treedyn::SplitMix64& rng) {
  return treedyn::detail::quaternion_rotation(treedyn::detail::random_quaternion<Scalar>(rng));
}

template <class Scalar>
Vector3<Scalar> random_vector(treedyn::SplitMix64& rng, const Scalar& half_width) {
  Vector3<Scalar> v;
  for (int k = 0; k < 3; ++k) v(k) = treedyn::detail::uniform_real(rng, Scalar(-half_width), half_width);
  return v;
}

/// A uniform random unit vector (the first column of a uniform random rotation).
template <class Scalar>
Vector3<Scalar> random_direction(treedyn::SplitMix64& rng) {
  return random_rotation<Scalar>(rng).col(0);
}

template <class Scalar>
Joint<Scalar> random_joint(treedyn::SplitMix64& rng, JointType type) {
  switch (type) {
    case JointType::revolute: return Joint<Scalar>::revolute(random_direction<Scalar>(rng));
    case JointType::prismatic: return Joint<Scalar>::prismatic(random_direction<Scalar>(rng));
    case JointType::helical: {
      const Vector3<Scalar> axis = random_direction<Scalar>(rng);
      return Joint<Scalar>::helical(axis, treedyn::detail::uniform_real(rng, Scalar(-0.2), Scalar(0.2)));
    }
    case JointType::spherical: return Joint<Scalar>::spherical();
    case JointType::planar: return Joint<Scalar>::planar();
    case JointType::free_flyer: return Joint<Scalar>::free_flyer();
    case JointType::fixed: break;
  }
  return Joint<Scalar>::fixed();
}

template <class Scalar>
RigidInertia<Scalar> random_inertia(treedyn::SplitMix64& rng) {
  const Scalar mass = treedyn::detail::uniform_real(rng, Scalar(0.5), Scalar(2));
  const Vector3<Scalar> com = random_vector(rng, Scalar(0.2));
  const Scalar a = treedyn::detail::uniform_real(rng, Scalar(0.02), Scalar(0.2));
  const Scalar b = treedyn::detail::uniform_real(rng, Scalar(0.02), Scalar(0.2));
  const Scalar lo = (a > b) ? Scalar(a - b) : Scalar(b - a);
  const Scalar c = lo + (a + b - lo) * treedyn::detail::uniform_real(rng, Scalar(0.1), Scalar(0.9));
  const Matrix3<Scalar> R = random_rotation<Scalar>(rng);
  const Matrix3<Scalar> Ic = R * Vector3<Scalar>(a, b, c).asDiagonal() * R.transpose();
  return RigidInertia<Scalar>::from_mass_com_inertia(mass, com, Ic);
}

}  // namespace detail

/// A random model of `nbodies` builder bodies (see the header comment), a pure function of
/// (nbodies, seed). Throws std::invalid_argument if nbodies < 1.
template <class Scalar>
Model<Scalar> random_tree(int nbodies, std::uint64_t seed) {
  if (nbodies < 1)
    throw std::invalid_argument("treedyn::robots::random_tree: nbodies = " + std::to_string(nbodies) + " must be >= 1");
  const std::vector<int> lambda = topologies::random_tree(nbodies, seed);
  treedyn::SplitMix64 rng(seed ^ 0x5ee0d15ea5e5ULL);
  // body 0: a moving type; bodies 1..6: a permutation of the six others (fixed among them)
  JointType first[7] = {JointType::revolute,  JointType::prismatic,  JointType::helical, JointType::spherical,
                        JointType::planar,    JointType::free_flyer, JointType::fixed};
  {
    const int pick = rng.below(6);
    const JointType tmp = first[0];
    first[0] = first[pick];
    first[pick] = tmp;
    for (int k = 6; k > 1; --k) {  // Fisher–Yates on first[1..6]
      const int j = 1 + rng.below(k);
      const JointType t = first[k];
      first[k] = first[j];
      first[j] = t;
    }
  }
  ModelBuilder<Scalar> builder;
  for (int i = 0; i < nbodies; ++i) {
    JointType type;
    if (i < 7) {
      type = first[i];
    } else {
      const int r = rng.below(16);  // 0..4 revolute, 5..7 prismatic, 8..9 helical, 10..11 spherical,
      type = r < 5    ? JointType::revolute  // 12..13 planar, 14 free flyer, 15 fixed
             : r < 8  ? JointType::prismatic
             : r < 10 ? JointType::helical
             : r < 12 ? JointType::spherical
             : r < 14 ? JointType::planar
             : r < 15 ? JointType::free_flyer
                      : JointType::fixed;
    }
    const Joint<Scalar> joint = detail::random_joint<Scalar>(rng, type);
    const Matrix3<Scalar> R = detail::random_rotation<Scalar>(rng);
    const Vector3<Scalar> p = detail::random_vector(rng, Scalar(0.5));
    const RigidInertia<Scalar> inertia = detail::random_inertia<Scalar>(rng);
    builder.add_body(lambda[static_cast<std::size_t>(i)], joint, transform_from(R, p), inertia);
  }
  return builder.build();
}

/// A random model on the given regular parent array (validate_parent_array: lambda[i] < i; no_parent
/// for a body on the base), each joint drawn uniformly from `types` (only moving types; default:
/// revolute only), with random axes, tree transforms and inertias drawn exactly as in random_tree. A pure
/// function of (lambda, seed, types), e.g. on topologies::binary_tree for scaling studies. O(n).
/// Throws std::invalid_argument if lambda is empty or irregular, types is empty or contains
/// JointType::fixed.
template <class Scalar>
Model<Scalar> random_model(const std::vector<int>& lambda, std::uint64_t seed,
                           std::initializer_list<JointType> types = {JointType::revolute}) {
  if (lambda.empty()) throw std::invalid_argument("treedyn::robots::random_model: no bodies");
  validate_parent_array(lambda);
  if (types.size() == 0) throw std::invalid_argument("treedyn::robots::random_model: no joint types given");
  for (const JointType t : types)
    if (t == JointType::fixed)
      throw std::invalid_argument("treedyn::robots::random_model: fixed joints are not drawn here");
  const std::vector<JointType> pool(types);
  treedyn::SplitMix64 rng(seed ^ 0xc4a1d5eed0c4a1dULL);
  ModelBuilder<Scalar> builder;
  for (std::size_t i = 0; i < lambda.size(); ++i) {
    const JointType type = pool[static_cast<std::size_t>(rng.below(static_cast<int>(pool.size())))];
    const Joint<Scalar> joint = detail::random_joint<Scalar>(rng, type);
    const Matrix3<Scalar> R = detail::random_rotation<Scalar>(rng);
    const Vector3<Scalar> p = detail::random_vector(rng, Scalar(0.5));
    const RigidInertia<Scalar> inertia = detail::random_inertia<Scalar>(rng);
    builder.add_body(lambda[i], joint, transform_from(R, p), inertia);
  }
  return builder.build();
}

/// A random serial chain of `nbodies` bodies on a fixed base (λ(i) = i − 1): random_model on
/// topologies::chain(nbodies). For the chain-only methods (Fijany's Schur form, Fixman's method) and
/// their O(n) scaling benchmarks. Throws std::invalid_argument if nbodies < 1, types is empty or
/// contains JointType::fixed.
template <class Scalar>
Model<Scalar> random_chain(int nbodies, std::uint64_t seed,
                           std::initializer_list<JointType> types = {JointType::revolute}) {
  if (nbodies < 1)
    throw std::invalid_argument("treedyn::robots::random_chain: nbodies = " + std::to_string(nbodies) + " must be >= 1");
  return random_model<Scalar>(topologies::chain(nbodies), seed, types);
}

}  // namespace treedyn::robots
