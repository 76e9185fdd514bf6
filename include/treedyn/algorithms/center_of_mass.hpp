// center_of_mass: the centre of mass of the whole robot (position, velocity, acceleration) and of every
// subtree (position and mass), in world coordinates.
//
// Reference: the definition c = (Σ m_i p_i) / M, p_i body i's centre of mass, summed over a subtree by the
// inward accumulation of the composite-rigid-body algorithm (Featherstone, Rigid Body Dynamics
// Algorithms, 2008, Table 6.2, the line I_λ(i)^c += ^λ(i)X*_i I_i^c ^iX_λ(i), here for its first two
// moments only). docs/centroidal.md#centre-of-mass states the conventions beside Pinocchio's.
//   M1  for i = 1..N:  ^i X_0 = ^i X_λ(i) ^λ(i) X_0 = (E_i, o_i)                    (forward kinematics)
//   M2  for i = N..1:  m_s(i) = m_i + Σ_children m_s(c)
//                      h_s(i) = E_iᵀ h_i + Σ_children (h_s(c) + m_s(c) d_c)      (d_c = E_iᵀ r_c)
//       h_s(i) = m_s(i) (c_s(i) − o_i) is the subtree's first moment of mass about body i's own origin
//       o_i, along the world axes; d_c = o_c − o_i, the child's offset ((E_c, r_c) = ^c X_i) along them.
//   M3  c_s(i) = o_i + h_s(i) / m_s(i)  (o_i when m_s(i) = 0);  M = Σ_roots m_s(ρ);
//       c = o_ρ0 + Σ_roots (h_s(ρ) + m_s(ρ)(o_ρ − o_ρ0)) / M   (ρ0 the first root)
//   with q̇ (body velocities v_i = [ω_i; v_i] in body coordinates, rnea.hpp R4–R5):
//   M4  M ċ = Σ_i E_iᵀ (m_i v_i + ω_i × h_i)
//   with q̈ (a_i = X_i a_λ(i) + S_i q̈_i + v_i × S_i q̇_i, a_0 = 0: no gravity):
//   M5  M c̈ = Σ_i E_iᵀ (m_i (a_i + ω_i × v_i) + ω̇_i × h_i + ω_i × (ω_i × h_i))
// Why first moments about each body's own origin (M2): offsets between neighbouring bodies are exact to ε
// of their own size, so a robot far from the world origin loses no digits in h_s(i) (which the com
// Jacobian and the CCRBA use); only c and c_s(i) themselves carry the absolute position. With one root
// (every floating-base robot) c = o_ρ0 + h_s(ρ0) / M.
// Indexing: paper body i ↔ code i−1; "λ(i) = 0" ↔ "parent == no_parent".
// Contract: q (nq), q̇, q̈ (nv); checked (detail/check.hpp), with finite entries. Writes data.Xup,
// data.X_world, data.mass_subtree, data.h_subtree, data.com_subtree, data.mass, data.com; with q̇ also
// data.v and data.vcom; with q̈ also data.a and data.acom. Returns the status (also in data.config_status):
// a zero quaternion or a non-finite input sets the outputs to NaN. A model of zero total mass gives c = NaN.
// Cost O(N). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/detail/body_acceleration.hpp"

namespace treedyn {
namespace detail {

/// Where c is: the first root ρ0 and c − o_ρ0 along the world axes (M3).
template <class Scalar>
struct ComFromRoot {
  int root;
  Vector3<Scalar> offset;
};

/// M3 from data.X_world, data.mass_subtree and data.h_subtree (after M2): every c_s(i), M and c.
template <class Scalar, int N>
ComFromRoot<Scalar> com_from_subtrees(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  using V3 = Vector3<Scalar>;
  Scalar mass(0);
  V3 moment = V3::Zero();
  int first_root = no_parent;
  for (int i = 0; i < model.nbodies(); ++i) {
    const V3& o = data.X_world[i].r;
    const Scalar& m = data.mass_subtree[i];
    data.com_subtree[i] = m == Scalar(0) ? o : V3(o + data.h_subtree[i] / m);
    if (model.parent(i) != no_parent) continue;
    if (first_root == no_parent) first_root = i;
    mass += m;
    moment += data.h_subtree[i] + m * V3(o - data.X_world[first_root].r);
  }
  data.mass = mass;
  const V3 offset = moment / mass;
  data.com = data.X_world[first_root].r + offset;
  return {first_root, offset};
}

/// o_i − o_λ(i) along the world axes, E_λ(i)ᵀ r_i (r_i = data.Xup[i].r, λ(i) = p), from neighbouring bodies only.
/// Written out in every scalar: in double, GCC 12 left rotate's Eigen product out of line in these per-body loops,
/// a call and a reload per body (perf, docs/centroidal.md#speed-beside-pinocchio).
template <class Scalar, int N>
Vector3<Scalar> joint_offset_world(const Data<Scalar, N>& data, int i, int p) noexcept {
  return rotate_written_out<true>(data.X_world[p].E, data.Xup[i].r);
}

/// M2–M3 from data.X_world and data.Xup: subtree masses, first moments and centres of mass, then M and c
/// (returned as M3's root and offset).
template <class Scalar, int N>
ComFromRoot<Scalar> subtree_mass_moments(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) {
    const RigidInertia<Scalar>& I = model.inertia(i);
    data.mass_subtree[i] = I.m;
    data.h_subtree[i] = rotate<true>(data.X_world[i].E, I.h);
  }
  for (const int i : model.inward_order()) {                                        // M2, deepest first
    const int p = model.parent(i);
    if (p == no_parent) continue;
    const Vector3<Scalar> d = joint_offset_world(data, i, p);                        // o_i − o_λ(i), world axes
    data.mass_subtree[p] += data.mass_subtree[i];
    data.h_subtree[p] += data.h_subtree[i] + data.mass_subtree[i] * d;
  }
  return com_from_subtrees(model, data);                                            // M3
}

/// Column c of body i's S_i along the world axes (about body i's origin): E_iᵀ S_i,c, as halves.
template <class Scalar>
MotionHalves<Scalar> world_subspace_column(const Matrix3<Scalar>& E, const MotionSubspace<Scalar>& S, int c) noexcept {
  return {rotate<true>(E, Vector3<Scalar>(S.col(c).template head<3>())),
          rotate<true>(E, Vector3<Scalar>(S.col(c).template tail<3>()))};
}

/// Sets every output of center_of_mass to NaN (a failed call) and returns the status.
template <class Scalar, int N>
Status com_failed(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  const Scalar x = nan<Scalar>();
  for (int i = 0; i < model.nbodies(); ++i) {
    data.mass_subtree[i] = x;
    data.h_subtree[i].setConstant(x);
    data.com_subtree[i].setConstant(x);
  }
  data.mass = x;
  data.com.setConstant(x);
  data.vcom.setConstant(x);
  data.acom.setConstant(x);
  return data.config_status;
}

/// The checks and the kinematics shared by every centre-of-mass call (M1–M3): false after a failure
/// (outputs NaN, data.config_status set) or a failed argument check (outputs untouched). M3's root and offset
/// into `where` when given.
template <class Scalar, int N, class Dq, class Dv, class Da>
bool com_prologue(const char* fn, const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                  const Eigen::MatrixBase<Dv>* qd, const Eigen::MatrixBase<Da>* qdd, bool& arguments_ok,
                  ComFromRoot<Scalar>* where = nullptr) noexcept {
  arguments_ok = model_data_q_ok(fn, model, data, q) && (qd == nullptr || dof_vector_ok(fn, "qd", model, *qd)) &&
                 (qdd == nullptr || dof_vector_ok(fn, "qdd", model, *qdd));
  if (!arguments_ok) return false;
  if (!joint_transforms(model, data, q, fn) || (qd != nullptr && !finite_ok(fn, "qd", *qd, data.config_status)) ||
      (qdd != nullptr && !finite_ok(fn, "qdd", *qdd, data.config_status))) {
    com_failed(model, data);
    return false;
  }
  world_placements(model, data);                                                    // M1
  const ComFromRoot<Scalar> c = subtree_mass_moments(model, data);                  // M2, M3
  if (where != nullptr) *where = c;
  return true;
}

/// M4 and, when qdd is given, M5 (body velocities and accelerations into data.v, data.a).
template <class Scalar, int N, class Dv, class Da>
void com_derivatives(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dv>& qd,
                     const Eigen::MatrixBase<Da>* qdd) noexcept {
  using V3 = Vector3<Scalar>;
  V3 momentum = V3::Zero(), force = V3::Zero();
  for (int i = 0; i < model.nbodies(); ++i) {
    const BodyVelocity<Scalar> bv = body_velocity(model, data, qd, i);
    const V3& w = bv.v.w;
    const V3& v = bv.v.v;
    const RigidInertia<Scalar>& I = model.inertia(i);
    const Matrix3<Scalar>& E = data.X_world[i].E;
    momentum += rotate<true>(E, V3(I.m * v + cross(w, I.h)));                        // M4
    if (qdd == nullptr) continue;
    const MotionHalves<Scalar> a = body_acceleration(model, data, *qdd, i, bv);
    const V3& aw = a.w;
    const V3& al = a.v;
    force += rotate<true>(E, V3(I.m * (al + cross(w, v)) + cross(aw, I.h) + cross(w, cross(w, I.h))));  // M5
  }
  data.vcom = momentum / data.mass;
  if (qdd != nullptr) data.acom = force / data.mass;
}

}  // namespace detail

/// The centre of mass at q: data.com, data.mass and every subtree's data.com_subtree[i],
/// data.mass_subtree[i] (world coordinates). Returns the status.
template <class Scalar, int N, class Dq>
Status center_of_mass(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  bool arguments_ok = false;
  const Eigen::MatrixBase<Dq>* none = nullptr;
  if (!detail::com_prologue("center_of_mass", model, data, q, none, none, arguments_ok))
    return arguments_ok ? data.config_status : Status::invalid_argument("center_of_mass");
  return data.config_status;
}

/// The same, and the velocity of the centre of mass data.vcom (world coordinates).
template <class Scalar, int N, class Dq, class Dv>
Status center_of_mass(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                      const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  bool arguments_ok = false;
  const Eigen::MatrixBase<Dv>* no_qdd = nullptr;
  if (!detail::com_prologue("center_of_mass", model, data, q, &qd, no_qdd, arguments_ok))
    return arguments_ok ? data.config_status : Status::invalid_argument("center_of_mass");
  detail::com_derivatives(model, data, qd, no_qdd);
  return data.config_status;
}

/// The same, and the acceleration of the centre of mass data.acom (world coordinates; gravity not included).
template <class Scalar, int N, class Dq, class Dv, class Da>
Status center_of_mass(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                      const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Da>& qdd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Da, "qdd");
  bool arguments_ok = false;
  if (!detail::com_prologue("center_of_mass", model, data, q, &qd, &qdd, arguments_ok))
    return arguments_ok ? data.config_status : Status::invalid_argument("center_of_mass");
  detail::com_derivatives(model, data, qd, &qdd);
  return data.config_status;
}

}  // namespace treedyn
