// The entry checks of contact_step (contact/contact_step.hpp): the arguments' sizes and indices, then the
// values of every contact (docs/contact.md#checked-contact-values), and the status a failed step reports.
// Each check is a comparison or two: no allocation, nothing printed.
#pragma once

#include <cmath>
#include <vector>

#include <Eigen/Core>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/contact/contact.hpp"
#include "treedyn/contact/contact_step_workspace.hpp"
#include "treedyn/detail/check.hpp"

namespace treedyn::detail {

/// The entry checks of contact_step: data, ws, q, q̇, τ fit the model; at most max_contacts contacts, each on
/// bodies of the model with friction directions the workspace holds; Δt finite and > 0.
template <class Scalar, int N, class Dq, class Dv, class Dt>
bool contact_step_arguments_ok(const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                               const ContactStepWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q,
                               const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Dt>& tau,
                               const std::vector<Contact<Scalar>>& contacts, Scalar dt) noexcept {
  const int n = static_cast<int>(contacts.size());
  if (!forward_dynamics_arguments_ok("contact_step", model, data, q, qd, tau, NoExternalForces<Scalar>{}) ||
      !same_model("contact_step", "ws", ws.model_id, model.id()))
    return false;
  TREEDYN_CHECK(n <= ws.contact_capacity, "contact_step", "contacts", "at most the workspace's max_contacts",
                ws.contact_capacity, n, return false);
  TREEDYN_CHECK(dt > Scalar(0) && std::isfinite(dt), "contact_step", "dt", "a finite step > 0", -1, -1, return false);
  TREEDYN_CHECK(ws.stabilisation >= Scalar(0) && ws.stabilisation <= Scalar(1) && ws.correction_slop >= Scalar(0),
                "contact_step", "ws.stabilisation", "in [0, 1], with ws.correction_slop >= 0", -1, -1, return false);
  for (const Contact<Scalar>& c : contacts) {
    TREEDYN_CHECK(c.body_a >= 0 && c.body_a < model.nbodies(), "contact_step", "contacts[].body_a",
                  "a body of the model, < model.nbodies()", model.nbodies(), c.body_a, return false);
    TREEDYN_CHECK(c.body_b >= world && c.body_b < model.nbodies() && c.body_b != c.body_a, "contact_step",
                  "contacts[].body_b", "`world` (-1) or a body of the model other than body_a, < model.nbodies()",
                  model.nbodies(), c.body_b, return false);
    TREEDYN_CHECK(c.friction_directions >= 2 && c.friction_directions % 2 == 0 && c.friction_directions <= ws.friction_capacity,
                  "contact_step", "contacts", "friction_directions even, >= 2 and at most the workspace's maximum",
                  ws.friction_capacity, c.friction_directions, return false);
  }
  return true;
}

/// Contact i's value `value` of `field` is bad: status `code` (invalid_argument, or non_finite_input for a NaN
/// or an infinity) naming the contact, the field, the value and what it must be. Returns false.
template <class Scalar, int N>
bool contact_value_failed(ContactStepWorkspace<Scalar, N>& ws, int i, const char* field, const Scalar& value,
                          const char* expected) noexcept {
  using std::isfinite;
  ws.last_status.code = isfinite(value) ? Status::Code::invalid_argument : Status::Code::non_finite_input;
  ws.last_status.call = "contact_step";
  ws.last_status.argument = "contacts";
  ws.last_status.row = i;
  ws.last_status.index = Status::Index::entry;
  ws.last_status.field = field;
  ws.last_status.expected = expected;
  ws.last_status.value = value;
  return false;
}

/// The values of every contact (docs/contact.md#checked-contact-values): μ finite and ≥ 0, ε finite in
/// [0, 1], the normal finite and non-zero (a normal that is not of unit length is normalised), the distance
/// finite, the points and the tangent finite. False (status naming the first bad contact, its field and its
/// value) otherwise. Each check is a comparison or two: no allocation, nothing printed.
template <class Scalar, int N>
bool contact_values_ok(ContactStepWorkspace<Scalar, N>& ws, const std::vector<Contact<Scalar>>& contacts) noexcept {
  using std::isfinite;
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact<Scalar>& c = contacts[static_cast<std::size_t>(i)];
    if (!(c.mu >= Scalar(0)) || !isfinite(c.mu)) return contact_value_failed(ws, i, "mu", c.mu, "finite and >= 0");
    if (!(c.restitution >= Scalar(0) && c.restitution <= Scalar(1)))
      return contact_value_failed(ws, i, "restitution", c.restitution, "in [0, 1]");
    const Scalar length = c.normal.norm();
    if (!(length > Scalar(0)) || !isfinite(length))
      return contact_value_failed(ws, i, "normal", length, "a finite, non-zero vector (its length is the value)");
    if (!isfinite(c.distance)) return contact_value_failed(ws, i, "distance", c.distance, "finite");
    for (const Vector3<Scalar>* x : {&c.point_a, &c.point_b, &c.tangent}) {
      const Scalar s = x->sum();
      if (!isfinite(s))
        return contact_value_failed(ws, i, x == &c.point_a ? "point_a" : x == &c.point_b ? "point_b" : "tangent", s,
                                    "finite (the value is the sum of its entries)");
    }
  }
  return true;
}

/// Ends the step with a failure `code`, reported by contact_step; returns the status.
template <class Scalar, int N>
const ContactStepStatus<Scalar>& contact_step_fail(ContactStepWorkspace<Scalar, N>& ws, Status::Code code) noexcept {
  ws.last_status.code = code;
  ws.last_status.call = "contact_step";
  return ws.last_status;
}

}  // namespace treedyn::detail
