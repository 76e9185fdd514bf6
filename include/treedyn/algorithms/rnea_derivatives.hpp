// rnea_derivatives: the partial derivatives ∂τ/∂q and ∂τ/∂q̇ of inverse dynamics τ = RNEA(q, q̇, q̈[, f_ext]),
// analytically, by one outward and one inward pass over the tree (∂τ/∂q̈ = H: crba).
//
// Reference: Carpentier & Mansard, "Analytical derivatives of rigid body dynamics algorithms", RSS 2018
// (world-frame form: the quantities Ψ̇_j, Ψ̈_j and the body matrices B_i below are theirs); Singh, Russell &
// Wensing, "Efficient analytical derivatives of rigid-body dynamics using spatial vector algebra", RA-L 2022
// (the same derivatives written with the force-cross operator ⋆ used below). The steps are derived in
// docs/derivatives.md#the-recursion (D1–D12, with the identities they rest on); this header lists them.
// Tangent convention (docs/derivatives.md#tangent-convention): ∂/∂q means the derivative along increments
// δ ∈ R^nv with q ⊕ δ = integrate(model, q, δ, 1): a body-frame (right) increment of every joint,
// ^λ(j)X_j(q ⊕ δ) = ^λ(j)X_j(q) exp(S_j δ_j), for every joint type (revolute, prismatic, helical, planar,
// spherical, free flyer; joint.hpp, configuration.hpp). Columns are v-space (model.v_offset), rows too.
// Every quantity below is in BODY coordinates (the local form, docs/derivatives.md#the-local-form): S_i is the
// joint's constant subspace in its child frame, v_i, a_i, f_i, I_i, B_i are body i's in frame i, X_i = ^iX_λ(i)
// is data.Xup[i] (X_i = ^iX_0 for a root, with frame 0 the world), and X_i* = X_i⁻ᵀ moves forces. The
// derivation (docs/derivatives.md#the-recursion) is in one fixed frame, as in Carpentier & Mansard; every entry
// it produces is a pairing Sᵀ(M m) of a force with a motion, which spatial algebra keeps unchanged under a change
// of coordinates (X* f)ᵀ(X m) = fᵀ m, so each product is formed where its factors are small: body i's products
// in frame i, and a force that must meet an ancestor's motion is carried up the path by X*ᵀ steps, like
// crba's F = IC S. Formed in world coordinates instead, a light link of size r at distance d from the frame's
// origin carries inertia entries m·d² that cancel down to its own m·r² (a rounding loss of (d/r)²; measured
// 370× the accuracy suite's bound, docs/derivatives.md#accuracy). m × is crm(m), m ×* is crf(m), and for a
// force h, h⋆ is the 6×6 matrix with (h⋆) m = m ×* h.
// Under δ_j every quantity rigidly attached to a body k ⪰ j turns with S_j: ∂m/∂δ_j = S_j × m (motions),
// S_j ×* f (forces), S_j ×* I − I S_j × (inertias). j ⪯ i: j is i or an ancestor of i. ^jX*_i = the product of
// the X_k*ᵀ on the path from i up to j (force from frame i to frame j).
//   D1  v_0 = 0,  a_0 = −[0; g]  (world)
//   D2  for i = 1..N (outward):
//   D3     vᵖ_i = X_i v_λ(i),  aᵖ_i = X_i a_λ(i);  v_i = vᵖ_i + S_i q̇_i;  a_i = aᵖ_i + S_i q̈_i + vᵖ_i × S_i q̇_i
//   D4     Ψ̇_i = vᵖ_i × S_i;   Ψ̈_i = aᵖ_i × S_i + vᵖ_i × Ψ̇_i;   Ψ̇ᵛ_i = (vᵖ_i + v_i) × S_i
//   D5     f_i = I_i a_i + v_i ×* I_i v_i − f_ext,i
//   D6     B_i = v_i ×* I_i − I_i (v_i ×) + (I_i v_i)⋆;   IC_i = I_i, BC_i = B_i, F_i = f_i
//          (B_i = C + Cᵀ + (I_i v_i)⋆ with C = v_i ×* I_i: I_i is symmetric and crf(v) = −crm(v)ᵀ; BC is kept as
//          its symmetric part C + Cᵀ and the force h = I_i v_i of its skew part h⋆)
//   D7  for i = N..1 (inward; IC, BC, F are the sums over the subtree of i, in frame i, once its children are done):
//   D8     τ_i = S_iᵀ F_i
//   D9     P = IC_i S_i, R = BC_iᵀ S_i (forces, 6×n_i);  for every j ⪯ i, with P, R carried to frame j:
//             ∂τ_i/∂q_j = Pᵀ Ψ̈_j + Rᵀ Ψ̇_j,   ∂τ_i/∂q̇_j = Pᵀ Ψ̇ᵛ_j + Rᵀ S_j        (= S_iᵀ (IC_i Ψ̈_j + BC_i Ψ̇_j), …)
//   D10    Q = F_i⋆ S_i + IC_i Ψ̈_i + BC_i Ψ̇_i, Qᵛ = IC_i Ψ̇ᵛ_i + BC_i S_i;  for every k ≺ i, with Q, Qᵛ in frame k:
//             ∂τ_k/∂q_i = S_kᵀ Q,   ∂τ_k/∂q̇_i = S_kᵀ Qᵛ
//   D11    if λ(i) ≠ 0:  IC_λ(i) += X_iᵀ IC_i X_i;  BC_λ(i) += X_iᵀ BC_i X_i;  F_λ(i) += X_iᵀ F_i
//          (never a dense 6×6 X: IC is a rigid inertia and moves as crba's does; BC's symmetric part by 3×3
//          blocks, the ABA's congruence; its skew part as a force, since Xᵀ (h⋆) X = (Xᵀ h)⋆)
//   D12 every other entry (i and j on different branches) is 0.
// For a 1-DoF joint Ψ̇ᵛ_i = 2 Ψ̇_i (S_i q̇_i × S_i = 0): the factor 2 of Carpentier & Mansard's ∂τ/∂q̇; for a
// multi-DoF joint the term (S_i q̇_i) × S_i stays. Gravity enters through a_λ(j) in Ψ̈_j (a_0 = −[0; g]);
// f_ext (body coordinates) turns with its body and needs no term of its own (it is in F_i).
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent"; the inward loop visits
// Model::inward_order() (children before parents).
// Cost: O(N) for D1–D8 and D11 (6×6 by 6×n_i products and structured transforms per body), plus O(n·d) for
// D9 and D10 (d: the depth of the tree): per pair (i, ancestor) one force transform of the 6 × 4n_i block
// [P R Q Qᵛ] and its pairings; no n passes (docs/derivatives.md#speed).
// Contract: q (nq), q̇, q̈ (nv) any Eigen vectors; f_ext any container of Force<Scalar> indexed by body
// (default none). Writes ws.dtau_dq, ws.dtau_dv (n×n, dense: the entries of D12 are written 0), data.tau (τ,
// as rnea), data.Xup and data.X_world. Arguments are checked like rnea's (detail/check.hpp): a wrong size
// fails the check (Status::invalid_argument if the handler returns); a zero quaternion or a NaN or an
// infinity in q, q̇, q̈ or f_ext returns data.config_status (invalid_configuration / non_finite_input) with
// every output NaN. Returns the status. noexcept; never allocates (ws is built once from the model).
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/spatial/articulated_inertia.hpp"
#include "treedyn/spatial/cross.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/status.hpp"

namespace treedyn {

/// The workspace and outputs of rnea_derivatives, sized once from the model (allocates unless N is fixed).
/// One per thread, like Data.
template <class Scalar, int N = Dynamic>
struct RneaDerivativesWorkspace {
  explicit RneaDerivativesWorkspace(const Model<Scalar, N>& model)
      : dtau_dq(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        dtau_dv(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        S(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        dV(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        dA(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        dVv(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        v(model.nbodies(), Motion<Scalar>::Zero()),
        a(model.nbodies(), Motion<Scalar>::Zero()),
        F(model.nbodies(), Force<Scalar>::Zero()),
        IC(model.nbodies(), RigidInertia<Scalar>::zero()),
        BC(model.nbodies(), Matrix6<Scalar>::Zero()),
        Bh(model.nbodies(), Force<Scalar>::Zero()),
        model_id(model.id()) {
    for (int i = 0; i < model.nbodies(); ++i) {
      const Eigen::Index ni = model.motion_subspace(i).cols();
      S[i] = dV[i] = dA[i] = dVv[i] = MotionSubspace<Scalar>::Zero(6, ni);
    }
  }

  MatrixN<Scalar, N> dtau_dq;  ///< output: ∂τ/∂q (n×n; column c: the tangent increment δ_c, row: τ's DoF)
  MatrixN<Scalar, N> dtau_dv;  ///< output: ∂τ/∂q̇ (n×n)
  Status status;               ///< the status of the last call (also returned)
  // per body, body coordinates (D3–D6)
  detail::Array<MotionSubspace<Scalar>, N> S;    ///< S_i (the joint's subspace in its child frame)
  detail::Array<MotionSubspace<Scalar>, N> dV;   ///< Ψ̇_i = vᵖ_i × S_i, vᵖ_i = X_i v_λ(i)
  detail::Array<MotionSubspace<Scalar>, N> dA;   ///< Ψ̈_i = aᵖ_i × S_i + vᵖ_i × Ψ̇_i
  detail::Array<MotionSubspace<Scalar>, N> dVv;  ///< Ψ̇ᵛ_i = (vᵖ_i + v_i) × S_i
  detail::Array<Motion<Scalar>, N> v;            ///< v_i
  detail::Array<Motion<Scalar>, N> a;            ///< a_i (gravity as the base acceleration)
  detail::Array<Force<Scalar>, N> F;             ///< f_i, then F_i = Σ over the subtree
  detail::Array<RigidInertia<Scalar>, N> IC;     ///< I_i, then IC_i (a sum of rigid inertias is one)
  /// B_i's symmetric part v_i ×* I_i − I_i (v_i ×), then its sum over the subtree (BC_i = BC + Bh⋆)
  detail::Array<Matrix6<Scalar>, N> BC;
  detail::Array<Force<Scalar>, N> Bh;            ///< B_i's skew part (I_i v_i)⋆ as the force I_i v_i, then summed
  std::uint64_t model_id;  ///< Model::id() of the model it was built for (checked)
};

namespace detail {

/// h⋆: the 6×6 matrix with (h⋆) m = m ×* h = −[n× f×; f× 0] m for a force h = [n; f].
template <class Scalar>
Matrix6<Scalar> force_star(const Force<Scalar>& h) noexcept {
  Matrix6<Scalar> out;
  const Matrix3<Scalar> nx = skew(h.template head<3>()), fx = skew(h.template tail<3>());
  out.template topLeftCorner<3, 3>() = -nx;
  out.template topRightCorner<3, 3>() = -fx;
  out.template bottomLeftCorner<3, 3>() = -fx;
  out.template bottomRightCorner<3, 3>().setZero();
  return out;
}

/// M_λ(i) += X_iᵀ M X_i for a symmetric 6×6 map M from motions to forces in frame i (an inertia, the symmetric
/// part of B_i): the same map in the coordinates of i's parent (X = ^iX_λ(i)), formed by 3×3 blocks (a rotation,
/// then a shift of origin; the ABA's symmetric block transform, spatial/articulated_inertia.hpp), never as a
/// dense 6×6 X.
template <class Scalar>
void add_symmetric_to_parent(const Transform<Scalar>& X, const Matrix6<Scalar>& M, Matrix6<Scalar>& parent) noexcept {
  write_blocks<true>(transpose_inertia_blocks(X, M), parent);
}

/// K ← X_iᵀ K = X_i*⁻¹ K for a fixed 6×C block of forces in frame i (X = ^iX_λ(i)): each column to frame λ(i),
/// [n; f] → [Eᵀn + r × Eᵀf; Eᵀf] (transform.hpp's apply_inverse_force), written by coefficients so that it
/// compiles to straight-line code at -O2 (the path's hot loop, D9–D10).
template <class Scalar, int C>
void inverse_force_in_place(const Transform<Scalar>& X, Eigen::Matrix<Scalar, 6, C>& K) noexcept {
  const Matrix3<Scalar>& E = X.E;
  const Scalar r0 = X.r(0), r1 = X.r(1), r2 = X.r(2);
  for (int c = 0; c < C; ++c) {
    const Scalar n0 = K(0, c), n1 = K(1, c), n2 = K(2, c), f0 = K(3, c), f1 = K(4, c), f2 = K(5, c);
    const Scalar g0 = E(0, 0) * f0 + E(1, 0) * f1 + E(2, 0) * f2;  // Eᵀ f
    const Scalar g1 = E(0, 1) * f0 + E(1, 1) * f1 + E(2, 1) * f2;
    const Scalar g2 = E(0, 2) * f0 + E(1, 2) * f1 + E(2, 2) * f2;
    K(0, c) = (E(0, 0) * n0 + E(1, 0) * n1 + E(2, 0) * n2) + (r1 * g2 - r2 * g1);  // Eᵀ n + r × Eᵀ f
    K(1, c) = (E(0, 1) * n0 + E(1, 1) * n1 + E(2, 1) * n2) + (r2 * g0 - r0 * g2);
    K(2, c) = (E(0, 2) * n0 + E(1, 2) * n1 + E(2, 2) * n2) + (r0 * g1 - r1 * g0);
    K(3, c) = g0;
    K(4, c) = g1;
    K(5, c) = g2;
  }
}

/// D1–D6 for every body, body coordinates.
template <class Scalar, int N, class Dv, class Da, class Fext>
void rnea_derivatives_outward(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                              RneaDerivativesWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dv>& qd,
                              const Eigen::MatrixBase<Da>& qdd, const Fext& f_ext) noexcept {
  Motion<Scalar> a0 = Motion<Scalar>::Zero();                                   // D1
  a0.template tail<3>() = -model.gravity();
  for (int i = 0; i < model.nbodies(); ++i) {                                   // D2
    const int p = model.parent(i);
    const Transform<Scalar>& X = data.Xup[i];                                   // ^iX_λ(i)
    const Motion<Scalar> vp = p == no_parent ? Motion<Scalar>::Zero() : Motion<Scalar>(X.apply_motion(ws.v[p]));
    const Motion<Scalar> ap = X.apply_motion(p == no_parent ? a0 : ws.a[p]);
    const int vi = model.v_offset(i);
    const Eigen::Index ni = model.motion_subspaces()[i].cols();
    MotionSubspace<Scalar>& S = ws.S[i];
    S = model.motion_subspaces()[i];                                            // D3
    const Motion<Scalar> vJ = S * qd.segment(vi, ni);
    ws.v[i] = vp + vJ;
    ws.a[i] = ap + S * qdd.segment(vi, ni) + cross_motion(vp, vJ);
    ws.dV[i] = cross_motion(vp, S);                                             // D4
    ws.dA[i] = cross_motion(ap, S) + cross_motion(vp, ws.dV[i]);
    ws.dVv[i] = cross_motion(Motion<Scalar>(vp + ws.v[i]), S);
    const Matrix6<Scalar> I = model.inertia(i).matrix();                        // D5
    const Motion<Scalar>& v = ws.v[i];
    const Force<Scalar> h = I * v;
    ws.F[i] = I * ws.a[i] + cross_force(v, h) - Force<Scalar>(f_ext[i]);
    ws.IC[i] = model.inertia(i);                                                // D6
    // v ×* I − I (v ×) = C + Cᵀ with C = v ×* I (I symmetric, crf(v) = −crm(v)ᵀ): one structured
    // cross product per column instead of two dense 6×6 products
    // B_i = (C + Cᵀ) + h⋆ is kept as its symmetric part and the force h (h⋆ is skew, and Xᵀ (h⋆) X = (Xᵀ h)⋆:
    // it moves to the parent as a force, D11)
    const Matrix6<Scalar> C = cross_force(v, I);
    ws.BC[i] = C + C.transpose();
    ws.Bh[i] = h;
  }
}

/// D9 and D10 along the path from body i to the root: K = [P R Q Qᵛ] (6 × 4 n_i, forces in frame i) is carried
/// up one joint at a time (X*ᵀ steps, all four in one transform) and paired with each ancestor j's motions. A
/// 1-DoF body i takes a fixed 6×4 K (Carry), and a 1-DoF ancestor scalar pairings (dot products of 6-vectors).
template <class Scalar, int N, class Carry>
void rnea_derivatives_path(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                           RneaDerivativesWorkspace<Scalar, N>& ws, int i, Carry& K) noexcept {
  const int vi = model.v_offset(i);
  const Eigen::Index ni = K.cols() / 4;
  for (int j = i;;) {
    const int vj = model.v_offset(j);
    const MotionSubspace<Scalar>& Sj = ws.S[j];
    const Eigen::Index nj = Sj.cols();
    if (ni == 1 && nj == 1) {
      ws.dtau_dq(vi, vj) = K.col(0).dot(ws.dA[j].col(0)) + K.col(1).dot(ws.dV[j].col(0));      // D9
      ws.dtau_dv(vi, vj) = K.col(0).dot(ws.dVv[j].col(0)) + K.col(1).dot(Sj.col(0));
      if (j != i) {                                                                           // D10
        ws.dtau_dq(vj, vi) = Sj.col(0).dot(K.col(2));
        ws.dtau_dv(vj, vi) = Sj.col(0).dot(K.col(3));
      }
    } else {
      const auto P = K.middleCols(0, ni), R = K.middleCols(ni, ni);
      ws.dtau_dq.block(vi, vj, ni, nj).noalias() =
          P.transpose().lazyProduct(ws.dA[j]) + R.transpose().lazyProduct(ws.dV[j]);       // D9
      ws.dtau_dv.block(vi, vj, ni, nj).noalias() =
          P.transpose().lazyProduct(ws.dVv[j]) + R.transpose().lazyProduct(Sj);
      if (j != i) {                                                                           // D10 (k = j ≺ i)
        ws.dtau_dq.block(vj, vi, nj, ni).noalias() = Sj.transpose().lazyProduct(K.middleCols(2 * ni, ni));
        ws.dtau_dv.block(vj, vi, nj, ni).noalias() = Sj.transpose().lazyProduct(K.middleCols(3 * ni, ni));
      }
    }
    const int up = model.parent(j);
    if (up == no_parent) break;
    if constexpr (Carry::ColsAtCompileTime == Eigen::Dynamic)                                // frame j → λ(j)
      K = data.Xup[j].apply_inverse_force(K);
    else
      inverse_force_in_place(data.Xup[j], K);
    j = up;
  }
}

/// D7–D12: τ into tau, ∂τ/∂q and ∂τ/∂q̇ into ws; body coordinates, forces carried up the path (data.Xup).
template <class Scalar, int N, class Out>
void rnea_derivatives_inward(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                             RneaDerivativesWorkspace<Scalar, N>& ws, Out& tau) noexcept {
  ws.dtau_dq.setZero();                                                         // D12
  ws.dtau_dv.setZero();
  for (const int i : model.inward_order()) {                                    // D7
    const MotionSubspace<Scalar>& S = ws.S[i];
    const int vi = model.v_offset(i);
    const Eigen::Index ni = S.cols();
    tau.segment(vi, ni).noalias() = S.transpose() * ws.F[i];                     // D8
    const Matrix6<Scalar> BC = ws.BC[i] + force_star(ws.Bh[i]);                 // BC_i
    const Matrix6<Scalar> IC = ws.IC[i].matrix();
    // K = [P R Q Qᵛ]: P = IC S, R = BCᵀ S (D9); Q = F⋆ S + IC Ψ̈ + BC Ψ̇, Qᵛ = IC Ψ̇ᵛ + BC S (D10)
    auto fill = [&](auto& K) {
      K.middleCols(0, ni).noalias() = IC.lazyProduct(S);
      K.middleCols(ni, ni).noalias() = BC.transpose().lazyProduct(S);
      K.middleCols(2 * ni, ni).noalias() = force_star(ws.F[i]).lazyProduct(S);
      K.middleCols(2 * ni, ni).noalias() += IC.lazyProduct(ws.dA[i]);
      K.middleCols(2 * ni, ni).noalias() += BC.lazyProduct(ws.dV[i]);
      K.middleCols(3 * ni, ni).noalias() = IC.lazyProduct(ws.dVv[i]);
      K.middleCols(3 * ni, ni).noalias() += BC.lazyProduct(S);
      rnea_derivatives_path(model, data, ws, i, K);
    };
    if (ni == 1) {
      Eigen::Matrix<Scalar, 6, 4> K;
      fill(K);
    } else {
      Eigen::Matrix<Scalar, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 24> K(6, 4 * ni);
      fill(K);
    }
    const int p = model.parent(i);
    if (p == no_parent) continue;
    const Transform<Scalar>& X = data.Xup[i];                                   // D11
    ws.IC[p] += apply_transpose_inertia(X, ws.IC[i]);                          // as crba carries IC
    add_symmetric_to_parent(X, ws.BC[i], ws.BC[p]);
    Eigen::Matrix<Scalar, 6, 2> hf;                                             // Bh_i and F_i to λ(i)
    hf << ws.Bh[i], ws.F[i];
    inverse_force_in_place(X, hf);
    ws.Bh[p] += hf.col(0);
    ws.F[p] += hf.col(1);
  }
}

/// A failed call: every output NaN, the status recorded and returned.
template <class Scalar, int N>
Status rnea_derivatives_fail(Data<Scalar, N>& data, RneaDerivativesWorkspace<Scalar, N>& ws,
                             const Status& status) noexcept {
  fill_nan(ws.dtau_dq);
  fill_nan(ws.dtau_dv);
  fill_nan(data.tau);
  ws.status = status;
  return status;
}

}  // namespace detail

/// ∂τ/∂q into ws.dtau_dq and ∂τ/∂q̇ into ws.dtau_dv at (q, q̇, q̈[, f_ext]) (tangent increments of q; see the
/// header comment), and τ = RNEA(q, q̇, q̈[, f_ext]) into data.tau. ∂τ/∂q̈ = H(q) is crba's. Returns the status.
template <class Scalar, int N, class Dq, class Dv, class Da, class Fext = detail::NoExternalForces<Scalar>>
Status rnea_derivatives(const Model<Scalar, N>& model, Data<Scalar, N>& data, RneaDerivativesWorkspace<Scalar, N>& ws,
                        const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                        const Eigen::MatrixBase<Da>& qdd, const Fext& f_ext = Fext{}) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Da, "qdd");
  constexpr const char* fn = "rnea_derivatives";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::same_model(fn, "ws", ws.model_id, model.id()) &&
        detail::dof_vector_ok(fn, "qd", model, qd) && detail::dof_vector_ok(fn, "qdd", model, qdd) &&
        detail::external_forces_ok(fn, model, f_ext)))
    return ws.status = Status::invalid_argument(fn);
  if (!(detail::joint_transforms(model, data, q, fn) && detail::velocity_inputs_finite(fn, data, qd, f_ext) &&
        detail::finite_ok(fn, "qdd", qdd, data.config_status)))
    return detail::rnea_derivatives_fail(data, ws, data.config_status);
  detail::world_placements(model, data);
  detail::rnea_derivatives_outward(model, data, ws, qd, qdd, f_ext);            // D1–D6
  detail::rnea_derivatives_inward(model, data, ws, data.tau);                         // D7–D12
  detail::nan_whole_failed_lanes(ws.dtau_dq, ws.dtau_dv, data.tau);  // over lanes (docs/lanes.md)
  return ws.status = Status::success();
}

}  // namespace treedyn
