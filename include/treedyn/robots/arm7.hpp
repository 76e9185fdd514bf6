// treedyn robots::arm7: a 7-revolute serial arm with published inertial parameters, the Franka Emika
// Panda as identified by Gaz et al. 2019.
//
// Citation (inertial parameters): C. Gaz, M. Cognetti, A. Oliva, P. Robuffo Giordano, A. De Luca,
// "Dynamic Identification of the Franka Emika Panda Robot With Retrieval of Feasible Parameters Using
// Penalty-Based Optimization", IEEE Robotics and Automation Letters 4(4):4147–4154, 2019, supplementary
// material Tables VIII–IX (masses, centres of mass in the link frames, inertia tensors about the
// centres of mass with axes parallel to the link frames), as transcribed by the authors in
// github.com/marcocognetti/FrankaEmikaPandaDynModel, matlab/ConvertDynPars2VREP/DynPars2VREP.m
// (arrays m, CoM_l, Il with Il rows = Ixx Ixy Ixz Iyy Iyz Izz). Link 1's centre of mass along its
// axis (z) is not identifiable from joint torques and is 0 in that table; it is kept at 0.
// Citation (kinematics): the same repository, matlab/utils/Load_Franka_DH.m, i.e. Franka's modified
// (Craig) DH table: d = (0.333, 0, 0.316, 0, 0.384, 0, 0, 0.107), a_{i−1} = (0, 0, 0, 0.0825, −0.0825,
// 0, 0.088, 0), α_{i−1} = (0, −π/2, π/2, π/2, −π/2, π/2, π/2, 0); the 8th row is the flange, here a
// massless fixed body merged into link 7 and kept as the named frame "flange".
// Link i's frame is the modified-DH frame i (z = joint i axis), so joint i is revolute about z and
// X_T(i) = Rx(α_{i−1}) Tx(a_{i−1}) Tz(d_i). Not included: motor (armature) inertias and friction.
// nq = nv = 7; total mass 16.062132 kg; gravity (0, 0, −9.81) (base z up).
// Costs and allocation: building allocates the model; call it once, outside hot loops.
#pragma once

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/robots/common.hpp"

namespace treedyn::robots {

/// The Franka Emika Panda arm with the Gaz et al. (2019) parameters (see the header comment).
template <class Scalar>
Model<Scalar> arm7() {
  using S = Scalar;
  using V = Vector3<Scalar>;
  const S half_pi = detail::pi<S>() / S(2);
  ModelBuilder<S> b;
  const int link7 = detail::add_dh_chain<S>(b, no_parent, {
      {S(0), S(0), S(0.333),
       detail::inertia_entries(S(4.970684), V(S(3.875e-03), S(2.081e-03), S(0)),  //
                               S(7.0337e-01), S(-1.3900e-04), S(6.7720e-03), S(7.0661e-01), S(1.9169e-02),
                               S(9.1170e-03)),
       "link1"},
      {S(0), -half_pi, S(0),
       detail::inertia_entries(S(0.646926), V(S(-3.141e-03), S(-2.872e-02), S(3.495e-03)),  //
                               S(7.9620e-03), S(-3.9250e-03), S(1.0254e-02), S(2.8110e-02), S(7.0400e-04),
                               S(2.5995e-02)),
       "link2"},
      {S(0), half_pi, S(0.316),
       detail::inertia_entries(S(3.228604), V(S(2.7518e-02), S(3.9252e-02), S(-6.6502e-02)),  //
                               S(3.7242e-02), S(-4.7610e-03), S(-1.1396e-02), S(3.6155e-02), S(-1.2805e-02),
                               S(1.0830e-02)),
       "link3"},
      {S(0.0825), half_pi, S(0),
       detail::inertia_entries(S(3.587895), V(S(-5.317e-02), S(1.04419e-01), S(2.7454e-02)),  //
                               S(2.5853e-02), S(7.7960e-03), S(-1.3320e-03), S(1.9552e-02), S(8.6410e-03),
                               S(2.8323e-02)),
       "link4"},
      {S(-0.0825), -half_pi, S(0.384),
       detail::inertia_entries(S(1.225946), V(S(-1.1953e-02), S(4.1065e-02), S(-3.8437e-02)),  //
                               S(3.5549e-02), S(-2.1170e-03), S(-4.0370e-03), S(2.9474e-02), S(2.2900e-04),
                               S(8.6270e-03)),
       "link5"},
      {S(0), half_pi, S(0),
       detail::inertia_entries(S(1.666555), V(S(6.0149e-02), S(-1.4117e-02), S(-1.0517e-02)),  //
                               S(1.9640e-03), S(1.0900e-04), S(-1.1580e-03), S(4.3540e-03), S(3.4100e-04),
                               S(5.4330e-03)),
       "link6"},
      {S(0.088), half_pi, S(0),
       detail::inertia_entries(S(7.35522e-01), V(S(1.0517e-02), S(-4.252e-03), S(6.1597e-02)),  //
                               S(1.2516e-02), S(-4.2800e-04), S(-1.1960e-03), S(1.0027e-02), S(-7.4100e-04),
                               S(4.8150e-03)),
       "link7"}
  });
  b.add_body(link7, Joint<S>::fixed(), detail::modified_dh(S(0), S(0), S(0.107)), RigidInertia<S>::zero(), "flange");
  return b.build();
}

}  // namespace treedyn::robots
