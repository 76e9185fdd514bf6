// treedyn robots::chain30: the "equivalent unbranched chain" of Featherstone (2005) §6: the humanoid30 torso on a
// free-flyer joint followed by 24 revolute joints in series.
//
// Citation: Featherstone, IJRR 24(6) 2005 (docs/references.md), §6: "an unbranched chain
// with a floating base at one end … Both systems have 25 bodies connected together by 24 revolute
// joints; both have a floating base, hence 30 DoF in total; … the only relevant difference between
// them is that one is branched and the other is not." To keep the two comparable, chain30 reuses
// humanoid30's bodies exactly (robots/humanoid30.hpp): the same torso, and the four limbs' links with
// the same joints, inertias and link offsets, but limb l + 1 is attached, through limb l + 1's
// attachment transform, to the last link of limb l instead of to the torso.
// Body parent array topologies::chain(25); nq = 31, nv = 30; total mass 67.4 kg (as humanoid30).
// Costs and allocation: building allocates the model; call it once, outside hot loops.
#pragma once

#include "treedyn/robots/humanoid30.hpp"

namespace treedyn::robots {

/// The unbranched 30-DoF chain of Featherstone (2005) §6 built from humanoid30's bodies (see the header comment).
template <class Scalar>
Model<Scalar> chain30() {
  return detail::humanoid_bodies<Scalar>(false);
}

}  // namespace treedyn::robots
