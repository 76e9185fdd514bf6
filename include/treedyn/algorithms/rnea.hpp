// rnea / bias: inverse dynamics by the recursive Newton–Euler algorithm, and the bias force C(q, q̇).
//
// Reference: algorithms.md §2.1; Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 5.1.
// Gravity enters as a fictitious base acceleration a_0 = −[0; g]; external forces f_ext,i are in body-i
// coordinates. Joint velocity and acceleration terms use the constant S_i (c_J = 0, algorithms.md §1.4).
//   R1  v_0 = 0;  a_0 = −[0; g]
//   R2  for i = 1..N:
//   R3     X_i = XJ(q_i) X_T(i)                                  (^i X_λ(i))
//   R4     vJ = S_i q̇_i
//   R5     v_i = X_i v_λ(i) + vJ
//   R6     a_i = X_i a_λ(i) + S_i q̈_i + crm(v_i) vJ
//   R7     f_i = I_i a_i + crf(v_i) I_i v_i − f_ext,i
//   R8  for i = N..1:
//   R9     τ_i = S_iᵀ f_i
//   R10    if λ(i) ≠ 0:  f_λ(i) += X_iᵀ f_i
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent".
// Contract: q (nq), q̇, q̈ (nv) any Eigen vectors; f_ext any container of Force<Scalar> indexed by body.
// rnea writes data.tau (returned), bias (C = RNEA(q, q̇, 0), gravity and f_ext included) writes data.C;
// both also fill data.Xup, v, a, f. Cost O(N). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/cross.hpp"

namespace treedyn {
namespace detail {

/// No external forces: the default of rnea / bias (every body's external force is zero).
template <class Scalar>
struct NoExternalForces {
  Force<Scalar> operator[](int) const noexcept { return Force<Scalar>::Zero(); }
};

/// R4–R5 for body i (data.Xup[i] already set): data.v[i] = X_i v_λ(i) + S_i q̇_i. Returns vJ = S_i q̇_i.
/// Shared by the outward passes of RNEA and the articulated-body methods.
template <class Scalar, int N, class Dv>
Motion<Scalar> body_velocity(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dv>& qd,
                             int i) noexcept {
  const MotionSubspace<Scalar>& S = model.motion_subspace(i);
  const int vi = model.v_offset(i), ni = static_cast<int>(S.cols()), p = model.parent(i);
  const Motion<Scalar> vJ = (ni == 1) ? Motion<Scalar>(S.col(0) * qd(vi))     // R4 (1-DoF: a scaled axis)
                                      : Motion<Scalar>(S * qd.segment(vi, ni));
  data.v[i] = (p == no_parent) ? vJ : Motion<Scalar>(data.Xup[i].apply_motion(data.v[p]) + vJ);  // R5
  return vJ;
}

template <class Scalar, int N, class Dq, class Dv, class Da, class Fext, class Out>
void rnea_into(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
               const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>* qdd, const Fext& f_ext,
               Out& tau) noexcept {
  Motion<Scalar> a0 = Motion<Scalar>::Zero();                                    // R1
  a0.template tail<3>() = -model.gravity();
  detail::joint_transforms(model, data, q);                                      // R2, R3
  for (int i = 0; i < model.nbodies(); ++i) {
    const MotionSubspace<Scalar>& S = model.motion_subspace(i);
    const int vi = model.v_offset(i), ni = static_cast<int>(S.cols()), p = model.parent(i);
    const Motion<Scalar> vJ = body_velocity(model, data, qd, i);                  // R4, R5
    data.a[i] = data.Xup[i].apply_motion(p == no_parent ? a0 : data.a[p]) + cross_motion(data.v[i], vJ);  // R6
    if (qdd != nullptr) {
      if (ni == 1) data.a[i] += S.col(0) * (*qdd)(vi);
      else data.a[i].noalias() += S * qdd->segment(vi, ni);
    }
    const RigidInertia<Scalar>& I = model.inertia(i);
    data.f[i] = I.apply(data.a[i]) + cross_force(data.v[i], I.apply(data.v[i]));  // R7
    data.f[i] -= f_ext[i];
  }
  for (int i = model.nbodies() - 1; i >= 0; --i) {                               // R8
    const MotionSubspace<Scalar>& S = model.motion_subspace(i);
    if (S.cols() == 1) tau(model.v_offset(i)) = S.col(0).dot(data.f[i]);          // R9 (1-DoF)
    else tau.segment(model.v_offset(i), S.cols()).noalias() = S.transpose() * data.f[i];
    const int p = model.parent(i);
    if (p != no_parent) data.f[p] += data.Xup[i].apply_transpose_motion(data.f[i]);  // R10
  }
}

}  // namespace detail

/// τ = RNEA(q, q̇, q̈): the joint forces that produce q̈ (gravity included). Returns data.tau.
template <class Scalar, int N, class Dq, class Dv, class Da>
const VectorN<Scalar, N>& rnea(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>& qdd) noexcept {
  detail::rnea_into(model, data, q, qd, &qdd, detail::NoExternalForces<Scalar>{}, data.tau);
  return data.tau;
}

/// τ = RNEA(q, q̇, q̈) with external forces f_ext[i] (body-i coordinates) acting on the bodies.
template <class Scalar, int N, class Dq, class Dv, class Da, class Fext>
const VectorN<Scalar, N>& rnea(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>& qdd,
                               const Fext& f_ext) noexcept {
  detail::rnea_into(model, data, q, qd, &qdd, f_ext, data.tau);
  return data.tau;
}

/// C(q, q̇) = RNEA(q, q̇, 0): Coriolis, centrifugal and gravity forces. Returns data.C.
template <class Scalar, int N, class Dq, class Dv>
const VectorN<Scalar, N>& bias(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd) noexcept {
  detail::rnea_into(model, data, q, qd, static_cast<const Eigen::MatrixBase<Dv>*>(nullptr),
                    detail::NoExternalForces<Scalar>{}, data.C);
  return data.C;
}

/// C(q, q̇) with external forces f_ext[i] (body-i coordinates) included.
template <class Scalar, int N, class Dq, class Dv, class Fext>
const VectorN<Scalar, N>& bias(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd, const Fext& f_ext) noexcept {
  detail::rnea_into(model, data, q, qd, static_cast<const Eigen::MatrixBase<Dv>*>(nullptr), f_ext, data.C);
  return data.C;
}

}  // namespace treedyn
