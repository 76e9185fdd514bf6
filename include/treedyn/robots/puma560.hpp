// treedyn robots::puma560: the Unimation PUMA 560 arm with the Armstrong–Khatib–Burdick parameters.
//
// Citation: B. Armstrong, O. Khatib, J. Burdick, "The Explicit Dynamic Model and Inertial Parameters
// of the PUMA 560 Arm", Proc. IEEE ICRA 1986, pp. 510–518, as given in P. Corke's Robotics Toolbox for
// MATLAB, models/mdl_puma560akb.m (Corke & Armstrong-Hélouvry, ICRA 1994, compare the published sets).
// Convention: MODIFIED (Craig) DH, as in mdl_puma560akb ('modified'): link i's frame sits on joint i,
//   ^{i−1}T_i = Rx(α_{i−1}) Tx(a_{i−1}) Rz(θ_i) Tz(d_i),
// with (d_i, a_{i−1}, α_{i−1}) = (0, 0, 0), (0.2435, 0, −π/2), (−0.0934, 0.4318, 0),
// (0.4331, −0.0203, π/2), (0, 0, −π/2), (0, 0, π/2) (metres, radians), all θ offsets 0; so joint i is
// revolute about z of frame i and X_T(i) = Rx(α_{i−1}) Tx(a_{i−1}) Tz(d_i).
// Inertial data (mdl_puma560akb L(i).m, L(i).r = centre of mass in frame i, L(i).I = inertia about the
// centre of mass, axes of frame i, kg m²):
//   m = (0, 17.4, 4.8, 0.82, 0.34, 0.09) kg (total 23.45 kg);
//   r2 = (0.068, 0.006, −0.016), r3 = (0, −0.070, 0.014), r4 = (0, 0, −0.019), r6 = (0, 0, 0.032);
//   diag I: I2 = (0.13, 0.524, 0.539), I3 = (0.066, 0.0125, 0.066), I4 = (1.8e-3, 1.8e-3, 1.3e-3),
//           I5 = (0.3e-3, 0.3e-3, 0.4e-3), I6 = (0.15e-3, 0.15e-3, 0.04e-3); products of inertia 0.
// One deliberate change: link 1 is published as massless with I1 = diag(0, 0, 0.35), which breaks the
// triangle inequality (no rigid body has it) and is rejected by ModelBuilder. Link 1 turns only about
// its own z axis (joint 1 is on the fixed base) and has no mass, so only I1_zz enters the joint
// torques; we use I1 = diag(0.175, 0.175, 0.35) (a thin disc), which gives the same τ(q, q̇, q̈) and
// only changes the (unmodelled) base reaction moments.
// Not included: motor inertias Jm, gear ratios G and friction of mdl_puma560akb.
// nq = nv = 6; gravity (0, 0, −9.81) (base z up).
// Costs and allocation: building allocates the model; call it once, outside hot loops.
#pragma once

#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/robots/common.hpp"

namespace treedyn::robots {

/// The PUMA 560 with the Armstrong–Khatib–Burdick (1986) parameters (see the header comment).
template <class Scalar>
Model<Scalar> puma560() {
  using S = Scalar;
  using V = Vector3<Scalar>;
  const S half_pi = detail::pi<S>() / S(2);
  const auto diagonal = [](const S& mass, const V& com, const S& xx, const S& yy, const S& zz) {
    return detail::inertia_entries(mass, com, xx, S(0), S(0), yy, S(0), zz);
  };
  ModelBuilder<S> b;
  detail::add_dh_chain<S>(b, no_parent, {
      {S(0), S(0), S(0), diagonal(S(0), V::Zero(), S(0.175), S(0.175), S(0.35)), "link1"},
      {S(0), -half_pi, S(0.2435), diagonal(S(17.4), V(S(0.068), S(0.006), S(-0.016)), S(0.13), S(0.524), S(0.539)),
       "link2"},
      {S(0.4318), S(0), S(-0.0934), diagonal(S(4.8), V(S(0), S(-0.070), S(0.014)), S(0.066), S(0.0125), S(0.066)),
       "link3"},
      {S(-0.0203), half_pi, S(0.4331), diagonal(S(0.82), V(S(0), S(0), S(-0.019)), S(1.8e-3), S(1.8e-3), S(1.3e-3)),
       "link4"},
      {S(0), -half_pi, S(0), diagonal(S(0.34), V::Zero(), S(0.3e-3), S(0.3e-3), S(0.4e-3)), "link5"},
      {S(0), half_pi, S(0), diagonal(S(0.09), V(S(0), S(0), S(0.032)), S(0.15e-3), S(0.15e-3), S(0.04e-3)), "link6"}
  });
  return b.build();
}

}  // namespace treedyn::robots
