// contact_metrics: how far the last contact_step's impulses are from the laws of rigid contact — Signorini's
// condition, the Coulomb cone and the maximum-dissipation principle — as a contact researcher reports them
// when comparing contact models (docs/contact.md#contact-metrics).
//
// Per contact i of the last time-step LCP (contact/contact_step.hpp, T4–T5), in world coordinates with the
// unit normal n̂: the impulse on A, p = λ_n n̂ + λ_t (λ_t ⟂ n̂), and the relative velocity the LCP holds,
// w = v⁺ + n̂ max(d, 0)/Δt (v⁺ the velocity of A's point relative to B's after the step's impulses, at the
// configuration of the step's start, where the LCP is posed; a separated contact may close its gap d within
// the step), split as w_n = n̂ᵀw and w_t = w − w_n n̂:
//   Signorini      λ_n ≥ 0,  w_n ≥ 0,  λ_n w_n = 0        approach = max(0, −w_n)        (speed)
//                                                        signorini = |λ_n w_n|           (impulse × speed)
//   Coulomb cone   ‖λ_t‖ ≤ μ λ_n                          cone = dist(p, K_μ)             (impulse)
//   max. dissip.   λ_t = −μ λ_n w_t/‖w_t‖ when w_t ≠ 0    dissipation = λ_tᵀw_t + μ λ_n ‖w_t‖  (impulse × speed)
// with K_μ = {λ_n n̂ + λ_t : ‖λ_t‖ ≤ μ λ_n} and dist its Euclidean distance: 0 inside, ‖p‖ in its polar cone
// (μ‖λ_t‖ ≤ −λ_n), (‖λ_t‖ − μ λ_n)/√(1 + μ²) between. For p in K_μ, λ_tᵀw_t ≥ −‖λ_t‖‖w_t‖ ≥ −μ λ_n ‖w_t‖
// (Cauchy–Schwarz), so `dissipation` ≥ 0, and it is 0 exactly when the friction opposes the sliding with
// its full μ λ_n (or nothing slides): the energy the friction fails to take out, per unit of time step.
// The pyramid of n_f directions (contact.hpp) lies inside K_μ (cone = 0); its LCP maximises the dissipation
// over the pyramid, whose best direction is within π/n_f of −w_t, so dissipation ≤ μ λ_n ‖w_t‖ (1 − cos(π/n_f)),
// 0 when w_t is along a direction of the pyramid. Bilateral rows: `bilateral` = max |w_b| (their velocity
// after the step, held at zero by the LCP's Schur elimination; round-off).
// Results are maxima over the contacts, each with the contact it was found at. Cost O(m²) for m rows (w =
// w⁻ + G p from the step's G); noexcept, no allocation. Call it after contact_step on the same workspace.
#pragma once

#include <cmath>
#include <vector>

#include <Eigen/Core>

#include "treedyn/contact/contact.hpp"
#include "treedyn/contact/contact_step_workspace.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn {

/// One contact's violations of the contact laws (file comment); all ≥ 0, all 0 for an exact rigid contact.
template <class Scalar>
struct ContactViolations {
  Scalar approach = Scalar(0);     ///< max(0, −w_n): the normal speed that still closes the gap after the step
  Scalar signorini = Scalar(0);    ///< |λ_n w_n|: Signorini's complementarity
  Scalar cone = Scalar(0);         ///< the impulse's distance from the Coulomb cone K_μ
  Scalar dissipation = Scalar(0);  ///< λ_tᵀw_t + μ λ_n ‖w_t‖: the maximum-dissipation principle's shortfall
};

/// The violations of the last contact_step: each the maximum over its contacts, and that contact's index
/// (−1 when there are no contacts); `bilateral` the largest |velocity| of a bilateral row after the step.
template <class Scalar>
struct ContactMetrics {
  ContactViolations<Scalar> worst;  ///< the largest value of each violation over the contacts
  int approach_contact = -1, signorini_contact = -1, cone_contact = -1, dissipation_contact = -1;
  Scalar bilateral = Scalar(0);
  int contacts = 0;  ///< the number of contacts measured
};

/// The violations of one contact with unit normal n̂, friction coefficient μ, impulse p on A and relative
/// velocity w (the gap term included), all in world coordinates (file comment).
template <class Scalar>
ContactViolations<Scalar> contact_violations(const Vector3<Scalar>& n, const Scalar& mu, const Vector3<Scalar>& p,
                                             const Vector3<Scalar>& w) noexcept {
  using std::abs;
  using std::sqrt;
  ContactViolations<Scalar> out;
  const Scalar lambda_n = n.dot(p), w_n = n.dot(w);
  const Vector3<Scalar> lambda_t = p - lambda_n * n, w_t = w - w_n * n;
  const Scalar t = lambda_t.norm(), wt = w_t.norm();
  out.approach = w_n < Scalar(0) ? -w_n : Scalar(0);
  out.signorini = abs(lambda_n * w_n);
  if (t <= mu * lambda_n) out.cone = Scalar(0);                       // inside K_μ
  else if (mu * t <= -lambda_n) out.cone = p.norm();                   // in the polar cone: the apex is nearest
  else out.cone = (t - mu * lambda_n) / sqrt(Scalar(1) + mu * mu);     // nearest point on the cone's surface
  out.dissipation = lambda_t.dot(w_t) + mu * (lambda_n > Scalar(0) ? lambda_n : Scalar(0)) * wt;
  if (out.dissipation < Scalar(0)) out.dissipation = Scalar(0);        // only outside K_μ (reported by `cone`)
  return out;
}

/// The violations of the last time step of contact_step on `contacts` (the contacts of that step; file
/// comment). After a failed step, or one without contacts, every value is 0.
template <class Scalar, int N>
ContactMetrics<Scalar> contact_metrics(const ContactStepWorkspace<Scalar, N>& ws,
                                       const std::vector<Contact<Scalar>>& contacts) noexcept {
  ContactMetrics<Scalar> out;
  const int n = ws.n_u, nb = ws.n_b, m = 3 * n + nb;
  if (!ws.last_status.ok() || m == 0 || static_cast<int>(contacts.size()) != n) return out;
  const auto p = ws.step_impulses.head(m);  // [F_u; p_b] of the time-step LCP
  const auto G = ws.G.topLeftCorner(m, m);
  const auto record = [](const Scalar& value, Scalar& worst, int& where, int i) {
    if (value > worst) {
      worst = value;
      where = i;
    }
  };
  for (int i = 0; i < n; ++i) {
    Vector3<Scalar> w = ws.row_values.template segment<3>(3 * i);     // w⁻ (with the gap term)
    w.noalias() += G.template middleRows<3>(3 * i) * p;                //  + G p
    const ContactViolations<Scalar> v = contact_violations(ws.normal(i), contacts[static_cast<std::size_t>(i)].mu,
                                                           Vector3<Scalar>(p.template segment<3>(3 * i)), w);
    record(v.approach, out.worst.approach, out.approach_contact, i);
    record(v.signorini, out.worst.signorini, out.signorini_contact, i);
    record(v.cone, out.worst.cone, out.cone_contact, i);
    record(v.dissipation, out.worst.dissipation, out.dissipation_contact, i);
  }
  for (int k = 0; k < nb; ++k) {
    using std::abs;
    const Scalar wb = abs(ws.row_values(3 * n + k) + G.row(3 * n + k).dot(p));
    if (wb > out.bilateral) out.bilateral = wb;
  }
  out.contacts = n;
  return out;
}

}  // namespace treedyn
