// The time step of free joints as rigid motions (docs/contact.md#free-joints): the steps T4 and T6 of
// contact_step (contact/contact_step.hpp) for the free-flyer joints of a model.
//
// A free joint's velocity is v = [ω; v_O] in the coordinates of the moving body frame, and its joint
// acceleration is their derivative: v̇_O = a_O − ω × v_O, with a_O the (classical) acceleration of the
// frame's origin (Featherstone, Rigid Body Dynamics Algorithms, 2008, §2.11; docs/references.md). A step
// that adds Δt v̇_O to v_O and then moves the body along the constant body twist Δt [ω; v_O] (integrate,
// model/configuration.hpp: the SE(3) exponential, a screw motion) treats −ω × v_O twice, once explicitly
// and once by turning v_O with the body: |v_O| grows by √(1 + (|ω|Δt)²) per step when v_O ⟂ ω, and the
// origin moves on a helix instead of a straight line.
//
// Instead, a free joint's velocity is carried through the step in the coordinates of the body frame at
// the start of the step (a frame that does not turn during the step), where it changes by the classical
// acceleration only:
//   T4  v_O ← v_O + Δt (v̇_O + ω⁻ × v_O⁻)   (= v_O + Δt a_O; ω̇ unchanged: ω × ω = 0)
//   T5  the contact impulses (they act at the configuration of the start of the step: the same frame)
//   T6  p⁺ = p + Δt R v_O⁺ (a straight line),  quat⁺ = quat ⊗ exp(Δt ω⁺),  v_O⁺ ← exp(Δt ω⁺)ᵀ v_O⁺
//       (the same vector in the new body frame; ω⁺ is unchanged by its own rotation).
// This is symplectic (semi-implicit) Euler on SO(3) × R³, first order like the rest of the step. For a
// free body whose centre of mass is the joint's origin, in free flight: the world velocity of the centre
// of mass changes by exactly Δt g (constant linear momentum without gravity), |v_O| is only rotated, and a
// body spinning about a principal axis (or with an isotropic inertia: a sphere) keeps ω, so |ω| and the
// kinetic energy are kept to round-off per step for any Δt. A general asymmetric spin keeps the explicit
// Euler step of Euler's equations ω̇ = −I⁻¹(ω × Iω) from the ABA (its energy error O(Δt²) per step).
// Other joints are unchanged: T6 is their integrate step, taken joint by joint beside the free ones.
#pragma once

#include <Eigen/Core>

#include "treedyn/model/configuration.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/lie_group.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn::detail {

/// T4 for the free joints: v_f(lin) += Δt ω⁻ × v_O⁻ (qd = θ̇⁻, the velocity the ABA's q̈ was computed at),
/// turning the body-frame derivative into the classical acceleration (file comment).
template <class Scalar, int N, class Dv, class Df>
void free_joint_classical_acceleration(const Model<Scalar, N>& model, const Eigen::MatrixBase<Dv>& qd, Scalar dt,
                                       Eigen::MatrixBase<Df>& v_free) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) {
    if (model.joint(i).type != JointType::free_flyer) continue;
    const int iv = model.v_offset(i);
    const Vector3<Scalar> w = qd.template segment<3>(iv), v = qd.template segment<3>(iv + 3);
    v_free.template segment<3>(iv + 3) += dt * w.cross(v);
  }
}

/// T6 (file comment): q_out = q⁺ and, for the free joints, v_O⁺ re-expressed in the new body frame (in v, in
/// place). A free joint moves along the straight line of R v_O and turns by exp(Δt ω); every other joint
/// takes its integrate step (model/configuration.hpp), so no free joint's SE(3) exponential is formed.
template <class Scalar, int N, class Dq, class Dv, class Do>
void contact_step_configuration(const Model<Scalar, N>& model, const Eigen::MatrixBase<Dq>& q,
                                Eigen::MatrixBase<Dv>& v, Scalar dt, Eigen::MatrixBase<Do>& q_out) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) {
    const int iq = model.q_offset(i), iv = model.v_offset(i);
    if (model.joint(i).type != JointType::free_flyer) {
      integrate_joint<Scalar>(model.joint(i).type, q, v, dt, q_out, iq, iv);
      continue;
    }
    const Quaternion4<Scalar> quat = q.template segment<4>(iq + 3);
    const Quaternion4<Scalar> turn = quaternion_exp(Vector3<Scalar>(dt * v.template segment<3>(iv)));
    const Vector3<Scalar> vo = v.template segment<3>(iv + 3);
    // quat need not be of unit length (integrate normalises its output): rotate by its normalised form
    const Quaternion4<Scalar> unit = quaternion_normalized(quat);
    q_out.template segment<3>(iq) = q.template segment<3>(iq) + dt * quaternion_rotate(unit, vo);
    q_out.template segment<4>(iq + 3) = quaternion_normalized(quaternion_multiply(quat, turn));
    v.template segment<3>(iv + 3) = quaternion_rotate(quaternion_conjugate(quaternion_normalized(turn)), vo);
  }
}

}  // namespace treedyn::detail
