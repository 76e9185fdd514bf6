// centroidal_map_time_variation: the time derivative Ȧ_g (6×n) of the centroidal momentum matrix, with A_g,
// h_g and I_g, in O(N + n) (docs/centroidal.md#centroidal-map-time-variation). Pinocchio's
// computeCentroidalMapTimeVariation / dccrba give the same matrix with its rows in the other order.
//
// Reference: ccrba.hpp G1–G7 (A_g column k of body i = ^G X*_i Ic_i s_k); that recursion differentiated in
// time. Orin, Goswami & Lee (2013) (docs/references.md) state Ȧ_g but not its recursion, so the steps are
// derived here. Along the world axes, every spatial quantity about a point fixed in space at the instant,
// the rules are those of Featherstone, Rigid Body Dynamics Algorithms (2008), §2.9–2.13:
//   ṡ = v_i × s                       (a joint axis moves with its body i, v_i its spatial velocity)
//   İ_j = v_j ×* I_j − I_j v_j ×      (a body's inertia moves with it, eq. 2.65)
// İ_j has the form of an inertia with zero mass, (0, ḣ_j, Ī̇_j): with v_j = [ω; u] and I_j = (m, h, Ī) about
// the point o_j, in body j's axes (the formulas hold in any axes; body axes keep them exact to ε of the body),
//   ḣ_j = m u + ω × h,     Ī̇_j = ω×Ī − Īω× − (h uᵀ + u hᵀ) + 2 (u·h) 1,
// so İc_i = Σ_subtree İ_j is accumulated by the same origin shift as Ic_i (ccrba.hpp G3, zero mass). A_g's
// column a_k = [n + f × (c − o_i); f] with [n; f] = Ic_i s_k, and c moves with ċ, so
//   D1  ccrba G1–G7: data.Ag, data.IC_world (Ic_i about o_i), data.com_offset (g_i = c − o_i), data.vcom (ċ)
//   D2  for i = 1..N: v_i (body axes, rnea.hpp R4–R5);  dIC_i = E_iᵀ İ_i E_i  (about o_i, world axes)
//   D3  for i = N..1: dIC_λ(i) += dIC_i shifted from o_i to o_λ(i)
//   D4  for every DoF k of body i, s = E_iᵀ S_i,k, ṡ = (E_iᵀ v_i) × s:
//          [n; f] = dIC_i s + Ic_i ṡ,   Ȧ_g[:, k] = [n + f × g_i − ċ × f_k;  f]   (f_k = A_g[3:6, k])
// Row order: ANGULAR FIRST, as data.Ag (Pinocchio's dAg = [Ȧ_g.bottomRows(3); Ȧ_g.topRows(3)]).
// Checked: Ȧ_g q̇ = centroidal_drift, and Ȧ_g against 50-digit central differences of A_g along q ⊕ t q̇.
// Contract: q (nq), q̇ (nv); checked, finite. Writes ws.dAg (6 × nv), every output of ccrba (data.Ag, data.hg,
// data.Ig, data.vcom, the centre of mass) and data.v (body velocities). Returns the status (also in
// ws.status); a zero quaternion or a non-finite input sets data's outputs and ws.dAg to NaN.
// Cost: ccrba, then one velocity, one zero-mass inertia rotation and one shift per body, and four 3×3 products
// and six cross products per DoF: O(N + n). noexcept; never allocates.
#pragma once

#include <cstdint>

#include "treedyn/algorithms/ccrba.hpp"
#include "treedyn/algorithms/detail/outward_pass.hpp"

namespace treedyn {

/// Storage for centroidal_map_time_variation, built once from the model.
template <class Scalar, int N = Dynamic>
struct CentroidalMapTimeVariationWorkspace {
  explicit CentroidalMapTimeVariationWorkspace(const Model<Scalar, N>& model)
      : dAg(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())),
        dIC(model.nbodies(), RigidInertia<Scalar>::zero()),
        model_id(model.id()) {}

  Eigen::Matrix<Scalar, 6, N> dAg;             ///< output: Ȧ_g (6 × nv), ANGULAR rows first, as data.Ag
  Status status;                               ///< the status of the last call (also returned)
  detail::Array<RigidInertia<Scalar>, N> dIC;  ///< İc_i (zero mass) about o_i, world axes (D2–D3)
  std::uint64_t model_id;                      ///< Model::id() of the model it was built for (checked)
};

namespace detail {

/// D2 for one body: İ = v ×* I − I v × of body i (inertia and velocity in its own axes, about o_i), as the
/// zero-mass inertia (0, ḣ, Ī̇).
template <class Scalar>
RigidInertia<Scalar> inertia_rate(const RigidInertia<Scalar>& I, const Vector3<Scalar>& w, const Vector3<Scalar>& u) noexcept {
  const Matrix3<Scalar> wI = skew(w) * I.I.matrix();                      // ω×Ī; ω×Ī − Īω× = wI + wIᵀ
  Symmetric3<Scalar> dI = Symmetric3<Scalar>::from_matrix(wI) * Scalar(2) - Symmetric3<Scalar>::outer_sum(I.h, u);
  const Scalar uh2 = Scalar(2) * u.dot(I.h);
  dI.data(0) += uh2;
  dI.data(2) += uh2;
  dI.data(5) += uh2;
  return RigidInertia<Scalar>{Scalar(0), Vector3<Scalar>(I.m * u + cross(w, I.h)), dI};
}

/// D2–D4 after ccrba_checked (data.Xup, data.X_world, data.IC_world, data.com_offset, data.Ag, data.vcom).
template <class Scalar, int N, class Dv>
void centroidal_map_rate_given_map(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                   CentroidalMapTimeVariationWorkspace<Scalar, N>& ws,
                                   const Eigen::MatrixBase<Dv>& qd) noexcept {
  using V3 = Vector3<Scalar>;
  for (int i = 0; i < model.nbodies(); ++i) {                                            // D2
    const BodyVelocity<Scalar> bv = body_velocity(model, data, qd, i);
    ws.dIC[i] = rotated_inertia<true>(data.X_world[i].E, inertia_rate(model.inertia(i), bv.v.w, bv.v.v));
  }
  for (const int i : model.inward_order()) {                                             // D3
    const int p = model.parent(i);
    if (p == no_parent) continue;
    const V3 d = joint_offset_world(data, i, p);                                          // o_i − o_λ(i)
    ws.dIC[p] += shift_origin(Scalar(0), ws.dIC[i].h, ws.dIC[i].I, V3(-d));
  }
  for (int i = 0; i < model.nbodies(); ++i) {                                            // D4
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    const Matrix3<Scalar>& E = data.X_world[i].E;
    const V3 w = rotate<true>(E, V3(data.v[i].template head<3>()));
    const V3 u = rotate<true>(E, V3(data.v[i].template tail<3>()));
    const RigidInertia<Scalar>& Ic = data.IC_world[i];
    const RigidInertia<Scalar>& dIc = ws.dIC[i];
    const V3& g = data.com_offset[i];
    for (int c = 0; c < S.cols(); ++c) {
      const int k = model.v_offset(i) + c;
      const MotionHalves<Scalar> s = world_subspace_column(E, S, c);
      const V3 sw = cross(w, s.w), sv = V3(cross(w, s.v) + cross(u, s.w));           // ṡ = v × s
      const V3 f = V3(Ic.m * sv - cross(Ic.h, sw)) - cross(dIc.h, s.w);
      const V3 n = V3(Ic.I * sw + cross(Ic.h, sv)) + V3(dIc.I * s.w + cross(dIc.h, s.v));
      const V3 fk = data.Ag.col(k).template tail<3>();
      auto col = ws.dAg.col(k);
      col.template head<3>() = n + cross(f, g) - cross(data.vcom, fk);
      col.template tail<3>() = f;
    }
  }
}

}  // namespace detail

/// Ȧ_g(q, q̇) into ws.dAg and ccrba's outputs (A_g, h_g, I_g, ċ, the centre of mass) into data. Returns the
/// status.
template <class Scalar, int N, class Dq, class Dv>
Status centroidal_map_time_variation(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                     CentroidalMapTimeVariationWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q,
                                     const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  constexpr const char* fn = "centroidal_map_time_variation";
  if (!detail::same_model(fn, "ws", ws.model_id, model.id())) return ws.status = Status::invalid_argument(fn);
  if (!detail::ccrba_checked(fn, model, data, q, qd, ws.status)) {                      // D1
    if (ws.status.code != Status::Code::invalid_argument) detail::fill_nan(ws.dAg);
    return ws.status;
  }
  detail::centroidal_map_rate_given_map(model, data, ws, qd);                           // D2–D4
  return ws.status;
}

}  // namespace treedyn
