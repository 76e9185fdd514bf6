// ccrba: the centroidal momentum matrix A_g (6×n), the centroidal momentum h_g = A_g q̇ and the centroidal
// composite inertia I_g, by the composite-rigid-body recursion taken at the centre of mass.
//
// Reference: Orin, Goswami & Lee, "Centroidal dynamics of a humanoid robot", Autonomous Robots 35 (2013)
// (docs/references.md): the centroidal composite-rigid-body algorithm, A_g column block i = ^G X*_i I_i^c
// S_i, with I_i^c the composite inertia of the subtree of i. That paper is not in /work/shared/seeds; the
// steps below are derived from the CRBA's composite recursion (Featherstone, Rigid Body Dynamics
// Algorithms, 2008, Table 6.2; crba.hpp C1–C5), carried along the world axes instead of each root's:
//   G1  forward kinematics: data.Xup, data.X_world = (E_i, o_i)
//   G2  for i = 1..N:  Ic_i = E_iᵀ I_i E_i                      (about o_i, world axes)
//   G3  for i = N..1:  Ic_λ(i) += Ic_i shifted from o_i to o_λ(i)  (d_i = o_i − o_λ(i) = E_λ(i)ᵀ r_i)
//   G4  m_s(i) = Ic_i.m, h_s(i) = Ic_i.h; c and every c_s(i) as center_of_mass.hpp M3
//   G5  for i = 1..N:  g_i = c − o_i  (g_λ(i) − d_i; at a root, from M3's offset)
//   G6  for every DoF k of body i, s = E_iᵀ S_i,k (world axes, about o_i):
//          [n; f] = Ic_i s,   A_g[:, k] = [n + f × g_i; f]          (the moment taken about c)
//          h_g += A_g[:, k] q̇_k                                  (h_g = A_g q̇, column by column)
//   G7  I_g = Σ_roots Ic_ρ shifted from o_ρ to c (h = 0 there);   ċ = h_g's linear half / M
// G3–G4 run in one inward pass and G5–G6 in one outward pass.
// Row order: ANGULAR FIRST, h_g = [k_G; l_G] (angular momentum about c, then linear momentum), as every
// spatial force in treedyn ([n; f], docs/conventions.md#spatial-vectors) and as in Orin et al. Pinocchio's
// ccrba stores Ag and hg linear first: Ag_pinocchio = [A_g.bottomRows(3); A_g.topRows(3)]
// (docs/centroidal.md#row-order-and-pinocchio).
// Accuracy: Ic_i, h_s(i) and g_i are built from offsets between neighbouring bodies only (as crba.hpp and
// center_of_mass.hpp M2), so every column's moment is formed about a point near the body, not the world
// origin; c itself is the only absolute position.
// Contract: q (nq), q̇ (nv); checked, finite. Writes data.Ag (6 × nv), data.hg, data.Ig, data.IC_world,
// data.com_offset, data.vcom and every output of center_of_mass(q). Returns the status (also in
// data.config_status); a zero quaternion or a non-finite input sets the outputs to NaN.
// Cost: N rotated inertias and composite shifts, per DoF two rotations and three cross products (one
// rotation and two cross products for a revolute or prismatic DoF), 6n for h_g: O(N + n). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/center_of_mass.hpp"

namespace treedyn {
namespace detail {

/// G2–G6 after forward kinematics (data.Xup, data.X_world): data.IC_world, the subtree moments, c, A_g and,
/// accumulated column by column in G6, h_g = A_g q̇. A revolute column has s = [w; 0] and a prismatic one
/// s = [0; v] (joint.hpp's motion_subspace): their zero half is neither rotated nor multiplied (the products it
/// would add are exact zeros).
template <class Scalar, int N, class Dv>
void centroidal_map_given_placements(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                     const Eigen::MatrixBase<Dv>& qd) noexcept {
  using V3 = Vector3<Scalar>;
  for (int i = 0; i < model.nbodies(); ++i)                                                 // G2
    rotated_inertia_into<true>(data.X_world[i].E, model.inertia(i), data.IC_world[i]);
  for (const int i : model.inward_order()) {                                                // G3, G4
    const RigidInertia<Scalar>& Ic = data.IC_world[i];                                       // complete: children came first
    data.mass_subtree[i] = Ic.m;
    data.h_subtree[i] = Ic.h;
    const int p = model.parent(i);
    if (p == no_parent) continue;
    const V3 d = joint_offset_world(data, i, p);
    data.com_offset[i] = d;                                                                 // kept for G5
    data.IC_world[p] += shift_origin(Ic.m, Ic.h, Ic.I, V3(-d));
  }
  const ComFromRoot<Scalar> c0 = com_from_subtrees(model, data);
  V3 k = V3::Zero(), l = V3::Zero();                                                        // h_g's halves
  for (int i = 0; i < model.nbodies(); ++i) {                                               // G5, G6 (parents first)
    const int p = model.parent(i);
    V3& g = data.com_offset[i];
    if (p != no_parent)
      g = data.com_offset[p] - g;
    else
      g = c0.offset - V3(data.X_world[i].r - data.X_world[c0.root].r);
    const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
    const JointType type = model.joint(i).type;
    const Matrix3<Scalar>& E = data.X_world[i].E;
    const RigidInertia<Scalar>& Ic = data.IC_world[i];
    for (int c = 0, col = model.v_offset(i); c < S.cols(); ++c, ++col) {                  // [n; f] = Ic s
      V3 n, f;
      if (type == JointType::revolute) {                                                    // s = [w; 0]
        const V3 w = rotate<true>(E, V3(S.col(c).template head<3>()));
        f = -cross(Ic.h, w);
        n = Ic.I * w;
      } else if (type == JointType::prismatic) {                                            // s = [0; v]
        const V3 v = rotate<true>(E, V3(S.col(c).template tail<3>()));
        f = Ic.m * v;
        n = cross(Ic.h, v);
      } else {
        const MotionHalves<Scalar> s = world_subspace_column(E, S, c);
        f = Ic.m * s.v - cross(Ic.h, s.w);
        n = Ic.I * s.w + cross(Ic.h, s.v);
      }
      n += cross(f, g);                                                                     // the moment about c
      data.Ag.col(col).template head<3>() = n;
      data.Ag.col(col).template tail<3>() = f;
      k += n * qd(col);
      l += f * qd(col);
    }
  }
  data.hg.template head<3>() = k;
  data.hg.template tail<3>() = l;
}

/// G7's I_g: the roots' composite inertias shifted to c (data.com_offset of each root is c − o_ρ).
template <class Scalar, int N>
void centroidal_inertia(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  RigidInertia<Scalar> Ig = RigidInertia<Scalar>::zero();
  for (int i = 0; i < model.nbodies(); ++i) {
    if (model.parent(i) != no_parent) continue;
    const RigidInertia<Scalar>& Ic = data.IC_world[i];
    Ig += shift_origin(Ic.m, Ic.h, Ic.I, data.com_offset[i]);
  }
  Ig.h.setZero();  // the first moment about c is zero; what is left is rounding
  data.Ig = Ig;
}

}  // namespace detail

namespace detail {

/// ccrba's checks and G1–G7 under the name fn (centroidal_map_time_variation calls it too): false after a
/// failed argument check (status in `status`, outputs untouched) or a failed configuration (outputs NaN).
template <class Scalar, int N, class Dq, class Dv>
bool ccrba_checked(const char* fn, const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                   const Eigen::MatrixBase<Dv>& qd, Status& status) noexcept {
  if (!(model_data_q_ok(fn, model, data, q) && dof_vector_ok(fn, "qd", model, qd))) {
    status = Status::invalid_argument(fn);
    return false;
  }
  if (!joint_transforms(model, data, q, fn) || !finite_ok(fn, "qd", qd, data.config_status)) {
    com_failed(model, data);
    fill_nan(data.Ag);
    data.hg.setConstant(nan<Scalar>());
    const Scalar x = nan<Scalar>();
    data.Ig = RigidInertia<Scalar>{x, Vector3<Scalar>::Constant(x), Symmetric3<Scalar>::zero() * x};
    status = data.config_status;
    return false;
  }
  world_placements(model, data);                                                           // G1
  centroidal_map_given_placements(model, data, qd);                                        // G2–G6, h_g
  centroidal_inertia(model, data);                                                         // G7
  data.vcom = data.hg.template tail<3>() / data.mass;
  status = data.config_status;
  return true;
}

}  // namespace detail

/// A_g(q) into data.Ag (6 × nv, angular rows first), h_g = A_g q̇ into data.hg, I_g into data.Ig (about c,
/// world axes), ċ into data.vcom, and the centre of mass (center_of_mass(q)'s outputs). Returns the status.
template <class Scalar, int N, class Dq, class Dv>
Status ccrba(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
             const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  Status status;
  detail::ccrba_checked("ccrba", model, data, q, qd, status);
  return status;
}

}  // namespace treedyn
