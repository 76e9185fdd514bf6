// centroidal_momentum_rate and centroidal_drift: ḣ_g = A_g q̈ + Ȧ_g q̇, the rate of change of the centroidal
// momentum h_g = [k_G; l_G] (about the centre of mass c, world axes, angular first, as ccrba's), and its
// drift Ȧ_g q̇ alone (q̈ = 0), without forming A_g or Ȧ_g (docs/centroidal.md#centroidal-momentum-rate).
//
// Reference: Orin, Goswami & Lee (2013) (docs/references.md) define h_g = Σ_i ^G X*_i I_i v_i and the
// centroidal wrench ḣ_g; that paper is not in /work/shared/seeds, so the steps are derived here. With h_i the
// momentum of body i about the world origin, h_g = [Σ k_i − c × Σ l_i; Σ l_i], and since Σ l_i = M ċ,
// ḣ_g = [Σ k̇_i − c × Σ l̇_i; Σ l̇_i] (the term ċ × M ċ vanishes): the rates of the bodies' momenta, i.e. the
// RNEA's body forces without gravity (Featherstone, Rigid Body Dynamics Algorithms, 2008, Table 5.1, R7
// f_i = I_i a_i + v_i ×* I_i v_i with a_0 = 0), summed over the tree and moved to c:
//   R1  forward kinematics, c and the subtree first moments (center_of_mass.hpp M1–M3)
//   R2  for i = 1..N (outward, body coordinates): v_i, a_i (body_motion: a_0 = 0, q̈ = 0 for the drift)
//                                                 F_i = I_i a_i + v_i ×* I_i v_i
//   R3  for i = N..1 (inward):  F_λ(i) += ^λ(i)X*_i F_i
//   R4  ḣ_g = Σ_roots ρ  [E_ρᵀ n_ρ + (o_ρ − c) × E_ρᵀ f_ρ;  E_ρᵀ f_ρ]      (F_ρ = [n_ρ; f_ρ])
// R3 moves the forces inward one joint at a time, and R4 takes o_ρ − c from the first moments (center_of_mass.hpp
// M3's offset), so the moment is formed from offsets between neighbouring bodies, as ccrba's columns are.
// ḣ_g is the true rate of the momentum (a_0 = 0: accelerations are not offset by gravity), so it equals the sum
// of the external wrenches about c, gravity's [0; M g] included.
// Contract: q (nq), q̇, q̈ (nv); checked, finite (the drift's q̈ is 0). Writes data.Xup, data.X_world, data.v,
// data.a (as body_motion), data.f (F_i, summed over subtrees), data.mass_subtree, data.h_subtree, data.com_subtree,
// data.mass, data.com. Returns ḣ_g; a failed argument check returns NaN; a zero quaternion or a non-finite
// input returns NaN with the status in data.config_status. Cost O(N). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/center_of_mass.hpp"
#include "treedyn/algorithms/frame_motion.hpp"

namespace treedyn {
namespace detail {

/// R1–R4 (the drift passes q̈ as Zero(nv), an expression: nothing allocated).
template <class Scalar, int N, class Dq, class Dv, class Da>
Force<Scalar> centroidal_momentum_rate_checked(const char* fn, const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                               const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                               const Eigen::MatrixBase<Da>& qdd) noexcept {
  using V3 = Vector3<Scalar>;
  bool arguments_ok = false;
  ComFromRoot<Scalar> where{};
  if (!com_prologue(fn, model, data, q, &qd, &qdd, arguments_ok, &where))           // R1
    return Force<Scalar>::Constant(nan<Scalar>());
  for (int i = 0; i < model.nbodies(); ++i) {                                        // R2
    const BodyVelocity<Scalar> bv = body_velocity(model, data, qd, i);
    body_acceleration(model, data, qdd, i, bv);
    const RigidInertia<Scalar>& I = model.inertia(i);
    const Motion<Scalar>& v = data.v[i];
    data.f[i] = I.apply(data.a[i]) + cross_force(v, Force<Scalar>(I.apply(v)));
  }
  Force<Scalar> out = Force<Scalar>::Zero();
  for (const int i : model.inward_order()) {                                         // R3
    const int p = model.parent(i);
    if (p != no_parent) {
      data.f[p] += data.Xup[i].apply_inverse_force(data.f[i]);
      continue;
    }
    const Transform<Scalar>& X = data.X_world[i];                                    // R4
    const V3 n = rotate<true>(X.E, V3(data.f[i].template head<3>()));
    const V3 f = rotate<true>(X.E, V3(data.f[i].template tail<3>()));
    const V3 arm = V3(X.r - data.X_world[where.root].r) - where.offset;             // o_ρ − c
    out.template head<3>() += n + cross(arm, f);
    out.template tail<3>() += f;
  }
  return out;
}

}  // namespace detail

/// ḣ_g = A_g q̈ + Ȧ_g q̇ at (q, q̇, q̈), gravity not included: [k̇_G; l̇_G] about c, world axes.
template <class Scalar, int N, class Dq, class Dv, class Da>
Force<Scalar> centroidal_momentum_rate(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                       const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                       const Eigen::MatrixBase<Da>& qdd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Da, "qdd");
  return detail::centroidal_momentum_rate_checked("centroidal_momentum_rate", model, data, q, qd, qdd);
}

/// The drift Ȧ_g q̇ at (q, q̇): ḣ_g at q̈ = 0, about c, world axes.
template <class Scalar, int N, class Dq, class Dv>
Force<Scalar> centroidal_drift(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  return detail::centroidal_momentum_rate_checked("centroidal_drift", model, data, q, qd,
                                                  Eigen::Matrix<Scalar, Eigen::Dynamic, 1>::Zero(model.nv()));
}

}  // namespace treedyn
