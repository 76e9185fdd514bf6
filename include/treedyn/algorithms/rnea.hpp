// rnea / bias: inverse dynamics by the recursive Newton–Euler algorithm, and the bias force C(q, q̇).
//
// Reference: Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 5.1 (docs/references.md).
// Gravity enters as a fictitious base acceleration a_0 = −[0; g]; external forces f_ext,i are in body-i
// coordinates. Joint velocity and acceleration terms use the constant S_i (c_J = 0, joint.hpp).
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
// Implementation: each body's step works on the 3-vector halves (angular, linear) of v, a and f, kept in
// registers, and stores each half once. Whole 6-vector Eigen arithmetic on values just written half by
// half reloads them as SIMD packets that straddle two earlier stores, which x86 cannot forward (a
// store-forwarding stall each): the halves form avoids those stalls with the same operations in the
// same order, and is markedly faster in float and double (see the README's benchmark section).
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

/// A motion vector held as its two 3-vector halves (angular ω, linear v), kept in registers; see the
/// implementation note at the top for why the outward passes avoid whole 6-vector arithmetic.
template <class Scalar>
struct MotionHalves {
  Vector3<Scalar> w, v;
  [[nodiscard]] Motion<Scalar> motion() const noexcept {
    Motion<Scalar> m;
    m << w, v;
    return m;
  }
};

/// S_i x_i for body i's n_i entries of x starting at vi, as halves (1-DoF: a scaled axis).
template <class Scalar, class Dx>
EIGEN_ALWAYS_INLINE MotionHalves<Scalar> subspace_times(const MotionSubspace<Scalar>& S, const Eigen::MatrixBase<Dx>& x, int vi) noexcept {
  if (S.cols() == 1) return {S.col(0).template head<3>() * x(vi), S.col(0).template tail<3>() * x(vi)};
  const Motion<Scalar> m = S * x.segment(vi, S.cols());
  return {m.template head<3>(), m.template tail<3>()};
}

/// Body velocity and joint velocity of one body, as halves.
template <class Scalar>
struct BodyVelocity {
  MotionHalves<Scalar> v;   ///< v_i
  MotionHalves<Scalar> vJ;  ///< S_i q̇_i
};

/// R4–R5 for body i (data.Xup[i] already set): data.v[i] = X_i v_λ(i) + S_i q̇_i, written half by half.
/// Returns v_i and vJ = S_i q̇_i. Shared by the outward passes of RNEA and the articulated-body methods.
template <class Scalar, int N, class Dv>
EIGEN_ALWAYS_INLINE BodyVelocity<Scalar> body_velocity(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                       const Eigen::MatrixBase<Dv>& qd, int i) noexcept {
  const MotionHalves<Scalar> vJ = subspace_times(model.motion_subspace(i), qd, model.v_offset(i));  // R4
  Vector3<Scalar> w = vJ.w, vl = vJ.v;
  const int p = model.parent(i);
  if (p != no_parent) {                                                          // R5: + X_i v_λ(i)
    const Transform<Scalar>& X = data.Xup[i];
    const Vector3<Scalar> wp = data.v[p].template head<3>(), vp = data.v[p].template tail<3>();
    w.noalias() += X.E * wp;
    vl.noalias() += X.E * (vp - X.r.cross(wp));
  }
  data.v[i].template head<3>() = w;
  data.v[i].template tail<3>() = vl;
  return {{w, vl}, vJ};
}

template <class Scalar, int N, class Dq, class Dv, class Da, class Fext, class Out>
void rnea_into(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
               const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>* qdd, const Fext& f_ext,
               Out& tau) noexcept {
  using V3 = Vector3<Scalar>;
  const V3 a0w = V3::Zero(), a0v = -model.gravity();                             // R1
  detail::joint_transforms(model, data, q);                                      // R2, R3
  for (int i = 0; i < model.nbodies(); ++i) {
    const int p = model.parent(i);
    const Transform<Scalar>& X = data.Xup[i];
    const BodyVelocity<Scalar> bv = body_velocity(model, data, qd, i);            // R4, R5
    const V3& w = bv.v.w;
    const V3& vl = bv.v.v;
    const MotionHalves<Scalar>& vJ = bv.vJ;
    V3 aw, al;                                                                    // R6: X_i a_λ(i)
    if (p == no_parent) {
      aw.noalias() = X.E * a0w;
      al.noalias() = X.E * (a0v - X.r.cross(a0w));
    } else {
      const V3 awp = data.a[p].template head<3>(), alp = data.a[p].template tail<3>();
      aw.noalias() = X.E * awp;
      al.noalias() = X.E * (alp - X.r.cross(awp));
    }
    aw += w.cross(vJ.w);                                                          //     + v_i × vJ
    al += w.cross(vJ.v) + vl.cross(vJ.w);
    if (qdd != nullptr) {                                                         //     + S_i q̈_i
      const MotionHalves<Scalar> sa = subspace_times(model.motion_subspace(i), *qdd, model.v_offset(i));
      aw += sa.w;
      al += sa.v;
    }
    const RigidInertia<Scalar>& I = model.inertia(i);                            // R7
    const V3 hw = I.I * w + I.h.cross(vl), hv = I.m * vl - I.h.cross(w);
    const Force<Scalar> fe = f_ext[i];
    data.a[i].template head<3>() = aw;
    data.a[i].template tail<3>() = al;
    data.f[i].template head<3>() = I.I * aw + I.h.cross(al) + w.cross(hw) + vl.cross(hv) - fe.template head<3>();
    data.f[i].template tail<3>() = I.m * al - I.h.cross(aw) + w.cross(hv) - fe.template tail<3>();
  }
  for (int i = model.nbodies() - 1; i >= 0; --i) {                               // R8
    const MotionSubspace<Scalar>& S = model.motion_subspace(i);
    const V3 fn = data.f[i].template head<3>(), ff = data.f[i].template tail<3>();
    if (S.cols() == 1)
      tau(model.v_offset(i)) = S.col(0).template head<3>().dot(fn) + S.col(0).template tail<3>().dot(ff);  // R9
    else tau.segment(model.v_offset(i), S.cols()).noalias() = S.transpose() * data.f[i];
    const int p = model.parent(i);
    if (p != no_parent) {                                                        // R10
      const Transform<Scalar>& X = data.Xup[i];
      const V3 Etf = X.E.transpose() * ff;
      data.f[p].template head<3>() += X.E.transpose() * fn + X.r.cross(Etf);
      data.f[p].template tail<3>() += Etf;
    }
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
