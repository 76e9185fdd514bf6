// ContactStepWorkspace: what contact_step (contact/contact_step.hpp) writes, sized once from the model and the
// largest contact set, and its status type. A plain struct like every workspace of the library: the steps
// T1–T6 write its fields; the member functions read the last step's results.
#pragma once

#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/contact/contact.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/status.hpp"
#include "treedyn/status_io.hpp"

namespace treedyn {

/// Whether a contact took part in a collision (compression / decompression) in the last step.
enum class ContactPhase { contact, collision };

/// How contact_step ended: a Status (treedyn/status.hpp) whose code is success, invalid_argument (a check
/// failed and the handler returned, or a contact's value is out of range), non_finite_input (an input, or a
/// contact's value, is a NaN or an infinity), dynamics_failed (a joint pivot of the ABA / OSCM or the
/// configuration: see `dynamics`) or lcp_failed (the LCP of `phase`: see `lcp`). A bad contact value has
/// argument "contacts", `row` the contact's index, `field` its name, `value` the value (for a normal: its
/// length) and `expected` what it must be (docs/contact.md#checked-contact-values); to_string prints them.
template <class Scalar>
struct ContactStepStatus : Status {
  enum class Phase { none, compression, decompression, time_step };
  Phase phase = Phase::none;        ///< the LCP that failed
  ContactLcpStatus<Scalar> lcp;     ///< that LCP's status (the time step's when solved)
  Status dynamics;                  ///< the ABA / OSCM status
  const char* field = nullptr;      ///< the bad field of contact `row` ("mu", "restitution", "normal", "distance")
  const char* expected = nullptr;   ///< what that field must be (a string literal)
  Scalar value = Scalar(0);         ///< the bad value (for the normal: its length)
};

/// The status, and for a bad contact value "contact i: field = value, expected …" (set-up and logging only).
template <class Scalar>
std::string to_string(const ContactStepStatus<Scalar>& s) {
  std::string text = to_string(static_cast<const Status&>(s));
  if (s.field != nullptr) {
    std::ostringstream value;
    value.precision(17);
    value << s.value;
    text += ": contact " + std::to_string(s.row) + ": " + s.field + " = " + value.str() + ", expected " + s.expected;
  }
  return text;
}

template <class Scalar, int N>
struct ContactStepWorkspace {
  using VectorX = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using MatrixX = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

  /// One row group of G: a contact (3 rows) or a bilateral constraint (its selected rows), its frame on A
  /// and on B (−1: the world), and its first row.
  struct Group {
    int frame_a = 0, frame_b = -1, row = 0, count = 3;
  };

  ContactStepWorkspace(const Model<Scalar, N>& model, int max_contacts, int max_friction_directions = 4,
                       std::vector<BilateralConstraint<Scalar>> bilateral_constraints = {})
      : q_next(VectorX::Zero(model.nq())), v_next(VectorX::Zero(model.nv())),
        model_id(model.id()), contact_capacity(checked_sizes(max_contacts, max_friction_directions)),
        friction_capacity(max_friction_directions),
        bilateral(validated(model, std::move(bilateral_constraints))), n_b(bilateral_row_count(bilateral)),
        frames(model),
        lcp(max_contacts, max_friction_directions, n_b),
        G(MatrixX::Zero(3 * max_contacts + n_b, 3 * max_contacts + n_b)),
        G_touching(MatrixX::Zero(3 * max_contacts + n_b, 3 * max_contacts + n_b)),
        row_values(VectorX::Zero(3 * max_contacts + n_b)), touching_values(VectorX::Zero(3 * max_contacts + n_b)),
        step_impulses(VectorX::Zero(3 * max_contacts + n_b)), correction_impulses(VectorX::Zero(3 * max_contacts + n_b)),
        bilateral_error(VectorX::Zero(n_b)), correction_lcp(max_contacts, 2, n_b),
        impulses(VectorX::Zero(3 * max_contacts)), normal_impulses(VectorX::Zero(max_contacts)),
        normals(VectorX::Zero(3 * max_contacts)),
        warm_ids(Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1>::Constant(max_contacts, -1)),
        warm_impulses(VectorX::Zero(3 * max_contacts)),
        qdd_free(VectorX::Zero(model.nv())), v_free(VectorX::Zero(model.nv())), dqd(VectorX::Zero(model.nv())),
        body_impulse(static_cast<std::size_t>(model.nbodies()), Force<Scalar>::Zero()),
        phases(static_cast<std::size_t>(max_contacts), ContactPhase::contact) {
    const int nframes = 2 * max_contacts + 2 * static_cast<int>(bilateral.size());
    int max_depth = 0;
    for (int d : frames.depth) max_depth = d > max_depth ? d : max_depth;
    frames.reserve(nframes, nframes * max_depth);
    specs.reserve(static_cast<std::size_t>(nframes));
    groups.reserve(static_cast<std::size_t>(max_contacts) + bilateral.size());
    touching.reserve(static_cast<std::size_t>(max_contacts));
    touching_index.reserve(static_cast<std::size_t>(max_contacts));
  }

  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> q_next, v_next;  ///< the last step's q⁺ (nq) and θ̇⁺ (nv)
  /// The approach speed −n̂ᵀv above which a contact collides (T3), in the model's units of speed: by
  /// default 1e-3 m/s (1e-3 · g · 0.1 ms-scale steps, far below the speed a step of gravity builds up).
  Scalar collision_speed = Scalar(1e-3);
  /// β of the drift correction (T7, docs/contact.md#drift-correction): the fraction of a closed contact's
  /// penetration and of a bilateral constraint's position error removed per step by moving the positions
  /// only (no velocity is changed). In [0, 1]; 0 switches the correction off.
  Scalar stabilisation = Scalar(0.2);
  /// The friction cone the step's LCPs solve on (docs/contact.md#exact-friction-cone): the pyramid of each contact's
  /// friction_directions (Jain's LCP), or the exact Coulomb cone (the solver's settings: lcp_workspace().exact).
  FrictionCone friction_cone = FrictionCone::pyramid;
  /// Warm start of the exact cone (docs/contact.md#warm-start): the time step's solver starts each contact that has
  /// an id (Contact::id ≥ 0) from the time-step impulse the contact of the same id had in the previous step, instead
  /// of from 0. It changes the sweeps, not the answer beyond the solver's tolerance.
  bool warm_start = true;
  /// Errors at most this large (m, or rad for angular bilateral rows) are left alone by T7: it runs only when
  /// some penetration or bilateral error exceeds it. Default 1e-6.
  Scalar correction_slop = Scalar(1e-6);
  /// The status of the last drift correction's LCP (success when none was needed); a failed one leaves the
  /// step's positions uncorrected and the step's own status unchanged.
  [[nodiscard]] const ContactLcpStatus<Scalar>& correction_status() const noexcept { return correction_lcp_status; }

  /// F_n of contact i over the last step (all phases).
  [[nodiscard]] Scalar normal_impulse(int i) const noexcept { return normal_impulses(i); }
  /// The friction impulse of contact i over the last step, world coordinates (⟂ n̂).
  [[nodiscard]] Vector3<Scalar> friction_impulse(int i) const noexcept { return impulse(i) - normal_impulses(i) * normal(i); }
  /// The total linear impulse on A at contact i (normal + friction), world coordinates.
  [[nodiscard]] Vector3<Scalar> impulse(int i) const noexcept { return impulses.template segment<3>(3 * i); }
  [[nodiscard]] ContactPhase phase(int i) const noexcept { return phases[static_cast<std::size_t>(i)]; }
  /// n_b + n_u (n_f + 2) of the last LCP solved.
  [[nodiscard]] int lcp_size() const noexcept { return last_lcp_size; }
  [[nodiscard]] const ContactStepStatus<Scalar>& status() const noexcept { return last_status; }
  [[nodiscard]] int contacts() const noexcept { return n_u; }
  [[nodiscard]] int bilateral_rows() const noexcept { return n_b; }
  [[nodiscard]] int max_contacts() const noexcept { return contact_capacity; }
  /// The largest friction_directions a contact may have in this workspace (the constructor's argument).
  [[nodiscard]] int max_friction_directions() const noexcept { return friction_capacity; }
  /// The bilateral impulses p_b of the last time-step LCP.
  [[nodiscard]] auto bilateral_impulse() const noexcept { return lcp.bilateral_impulse(); }
  /// The LCP workspace (Lemke's cap and tie rule may be set through it).
  ContactLcpWorkspace<Scalar>& lcp_workspace() noexcept { return lcp; }
  /// The unit normal n̂ of contact i in the last step.
  [[nodiscard]] Vector3<Scalar> normal(int i) const noexcept { return normals.template segment<3>(3 * i); }

  std::uint64_t model_id;         ///< Model::id() of the model it was built for (checked by contact_step)
  int contact_capacity;           ///< max_contacts()
  int friction_capacity;          ///< max_friction_directions()
  std::vector<BilateralConstraint<Scalar>> bilateral;  ///< the bilateral constraints, validated
  int n_b;                        ///< their rows
  OperationalFrames<Scalar> frames;  ///< T2: the constraint frames and their compliance
  ContactLcpWorkspace<Scalar> lcp;   ///< T3, T4: the LCPs
  MatrixX G;                      ///< T2: G of all rows
  MatrixX G_touching;             ///< T3: G of the rows of the contacts that touch (and the bilateral rows)
  VectorX row_values;             ///< relative velocities of all rows (and, between uses, their impulses);
                                  ///< after a step, the time step's (with the gap term; contact_metrics)
  VectorX touching_values;        ///< the same for the touching rows (T3; ϑ during decompression)
  VectorX step_impulses;          ///< T5: [F_u; p_b] of the time-step LCP (row_values keeps its velocities)
  VectorX correction_impulses;    ///< T7: the drift correction's pseudo-impulses p̂
  VectorX bilateral_error;        ///< T2: the bilateral rows' position errors at the step's start (T7)
  ContactLcpWorkspace<Scalar> correction_lcp;  ///< T7: the frictionless LCP of the drift correction
  ContactLcpStatus<Scalar> correction_lcp_status;  ///< correction_status()
  VectorX impulses;               ///< linear impulse on A per contact, summed over the phases (impulse(i))
  VectorX normal_impulses;        ///< F_n per contact (normal_impulse(i))
  VectorX normals;                ///< the unit normals, 3 per contact (normal(i))
  Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1> warm_ids;  ///< the ids of the last exact-cone time step's contacts
  VectorX warm_impulses;          ///< their time-step impulses (world, 3 per contact)
  int warm_count = 0;             ///< how many (0: none kept, e.g. after a failed step or on the pyramid)
  VectorX qdd_free;               ///< T1: q̈ without contact impulses
  VectorX v_free;                 ///< θ̇⁻, then θ̇_c after a collision (T3), then v_f (T4)
  VectorX dqd;                    ///< Δθ̇ of the last impulse applied
  std::vector<Force<Scalar>> body_impulse;  ///< the body impulses of the last impulse applied
  std::vector<ContactPhase> phases;         ///< phase(i)
  std::vector<typename OperationalFrames<Scalar>::Spec> specs;  ///< T2: the constraint frames
  std::vector<Group> groups;                ///< T2: the row groups
  std::vector<Contact<Scalar>> touching;    ///< T3: the contacts that touch within the step
  std::vector<int> touching_index;          ///< T3: their indices in the step's contacts
  int n_u = 0;                    ///< contacts()
  int last_lcp_size = 0;          ///< lcp_size()
  ContactStepStatus<Scalar> last_status;    ///< status()

 private:
  static int checked_sizes(int max_contacts, int max_friction_directions) {
    if (max_contacts < 0) throw std::invalid_argument("ContactStepWorkspace: max_contacts must be >= 0");
    if (max_friction_directions < 2 || max_friction_directions % 2 != 0)
      throw std::invalid_argument("ContactStepWorkspace: max_friction_directions must be even and >= 2");
    return max_contacts;
  }
  static std::vector<BilateralConstraint<Scalar>> validated(const Model<Scalar, N>& model,
                                                            std::vector<BilateralConstraint<Scalar>> constraints) {
    using std::abs;
    for (std::size_t k = 0; k < constraints.size(); ++k) {
      const BilateralConstraint<Scalar>& b = constraints[k];
      const auto fail = [&](const std::string& what) {
        throw std::invalid_argument("bilateral constraint " + std::to_string(k) + ": " + what);
      };
      if (b.body_a < 0 || b.body_a >= model.nbodies()) fail("body_a = " + std::to_string(b.body_a) + " is not a body of the model");
      if (b.body_b != world && (b.body_b < 0 || b.body_b >= model.nbodies()))
        fail("body_b = " + std::to_string(b.body_b) + " is neither `world` nor a body of the model");
      if (b.body_b == b.body_a) fail("body_a and body_b are the same body");
      if (b.rows == 0 || (b.rows & ~0x3F) != 0) fail("rows must select 1 to 6 of the rows 0..5");
      for (const Transform<Scalar>* X : {&b.frame_a, &b.frame_b}) {
        if (!X->E.allFinite() || !X->r.allFinite()) fail("a frame placement is not finite");
        const Scalar orth = (X->E * X->E.transpose() - Matrix3<Scalar>::Identity()).cwiseAbs().maxCoeff();
        if (!(orth <= Scalar(64) * std::numeric_limits<Scalar>::epsilon())) fail("a frame rotation is not orthonormal");
      }
    }
    return constraints;
  }
  static int bilateral_row_count(const std::vector<BilateralConstraint<Scalar>>& constraints) noexcept {
    int n = 0;
    for (const BilateralConstraint<Scalar>& b : constraints) n += FrameRows{b.rows}.count();
    return n;
  }
};

}  // namespace treedyn
