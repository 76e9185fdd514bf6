// aba: forward dynamics q̈ = FD(q, q̇, τ[, f_ext]) by the articulated-body method, O(N).
//
// Reference: algorithms.md §3.1; Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 7.1 (trees,
// multi-DoF joints). Gravity enters as the base acceleration a_0 = −[0; g]; f_ext,i in body-i coordinates.
//   A1  v_0 = 0;  a_0 = −[0; g]
//   A2  for i = 1..N:                                                    (pass 1, outward)
//   A3     X_i = XJ(q_i) X_T(i);  vJ = S_i q̇_i;  v_i = X_i v_λ(i) + vJ;  c_i = crm(v_i) vJ
//   A4     IA_i = I_i;  pA_i = crf(v_i) I_i v_i − f_ext,i
//   A5  for i = N..1:                                                    (pass 2, inward)
//   A6     U_i = IA_i S_i;  D_i = S_iᵀ U_i;  u_i = τ_i − S_iᵀ pA_i
//   A7     if λ(i) ≠ 0:
//   A8        Ia = IA_i − U_i (D_i⁻¹ U_iᵀ);  pa = pA_i + Ia c_i + U_i D_i⁻¹ u_i
//   A9        IA_λ(i) += X_iᵀ Ia X_i;  pA_λ(i) += X_iᵀ pa
//   A10 for i = 1..N:                                                    (pass 3, outward)
//   A11    a' = X_i a_λ(i) + c_i;  q̈_i = D_i⁻¹ u_i − (U_i D_i⁻¹)ᵀ a';  a_i = a' + S_i q̈_i
// D_i (n_i×n_i) is factored by a small Cholesky (detail/joint_pivot.hpp); the projection is formed as
// U·(D⁻¹Uᵀ) with D⁻¹Uᵀ computed first by division, never by a reciprocal (algorithms.md §3.2).
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent".
// Contract: q (nq), q̇, τ (nv). Writes data.Xup, v, a, c, IA, pA, D, U, U_Dinv, Dinv_u, aba_status and
// data.qdd (returned). A joint pivot D_i that is not positive definite stops pass 2: data.aba_status
// names that BODY (row = body index) and data.qdd is NaN. Cost O(N). noexcept; never allocates.
// The pieces below are shared with modified_aba.hpp, which differs only in how D_i is formed.
#pragma once

#include <limits>

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/articulated_inertia.hpp"
#include "treedyn/spatial/cross.hpp"

namespace treedyn {
namespace detail {

/// Pass 1 (A1–A4): transforms, velocities, c_i, and IA_i = I_i, pA_i = crf(v_i) I_i v_i − f_ext,i.
template <class Scalar, int N, class Dq, class Dv, class Fext>
void aba_outward_pass(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                      const Eigen::MatrixBase<Dv>& qd, const Fext& f_ext) noexcept {
  joint_transforms(model, data, q);                                               // A3
  for (int i = 0; i < model.nbodies(); ++i) {
    const Motion<Scalar> vJ = body_velocity(model, data, qd, i).vJ.motion();      // A3 (rnea.hpp R4–R5)
    data.c[i] = cross_motion(data.v[i], vJ);
    const RigidInertia<Scalar>& I = model.inertia(i);                             // A4
    data.IA[i] = ArticulatedInertia<Scalar>::from(I);
    data.pA[i] = cross_force(data.v[i], I.apply(data.v[i]));
    data.pA[i] -= f_ext[i];
  }
}

/// A6's U_i = IA_i S_i alone (the articulated-inertia pass of oscm.hpp needs no bias terms).
template <class Scalar, int N>
void aba_form_U(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i) noexcept {
  const MotionSubspace<Scalar>& S = model.motion_subspace(i);
  const int vi = model.v_offset(i);
  if (S.cols() == 1) data.U.col(vi).noalias() = data.IA[i].M * S.col(0);
  else data.U.middleCols(vi, S.cols()).noalias() = data.IA[i].M * S;
}

/// A6 without the pivot: U_i = IA_i S_i and u_i = τ_i − S_iᵀ pA_i (kept in data.Dinv_u until solved).
template <class Scalar, int N, class Dt>
void aba_joint_terms(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dt>& tau,
                     int i) noexcept {
  aba_form_U(model, data, i);
  const MotionSubspace<Scalar>& S = model.motion_subspace(i);
  const int vi = model.v_offset(i), ni = static_cast<int>(S.cols());
  if (ni == 1) {
    data.Dinv_u(vi) = tau(vi) - S.col(0).dot(data.pA[i]);
  } else {
    data.Dinv_u.segment(vi, ni) = tau.segment(vi, ni);
    data.Dinv_u.segment(vi, ni).noalias() -= S.transpose() * data.pA[i];
  }
}

/// A6's pivot D_i = S_iᵀ U_i into data.D[i] (U_i from aba_joint_terms). Shared with minverse_aba.hpp.
template <class Scalar, int N>
void aba_form_pivot(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i) noexcept {
  const MotionSubspace<Scalar>& S = model.motion_subspace(i);
  const int vi = model.v_offset(i);
  if (S.cols() == 1) data.D[i](0, 0) = S.col(0).dot(data.U.col(vi));
  else data.D[i].noalias() = S.transpose() * data.U.middleCols(vi, S.cols());
}

/// Factors the pivot data.D[i] into L (for a 1-DoF joint L = D_i) and forms U_i D_i⁻¹, and D_i⁻¹ itself
/// when Dinv is given (the OSCM needs it). False if D_i is not positive definite.
template <class Scalar, int N>
bool aba_factor_pivot(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i, PivotMatrix<Scalar>& L,
                      PivotMatrix<Scalar>* Dinv = nullptr) noexcept {
  const int vi = model.v_offset(i), ni = static_cast<int>(data.D[i].rows());
  L = data.D[i];
  if (ni == 1) {
    const Scalar d = L(0, 0);
    if (!detail::pivot_ok(d)) return false;
    data.U_Dinv.col(vi) = data.U.col(vi) / d;  // by division: exact for axis-aligned projections
    if (Dinv != nullptr) (*Dinv)(0, 0) = Scalar(1) / d;
    return true;
  }
  if (!factor_joint_pivot(L)) return false;
  Eigen::Matrix<Scalar, Eigen::Dynamic, 6, Eigen::ColMajor, 6, 6> Dinv_Ut = data.U.middleCols(vi, ni).transpose();
  solve_joint_pivot(L, Dinv_Ut);
  data.U_Dinv.middleCols(vi, ni) = Dinv_Ut.transpose();
  if (Dinv != nullptr) {
    Dinv->setIdentity(ni, ni);
    solve_joint_pivot(L, *Dinv);
  }
  return true;
}

/// Factors the pivot data.D[i] and forms U_i D_i⁻¹ and D_i⁻¹ u_i. False if D_i is not positive definite.
template <class Scalar, int N>
bool aba_solve_pivot(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i) noexcept {
  const int vi = model.v_offset(i), ni = static_cast<int>(data.D[i].rows());
  PivotMatrix<Scalar> L;
  if (!aba_factor_pivot(model, data, i, L)) return false;
  if (ni == 1) {
    data.Dinv_u(vi) /= L(0, 0);
    return true;
  }
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1> Dinv_u = data.Dinv_u.segment(vi, ni);
  solve_joint_pivot(L, Dinv_u);
  data.Dinv_u.segment(vi, ni) = Dinv_u;
  return true;
}

/// A8–A9 without the bias: Ia = IA_i − U_i (D_i⁻¹U_iᵀ), carried to the parent (IA_λ(i) += X_iᵀ Ia X_i).
/// Needs U_i and U_i D_i⁻¹. Returns Ia. Shared with oscm.hpp, which needs no bias forces.
template <class Scalar, int N>
ArticulatedInertia<Scalar> aba_project_inertia(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                               int i) noexcept {
  const int vi = model.v_offset(i), ni = static_cast<int>(data.D[i].rows());
  ArticulatedInertia<Scalar> Ia = data.IA[i];
  if (ni == 1) Ia.M.noalias() -= data.U.col(vi) * data.U_Dinv.col(vi).transpose();              // A8
  else Ia.M.noalias() -= data.U.middleCols(vi, ni) * data.U_Dinv.middleCols(vi, ni).transpose();
  data.IA[model.parent(i)] += apply_transpose_inertia(data.Xup[i], Ia);                         // A9
  return Ia;
}

/// A8–A9: the projected inertia Ia = IA_i − U_i (D_i⁻¹U_iᵀ) and bias pa, carried to the parent. Returns Ia.
template <class Scalar, int N>
ArticulatedInertia<Scalar> aba_project_to_parent(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                 int i) noexcept {
  const int vi = model.v_offset(i), ni = static_cast<int>(data.D[i].rows());
  const ArticulatedInertia<Scalar> Ia = aba_project_inertia(model, data, i);                    // A8, A9
  Force<Scalar> pa = data.pA[i];                                                                // A8
  pa.noalias() += Ia.M * data.c[i];
  if (ni == 1) pa += data.U.col(vi) * data.Dinv_u(vi);
  else pa.noalias() += data.U.middleCols(vi, ni) * data.Dinv_u.segment(vi, ni);
  data.pA[model.parent(i)] += data.Xup[i].apply_transpose_motion(pa);                           // A9
  return Ia;
}

/// Pass 3 (A10–A11): accelerations from the base outward.
template <class Scalar, int N>
void aba_accelerations(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  Motion<Scalar> a0 = Motion<Scalar>::Zero();                                     // A1
  a0.template tail<3>() = -model.gravity();
  for (int i = 0; i < model.nbodies(); ++i) {
    const MotionSubspace<Scalar>& S = model.motion_subspace(i);
    const int vi = model.v_offset(i), ni = static_cast<int>(S.cols()), p = model.parent(i);
    const Motion<Scalar> a_prime = data.Xup[i].apply_motion(p == no_parent ? a0 : data.a[p]) + data.c[i];
    if (ni == 1) {
      data.qdd(vi) = data.Dinv_u(vi) - data.U_Dinv.col(vi).dot(a_prime);
      data.a[i] = a_prime + S.col(0) * data.qdd(vi);
    } else {
      data.qdd.segment(vi, ni) = data.Dinv_u.segment(vi, ni);
      data.qdd.segment(vi, ni).noalias() -= data.U_Dinv.middleCols(vi, ni).transpose() * a_prime;
      data.a[i] = a_prime;
      data.a[i].noalias() += S * data.qdd.segment(vi, ni);
    }
  }
}

/// Records a failed pivot at body i: status names the body, q̈ is NaN.
template <class Scalar, int N>
const VectorN<Scalar, N>& aba_fail(Data<Scalar, N>& data, int i) noexcept {
  data.aba_status = FactorStatus::non_positive_pivot(i);
  data.qdd.setConstant(detail::nan<Scalar>());
  return data.qdd;
}

template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext>
const VectorN<Scalar, N>& aba_impl(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                   const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                   const Eigen::MatrixBase<Dt>& tau, const Fext& f_ext) noexcept {
  aba_outward_pass(model, data, q, qd, f_ext);                                    // A1–A4
  for (int i = model.nbodies() - 1; i >= 0; --i) {                                // A5
    aba_joint_terms(model, data, tau, i);                                         // A6
    aba_form_pivot(model, data, i);
    if (!aba_solve_pivot(model, data, i)) return aba_fail(data, i);
    if (model.parent(i) != no_parent) aba_project_to_parent(model, data, i);      // A7–A9
  }
  data.aba_status = FactorStatus::success();
  aba_accelerations(model, data);                                                 // A10–A11
  return data.qdd;
}

}  // namespace detail

/// q̈ = FD(q, q̇, τ) by the articulated-body method; status in data.aba_status. Returns data.qdd.
template <class Scalar, int N, class Dq, class Dv, class Dt>
const VectorN<Scalar, N>& aba(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                              const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Dt>& tau) noexcept {
  return detail::aba_impl(model, data, q, qd, tau, detail::NoExternalForces<Scalar>{});
}

/// As above with external forces f_ext[i] (body-i coordinates).
template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext>
const VectorN<Scalar, N>& aba(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                              const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Dt>& tau,
                              const Fext& f_ext) noexcept {
  return detail::aba_impl(model, data, q, qd, tau, f_ext);
}

}  // namespace treedyn
