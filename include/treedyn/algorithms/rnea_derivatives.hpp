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
//          (never a dense 6×6 X: IC is a rigid inertia and moves as crba's does; so does BC's symmetric part,
//          the rate of a rigid inertia (rnea_derivatives_outward); its skew part as a force, since Xᵀ (h⋆) X = (Xᵀ h)⋆)
//   D12 every other entry (i and j on different branches) is 0.
// For a 1-DoF joint Ψ̇ᵛ_i = 2 Ψ̇_i (S_i q̇_i × S_i = 0): the factor 2 of Carpentier & Mansard's ∂τ/∂q̇; for a
// multi-DoF joint the term (S_i q̇_i) × S_i stays. Gravity enters through a_λ(j) in Ψ̈_j (a_0 = −[0; g]);
// f_ext (body coordinates) turns with its body and needs no term of its own (it is in F_i).
// Indexing: paper body i ↔ code i−1; "λ(i) ≠ 0" ↔ "parent != no_parent"; the inward loop visits the bodies
// by decreasing index (children before parents).
// Cost: O(N) for D1–D8 and D11 (6-vector products per DoF and structured transforms per body), plus O(n·d) for
// D9 and D10 (d: the depth of the tree): per pair (i, ancestor) one force transform of the four forces
// [P R Q Qᵛ] and their pairings; no n passes. The pairs are taken ancestor by ancestor: when the inward pass
// reaches body j, the forces of every DoF below it have been carried to frame j and lie side by side (rows of
// 6 × n blocks, one column per DoF, in depth-first order, so a subtree is a range of columns), and D9–D10 with
// j and the carry to λ(j) each run along that range: the subtree's DoFs in the SIMD lanes
// (docs/derivatives.md#the-carried-forces).
// Contract: q (nq), q̇, q̈ (nv) any Eigen vectors; f_ext any container of Force<Scalar> indexed by body
// (default none). Writes ws.dtau_dq, ws.dtau_dv (n×n, dense: the entries of D12 are written 0), data.tau (τ,
// as rnea), data.Xup and data.X_world. Arguments are checked like rnea's (detail/check.hpp): a wrong size
// fails the check (Status::invalid_argument if the handler returns); a zero quaternion or a NaN or an
// infinity in q, q̇, q̈ or f_ext returns data.config_status (invalid_configuration / non_finite_input) with
// every output NaN. Returns the status. noexcept; never allocates (ws is built once from the model).
#pragma once

#include <algorithm>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/detail/assert.hpp"
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
        dV(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        dA(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        dVv(model.nbodies(), MotionSubspace<Scalar>::Zero(6, 1)),
        v(model.nbodies(), Motion<Scalar>::Zero()),
        a(model.nbodies(), Motion<Scalar>::Zero()),
        F(model.nbodies(), Force<Scalar>::Zero()),
        IC(model.nbodies(), RigidInertia<Scalar>::zero()),
        BC(model.nbodies(), RigidInertia<Scalar>::zero()),
        Bh(model.nbodies(), Force<Scalar>::Zero()),
        carried(Carried::Zero(24, pad + model.nv())),
        pairings(Pairings::Zero(4, pad + model.nv())),
        first(model.nbodies(), 0),
        count(model.nbodies(), 0),
        dof_at(Columns::Constant(pad + model.nv(), -1)),
        model_id(model.id()) {
    for (int i = 0; i < model.nbodies(); ++i) {
      const Eigen::Index ni = model.motion_subspace(i).cols();
      dV[i] = dA[i] = dVv[i] = MotionSubspace<Scalar>::Zero(6, ni);
    }
    // depth-first positions, children in index order (λ(i) < i: a parent's position is known before its
    // children's), after the pad: count = the DoFs of the subtree, first = the column of the body's first DoF
    for (int i = model.nbodies() - 1; i >= 0; --i) {
      count[i] += static_cast<int>(model.motion_subspace(i).cols());
      if (model.parent(i) != no_parent) count[model.parent(i)] += count[i];
    }
    detail::Array<int, N> next(model.nbodies(), 0);  // the next free position below each body
    int next_root = pad;
    for (int i = 0; i < model.nbodies(); ++i) {
      int& cursor = model.parent(i) == no_parent ? next_root : next[model.parent(i)];
      first[i] = cursor;
      cursor += count[i];
      next[i] = first[i] + static_cast<int>(model.motion_subspace(i).cols());
      for (int c = 0; c < model.motion_subspace(i).cols(); ++c) dof_at(first[i] + c) = model.v_offset(i) + c;
    }
    in_order = true;
    for (int k = 0; k < model.nv(); ++k) in_order = in_order && dof_at(pad + k) == k;
  }

  /// The columns D9–D10 run along at once: a SIMD register of Scalar (Eigen's packet size; 1 for a scalar
  /// type Eigen does not vectorize), at most 8 (a limb's subtree, whose columns would mostly be padding in a
  /// run of 16 floats: measured in docs/derivatives.md#the-carried-forces), and pad = width − 1 columns before
  /// the first DoF's, so that a range of columns can be run in whole runs that end at its last column
  /// (detail::for_columns).
  static constexpr int simd_width = std::min(int{Eigen::internal::packet_traits<Scalar>::size}, 8);
  static constexpr int pad = simd_width - 1;
  static constexpr int MaxColumns = N == Dynamic ? Dynamic : N + pad;
  /// The forces P, R, Q, Qᵛ of every DoF side by side: rows 0–5 P, 6–11 R, 12–17 Q, 18–23 Qᵛ (a row per
  /// coordinate), a column per depth-first position after the pad
  using Carried = Eigen::Matrix<Scalar, 24, Eigen::Dynamic, Eigen::RowMajor, 24, MaxColumns>;
  /// One ancestor DoF's pairings before they are stored: rows ∂τ/∂q, ∂τ/∂q̇ (D9), ∂τ/∂q, ∂τ/∂q̇ (D10)
  using Pairings = Eigen::Matrix<Scalar, 4, Eigen::Dynamic, Eigen::RowMajor, 4, MaxColumns>;
  using Columns = Eigen::Matrix<int, Eigen::Dynamic, 1, Eigen::ColMajor, MaxColumns, 1>;

  MatrixN<Scalar, N> dtau_dq;  ///< output: ∂τ/∂q (n×n; column c: the tangent increment δ_c, row: τ's DoF)
  MatrixN<Scalar, N> dtau_dv;  ///< output: ∂τ/∂q̇ (n×n)
  Status status;               ///< the status of the last call (also returned)
  // per body, body coordinates (D3–D6)
  detail::Array<MotionSubspace<Scalar>, N> dV;   ///< Ψ̇_i = vᵖ_i × S_i, vᵖ_i = X_i v_λ(i)
  detail::Array<MotionSubspace<Scalar>, N> dA;   ///< Ψ̈_i = aᵖ_i × S_i + vᵖ_i × Ψ̇_i
  detail::Array<MotionSubspace<Scalar>, N> dVv;  ///< Ψ̇ᵛ_i = (vᵖ_i + v_i) × S_i
  detail::Array<Motion<Scalar>, N> v;            ///< v_i
  detail::Array<Motion<Scalar>, N> a;            ///< a_i (gravity as the base acceleration)
  detail::Array<Force<Scalar>, N> F;             ///< f_i, then F_i = Σ over the subtree
  detail::Array<RigidInertia<Scalar>, N> IC;     ///< I_i, then IC_i (a sum of rigid inertias is one)
  /// B_i's symmetric part v_i ×* I_i − I_i (v_i ×), the rate of a rigid inertia (mass 0), then its sum over
  /// the subtree (BC_i = BC + Bh⋆)
  detail::Array<RigidInertia<Scalar>, N> BC;
  detail::Array<Force<Scalar>, N> Bh;            ///< B_i's skew part (I_i v_i)⋆ as the force I_i v_i, then summed
  // D9–D10, one column per DoF in depth-first position (docs/derivatives.md#the-carried-forces)
  Carried carried;    ///< each DoF's P, R, Q, Qᵛ (formed at its body, then carried up with the pass)
  Pairings pairings;  ///< scratch
  detail::Array<int, N> first;  ///< per body: the column of its first DoF
  detail::Array<int, N> count;  ///< per body: the DoFs of its subtree (columns first … first + count − 1)
  Columns dof_at;               ///< the DoF (v index) at each column (−1 in the pad)
  bool in_order = true;         ///< column pad + k holds DoF k for every k (the model is numbered depth-first)
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

/// A force [n; f] from frame i to frame λ(i) (X = ^iX_λ(i)): [Eᵀn + r × Eᵀf; Eᵀf] (transform.hpp's
/// apply_inverse_force), on coefficients, so that a loop over columns compiles to straight-line code at -O2 and
/// to SIMD over the columns at -O3 (the hot loops of D9–D10). E and r are copied in: nothing written through
/// the coefficients can reach them.
template <class Scalar>
struct InverseForce {
  explicit InverseForce(const Transform<Scalar>& X) noexcept
      : e00(X.E(0, 0)), e01(X.E(0, 1)), e02(X.E(0, 2)), e10(X.E(1, 0)), e11(X.E(1, 1)), e12(X.E(1, 2)),
        e20(X.E(2, 0)), e21(X.E(2, 1)), e22(X.E(2, 2)), r0(X.r(0)), r1(X.r(1)), r2(X.r(2)) {}

  EIGEN_ALWAYS_INLINE void operator()(Scalar& n0, Scalar& n1, Scalar& n2, Scalar& f0, Scalar& f1,
                                      Scalar& f2) const noexcept {
    const Scalar g0 = e00 * f0 + e10 * f1 + e20 * f2;  // Eᵀ f
    const Scalar g1 = e01 * f0 + e11 * f1 + e21 * f2;
    const Scalar g2 = e02 * f0 + e12 * f1 + e22 * f2;
    const Scalar m0 = (e00 * n0 + e10 * n1 + e20 * n2) + (r1 * g2 - r2 * g1);  // Eᵀ n + r × Eᵀ f
    const Scalar m1 = (e01 * n0 + e11 * n1 + e21 * n2) + (r2 * g0 - r0 * g2);
    const Scalar m2 = (e02 * n0 + e12 * n1 + e22 * n2) + (r0 * g1 - r1 * g0);
    n0 = m0;
    n1 = m1;
    n2 = m2;
    f0 = g0;
    f1 = g1;
    f2 = g2;
  }

  Scalar e00, e01, e02, e10, e11, e12, e20, e21, e22, r0, r1, r2;
};

/// K ← X_iᵀ K = X_i*⁻¹ K for a fixed 6×C block of forces in frame i (X = ^iX_λ(i)): each column to frame λ(i).
template <class Scalar, int C>
void inverse_force_in_place(const Transform<Scalar>& X, Eigen::Matrix<Scalar, 6, C>& K) noexcept {
  const InverseForce<Scalar> to_parent(X);
  for (int c = 0; c < C; ++c) to_parent(K(0, c), K(1, c), K(2, c), K(3, c), K(4, c), K(5, c));
}

/// Calls step(c) for every column c in [begin, end) and for up to W − 1 columns below begin: in whole runs of W
/// columns (a compile-time count, so each run is one pass of SIMD registers) that end at end − 1.
template <int W, class Step>
EIGEN_ALWAYS_INLINE void for_columns(Eigen::Index begin, Eigen::Index end, Step&& step) noexcept {
  for (Eigen::Index c0 = end - (end - begin + W - 1) / W * W; c0 < end; c0 += W) {
    TREEDYN_INDEPENDENT_ITERATIONS
    for (int l = 0; l < W; ++l) step(c0 + l);
  }
}

/// Columns b … b + m − 1 of the carried forces (RneaDerivativesWorkspace::carried: P, R, Q, Qᵛ) from frame i
/// to frame λ(i), in runs of W columns (the columns are independent). With W > 1 a run also moves up to W − 1
/// columns below b: in a model numbered depth-first and visited by decreasing index, those belong to bodies the
/// inward pass has not reached (their columns are formed when it does), or to the pad.
template <int W, class Scalar, class Carried>
void inverse_force_columns(const InverseForce<Scalar>& to_parent, Carried& K, Eigen::Index b,
                           Eigen::Index m) noexcept {
  Scalar* const k = K.data();
  const Eigen::Index s = K.outerStride();
  for_columns<W>(b, b + m, [&](Eigen::Index c) TREEDYN_INLINE_LAMBDA {
    Scalar *const P = k + c, *const R = P + 6 * s, *const Q = P + 12 * s, *const Qv = P + 18 * s;
    to_parent(P[0], P[s], P[2 * s], P[3 * s], P[4 * s], P[5 * s]);
    to_parent(R[0], R[s], R[2 * s], R[3 * s], R[4 * s], R[5 * s]);
    to_parent(Q[0], Q[s], Q[2 * s], Q[3 * s], Q[4 * s], Q[5 * s]);
    to_parent(Qv[0], Qv[s], Qv[2 * s], Qv[3 * s], Qv[4 * s], Qv[5 * s]);
  });
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
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];              // D3
    const Eigen::Index ni = S.cols();
    Motion<Scalar> vJ = S.col(0) * qd(vi), aJ = S.col(0) * qdd(vi);
    for (Eigen::Index c = 1; c < ni; ++c) {
      vJ += S.col(c) * qd(vi + c);
      aJ += S.col(c) * qdd(vi + c);
    }
    ws.v[i] = vp + vJ;
    ws.a[i] = ap + aJ + cross_motion(vp, vJ);
    const Motion<Scalar> vv = vp + ws.v[i];
    for (Eigen::Index c = 0; c < ni; ++c) {                                     // D4, one DoF at a time
      const Motion<Scalar> s_c = S.col(c), dV = cross_motion(vp, s_c);
      ws.dV[i].col(c) = dV;
      ws.dA[i].col(c) = cross_motion(ap, s_c) + cross_motion(vp, dV);
      ws.dVv[i].col(c) = cross_motion(vv, s_c);
    }
    const Motion<Scalar>& v = ws.v[i];
    const Force<Scalar> h = model.inertia(i).apply(v);
    ws.F[i] = model.inertia(i).apply(ws.a[i]) + cross_force(v, h) - Force<Scalar>(f_ext[i]);
    ws.IC[i] = model.inertia(i);                                                // D6
    // B_i = (C + Cᵀ) + h⋆ with C = v ×* I_i (I_i symmetric, crf(v) = −crm(v)ᵀ) is kept as its symmetric part
    // and the force h (h⋆ is skew, and Xᵀ (h⋆) X = (Xᵀ h)⋆: it moves to the parent as a force, D11).
    // C + Cᵀ = v ×* I − I v× is the rate of the rigid inertia I = [Ī h×; −h× m1] moving with v = [ω; u]: of
    // the same form, with m' = 0, h' = ω × h + m u and Ī' = ω×Ī − Īω× − (h uᵀ + u hᵀ) + 2 (u·h) 1 (block by
    // block, with [ω×, h×] = (ω × h)× and u×h× + h×u× = h uᵀ + u hᵀ − 2 (u·h) 1). So it is a RigidInertia
    // with m = 0, summed and moved to the parent as IC is (docs/derivatives.md#the-rate-of-a-rigid-inertia)
    const RigidInertia<Scalar>& I = model.inertia(i);
    const Vector3<Scalar> w = v.template head<3>(), u = v.template tail<3>();
    const Matrix3<Scalar> wI = skew(w) * I.I.matrix();  // ω×Ī, so ω×Ī − Īω× = wI + wIᵀ
    ws.BC[i] = RigidInertia<Scalar>{
        Scalar(0), w.cross(I.h) + I.m * u,
        (Symmetric3<Scalar>::from_matrix(wI) * Scalar(2) - Symmetric3<Scalar>::outer_sum(I.h, u))
            .plus_diagonal(Scalar(2) * u.dot(I.h))};
    ws.Bh[i] = h;
  }
}

/// D9–D10 for body j and every DoF in its subtree (positions b = first[j] … b + count[j] − 1, their forces in
/// frame j): for each DoF c of j, the column vj + c of ∂τ/∂q and ∂τ/∂q̇ below it (D9, j ⪯ i: Pᵀ Ψ̈_j + Rᵀ Ψ̇_j,
/// Pᵀ Ψ̇ᵛ_j + Rᵀ S_j) and the row vj + c right of its own block (D10, j ≺ i: S_jᵀ Q, S_jᵀ Qᵛ). The four
/// pairings of a position are formed together, the positions in the SIMD lanes; D10's at j's own DoFs are
/// formed and not stored.
template <class Scalar, int N>
void rnea_derivatives_pairings(const Model<Scalar, N>& model, RneaDerivativesWorkspace<Scalar, N>& ws,
                               int j) noexcept {
  const Eigen::Index b = ws.first[j], m = ws.count[j];
  const MotionSubspace<Scalar>& Sj = model.motion_subspaces()[j];
  const Eigen::Index nj = Sj.cols();
  const Scalar* const k = ws.carried.data();
  const Eigen::Index s = ws.carried.outerStride();
  Scalar* const out = ws.pairings.data();
  const Eigen::Index so = ws.pairings.outerStride();
  constexpr int W = RneaDerivativesWorkspace<Scalar, N>::simd_width;
  for (Eigen::Index c = 0; c < nj; ++c) {
    Scalar a[6], v[6], w[6], z[6];  // Ψ̈_j, Ψ̇_j, Ψ̇ᵛ_j, S_j: column c
    for (int r = 0; r < 6; ++r) {
      a[r] = ws.dA[j](r, c);
      v[r] = ws.dV[j](r, c);
      w[r] = ws.dVv[j](r, c);
      z[r] = Sj(r, c);
    }
    for_columns<W>(b, b + m, [&](Eigen::Index e) TREEDYN_INLINE_LAMBDA {  // the columns below b: formed, never stored
      const Scalar* const P = k + e;
      const Scalar *const R = P + 6 * s, *const Q = P + 12 * s, *const Qv = P + 18 * s;
      Scalar dq = a[0] * P[0], dv = w[0] * P[0], uq = z[0] * Q[0], uv = z[0] * Qv[0];
      for (int r = 1; r < 6; ++r) {
        dq += a[r] * P[r * s];
        dv += w[r] * P[r * s];
        uq += z[r] * Q[r * s];
        uv += z[r] * Qv[r * s];
      }
      for (int r = 0; r < 6; ++r) {
        dq += v[r] * R[r * s];
        dv += z[r] * R[r * s];
      }
      out[e] = dq;
      out[so + e] = dv;
      out[2 * so + e] = uq;
      out[3 * so + e] = uv;
    });
    const Eigen::Index vc = model.v_offset(j) + c;
    if (ws.in_order) {                                                         // rows ⪰ j's DoF c
      ws.dtau_dq.col(vc).segment(ws.dof_at(b), m) = ws.pairings.row(0).segment(b, m).transpose();
      ws.dtau_dv.col(vc).segment(ws.dof_at(b), m) = ws.pairings.row(1).segment(b, m).transpose();
    } else {
      for (Eigen::Index e = b; e < b + m; ++e) {
        ws.dtau_dq(ws.dof_at(e), vc) = out[e];
        ws.dtau_dv(ws.dof_at(e), vc) = out[so + e];
      }
    }
    for (Eigen::Index e = b + nj; e < b + m; ++e) {                            // columns of the DoFs below j
      ws.dtau_dq(vc, ws.dof_at(e)) = out[2 * so + e];
      ws.dtau_dv(vc, ws.dof_at(e)) = out[3 * so + e];
    }
  }
}

/// D7–D12: τ into tau, ∂τ/∂q and ∂τ/∂q̇ into ws; body coordinates, forces carried up the tree (data.Xup).
template <class Scalar, int N, class Out>
void rnea_derivatives_inward(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                             RneaDerivativesWorkspace<Scalar, N>& ws, Out& tau) noexcept {
  ws.dtau_dq.setZero();                                                         // D12
  ws.dtau_dv.setZero();
  // D7 by decreasing index, not model.inward_order(): a child's forces reach its parent in the same order (the
  // same sums), and in a model numbered depth-first the columns below first[i] are then those of bodies not
  // reached yet (inverse_force_columns)
  for (int i = model.nbodies() - 1; i >= 0; --i) {
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    const int vi = model.v_offset(i);
    const Eigen::Index ni = S.cols(), b = ws.first[i];
    tau.segment(vi, ni).noalias() = S.transpose() * ws.F[i];                     // D8
    // body i's own columns [P R Q Qᵛ] (D9–D10), one DoF at a time. BC_i = BC + Bh⋆ with Bh⋆ skew, so BC_iᵀ = BC −
    // Bh⋆, and (h⋆) m = m ×* h: P = IC s, R = BC s − s ×* Bh, Q = s ×* F + IC Ψ̈ + BC Ψ̇ + Ψ̇ ×* Bh,
    // Qᵛ = IC Ψ̇ᵛ + BC s + s ×* Bh (no 6×6 formed)
    for (Eigen::Index c = 0; c < ni; ++c) {
      const Motion<Scalar> s_c = S.col(c), dA = ws.dA[i].col(c), dV = ws.dV[i].col(c), dVv = ws.dVv[i].col(c);
      const Force<Scalar> BCs = ws.BC[i].apply(s_c), sBh = cross_force(s_c, ws.Bh[i]);
      const Force<Scalar> P = ws.IC[i].apply(s_c), R = BCs - sBh;
      const Force<Scalar> Q =
          cross_force(s_c, ws.F[i]) + ws.IC[i].apply(dA) + ws.BC[i].apply(dV) + cross_force(dV, ws.Bh[i]);
      const Force<Scalar> Qv = ws.IC[i].apply(dVv) + BCs + sBh;
      ws.carried.col(b + c) << P, R, Q, Qv;
    }
    rnea_derivatives_pairings(model, ws, i);                                    // D9–D10 with j = i
    const int p = model.parent(i);
    if (p == no_parent) continue;
    const Transform<Scalar>& X = data.Xup[i];                                   // D11
    const InverseForce<Scalar> to_parent(X);
    if (ws.in_order)
      inverse_force_columns<RneaDerivativesWorkspace<Scalar, N>::simd_width>(to_parent, ws.carried, b, ws.count[i]);
    else
      inverse_force_columns<1>(to_parent, ws.carried, b, ws.count[i]);
    ws.IC[p] += apply_transpose_inertia(X, ws.IC[i]);                          // as crba carries IC
    ws.BC[p] += apply_transpose_inertia(X, ws.BC[i]);                          // a rigid inertia's rate, as IC
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
