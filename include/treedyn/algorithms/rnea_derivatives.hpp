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
// Everything below is in WORLD coordinates (frame 0): S_j = ^0X_j S_j^body, v, a, f, I world-frame spatial
// quantities. Frame 0 has the world's axes and its origin at body 0's origin at this q: any fixed frame gives
// the same derivatives, and this one keeps a floating base far from the world origin from inflating the
// moment arms inside S_j, IC_i and BC_i (rounding would grow as the distance squared); m × is crm(m), m ×* is crf(m), and for a force h, h⋆ is the 6×6 matrix with (h⋆) m = m ×* h.
// Under δ_j every quantity rigidly attached to a body k ⪰ j turns with S_j: ∂m/∂δ_j = S_j × m (motions),
// S_j ×* f (forces), S_j ×* I − I S_j × (inertias). j ⪯ i: j is i or an ancestor of i.
//   D1  v_0 = 0,  a_0 = −[0; g]
//   D2  for i = 1..N (outward):
//   D3     S_i = ^0X_i S_i^body;  v_i = v_λ(i) + S_i q̇_i;  a_i = a_λ(i) + S_i q̈_i + v_λ(i) × S_i q̇_i
//   D4     Ψ̇_i = v_λ(i) × S_i;   Ψ̈_i = a_λ(i) × S_i + v_λ(i) × Ψ̇_i;   Ψ̇ᵛ_i = (v_λ(i) + v_i) × S_i
//   D5     I_i = ^0X*_i I_i^body ^iX_0;  f_i = I_i a_i + v_i ×* I_i v_i − ^0X*_i f_ext,i
//   D6     B_i = v_i ×* I_i − I_i (v_i ×) + (I_i v_i)⋆;   IC_i = I_i, BC_i = B_i, F_i = f_i
//          (formed as C + Cᵀ + (I_i v_i)⋆ with C = v_i ×* I_i: I_i is symmetric and crf(v) = −crm(v)ᵀ)
//   D7  for i = N..1 (inward; IC, BC, F are the sums over the subtree of i once its children are done):
//   D8     τ_i = S_iᵀ F_i
//   D9     for every j ⪯ i:   ∂τ_i/∂q_j = S_iᵀ (IC_i Ψ̈_j + BC_i Ψ̇_j),  ∂τ_i/∂q̇_j = S_iᵀ (IC_i Ψ̇ᵛ_j + BC_i S_j)
//   D10    for every k ≺ i:   ∂τ_k/∂q_i = S_kᵀ (F_i⋆ S_i + IC_i Ψ̈_i + BC_i Ψ̇_i),
//                             ∂τ_k/∂q̇_i = S_kᵀ (IC_i Ψ̇ᵛ_i + BC_i S_i)
//   D11    if λ(i) ≠ 0:  IC_λ(i) += IC_i;  BC_λ(i) += BC_i;  F_λ(i) += F_i
//   D12 every other entry (i and j on different branches) is 0.
// For a 1-DoF joint Ψ̇ᵛ_i = 2 Ψ̇_i (S_i q̇_i × S_i = 0): the factor 2 of Carpentier & Mansard's ∂τ/∂q̇; for a
// multi-DoF joint the term (S_i q̇_i) × S_i stays. Gravity enters through a_λ(j) in Ψ̈_j (a_0 = −[0; g]);
// f_ext (body coordinates) turns with its body and needs no term of its own (it is in F_i).
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent"; the inward loop visits
// Model::inward_order() (children before parents).
// Cost: O(N) for D1–D8 and D11 (6×6 products per body), plus O(n·d) 6-vector products for D9 and D10
// (d: the depth of the tree), as in the papers; no n passes.
// Contract: q (nq), q̇, q̈ (nv) any Eigen vectors; f_ext any container of Force<Scalar> indexed by body
// (default none). Writes ws.dtau_dq, ws.dtau_dv (n×n, dense: the entries of D12 are written 0), data.tau (τ,
// as rnea), data.Xup and data.X_world. Arguments are checked like rnea's (detail/check.hpp): a wrong size
// fails the check (Status::invalid_argument if the handler returns); a zero quaternion or a NaN or an
// infinity in q, q̇, q̈ or f_ext returns data.config_status (invalid_configuration / non_finite_input) with
// every output NaN. Returns the status. noexcept; never allocates (ws is built once from the model).
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"
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
        IC(model.nbodies(), Matrix6<Scalar>::Zero()),
        BC(model.nbodies(), Matrix6<Scalar>::Zero()),
        model_id(model.id()) {
    for (int i = 0; i < model.nbodies(); ++i) {
      const Eigen::Index ni = model.motion_subspace(i).cols();
      S[i] = dV[i] = dA[i] = dVv[i] = MotionSubspace<Scalar>::Zero(6, ni);
    }
  }

  MatrixN<Scalar, N> dtau_dq;  ///< output: ∂τ/∂q (n×n; column c: the tangent increment δ_c, row: τ's DoF)
  MatrixN<Scalar, N> dtau_dv;  ///< output: ∂τ/∂q̇ (n×n)
  Status status;               ///< the status of the last call (also returned)
  // per body, world coordinates (D3–D6)
  detail::Array<MotionSubspace<Scalar>, N> S;    ///< S_i = ^0X_i S_i^body
  detail::Array<MotionSubspace<Scalar>, N> dV;   ///< Ψ̇_i = v_λ(i) × S_i
  detail::Array<MotionSubspace<Scalar>, N> dA;   ///< Ψ̈_i = a_λ(i) × S_i + v_λ(i) × Ψ̇_i
  detail::Array<MotionSubspace<Scalar>, N> dVv;  ///< Ψ̇ᵛ_i = (v_λ(i) + v_i) × S_i
  detail::Array<Motion<Scalar>, N> v;            ///< v_i
  detail::Array<Motion<Scalar>, N> a;            ///< a_i (gravity as the base acceleration)
  detail::Array<Force<Scalar>, N> F;             ///< f_i, then F_i = Σ over the subtree
  detail::Array<Matrix6<Scalar>, N> IC;          ///< I_i, then IC_i
  detail::Array<Matrix6<Scalar>, N> BC;          ///< B_i, then BC_i
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

/// D1–D6 for every body, world coordinates, with data.X_world set.
template <class Scalar, int N, class Dv, class Da, class Fext>
void rnea_derivatives_outward(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                              RneaDerivativesWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dv>& qd,
                              const Eigen::MatrixBase<Da>& qdd, const Fext& f_ext) noexcept {
  Motion<Scalar> a0 = Motion<Scalar>::Zero();                                   // D1
  a0.template tail<3>() = -model.gravity();
  const Vector3<Scalar> origin = data.X_world[0].r;                             // frame 0 at body 0's origin
  for (int i = 0; i < model.nbodies(); ++i) {                                   // D2
    const int p = model.parent(i);
    const Transform<Scalar> X{data.X_world[i].E, Vector3<Scalar>(data.X_world[i].r - origin)};  // ^iX_0
    const Motion<Scalar> vp = p == no_parent ? Motion<Scalar>::Zero() : ws.v[p];
    const Motion<Scalar> ap = p == no_parent ? a0 : ws.a[p];
    const int vi = model.v_offset(i);
    const Eigen::Index ni = model.motion_subspaces()[i].cols();
    MotionSubspace<Scalar>& S = ws.S[i];
    S = X.apply_inverse_motion(model.motion_subspaces()[i]);                    // D3
    const Motion<Scalar> vJ = S * qd.segment(vi, ni);
    ws.v[i] = vp + vJ;
    ws.a[i] = ap + S * qdd.segment(vi, ni) + cross_motion(vp, vJ);
    ws.dV[i] = cross_motion(vp, S);                                             // D4
    ws.dA[i] = cross_motion(ap, S) + cross_motion(vp, ws.dV[i]);
    ws.dVv[i] = cross_motion(Motion<Scalar>(vp + ws.v[i]), S);
    const Matrix6<Scalar> I = apply_transpose_inertia(X, model.inertia(i)).matrix();  // D5
    const Motion<Scalar>& v = ws.v[i];
    const Force<Scalar> h = I * v;
    ws.F[i] = I * ws.a[i] + cross_force(v, h) - X.apply_inverse_force(Force<Scalar>(f_ext[i]));
    ws.IC[i] = I;                                                               // D6
    // v ×* I − I (v ×) = C + Cᵀ with C = v ×* I (I symmetric, crf(v) = −crm(v)ᵀ): one structured
    // cross product per column instead of two dense 6×6 products
    const Matrix6<Scalar> C = cross_force(v, I);
    ws.BC[i] = C + C.transpose();
    ws.BC[i] += force_star(h);
  }
}

/// D7–D12: τ into tau, ∂τ/∂q and ∂τ/∂q̇ into ws.
template <class Scalar, int N, class Out>
void rnea_derivatives_inward(const Model<Scalar, N>& model, RneaDerivativesWorkspace<Scalar, N>& ws,
                             Out& tau) noexcept {
  using RowBlock = Eigen::Matrix<Scalar, Eigen::Dynamic, 6, Eigen::RowMajor, 6, 6>;
  ws.dtau_dq.setZero();                                                         // D12
  ws.dtau_dv.setZero();
  for (const int i : model.inward_order()) {                                    // D7
    const MotionSubspace<Scalar>& S = ws.S[i];
    const int vi = model.v_offset(i);
    const Eigen::Index ni = S.cols();
    tau.segment(vi, ni).noalias() = S.transpose() * ws.F[i];                     // D8
    RowBlock SIC(ni, 6), SBC(ni, 6);
    SIC.noalias() = S.transpose().lazyProduct(ws.IC[i]);
    SBC.noalias() = S.transpose().lazyProduct(ws.BC[i]);
    for (int j = i; j != no_parent; j = model.parent(j)) {                      // D9
      const int vj = model.v_offset(j);
      const Eigen::Index nj = ws.S[j].cols();
      ws.dtau_dq.block(vi, vj, ni, nj).noalias() = SIC.lazyProduct(ws.dA[j]) + SBC.lazyProduct(ws.dV[j]);
      ws.dtau_dv.block(vi, vj, ni, nj).noalias() = SIC.lazyProduct(ws.dVv[j]) + SBC.lazyProduct(ws.S[j]);
    }
    const int p = model.parent(i);
    if (p == no_parent) continue;
    MotionSubspace<Scalar> Q(6, ni), Qv(6, ni);                                 // D10
    Q.noalias() = force_star(ws.F[i]).lazyProduct(S);
    Q.noalias() += ws.IC[i].lazyProduct(ws.dA[i]);
    Q.noalias() += ws.BC[i].lazyProduct(ws.dV[i]);
    Qv.noalias() = ws.IC[i].lazyProduct(ws.dVv[i]);
    Qv.noalias() += ws.BC[i].lazyProduct(S);
    for (int k = p; k != no_parent; k = model.parent(k)) {
      const int vk = model.v_offset(k);
      const Eigen::Index nk = ws.S[k].cols();
      ws.dtau_dq.block(vk, vi, nk, ni).noalias() = ws.S[k].transpose().lazyProduct(Q);
      ws.dtau_dv.block(vk, vi, nk, ni).noalias() = ws.S[k].transpose().lazyProduct(Qv);
    }
    ws.IC[p] += ws.IC[i];                                                       // D11
    ws.BC[p] += ws.BC[i];
    ws.F[p] += ws.F[i];
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
  detail::rnea_derivatives_inward(model, ws, data.tau);                         // D7–D12
  return ws.status = Status::success();
}

}  // namespace treedyn
