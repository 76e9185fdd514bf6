// crba: the joint-space inertia matrix H(q) by the composite-rigid-body algorithm, touching only nonzeros.
//
// Reference: seed 000 §5 (../shared/seeds/000_7f543bc10ea1056d.txt, the CRBA listing before eq. 17),
// extended to multi-DoF joints as algorithms.md §2.2 states; Featherstone, Rigid Body Dynamics
// Algorithms, 2008, Table 6.2.
//   C1  for i = 1..N: Ic_i = I_i                       (with X_i = ^i X_λ(i) = XJ(q_i) X_T(i))
//   C2  for i = N..1:
//   C3     F = Ic_i S_i                                (6 × n_i)
//   C4     H[vi(i), vi(i)] = S_iᵀ F
//   C5     if λ(i) ≠ 0:  Ic_λ(i) += X_iᵀ Ic_i X_i       ((m, h, Ī) congruence to the parent)
//   C6     j = i
//   C7     while λ(j) ≠ 0:
//   C8        F = X_jᵀ F;  j = λ(j)                   (force transform to the parent's coordinates)
//   C9        H[vi(i), vi(j)] = Fᵀ S_j;  H[vi(j), vi(i)] = its transpose
// Indexing: paper body i ↔ code i−1; "λ(j) ≠ 0" ↔ "parent != no_parent".
// Contract: q has model.nq() entries. Writes the branch-induced nonzeros of data.H (both triangles) and
// nothing else: the zeros were set once when Data was built (seed 000 §5: "the zero elements must be
// initialized to zero at least once"). Also fills data.Xup and data.IC. Returns data.H.
// Cost for 1-DoF joints: D0 (ra + rx) + D1·vx (seed 000 eq. 17). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {
namespace detail {

/// C3–C9 for body i with F = Ic_i S_i already formed. F is a Force (1-DoF joint: fixed-size 6-vector,
/// scalar entries of H) or a 6 × n_i MotionSubspace (multi-DoF joint): one body, two compiled shapes.
template <class Scalar, int N, class FType>
void crba_row(const Model<Scalar, N>& model, Data<Scalar, N>& data, int i, FType F) noexcept {
  const int vi = model.v_offset(i), ni = static_cast<int>(F.cols());
  // H[vi(i), vi(j)] = Fᵀ S_j and its transpose, one 6-term dot product per entry (ni, nj ≤ 6)
  auto store = [&](int j) {
    const MotionSubspace<Scalar>& S_j = model.motion_subspace(j);
    const int vj = model.v_offset(j);
    for (int c = 0; c < S_j.cols(); ++c)
      for (int r = 0; r < ni; ++r) data.H(vi + r, vj + c) = data.H(vj + c, vi + r) = F.col(r).dot(S_j.col(c));
  };
  store(i);                                                                          // C4
  for (int j = i; model.parent(j) != no_parent;) {                                   // C6, C7
    F = data.Xup[j].apply_transpose_motion(F);                                      // C8
    j = model.parent(j);
    store(j);                                                                        // C9
  }
}

}  // namespace detail

template <class Scalar, int N, class Dq>
const MatrixN<Scalar, N>& crba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                               const Eigen::MatrixBase<Dq>& q) noexcept {
  detail::joint_transforms(model, data, q);
  for (int i = 0; i < model.nbodies(); ++i) data.IC[i] = model.inertia(i);          // C1
  for (int i = model.nbodies() - 1; i >= 0; --i) {                                  // C2
    const MotionSubspace<Scalar>& S_i = model.motion_subspace(i);
    if (S_i.cols() == 1) {
      detail::crba_row(model, data, i, Force<Scalar>(data.IC[i].apply(S_i.col(0))));  // C3, 1-DoF
    } else {
      detail::crba_row(model, data, i, MotionSubspace<Scalar>(data.IC[i].apply(S_i)));  // C3
    }
    const int p = model.parent(i);
    if (p != no_parent) data.IC[p] += apply_transpose_inertia(data.Xup[i], data.IC[i]);  // C5
  }
  return data.H;
}

}  // namespace treedyn
