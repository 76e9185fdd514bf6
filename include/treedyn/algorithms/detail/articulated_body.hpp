// treedyn::detail articulated-body steps: the passes of the ABA, shared by the modified ABA, the
// ABA-based mass-matrix inverse and the OSCM kernels, which differ only in how they combine them.
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 7.1 (trees, multi-DoF joints); labels
// A1–A11 as in aba.hpp. D_i (n_i×n_i) is factored by a small Cholesky (detail/joint_pivot.hpp); U·(D⁻¹Uᵀ) has
// D⁻¹Uᵀ computed by division, never by a reciprocal, so an axis-aligned projection cancels exactly
// (docs/notation.md). Paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent". noexcept; no allocation.
#pragma once

#include "treedyn/algorithms/detail/joint_block.hpp"
#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/articulated_inertia.hpp"
#include "treedyn/spatial/cross.hpp"

namespace treedyn::detail {

/// Column c of a 6-row matrix (S_i, U, U D⁻¹) as a 6-vector, and the reverse: the 1-DoF steps below
/// work on these copies, so that their fixed-size arithmetic (Matrix6 × Vector6, dot, outer product) is
/// one set of Eigen types per scalar, shared by every step (compile time;
/// docs/design-notes.md#kernels-written-once-per-scalar-compile-time).
template <class Derived>
Vector6<typename Derived::Scalar> column6(const Eigen::MatrixBase<Derived>& M, Eigen::Index c) noexcept {
  return M.col(c);
}
template <class Derived>
void set_column6(Eigen::MatrixBase<Derived>& M, Eigen::Index c, const Vector6<typename Derived::Scalar>& v) noexcept {
  M.col(c) = v;
}

/// Pass 1 (A1–A4): transforms, velocities, c_i, and IA_i = I_i, pA_i = crf(v_i) I_i v_i − f_ext,i. False
/// (data.config_status set) for a zero quaternion or a q, q̇ or f_ext that is not finite (CheckQ::by_caller:
/// only for a zero or non-finite quaternion; the caller checks its output, aba.hpp).
template <CheckQ check = CheckQ::first, class Scalar, int N, class Dq, class Dv, class Fext>
bool aba_outward_pass(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                      const Eigen::MatrixBase<Dv>& qd, const Fext& f_ext, const char* call) noexcept {
  if (!joint_transforms<check>(model, data, q, call)) return false;  // A3
  if (check == CheckQ::first && !velocity_inputs_finite(call, data, qd, f_ext)) return false;
  for (int i = 0; i < model.nbodies(); ++i) {
    Motion<Scalar> vJ;
    with_joint_kind<fits_free_joint<N, Dv::SizeAtCompileTime>>(model.joint(i), [&](auto kind) {  // A3
      vJ = body_velocity(model, data, qd, i, kind).vJ.motion();
    });
    data.c[i] = cross_motion(data.v[i], vJ);
    const RigidInertia<Scalar>& I = model.inertia(i);                             // A4
    data.IA[i] = ArticulatedInertia<Scalar>::from(I);
    data.pA[i] = cross_force(data.v[i], I.apply(data.v[i]));
    data.pA[i] -= f_ext[i];
  }
  return true;
}

/// A6's U_i = IA_i S_i alone (the articulated-inertia pass of oscm.hpp needs no bias terms).
template <class Scalar, int N>
void aba_form_U(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i) noexcept {
  const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
  const Matrix6<Scalar>& IA = data.IA[i].M;
  const int vi = model.v_offset(i), ni = static_cast<int>(S.cols());
  if (ni == 1) {
    set_column6(data.U, vi, Vector6<Scalar>(IA * column6(S, 0)));
    return;
  }
  for (int c = 0; c < ni; ++c)
    for (int r = 0; r < 6; ++r) {
      Scalar t(0);
      for (int k = 0; k < 6; ++k) t += IA(r, k) * S(k, c);
      data.U(r, vi + c) = t;
    }
}

/// A6 without the pivot: U_i = IA_i S_i and u_i = τ_i − S_iᵀ pA_i (kept in data.Dinv_u until solved).
template <class Scalar, int N, class Dt>
void aba_joint_terms(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dt>& tau,
                     int i) noexcept {
  aba_form_U(model, data, i);
  const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
  const int vi = model.v_offset(i), ni = static_cast<int>(S.cols());
  if (ni == 1) {
    data.Dinv_u(vi) = tau(vi) - column6(S, 0).dot(data.pA[i]);
    return;
  }
  for (int c = 0; c < ni; ++c) {
    Scalar t(0);
    for (int k = 0; k < 6; ++k) t += S(k, c) * data.pA[i](k);
    data.Dinv_u(vi + c) = tau(vi + c) - t;
  }
}

/// A6's pivot D_i = S_iᵀ U_i into data.D[i] (U_i from aba_joint_terms). Shared with minverse_aba.hpp.
template <class Scalar, int N>
void aba_form_pivot(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i) noexcept {
  const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
  const int vi = model.v_offset(i), ni = static_cast<int>(S.cols());
  if (ni == 1) {
    data.D[i](0, 0) = column6(S, 0).dot(column6(data.U, vi));
    return;
  }
  for (int b = 0; b < ni; ++b)
    for (int a = 0; a < ni; ++a) {
      Scalar t(0);
      for (int k = 0; k < 6; ++k) t += S(k, a) * data.U(k, vi + b);
      data.D[i](a, b) = t;
    }
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
    set_column6(data.U_Dinv, vi, Vector6<Scalar>(column6(data.U, vi) / d));  // by division: exact for axis-aligned projections
    if (Dinv != nullptr) (*Dinv)(0, 0) = Scalar(1) / d;
    return true;
  }
  if (!factor_joint_pivot(L)) return false;
  Matrix6<Scalar> Dinv_Ut;  // D_i⁻¹ U_iᵀ in its first n_i rows (the solve reads and writes only those)
  for (int c = 0; c < 6; ++c)
    for (int k = 0; k < ni; ++k) Dinv_Ut(k, c) = data.U(c, vi + k);
  solve_joint_pivot(L, Dinv_Ut);
  for (int k = 0; k < ni; ++k)
    for (int r = 0; r < 6; ++r) data.U_Dinv(r, vi + k) = Dinv_Ut(k, r);
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
  Vector6<Scalar> Dinv_u;  // its first n_i entries (the solve reads and writes only those)
  for (int k = 0; k < ni; ++k) Dinv_u(k) = data.Dinv_u(vi + k);
  solve_joint_pivot(L, Dinv_u);
  for (int k = 0; k < ni; ++k) data.Dinv_u(vi + k) = Dinv_u(k);
  return true;
}

/// A8 for a 1-DoF joint: IA_i − U_i (U_i D_i⁻¹)ᵀ, one column at a time from IA_i's stored columns, with one
/// multiply-subtract per entry. Formed so, not as a copy of IA_i updated in place: the copy's wide stores,
/// read back at once as narrower columns that straddle two of them, stalled store-to-load forwarding on
/// every body (docs/design-notes.md#the-abas-1-dof-projected-inertia-formed-column-by-column).
template <class Scalar>
ArticulatedInertia<Scalar> one_dof_projected_inertia(const ArticulatedInertia<Scalar>& IA, const Vector6<Scalar>& U,
                                                     const Vector6<Scalar>& U_Dinv) noexcept {
  ArticulatedInertia<Scalar> Ia;
  for (int c = 0; c < 6; ++c) Ia.M.col(c) = IA.M.col(c) - U * U_Dinv(c);
  return Ia;
}

/// A8: Ia = IA_i − U_i (D_i⁻¹U_iᵀ) for any joint. Needs U_i and U_i D_i⁻¹.
template <class Scalar, int N>
ArticulatedInertia<Scalar> aba_projected_inertia(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                                                 int i) noexcept {
  const int vi = model.v_offset(i), ni = static_cast<int>(data.D[i].rows());
  if (ni == 1) return one_dof_projected_inertia(data.IA[i], column6(data.U, vi), column6(data.U_Dinv, vi));
  ArticulatedInertia<Scalar> Ia = data.IA[i];
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 6; ++r) {
      Scalar t(0);
      for (int k = 0; k < ni; ++k) t += data.U(r, vi + k) * data.U_Dinv(c, vi + k);
      Ia.M(r, c) -= t;
    }
  return Ia;
}

/// A8–A9 without the bias: Ia = IA_i − U_i (D_i⁻¹U_iᵀ), carried to the parent (IA_λ(i) += X_iᵀ Ia X_i).
/// Needs U_i and U_i D_i⁻¹. Returns Ia. Shared with oscm.hpp, which needs no bias forces.
template <class Scalar, int N>
ArticulatedInertia<Scalar> aba_carry_inertia_to_parent(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                       int i) noexcept {
  const ArticulatedInertia<Scalar> Ia = aba_projected_inertia(model, data, i);                   // A8
  add_transpose_inertia(data.Xup[i], Ia, data.IA[model.parent(i)]);                             // A9
  return Ia;
}

/// A8–A9: the projected inertia Ia = IA_i − U_i (D_i⁻¹U_iᵀ) and bias pa, carried to the parent. Returns Ia.
template <class Scalar, int N>
ArticulatedInertia<Scalar> aba_carry_to_parent(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                               int i) noexcept {
  const int vi = model.v_offset(i), ni = static_cast<int>(data.D[i].rows());
  const ArticulatedInertia<Scalar> Ia = aba_carry_inertia_to_parent(model, data, i);            // A8, A9
  Force<Scalar> pa = data.pA[i];                                                                // A8
  pa.noalias() += Ia.M * data.c[i];
  if (ni == 1) {
    pa += column6(data.U, vi) * data.Dinv_u(vi);
  } else {
    for (int r = 0; r < 6; ++r) {
      Scalar u(0);
      for (int k = 0; k < ni; ++k) u += data.U(r, vi + k) * data.Dinv_u(vi + k);
      pa(r) += u;
    }
  }
  data.pA[model.parent(i)] += data.Xup[i].apply_inverse_force(pa);                           // A9
  return Ia;
}

/// Pass 1 of the articulated-inertia pass alone (the ABA with q̇ = 0, τ = 0, as minverse_aba and the OSCM
/// kernels need): A3's transforms and A4's IA_i = I_i. False (data.config_status set) for a zero or non-finite
/// quaternion; with q == nullptr, data.Xup as the last call left it, false if that call failed.
template <class Scalar, int N, class Dq>
bool aba_inertia_outward_pass(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                              const Eigen::MatrixBase<Dq>* q, const char* call) noexcept {
  if (q != nullptr ? !joint_transforms(model, data, *q, call) : !data.config_status) return false;  // A3
  for (int i = 0; i < model.nbodies(); ++i) data.IA[i] = ArticulatedInertia<Scalar>::from(model.inertia(i));  // A4
  return true;
}

/// A6–A7 for a free joint (S_i = 1₆; Featherstone 2008, Table 9.6): U_i = D_i = IA_i, L Lᵀ = D_i by a 6×6
/// Cholesky of fixed size into L, and U_i D_i⁻¹ = 1 exactly. False if IA_i is not positive definite.
template <class Scalar, int N>
bool aba_free_pivot(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i, Matrix6<Scalar>& L) noexcept {
  const int vi = model.v_offset(i);
  const Matrix6<Scalar>& IA = data.IA[i].M;
  data.U.template middleCols<6>(vi) = IA;
  data.D[i] = IA;
  L = IA;
  if (!factor_joint_pivot(L)) return false;
  data.U_Dinv.template middleCols<6>(vi).setIdentity();
  return true;
}

/// A6–A9 without bias for a free joint (S_i = 1₆; Featherstone 2008, Table 9.6): U_i = D_i = IA_i,
/// U_i D_i⁻¹ = 1 exactly and, when Dinv is given, D_i⁻¹ = IA_i⁻¹ by a 6×6 Cholesky of fixed size;
/// IA_i − U_i (U_i D_i⁻¹)ᵀ = 0, so nothing is carried to a parent. False if IA_i is not positive definite.
template <class Scalar, int N>
bool aba_free_inertia_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i,
                           PivotMatrix<Scalar>* Dinv) noexcept {
  Matrix6<Scalar> L;
  if (!aba_free_pivot(model, data, i, L)) return false;
  if (Dinv == nullptr) return true;
  // D⁻¹ = L⁻ᵀ L⁻¹: Y = L⁻¹ by forward substitution on the lower triangle only (21 divisions, not the 72
  // of two triangular solves on each column of 1₆), then one 6×6 product
  Matrix6<Scalar> Y = Matrix6<Scalar>::Zero();
  for (int c = 0; c < 6; ++c) {
    Y(c, c) = Scalar(1) / L(c, c);
    for (int r = c + 1; r < 6; ++r) {
      Scalar s(0);
      for (int j = c; j < r; ++j) s -= L(r, j) * Y(j, c);
      Y(r, c) = s / L(r, r);
    }
  }
  Matrix6<Scalar> YtY;
  YtY.noalias() = Y.transpose() * Y;
  *Dinv = YtY;
  return true;
}

/// A6–A9 without bias for a 1-DoF joint on fixed-size 6-vectors held in registers: U_i = IA_i s_i,
/// d_i = s_iᵀ U_i, U_i D_i⁻¹ = U_i / d_i (by division, as aba_factor_pivot), D_i⁻¹ = 1 / d_i when Dinv is
/// given, then IA_λ(i) += X_iᵀ (IA_i − U_i (U_i D_i⁻¹)ᵀ) X_i. The same numbers as the general steps, without
/// their run-time-sized pivot copies. False if d_i is not > 0.
template <class Scalar, int N>
bool aba_one_dof_inertia_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i,
                              PivotMatrix<Scalar>* Dinv) noexcept {
  const int vi = model.v_offset(i), p = model.parent(i);
  const Vector6<Scalar> s = column6(model.motion_subspaces()[i], 0);
  const Vector6<Scalar> U = data.IA[i].M * s;
  const Scalar d = s.dot(U);
  set_column6(data.U, vi, U);
  data.D[i](0, 0) = d;
  if (!pivot_ok(d)) return false;
  const Vector6<Scalar> U_Dinv = U / d;
  set_column6(data.U_Dinv, vi, U_Dinv);
  if (Dinv != nullptr) (*Dinv)(0, 0) = Scalar(1) / d;
  if (p == no_parent) return true;
  // A8 as a copy of IA_i updated in place, not one_dof_projected_inertia: the same arithmetic, and here
  // (inlined into minverse_aba and the OSCM) the column form measured 2–3 % slower for minverse_aba in double
  ArticulatedInertia<Scalar> Ia = data.IA[i];
  Ia.M.noalias() -= U * U_Dinv.transpose();
  add_transpose_inertia(data.Xup[i], Ia, data.IA[p]);
  return true;
}

/// Pass 2's step for body i without bias (A6–A9 with q̇ = 0, τ = 0; after aba_inertia_outward_pass): U_i,
/// D_i, U_i D_i⁻¹ and, when Dinv is given, D_i⁻¹, then the projected inertia carried to the parent. A free
/// joint and a 1-DoF joint take their own steps, any other joint the general ones. False if D_i is not
/// positive definite.
template <class Scalar, int N>
bool aba_inertia_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i,
                      PivotMatrix<Scalar>* Dinv = nullptr) noexcept {
  if constexpr (fits_free_joint<N>) {
    if (model.joint(i).type == JointType::free_flyer) return aba_free_inertia_step(model, data, i, Dinv);
  }
  if (model.motion_subspaces()[i].cols() == 1) return aba_one_dof_inertia_step(model, data, i, Dinv);
  aba_form_U(model, data, i);                                                       // A6
  aba_form_pivot(model, data, i);
  PivotMatrix<Scalar> L;
  if (!aba_factor_pivot(model, data, i, L, Dinv)) return false;
  if (model.parent(i) != no_parent) aba_carry_inertia_to_parent(model, data, i);    // A8–A9
  return true;
}

/// Pass 2's step for body i (A6–A9) through S_i, for any joint: the pivot formed, factored and solved,
/// then the projection carried to the parent. False if D_i is not positive definite.
template <class Scalar, int N, class Dt>
bool aba_inward_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dt>& tau, int i,
                     GeneralJoint) noexcept {
  aba_joint_terms(model, data, tau, i);                                            // A6
  aba_form_pivot(model, data, i);
  if (!aba_solve_pivot(model, data, i)) return false;
  if (model.parent(i) != no_parent) aba_carry_to_parent(model, data, i);           // A7–A9
  return true;
}

/// Pass 2's step for a free joint (S_i = 1₆): A6 is U_i = D_i = IA_i and u_i = τ_i − pA_i, D_i is
/// factored by a 6×6 Cholesky of fixed size, and U_i D_i⁻¹ = 1 exactly (Featherstone 2008, Table 9.6: the
/// floating base's pivot is its articulated inertia). A8 then gives Ia = IA_i − IA_i IA_i⁻¹ IA_i = 0 and
/// pa = pA_i + U_i D_i⁻¹ u_i = τ_i, so a free joint below another body passes on only its τ_i (A9).
/// Fills the same Data fields as the general step. False if IA_i is not positive definite.
template <class Scalar, int N, class Dt>
bool aba_inward_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dt>& tau, int i,
                     FreeJoint) noexcept {
  const int vi = model.v_offset(i), p = model.parent(i);
  Matrix6<Scalar> L;
  if (!aba_free_pivot(model, data, i, L)) return false;                            // A6
  Force<Scalar> u = tau.template segment<6>(vi) - data.pA[i];
  solve_joint_pivot(L, u);
  data.Dinv_u.template segment<6>(vi) = u;
  if (p != no_parent)                                                               // A7–A9: Ia = 0
    data.pA[p] += data.Xup[i].apply_inverse_force(Force<Scalar>(tau.template segment<6>(vi)));
  return true;
}

/// A10–A11 for body i through S_i (any joint), given a' = X_i a_λ(i) + c_i.
template <class Scalar, int N>
EIGEN_ALWAYS_INLINE void aba_acceleration_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i,
                                               const Motion<Scalar>& a_prime, GeneralJoint) noexcept {
  const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
  const int vi = model.v_offset(i), ni = static_cast<int>(S.cols());
  if (ni == 1) {
    data.qdd(vi) = data.Dinv_u(vi) - column6(data.U_Dinv, vi).dot(a_prime);
    data.a[i] = a_prime + column6(S, 0) * data.qdd(vi);
    return;
  }
  for (int c = 0; c < ni; ++c) {
    Scalar t(0);
    for (int k = 0; k < 6; ++k) t += data.U_Dinv(k, vi + c) * a_prime(k);
    data.qdd(vi + c) = data.Dinv_u(vi + c) - t;
  }
  for (int r = 0; r < 6; ++r) {
    Scalar t(0);
    for (int c = 0; c < ni; ++c) t += S(r, c) * data.qdd(vi + c);
    data.a[i](r) = a_prime(r) + t;
  }
}

/// A11 for a free joint after the free-joint pass 2 step (S_i = 1₆, U_i D_i⁻¹ = 1): a_i = D_i⁻¹ u_i, the
/// floating base's a = IA⁻¹(τ − pA) (Featherstone 2008, Table 9.6), and q̈_i = a_i − a'.
template <class Scalar, int N>
EIGEN_ALWAYS_INLINE void aba_acceleration_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i,
                                               const Motion<Scalar>& a_prime, FreeJoint) noexcept {
  const int vi = model.v_offset(i);
  data.a[i] = data.Dinv_u.template segment<6>(vi);
  data.qdd.template segment<6>(vi) = data.a[i] - a_prime;
}

/// Pass 3 (A10–A11): accelerations from the base outward. `kinds` (joint_block.hpp's ByJointKind) picks each
/// joint's step, the kind pass 2 took (aba_inward_step).
template <class Scalar, int N, class Kinds>
void aba_accelerations(const Model<Scalar, N>& model, Data<Scalar, N>& data, Kinds kinds) noexcept {
  Motion<Scalar> a0 = Motion<Scalar>::Zero();                                     // A1
  a0.template tail<3>() = -model.gravity();
  for (int i = 0; i < model.nbodies(); ++i) {
    const int p = model.parent(i);
    const Motion<Scalar> a_prime = data.Xup[i].apply_motion(p == no_parent ? a0 : data.a[p]) + data.c[i];
    kinds(model.joint(i), [&](auto kind) { aba_acceleration_step(model, data, i, a_prime, kind); });
  }
}

/// A failed aba / modified_aba: status `why`, q̈ = NaN.
template <class Scalar, int N>
const VectorN<Scalar, N>& aba_fail(Data<Scalar, N>& data, const FactorStatus& why) noexcept {
  data.aba_status = why;
  return fill_nan(data.qdd);
}

/// Records a failed pivot at body i: status names the body, q̈ is NaN.
template <class Scalar, int N>
const VectorN<Scalar, N>& aba_fail(Data<Scalar, N>& data, int i, const char* call) noexcept {
  return aba_fail(data, FactorStatus::non_positive_joint_pivot(i, call));
}

}  // namespace treedyn::detail
