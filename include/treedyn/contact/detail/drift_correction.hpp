// Drift correction, step T7 of contact_step (contact/contact_step.hpp; docs/contact.md#drift-correction): a
// post-step projection of the positions — closed contacts and bilateral constraints moved back towards zero
// error by a fraction β of it — that leaves the step's velocities alone, so no kinetic energy is added.
//
// The time step holds the constraints at the velocity level only (Jain's eq. 53 drops Q̇ q̇; a penetration
// d < 0 is not a target of the step), so their position errors drift: the NMC/OS pendulum sank about
// 0.1 mm into the floor in 4 s. Baumgarte's term (a target velocity −β e/Δt in the step's LCP) corrects it
// but turns the error into a velocity: a sphere 1 mm deep leaves the floor at β·1 mm/Δt and bounces. Here,
// as in the split-impulse scheme, the correction is a separate pseudo-impulse on the same rows (the step's
// G = Q Λ⁻¹ Qᵀ, its frames and its articulated inertias) whose velocity Δv moves only the configuration:
//   e_i  the error after the step: a contact's distance d⁺ = d + Δt w_n (w_n = n̂ᵀ(w⁻ + G p) the LCP's
//        normal velocity), formed only for d < −slop (the LCP keeps w_n ≥ 0, so no other contact can end
//        deeper than the slop: a step without deep contacts pays one comparison each), a bilateral row's relative
//        position of F_a from F_b (linear rows; the rotation vector of ^{F_b}R_{F_a} for angular rows, in F_a
//        coordinates), taken at the step's start (the step holds its velocity at zero);
//   C1   when some d⁺ < −ws.correction_slop or some |e_b| > ws.correction_slop: the frictionless LCP
//        G p̂ + β e/Δt ⊥ p̂ (normal rows: ≥ 0, p̂_n ≥ 0; bilateral rows: = 0) by contact_lcp (μ = 0);
//   C2   Δv = M⁻¹ J* p̂ (impulse_aba through the step's frames);
//   C3   q⁺ ← q⁺ ⊕ Δt Δv (integrate), a free joint's Δv first turned into the body frame at q⁺ as T6 turns v_O,
//        and its velocity θ̇⁺ then turned into the corrected body frame (its world velocity unchanged).
// So a contact's error shrinks by the factor (1 − β) per step, to first order, and the penetration that
// velocity-level drift leaves is bounded by ws.correction_slop + (drift per step)/β. β = ws.stabilisation
// (default 0.2; 0 switches the correction off, and the step is then as before it existed).
#pragma once

#include <cmath>
#include <vector>

#include <Eigen/Core>

#include "treedyn/contact/contact.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/contact/contact_step_workspace.hpp"
#include "treedyn/contact/detail/constraint_rows.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/lie_group.hpp"

namespace treedyn::detail {

/// The position error of bilateral constraint b at the placements ^{F_a}X_0 = X_a0 and ^{F_b}X_0 = X_b0 (its
/// selected rows, in order, into e), in F_a coordinates. Linear rows: F_a's origin from F_b's. Angular rows:
/// all three, the rotation vector θ of ^{F_b}R_{F_a} = exp(θ×); two (a hinge about the third axis u), the
/// misalignment of the axes, (E u) × u with E = ^{F_a}R_{F_b} (its rows are the small rotation about the
/// two held axes whatever the angle about u); one, that component of θ.
template <class Scalar, class De>
void bilateral_position_error(const BilateralConstraint<Scalar>& b, const Transform<Scalar>& X_a0,
                              const Transform<Scalar>& X_b0, Eigen::MatrixBase<De>& e) noexcept {
  using std::atan2;
  const Transform<Scalar> X = X_a0 * X_b0.inverse();  // ^{F_a}X_{F_b} = (E, r): r is F_a's origin from F_b's, F_b axes
  const unsigned angular = b.rows & 7U;
  Vector3<Scalar> theta;
  if (angular == 3U || angular == 5U || angular == 6U) {  // a hinge: u the axis that is not held
    const Vector3<Scalar> u = Vector3<Scalar>::Unit(angular == 6U ? 0 : angular == 5U ? 1 : 2);
    theta = (X.E * u).cross(u);
  } else {
    const Vector3<Scalar> s((X.E(1, 2) - X.E(2, 1)) / Scalar(2), (X.E(2, 0) - X.E(0, 2)) / Scalar(2),
                            (X.E(0, 1) - X.E(1, 0)) / Scalar(2));  // sin(angle) â of ^{F_b}R_{F_a} = Eᵀ
    const Scalar sin_angle = s.norm(), angle = atan2(sin_angle, (X.E.trace() - Scalar(1)) / Scalar(2));
    theta = sin_angle > Scalar(0) ? Vector3<Scalar>(s * (angle / sin_angle)) : s;
  }
  const Vector3<Scalar> position = X.E * X.r;
  int k = 0;
  for (int row = 0; row < 6; ++row)
    if ((b.rows >> row) & 1U) e(k++) = row < 3 ? theta(row) : position(row - 3);
}

/// C3's turns for the free joints: v (any velocity vector) re-expressed, angular and linear parts, in the
/// body frame turned by exp(Δt ω_turn), ω_turn the joint's angular block of `turn`. Used twice: Δv from the
/// start-of-step frame into the frame at q⁺ (turned by T6's exp(Δt ω⁺)), and θ̇⁺ into the frame the
/// correction turned it to (so its world velocity is unchanged).
template <class Scalar, int N, class Dt>
void free_joints_turned_back(const Model<Scalar, N>& model, const Eigen::MatrixBase<Dt>& turn, Scalar dt,
                             Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& v) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) {
    if (model.joint(i).type != JointType::free_flyer) continue;
    const int iv = model.v_offset(i);
    const Quaternion4<Scalar> back =
        quaternion_conjugate(quaternion_normalized(quaternion_exp(Vector3<Scalar>(dt * turn.template segment<3>(iv)))));
    v.template segment<3>(iv) = quaternion_rotate(back, Vector3<Scalar>(v.template segment<3>(iv)));
    v.template segment<3>(iv + 3) = quaternion_rotate(back, Vector3<Scalar>(v.template segment<3>(iv + 3)));
  }
}

/// T7 (file comment) after T6, on the step's rows: false when the correction's LCP fails (the positions are
/// then left uncorrected; ws.correction_status() says why).
template <class Scalar, int N>
bool contact_drift_correction(const Model<Scalar, N>& model, Data<Scalar, N>& data, ContactStepWorkspace<Scalar, N>& ws,
                              const std::vector<Contact<Scalar>>& contacts, Scalar dt) noexcept {
  using std::abs;
  const int n = ws.n_u, nb = ws.n_b, m = 3 * n + nb;
  const Scalar beta = ws.stabilisation;
  if (!(beta > Scalar(0)) || m == 0) return true;
  auto b = ws.touching_values.head(m);  // β e / Δt per row (free after T3)
  bool needed = false;
  const auto G = ws.G.topLeftCorner(m, m);
  const auto p = ws.step_impulses.head(m);
  for (int i = 0; i < n; ++i) {                                                       // e: the contacts
    const Vector3<Scalar> normal = ws.normal(i);
    const Scalar d = contacts[static_cast<std::size_t>(i)].distance;
    Scalar target = Scalar(0);
    if (d < -ws.correction_slop) {  // the LCP keeps w_n ≥ 0: only a contact this deep can end deeper than the slop
      const Scalar w_n = normal.dot(ws.row_values.template segment<3>(3 * i)) +
                         normal.dot(G.template middleRows<3>(3 * i) * p);
      const Scalar after = d + dt * w_n;
      target = after < Scalar(0) ? after : Scalar(0);
      needed = needed || target < -ws.correction_slop;
    }
    b.template segment<3>(3 * i) = (beta * target / dt) * normal;
  }
  for (int k = 0; k < nb; ++k) {                                                      // e: the bilateral rows
    needed = needed || abs(ws.bilateral_error(k)) > ws.correction_slop;
    b(3 * n + k) = beta * ws.bilateral_error(k) / dt;
  }
  if (!needed) return true;
  ws.touching.clear();                                                                // C1: frictionless
  for (const Contact<Scalar>& c : contacts) {
    ws.touching.push_back(c);
    ws.touching.back().mu = Scalar(0);
    ws.touching.back().friction_directions = 2;
  }
  ws.correction_lcp_status = contact_lcp(ws.correction_lcp, ws.touching, G.topLeftCorner(3 * n, 3 * n), b.head(3 * n),
                                         G.bottomLeftCorner(nb, 3 * n), G.bottomRightCorner(nb, nb), b.tail(nb));
  if (!ws.correction_lcp_status.ok()) return false;
  auto p_hat = ws.correction_impulses.head(m);
  p_hat.head(3 * n) = ws.correction_lcp.impulse();
  p_hat.tail(nb) = ws.correction_lcp.bilateral_impulse();
  apply_constraint_impulses(model, data, ws.frames, ws.groups, ws.body_impulse, p_hat, ws.dqd);  // C2
  free_joints_turned_back(model, ws.v_next, dt, ws.dqd);                                         // C3
  integrate(model, ws.q_next, ws.dqd, dt, ws.q_next);
  free_joints_turned_back(model, ws.dqd, dt, ws.v_next);
  return true;
}

}  // namespace treedyn::detail
