// kinetic_energy / potential_energy: T = ½ q̇ᵀ H q̇ by one outward velocity pass (H is never formed) and
// V = −Σ m_i gᵀ p_i with the model's gravity g.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Chapter 2 (the kinetic energy of a rigid body,
// ½ vᵀ I v) and Chapter 6 (T = Σ ½ v_iᵀ I_i v_i = ½ q̇ᵀ H q̇; section numbers not checked against the book);
// the velocity pass is rnea.hpp R4–R5
// (docs/centroidal.md#energies):
//   E1  for i = 1..N:  v_i = X_i v_λ(i) + S_i q̇_i;   T += ½ v_iᵀ I_i v_i     (body coordinates)
//   E2  for i = 1..N:  ^i X_0 = ^i X_λ(i) ^λ(i) X_0;  V −= gᵀ (m_i o_i + E_iᵀ h_i)   (p_i = o_i + E_iᵀ c_i)
// V is zero with every body's centre of mass at the world origin's height (along g), as Pinocchio's
// computePotentialEnergy; T as its computeKineticEnergy.
// Contract: q (nq), q̇ (nv); checked, finite. kinetic_energy writes data.Xup, data.v and
// data.kinetic_energy; potential_energy writes data.Xup, data.X_world and data.potential_energy. Each
// returns the status (also in data.config_status); a zero quaternion or a non-finite input sets its energy
// to NaN. Cost O(N). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"

namespace treedyn {

/// T(q, q̇) = ½ q̇ᵀ H(q) q̇ into data.kinetic_energy. Returns the status.
template <class Scalar, int N, class Dq, class Dv>
Status kinetic_energy(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                      const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "kinetic_energy";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::dof_vector_ok(fn, "qd", model, qd)))
    return Status::invalid_argument(fn);
  if (!detail::joint_transforms(model, data, q, fn) || !detail::finite_ok(fn, "qd", qd, data.config_status)) {
    data.kinetic_energy = detail::nan<Scalar>();
    return data.config_status;
  }
  Scalar twice(0);
  for (int i = 0; i < model.nbodies(); ++i) {                                               // E1
    const detail::BodyVelocity<Scalar> bv = detail::body_velocity(model, data, qd, i);
    const Vector3<Scalar>& w = bv.v.w;
    const Vector3<Scalar>& v = bv.v.v;
    const RigidInertia<Scalar>& I = model.inertia(i);
    twice += w.dot(Vector3<Scalar>(I.I * w + detail::cross(I.h, v))) + v.dot(Vector3<Scalar>(I.m * v - detail::cross(I.h, w)));
  }
  data.kinetic_energy = Scalar(0.5) * twice;
  return data.config_status;
}

/// V(q) = −Σ m_i gᵀ p_i into data.potential_energy (p_i body i's centre of mass, g = model.gravity()).
/// Returns the status.
template <class Scalar, int N, class Dq>
Status potential_energy(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  constexpr const char* fn = "potential_energy";
  if (!detail::model_data_q_ok(fn, model, data, q)) return Status::invalid_argument(fn);
  if (!detail::joint_transforms(model, data, q, fn)) {
    data.potential_energy = detail::nan<Scalar>();
    return data.config_status;
  }
  detail::world_placements(model, data);                                                    // E2
  Vector3<Scalar> moment = Vector3<Scalar>::Zero();
  for (int i = 0; i < model.nbodies(); ++i) {
    const Transform<Scalar>& X = data.X_world[i];
    const RigidInertia<Scalar>& I = model.inertia(i);
    moment += I.m * X.r + detail::rotate<true>(X.E, I.h);
  }
  data.potential_energy = -model.gravity().dot(moment);
  return data.config_status;
}

}  // namespace treedyn
