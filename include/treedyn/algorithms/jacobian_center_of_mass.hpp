// jacobian_center_of_mass: the 3×n Jacobian of the centre of mass, ċ = J_c q̇, in world coordinates, in
// O(N) from the subtrees' first moments (never by summing the bodies' Jacobians).
//
// Reference: the velocity of a point p of body j when only DoF k of joint i moves (i an ancestor of j, or
// j itself) is s_v + s_ω × (p − o_i), s = [s_ω; s_v] column k of S_i about body i's origin o_i, along the
// world axes (Featherstone, Rigid Body Dynamics Algorithms, 2008, §4.4, the body Jacobian). Summed with
// weights m_j over the subtree of i (every body the joint carries), with h_s(i) = m_s(i)(c_s(i) − o_i) from
// center_of_mass.hpp M2 (docs/centroidal.md#centre-of-mass-jacobian):
//   J1  M1–M3 of center_of_mass.hpp (data.X_world, data.mass_subtree, data.h_subtree, data.com)
//   J2  for every body i, DoF k of i:  s_ω = E_iᵀ S_i,k^ω,  s_v = E_iᵀ S_i,k^v
//          J_c[:, k] = (m_s(i) s_v + s_ω × h_s(i)) / M
// Cost: N subtree accumulations and two rotations and a cross product per DoF, O(N + n), against
// Pinocchio's jacobianCenterOfMass (per-body Jacobian columns summed along each path, O(N·d)).
// Contract: q (nq, checked, finite). Writes data.Jcom (3 × nv, returned through the status) and every output
// of center_of_mass(q). A zero quaternion or a non-finite q sets them to NaN and is reported in the
// returned status (also data.config_status). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/center_of_mass.hpp"

namespace treedyn {
namespace detail {

/// J2 from data.X_world, data.mass_subtree, data.h_subtree and data.mass (after subtree_mass_moments).
template <class Scalar, int N>
void com_jacobian_columns(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  using V3 = Vector3<Scalar>;
  const Scalar inv_mass = Scalar(1) / data.mass;
  for (int i = 0; i < model.nbodies(); ++i) {
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    const Matrix3<Scalar>& E = data.X_world[i].E;
    const Scalar m = data.mass_subtree[i] * inv_mass;
    const V3 h = data.h_subtree[i] * inv_mass;
    for (int c = 0; c < S.cols(); ++c) {
      const MotionHalves<Scalar> s = world_subspace_column(E, S, c);
      data.Jcom.col(model.v_offset(i) + c) = m * s.v + cross(s.w, h);
    }
  }
}

}  // namespace detail

/// J_c(q) into data.Jcom (3 × nv, world coordinates), with the centre of mass (center_of_mass(q)'s
/// outputs). Returns the status.
template <class Scalar, int N, class Dq>
Status jacobian_center_of_mass(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                               const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  constexpr const char* fn = "jacobian_center_of_mass";
  bool arguments_ok = false;
  const Eigen::MatrixBase<Dq>* none = nullptr;
  if (!detail::com_prologue(fn, model, data, q, none, none, arguments_ok)) {                // J1
    if (!arguments_ok) return Status::invalid_argument(fn);
    detail::fill_nan(data.Jcom);
    return data.config_status;
  }
  detail::com_jacobian_columns(model, data);                                                // J2
  return data.config_status;
}

}  // namespace treedyn
