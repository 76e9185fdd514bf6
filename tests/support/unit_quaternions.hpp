// unit_quaternions: q with every spherical and free-flyer quaternion normalised (the same placements). A
// state rounded to float has quaternions of norm 1 ± ε_float: the kinematics normalise them on use, but
// integrate's free-flyer step rotates the position by the quaternion as stored, which would tilt the curve
// q(t) = integrate(q, t q̇) by ~ε_float; a high-precision finite-difference reference starts from these.
#pragma once

#include "treedyn/model/model.hpp"

namespace treedyn::test {

template <class S, int N, class Vec>
Vec unit_quaternions(const Model<S, N>& m, Vec q) {
  for (int i = 0; i < m.nbodies(); ++i) {
    const JointType t = m.joint(i).type;
    if (t != JointType::spherical && t != JointType::free_flyer) continue;
    const int iq = m.q_offset(i) + (t == JointType::free_flyer ? 3 : 0);
    q.template segment<4>(iq) /= S(q.template segment<4>(iq).norm());
  }
  return q;
}

}  // namespace treedyn::test
