// contact_step: one time step of a tree with unilateral frictional contacts, collisions and bilateral
// constraints, by the operational-space contact LCP of Jain (n.d.), eq. 53, §6 (time stepping) and §7
// (collisions), with the friction polyhedron of Stewart and Trinkle (1996) (docs/references.md), or, with
// ws.friction_cone = FrictionCone::exact, on the Coulomb cone itself (contact/coulomb_gauss_seidel.hpp).
//
// Given q, q̇ (= θ̇⁻), τ, the contacts of this step (contact/contact.hpp; a collision detector's list,
// any size up to the workspace's max_contacts) and Δt:
//   T1  Free motion: q̈_f = aba(q, q̇, τ) (the joint accelerations without contact impulses).
//   T2  Constraint rows as operational frames (OperationalFrames::retarget, no allocation): contact i is
//       a frame at point_a on A and one at point_b on B (world-aligned axes, FrameRows::linear(): Jain's
//       eq. 46), none on the world's side; a bilateral constraint is its frame F_a on A and, on B, a frame
//       at F_a's current placement, both with its row selection. Λ⁻¹ = oscm(q) (O(N + n_c·d + n_c²)), and
//       the blocks of G = Q Λ⁻¹ Qᵀ combine the frames of a row pair with + on A and − on B:
//       G_cd = Λ⁻¹(a_c, a_d) − Λ⁻¹(a_c, b_d) − Λ⁻¹(b_c, a_d) + Λ⁻¹(b_c, b_d). Rows: 3 per contact (world
//       coordinates), then the bilateral rows (in F_a coordinates): G_uu, G_bu, G_bb of eq. 53.
//   T3  Collisions (§7). Relative velocities at θ̇⁻ by one velocity pass (v = J θ̇⁻). A contact whose
//       normal approach speed −n̂ᵀv exceeds ws.collision_speed and whose gap closes within the step
//       (distance ≤ −n̂ᵀv Δt) collides. If any does, the contacts that touch within the step (distance ≤
//       max(0, −n̂ᵀv Δt)) and the bilateral rows take the compression LCP (eq. 54: eq. 53 with Δt = 0,
//       q-vector from v⁻), θ̇_c = θ̇⁻ + M⁻¹ J* p_c (eq. 55); then, if some ε_i > 0, decompression (eqs.
//       56–57): the recovered impulse ϑ_i = ε_i (n̂_iᵀ p_c,i) n̂_i is applied (θ̇ += M⁻¹ J* ϑ), and the
//       LCP again on the velocities that gives (= v_c⁺ + G ϑ of eq. 57, by a velocity pass), its impulse
//       applied as before. Those contacts report phase `collision`.
//   T4  Time step (§6): v_f = θ̇_c + Δt q̈_f (θ̇_c = θ̇⁻ without a collision), with a free joint's linear
//       velocity changed by its classical acceleration, v̇_O + ω⁻ × v_O⁻, in the body frame of the step's
//       start (detail/free_joint_step.hpp, docs/contact.md#free-joints); v_u = J v_f by a velocity
//       pass (eq. 53's v_u⁻ + Q_u α^f Δt with the J̇ q̇ Δt term dropped, as Jain drops Q̇); a contact with
//       distance d > 0 may close its gap within the step: its normal row gets + d/Δt (target n̂ᵀv⁺ ≥
//       −d/Δt). A penetration (d < 0) is left to T7. v_b = the bilateral rows of J v_f (U̇ = 0: the
//       constraint holds the relative velocity at zero; T7 corrects the position error).
//       contact_lcp (Schur elimination of p_b, Lemke) gives the impulses.
//   T5  Impulses to joint velocities: θ̇⁺ = v_f + M⁻¹ J* p by impulse_aba (O(N), the articulated inertias
//       of T2's oscm, no M⁻¹ formed).
//   T6  q⁺ = integrate(q, Δt θ̇⁺) (semi-implicit Euler; quaternions by the exponential map), except the free
//       joints, moved as rigid motions: p⁺ = p + Δt R v_O⁺ (a straight line), quat⁺ = quat ⊗ exp(Δt ω⁺), and
//       v_O⁺ re-expressed in the new body frame. First order; free flight of a body whose centre of mass is
//       its origin keeps its linear momentum (without gravity), and a torque-free spin about a principal
//       axis (any axis for a sphere) keeps ω, |v_O| and the kinetic energy to round-off for any Δt.
//   T7  Drift correction (detail/drift_correction.hpp, docs/contact.md#drift-correction): a post-step
//       projection of the positions on the same rows — a fraction ws.stabilisation of each penetration and
//       bilateral position error removed per step — that changes no velocity.
// Results: ws.q_next, ws.v_next, per contact the normal impulse F_n ≥ 0 and the friction impulse (world
// coordinates) summed over the step's phases, and its phase; lcp_size() = n_b + n_u (n_f + 2) of the
// last LCP solved (Jain's Table 2 count).
// Contract: ContactStepWorkspace(model, max_contacts, max_friction_directions, bilateral) validates the
// bilateral constraints (std::invalid_argument naming the constraint) and allocates everything once;
// contact_step is noexcept and never allocates for at most max_contacts contacts. Sizes and the model
// are checked (detail/check.hpp); too many contacts, a contact on a body the model does not have, more
// friction directions than the workspace holds or Δt not > 0 give status invalid_argument (through the
// check handler, naming body_a or body_b and its index). The contacts' values are checked on every step
// (docs/contact.md#checked-contact-values): μ finite and ≥ 0, ε in [0, 1], the normal finite and non-zero
// (normalised when not of unit length), the distance, points and tangent finite; the first bad one gives
// status invalid_argument (non_finite_input for a NaN or an infinity) with argument "contacts", row = its
// index, field, value and expected (ContactStepStatus), without the check handler and before any output is
// written. A failed LCP leaves q_next = q, v_next = q̇ and names the phase and the LCP status.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/contact/contact.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/contact/contact_step_workspace.hpp"
#include "treedyn/contact/detail/constraint_rows.hpp"
#include "treedyn/contact/detail/contact_step_checks.hpp"
#include "treedyn/contact/detail/drift_correction.hpp"
#include "treedyn/contact/detail/free_joint_step.hpp"

namespace treedyn {

namespace detail {

/// A failed LCP of `phase`: q_next = q, v_next = q̇ (the step is not taken) and the LCP's status.
template <class Scalar, int N, class Dq, class Dv>
const ContactStepStatus<Scalar>& contact_step_lcp_failed(ContactStepWorkspace<Scalar, N>& ws,
                                                         typename ContactStepStatus<Scalar>::Phase phase,
                                                         const Eigen::MatrixBase<Dq>& q,
                                                         const Eigen::MatrixBase<Dv>& qd) noexcept {
  ws.q_next = q;
  ws.v_next = qd;
  ws.last_status.phase = phase;
  return contact_step_fail(ws, Status::Code::lcp_failed);
}

/// T1: q̈_f = aba(q, q̇, τ) into ws.qdd_free. False (status dynamics_failed) when the ABA fails, or
/// non_finite_input naming the argument when q, q̇ or τ holds a NaN or an infinity.
template <class Scalar, int N, class Dq, class Dv, class Dt>
bool contact_free_motion(const Model<Scalar, N>& model, Data<Scalar, N>& data, ContactStepWorkspace<Scalar, N>& ws,
                         const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                         const Eigen::MatrixBase<Dt>& tau) noexcept {
  ws.qdd_free = aba(model, data, q, qd, tau);
  if (data.aba_status.ok()) return true;
  ws.last_status.dynamics = data.aba_status;
  if (data.aba_status.code != Status::Code::non_finite_input) {
    contact_step_fail(ws, Status::Code::dynamics_failed);
  } else {  // the caller's input, not the dynamics: reported as such, naming the argument and the entry
    static_cast<Status&>(ws.last_status) = data.aba_status;
    ws.last_status.call = "contact_step";
  }
  return false;
}

/// T2, the rows: contact i as a frame at point_a on A and one at point_b on B (world-aligned axes, linear
/// rows), then each bilateral constraint as its frame F_a on A and F_a's current placement fixed on B; the
/// row groups in ws.groups, the unit normals in ws.normals. Returns the number of rows m.
template <class Scalar, int N>
int contact_constraint_rows(const Model<Scalar, N>& model, Data<Scalar, N>& data, ContactStepWorkspace<Scalar, N>& ws,
                            const std::vector<Contact<Scalar>>& contacts) noexcept {
  using Spec = typename OperationalFrames<Scalar>::Spec;
  using Group = typename ContactStepWorkspace<Scalar, N>::Group;
  ws.specs.clear();
  ws.groups.clear();
  if (!contacts.empty() || !ws.bilateral.empty()) world_placements(model, data);
  const auto add_group = [&ws](Group g, const Spec& a, const Spec* b) {
    g.frame_a = static_cast<int>(ws.specs.size());
    ws.specs.push_back(a);
    if (b != nullptr) {
      g.frame_b = static_cast<int>(ws.specs.size());
      ws.specs.push_back(*b);
    }
    ws.groups.push_back(g);
    return g.row + g.count;
  };
  int row = 0;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact<Scalar>& c = contacts[i];
    const auto spec = [&data](int body, const Vector3<Scalar>& point) {  // world-aligned axes at the point
      return Spec{body, Transform<Scalar>{data.X_world[body].E.transpose(), point}, FrameRows::linear()};
    };
    const Spec on_b = c.body_b != world ? spec(c.body_b, c.point_b) : Spec{};
    row = add_group(Group{0, -1, row, 3}, spec(c.body_a, c.point_a), c.body_b != world ? &on_b : nullptr);
    ws.normals.template segment<3>(3 * static_cast<Eigen::Index>(i)) = c.normal.normalized();
    ws.phases[i] = ContactPhase::contact;
  }
  int error_row = 0;
  for (const BilateralConstraint<Scalar>& b : ws.bilateral) {
    const FrameRows rows{b.rows};
    const Transform<Scalar> X_a0 = b.frame_a * data.X_world[b.body_a];                // ^{F_a}X_0, ^{F_b}X_0 (T7)
    const Transform<Scalar> X_b0 = b.body_b != world ? b.frame_b * data.X_world[b.body_b] : b.frame_b;
    auto error = ws.bilateral_error.segment(error_row, rows.count());
    bilateral_position_error(b, X_a0, X_b0, error);
    error_row += rows.count();
    const Spec on_b = b.body_b != world
                          ? Spec{b.body_b, X_a0 * data.X_world[b.body_b].inverse(), rows}
                          : Spec{};
    row = add_group(Group{0, -1, row, rows.count()}, Spec{b.body_a, b.frame_a, rows}, b.body_b != world ? &on_b : nullptr);
  }
  return row;
}

/// T2, the compliance: Λ⁻¹ = oscm(q) on the frames of contact_constraint_rows and G = Q Λ⁻¹ Qᵀ of its m rows into
/// ws.G. False when the frames cannot be set (invalid_argument) or the OSCM fails (dynamics_failed).
template <class Scalar, int N, class Dq>
bool contact_constraint_compliance(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                   ContactStepWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q, int m) noexcept {
  if (m == 0) return true;
  if (!ws.frames.retarget(ws.specs.data(), static_cast<int>(ws.specs.size()))) {
    contact_step_fail(ws, Status::Code::invalid_argument);
    return false;
  }
  oscm(model, data, ws.frames, q);
  if (!ws.frames.status.ok()) {
    ws.last_status.dynamics = ws.frames.status;
    contact_step_fail(ws, Status::Code::dynamics_failed);
    return false;
  }
  auto G = ws.G.topLeftCorner(m, m);
  assemble_constraint_compliance(ws.frames, ws.groups, G);
  return true;
}

/// T3, which contacts take part: those whose gap closes within the step (distance ≤ max(0, −n̂ᵀv Δt)) go to
/// ws.touching. True when one of them approaches faster than ws.collision_speed (a collision).
template <class Scalar, int N>
bool contact_touching(ContactStepWorkspace<Scalar, N>& ws, const std::vector<Contact<Scalar>>& contacts,
                      Scalar dt) noexcept {
  bool collision = false;
  ws.touching.clear();
  ws.touching_index.clear();
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact<Scalar>& c = contacts[static_cast<std::size_t>(i)];
    const Scalar vn = ws.normal(i).dot(ws.row_values.template segment<3>(3 * i));
    const Scalar closing = vn < Scalar(0) ? -vn * dt : Scalar(0);
    if (c.distance <= closing) {
      ws.touching.push_back(c);
      ws.touching_index.push_back(i);
      if (-vn > ws.collision_speed) collision = true;
    }
  }
  return collision;
}

/// T3: row k of the touching rows (3 per touching contact, then the bilateral rows) as a row of G.
template <class Scalar, int N>
int touching_row(const ContactStepWorkspace<Scalar, N>& ws, int k) noexcept {
  const int ns = static_cast<int>(ws.touching.size());
  return k < 3 * ns ? 3 * ws.touching_index[static_cast<std::size_t>(k / 3)] + k % 3 : 3 * ws.n_u + (k - 3 * ns);
}

/// T3: the touching rows' velocities (from ws.row_values) into ws.touching_values; with `compliance`, also
/// their block of G into ws.G_touching.
template <class Scalar, int N>
void gather_touching_rows(ContactStepWorkspace<Scalar, N>& ws, bool compliance) noexcept {
  const int ms = 3 * static_cast<int>(ws.touching.size()) + ws.n_b;
  for (int j = 0; j < ms; ++j) {
    ws.touching_values(j) = ws.row_values(touching_row(ws, j));
    if (compliance)
      for (int k = 0; k < ms; ++k) ws.G_touching(k, j) = ws.G(touching_row(ws, k), touching_row(ws, j));
  }
}

/// T3: the LCP of the touching rows (eq. 54: eq. 53 with Δt = 0) in ws.lcp, its status in the step's.
/// False when it fails.
template <class Scalar, int N>
bool touching_lcp(ContactStepWorkspace<Scalar, N>& ws) noexcept {
  const int ns = static_cast<int>(ws.touching.size()), nb = ws.n_b, ms = 3 * ns + nb;
  const auto Gs = ws.G_touching.topLeftCorner(ms, ms);
  const auto vs = ws.touching_values.head(ms);
  ws.last_status.lcp = contact_lcp(ws.lcp, ws.touching, Gs.topLeftCorner(3 * ns, 3 * ns), vs.head(3 * ns),
                                   Gs.bottomLeftCorner(nb, 3 * ns), Gs.bottomRightCorner(nb, nb), vs.tail(nb));
  if (!ws.last_status.lcp.ok()) return false;
  ws.last_lcp_size = ws.lcp.lcp_size();
  return true;
}

/// T3, T5: the impulse F of the touching contact rows and p_b of the bilateral rows, scattered over all
/// rows (ws.row_values), added to the contacts' impulses and applied to ws.v_free (θ̇ += M⁻¹ J* p).
template <class Scalar, int N, class DF, class Dp>
void apply_touching_impulse(const Model<Scalar, N>& model, Data<Scalar, N>& data, ContactStepWorkspace<Scalar, N>& ws,
                            const Eigen::MatrixBase<DF>& F, const Eigen::MatrixBase<Dp>& p_b) noexcept {
  const int n = ws.n_u;
  auto p = ws.row_values.head(3 * n + ws.n_b);
  p.setZero();
  for (int k = 0; k < static_cast<int>(F.size()); ++k) p(touching_row(ws, k)) = F(k);
  for (int k = 0; k < static_cast<int>(p_b.size()); ++k) p(3 * n + k) = p_b(k);
  ws.impulses.head(3 * n) += p.head(3 * n);
  apply_constraint_impulses(model, data, ws.frames, ws.groups, ws.body_impulse, p, ws.dqd);
  ws.v_free += ws.dqd;
}

/// T3, decompression (eqs. 56–57): the recovered impulse ϑ_i = ε_i (n̂_iᵀ p_c,i) n̂_i applied, the velocities
/// it gives (= v_c⁺ + G ϑ, by a velocity pass) and the LCP again, its impulse applied. False when it fails.
template <class Scalar, int N>
bool contact_decompression(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                           ContactStepWorkspace<Scalar, N>& ws) noexcept {
  const int ns = static_cast<int>(ws.touching.size());
  auto theta = ws.touching_values.head(3 * ns);  // ϑ in the contact rows
  const auto Fc = ws.lcp.impulse();
  for (int k = 0; k < ns; ++k) {
    const Vector3<Scalar> nk = ws.normal(ws.touching_index[static_cast<std::size_t>(k)]);
    theta.template segment<3>(3 * k) =
        ws.touching[static_cast<std::size_t>(k)].restitution * nk.dot(Fc.template segment<3>(3 * k)) * nk;
  }
  apply_touching_impulse(model, data, ws, theta, theta.tail(0));
  auto vel = ws.row_values.head(3 * ws.n_u + ws.n_b);
  constraint_velocities(model, data, ws.frames, ws.groups, ws.v_free, vel);
  gather_touching_rows(ws, false);
  if (!touching_lcp(ws)) return false;
  apply_touching_impulse(model, data, ws, ws.lcp.impulse(), ws.lcp.bilateral_impulse());
  return true;
}

/// T3 (§7): collisions at θ̇⁻, on the rows of the contacts that touch within the step and the bilateral rows:
/// compression (eqs. 54–55), then decompression where some ε_i > 0; those contacts take phase `collision`.
/// ws.v_free is θ̇⁻, then θ̇_c. False (status lcp_failed naming the phase) when an LCP fails.
template <class Scalar, int N, class Dq, class Dv>
bool contact_collisions(const Model<Scalar, N>& model, Data<Scalar, N>& data, ContactStepWorkspace<Scalar, N>& ws,
                        const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                        const std::vector<Contact<Scalar>>& contacts, Scalar dt) noexcept {
  using Phase = typename ContactStepStatus<Scalar>::Phase;
  ws.v_free = qd;
  if (contacts.empty()) return true;
  auto vel = ws.row_values.head(3 * ws.n_u + ws.n_b);
  constraint_velocities(model, data, ws.frames, ws.groups, qd, vel);
  if (!contact_touching(ws, contacts, dt)) return true;
  gather_touching_rows(ws, true);
  if (!touching_lcp(ws)) {                                                          // eqs. 54–55
    contact_step_lcp_failed(ws, Phase::compression, q, qd);
    return false;
  }
  apply_touching_impulse(model, data, ws, ws.lcp.impulse(), ws.lcp.bilateral_impulse());
  bool restitution = false;
  for (const Contact<Scalar>& c : ws.touching) restitution = restitution || c.restitution > Scalar(0);
  if (restitution && !contact_decompression(model, data, ws)) {                     // eqs. 56–57
    contact_step_lcp_failed(ws, Phase::decompression, q, qd);
    return false;
  }
  for (int i : ws.touching_index) ws.phases[static_cast<std::size_t>(i)] = ContactPhase::collision;
  return true;
}

/// T4, the exact cone's warm start (docs/contact.md#warm-start): each contact with an id starts from the time-step
/// impulse of the previous step's contact of that id (searched from its own index on: O(n) when the order is kept),
/// the others from 0. ws.warm_count is 0 until a step on the exact cone succeeds.
template <class Scalar, int N>
void exact_cone_warm_start(ContactStepWorkspace<Scalar, N>& ws, const std::vector<Contact<Scalar>>& contacts) noexcept {
  auto& exact = ws.lcp.exact;
  const int n = static_cast<int>(contacts.size()), kept = ws.warm_count;
  exact.lambda.head(3 * n).setZero();
  for (int i = 0; i < n; ++i) {
    const std::int64_t id = contacts[static_cast<std::size_t>(i)].id;
    if (id < 0) continue;
    for (int k = 0; k < kept; ++k) {
      const int j = (i + k) % kept;
      if (ws.warm_ids(j) != id) continue;
      exact.lambda.template segment<3>(3 * i) = ws.warm_impulses.template segment<3>(3 * j);
      break;
    }
  }
  exact.warm = true;
  ws.warm_count = 0;  // set again when this step's time-step solve succeeds
}

/// T4, T5 (§6): v_f = θ̇_c + Δt q̈_f; the rows' velocities at v_f, a gap d > 0 allowed to close (+ d/Δt on
/// the normal row); the time-step LCP; θ̇⁺ = v_f + M⁻¹ J* p into ws.v_next. False when the LCP fails.
template <class Scalar, int N, class Dq, class Dv>
bool contact_time_step(const Model<Scalar, N>& model, Data<Scalar, N>& data, ContactStepWorkspace<Scalar, N>& ws,
                       const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                       const std::vector<Contact<Scalar>>& contacts, Scalar dt, int m) noexcept {
  const int n = ws.n_u, nb = ws.n_b;
  ws.v_free += dt * ws.qdd_free;                                                    // T4
  free_joint_classical_acceleration(model, qd, dt, ws.v_free);  // free joints: the frame of the step's start
  if (m == 0) {
    ws.v_next = ws.v_free;
    return true;
  }
  auto vel = ws.row_values.head(m);
  constraint_velocities(model, data, ws.frames, ws.groups, ws.v_free, vel);
  for (int i = 0; i < n; ++i) {
    const Scalar d = contacts[static_cast<std::size_t>(i)].distance;
    if (d > Scalar(0)) vel.template segment<3>(3 * i) += (d / dt) * ws.normal(i);
  }
  const auto G = ws.G.topLeftCorner(m, m);
  const bool warm = ws.friction_cone == FrictionCone::exact && ws.warm_start;
  if (warm) exact_cone_warm_start(ws, contacts);
  ws.last_status.lcp = contact_lcp(ws.lcp, contacts, G.topLeftCorner(3 * n, 3 * n), vel.head(3 * n),
                                   G.bottomLeftCorner(nb, 3 * n), G.bottomRightCorner(nb, nb), vel.tail(nb));
  ws.lcp.exact.warm = false;  // used or not (a refused argument), never carried to another solve
  if (!ws.last_status.lcp.ok()) {
    contact_step_lcp_failed(ws, ContactStepStatus<Scalar>::Phase::time_step, q, qd);
    return false;
  }
  ws.last_lcp_size = ws.lcp.lcp_size();
  if (warm) {                                                                       // kept for the next step's start
    for (int i = 0; i < n; ++i) ws.warm_ids(i) = contacts[static_cast<std::size_t>(i)].id;
    ws.warm_impulses.head(3 * n) = ws.lcp.impulse();
    ws.warm_count = n;
  }
  auto p = ws.step_impulses.head(m);                                                // T5 (vel kept: contact_metrics)
  p.head(3 * n) = ws.lcp.impulse();
  p.tail(nb) = ws.lcp.bilateral_impulse();
  ws.impulses.head(3 * n) += p.head(3 * n);
  apply_constraint_impulses(model, data, ws.frames, ws.groups, ws.body_impulse, p, ws.dqd);
  ws.v_next = ws.v_free + ws.dqd;
  return true;
}

}  // namespace detail

/// One time step with contacts (file comment, T1–T6); results in ws (q_next, v_next, impulses, phases).
template <class Scalar, int N, class Dq, class Dv, class Dt>
const ContactStepStatus<Scalar>& contact_step(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                              ContactStepWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q,
                                              const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Dt>& tau,
                                              const std::vector<Contact<Scalar>>& contacts, Scalar dt) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Dt, "tau");
  ws.last_status = ContactStepStatus<Scalar>{};
  ws.correction_lcp_status = ContactLcpStatus<Scalar>{};
  ws.lcp.cone = ws.friction_cone;
  if (!detail::contact_step_arguments_ok(model, data, ws, q, qd, tau, contacts, dt))
    return detail::contact_step_fail(ws, Status::Code::invalid_argument);
  if (!detail::contact_values_ok(ws, contacts)) return ws.last_status;
  const int n = static_cast<int>(contacts.size());
  ws.n_u = n;
  ws.last_lcp_size = 0;
  ws.q_next = q;
  ws.v_next = qd;
  if (!detail::contact_free_motion(model, data, ws, q, qd, tau)) return ws.last_status;           // T1
  const int m = detail::contact_constraint_rows(model, data, ws, contacts);                       // T2
  ws.impulses.head(3 * n).setZero();
  ws.normal_impulses.head(n).setZero();
  if (!detail::contact_constraint_compliance(model, data, ws, q, m)) return ws.last_status;
  if (!detail::contact_collisions(model, data, ws, q, qd, contacts, dt)) return ws.last_status;  // T3
  if (!detail::contact_time_step(model, data, ws, q, qd, contacts, dt, m)) return ws.last_status;  // T4, T5
  for (int i = 0; i < n; ++i) ws.normal_impulses(i) = ws.normal(i).dot(ws.impulse(i));
  detail::contact_step_configuration(model, q, ws.v_next, dt, ws.q_next);                        // T6
  detail::contact_drift_correction(model, data, ws, contacts, dt);                                 // T7
  return ws.last_status;
}

}  // namespace treedyn
