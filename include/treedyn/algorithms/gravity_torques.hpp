// gravity_torques: the generalized gravity g(q) = RNEA(q, 0, 0), the joint forces that hold q still.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 5.1 (the RNEA, rnea.hpp) with
// q̇ = q̈ = 0; Pinocchio calls it computeGeneralizedGravity. With no velocity every v_i, every velocity
// product and every angular half of a_i is exactly zero, so the outward pass carries only the linear
// half of the fictitious base acceleration −g (docs/dynamics.md#gravity-torques):
//   G1  a_0 = −g  (3-vector: the linear half; the angular half is 0 throughout)
//   G2  for i = 1..N:  X_i = XJ(q_i) X_T(i);  a_i = E_i a_λ(i)   (a_λ(i) = a_0 at a root)
//   G3     f_i = I_i [0; a_i] = [h_i × a_i; m_i a_i]
//   G4  for i = N..1:  τ_i = S_iᵀ f_i;  f_λ(i) += X_iᵀ f_i                    (rnea.hpp R8–R10)
// Indexing: paper body i ↔ code i−1. The result equals bias(q, 0) to rounding (tested): the same
// operations less those on exact zeros (bias's outward step also forms ω, the velocity products and I ω).
// Contract: q has model.nq() entries (checked, detail/check.hpp). Writes data.Xup, data.a (angular halves
// zero), data.f and data.g (returned); a zero or non-finite quaternion sets data.config_status and
// data.g = NaN. Cost O(N). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/rnea.hpp"

namespace treedyn {
namespace detail {

/// G1–G4 with the joint transforms already in data.Xup; τ into `g`.
template <class Scalar, int N, class Out>
void gravity_given_transforms(const Model<Scalar, N>& model, Data<Scalar, N>& data, Out& g) noexcept {
  using V3 = Vector3<Scalar>;
  const V3 a0 = -model.gravity();                                                   // G1
  for (int i = 0; i < model.nbodies(); ++i) {                                       // G2
    const int p = model.parent(i);
    const V3 al = rotate<false>(data.Xup[i].E, p == no_parent ? a0 : V3(data.a[p].template tail<3>()));
    const RigidInertia<Scalar>& I = model.inertia(i);                               // G3
    data.a[i].template head<3>().setZero();
    data.a[i].template tail<3>() = al;
    data.f[i].template head<3>() = cross(I.h, al);
    data.f[i].template tail<3>() = I.m * al;
  }
  rnea_inward_pass(model, data, g);                                                 // G4
}

}  // namespace detail

/// g(q): the joint forces that balance gravity at q (no velocity terms). Returns data.g.
template <class Scalar, int N, class Dq>
const VectorN<Scalar, N>& gravity_torques(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                          const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!detail::model_data_q_ok("gravity_torques", model, data, q)) return data.g;
  if (!detail::joint_transforms(model, data, q, "gravity_torques")) return detail::fill_nan(data.g);  // G2
  detail::gravity_given_transforms(model, data, data.g);
  return data.g;
}

}  // namespace treedyn
