// coriolis_matrix: the Coriolis matrix C(q, q̇) (n×n) with C q̇ = the velocity-product terms of the RNEA
// (bias without gravity) and Ḣ − 2C skew-symmetric, in O(n·d) by one outward and one inward pass
// (docs/dynamics.md#the-coriolis-matrix).
//
// Reference: Echeandia & Wensing, "Numerical methods to compute the Coriolis matrix and Christoffel symbols
// for rigid-body systems", J. Computational and Nonlinear Dynamics 16(9), 2021 (the body matrix B_i below and
// the factorization C = Σ_i J_iᵀ (I_i J̇_i + B_i J_i)); the world-frame quantities are those of
// rnea_derivatives.hpp (Carpentier & Mansard 2018). Derivation, in world coordinates (frame 0: world axes,
// origin at body 0's origin at this q, as rnea_derivatives.hpp, so a base far from the world origin does not
// inflate the moment arms): H = Σ_i J_iᵀ I_i J_i, J_i's column block j = S_j for j ⪯ i (j is i or an ancestor);
// S_j is fixed in body j, so J̇_i's column block j is Ṡ_j = v_j × S_j; I_i turns with body i, İ_i =
// v_i ×* I_i − I_i (v_i ×). With B_i = ½ (v_i ×* I_i − I_i (v_i ×) + (I_i v_i)⋆) ((h⋆) m = m ×* h):
//   B_i v_i = v_i ×* I_i v_i, so C q̇ = Σ_i J_iᵀ (I_i a_i + v_i ×* I_i v_i) at q̈ = 0, a_i = J̇_i q̇: the RNEA's
//   velocity terms; and İ_i − 2 B_i = −(I_i v_i)⋆ is skew, so Ḣ − 2C = Σ_i (J̇_iᵀ I_i J_i − J_iᵀ I_i J̇_i −
//   J_iᵀ (I_i v_i)⋆ J_i) is skew. (rnea_derivatives.hpp's BC_i is 2 B_i.)
// Collecting the bodies that carry both DoF blocks k and j gives the composite sums IC_i = Σ_{l ⪰ i} I_l,
// BC_i = Σ_{l ⪰ i} B_l over the subtree of i:
//   C1  v_0 = 0; for i = 1..N (outward): S_i = ^0X_i S_i^body;  v_i = v_λ(i) + S_i q̇_i;  Ṡ_i = v_i × S_i;
//       IC_i = I_i = ^0X*_i I_i^body ^iX_0;  BC_i = B_i
//   C2  for i = N..1 (inward; IC_i, BC_i complete once the children are added):
//   C3     for every j ⪯ i:  C[i, j] = S_iᵀ (IC_i Ṡ_j + BC_i S_j)      (the bodies below i carry both)
//   C4     for every k ≺ i:  C[k, i] = S_kᵀ (IC_i Ṡ_i + BC_i S_i)      (the bodies below i carry both)
//   C5     IC_λ(i) += IC_i;  BC_λ(i) += BC_i
//   C6  every other entry (i and j on different branches) is 0.
// Indexing: paper body i ↔ code i−1; the inward loop visits Model::inward_order() (children before parents).
// Cost: O(N) 6×6 products for C1 and C5, O(n·d) 6-vector products for C3 and C4 (d the depth of the tree).
// Contract: q (nq), q̇ (nv) any Eigen vectors. Writes ws.C (n×n, dense: C6's entries written 0), data.Xup and
// data.X_world. Arguments are checked like rnea's (detail/check.hpp): a wrong size returns
// Status::invalid_argument (if the handler returns); a zero quaternion or a NaN or an infinity in q or q̇
// returns data.config_status with ws.C NaN. Returns the status (also in ws.status). noexcept; never allocates
// (ws is built once from the model).
#pragma once

#include <cstdint>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"
#include "treedyn/spatial/cross.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/status.hpp"

namespace treedyn {

/// The workspace and output of coriolis_matrix, sized once from the model (allocates unless N is fixed).
/// One per thread, like Data.
template <class Scalar, int N = Dynamic>
struct CoriolisMatrixWorkspace {
  explicit CoriolisMatrixWorkspace(const Model<Scalar, N>& model)
      : C(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        S(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        dS(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        v(model.nbodies(), Motion<Scalar>::Zero()),
        IC(model.nbodies(), Matrix6<Scalar>::Zero()),
        BC(model.nbodies(), Matrix6<Scalar>::Zero()),
        model_id(model.id()) {
    for (int i = 0; i < model.nbodies(); ++i) S[i] = dS[i] = MotionSubspace<Scalar>::Zero(6, model.motion_subspace(i).cols());
  }

  MatrixN<Scalar, N> C;  ///< output: C(q, q̇) (n×n)
  Status status;         ///< the status of the last call (also returned)
  // per body, world coordinates (C1)
  detail::Array<MotionSubspace<Scalar>, N> S;   ///< S_i = ^0X_i S_i^body
  detail::Array<MotionSubspace<Scalar>, N> dS;  ///< Ṡ_i = v_i × S_i
  detail::Array<Motion<Scalar>, N> v;           ///< v_i
  detail::Array<Matrix6<Scalar>, N> IC;         ///< I_i, then IC_i
  detail::Array<Matrix6<Scalar>, N> BC;         ///< B_i, then BC_i
  std::uint64_t model_id;  ///< Model::id() of the model it was built for (checked)
};

namespace detail {

/// C1 for every body, world coordinates, with data.X_world set.
template <class Scalar, int N, class Dv>
void coriolis_outward(const Model<Scalar, N>& model, const Data<Scalar, N>& data, CoriolisMatrixWorkspace<Scalar, N>& ws,
                      const Eigen::MatrixBase<Dv>& qd) noexcept {
  const Vector3<Scalar> origin = data.X_world[0].r;                              // frame 0 at body 0's origin
  const Scalar half(0.5);
  for (int i = 0; i < model.nbodies(); ++i) {
    const int p = model.parent(i);
    const Transform<Scalar> X{data.X_world[i].E, Vector3<Scalar>(data.X_world[i].r - origin)};  // ^iX_0
    const int vi = model.v_offset(i);
    const Eigen::Index ni = model.motion_subspaces()[i].cols();
    ws.S[i] = X.apply_inverse_motion(model.motion_subspaces()[i]);
    ws.v[i] = ws.S[i] * qd.segment(vi, ni);
    if (p != no_parent) ws.v[i] += ws.v[p];
    const Motion<Scalar>& v = ws.v[i];
    ws.dS[i] = cross_motion(v, ws.S[i]);
    const Matrix6<Scalar> I = apply_transpose_inertia(X, model.inertia(i)).matrix();
    ws.IC[i] = I;
    ws.BC[i].noalias() = crf(v) * I;
    ws.BC[i].noalias() -= I * crm(v);
    ws.BC[i] += force_star(Force<Scalar>(I * v));
    ws.BC[i] *= half;
  }
}

/// C2–C6 into ws.C.
template <class Scalar, int N>
void coriolis_inward(const Model<Scalar, N>& model, CoriolisMatrixWorkspace<Scalar, N>& ws) noexcept {
  using RowBlock = Eigen::Matrix<Scalar, Eigen::Dynamic, 6, Eigen::RowMajor, 6, 6>;
  ws.C.setZero();                                                                // C6
  for (const int i : model.inward_order()) {                                     // C2
    const MotionSubspace<Scalar>& S = ws.S[i];
    const int vi = model.v_offset(i);
    const Eigen::Index ni = S.cols();
    RowBlock SIC(ni, 6), SBC(ni, 6);
    SIC.noalias() = S.transpose().lazyProduct(ws.IC[i]);
    SBC.noalias() = S.transpose().lazyProduct(ws.BC[i]);
    for (int j = i; j != no_parent; j = model.parent(j))                         // C3
      ws.C.block(vi, model.v_offset(j), ni, ws.S[j].cols()).noalias() =
          SIC.lazyProduct(ws.dS[j]) + SBC.lazyProduct(ws.S[j]);
    const int p = model.parent(i);
    if (p == no_parent) continue;
    MotionSubspace<Scalar> Q(6, ni);                                             // C4
    Q.noalias() = ws.IC[i].lazyProduct(ws.dS[i]);
    Q.noalias() += ws.BC[i].lazyProduct(S);
    for (int k = p; k != no_parent; k = model.parent(k))
      ws.C.block(model.v_offset(k), vi, ws.S[k].cols(), ni).noalias() = ws.S[k].transpose().lazyProduct(Q);
    ws.IC[p] += ws.IC[i];                                                        // C5
    ws.BC[p] += ws.BC[i];
  }
}

}  // namespace detail

/// C(q, q̇) into ws.C (the header comment's C1–C6): C q̇ = bias(q, q̇) − gravity_torques(q), Ḣ − 2C skew.
/// Returns the status.
template <class Scalar, int N, class Dq, class Dv>
Status coriolis_matrix(const Model<Scalar, N>& model, Data<Scalar, N>& data, CoriolisMatrixWorkspace<Scalar, N>& ws,
                       const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "coriolis_matrix";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::same_model(fn, "ws", ws.model_id, model.id()) &&
        detail::dof_vector_ok(fn, "qd", model, qd)))
    return ws.status = Status::invalid_argument(fn);
  if (!(detail::joint_transforms(model, data, q, fn) && detail::finite_ok(fn, "qd", qd, data.config_status))) {
    detail::fill_nan(ws.C);
    return ws.status = data.config_status;
  }
  detail::world_placements(model, data);
  detail::coriolis_outward(model, data, ws, qd);                                 // C1
  detail::coriolis_inward(model, ws);                                            // C2–C6
  return ws.status = Status::success();
}

}  // namespace treedyn
