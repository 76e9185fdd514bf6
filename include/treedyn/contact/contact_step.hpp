// contact_step: one time step of a tree with unilateral frictional contacts, collisions and bilateral
// constraints, by the operational-space contact LCP of Jain (n.d.), eq. 53, §6 (time stepping) and §7
// (collisions), with the friction polyhedron of Stewart and Trinkle (1996) (docs/references.md).
//
// Given q, q̇ (= θ̇⁻), τ, the contacts of this step (contact/contact.hpp; a collision detector's list,
// any size up to the workspace's max_contacts) and Δt:
//   T1  Free motion: q̈_f = aba(q, q̇, τ) (the joint accelerations without contact impulses).
//   T2  Constraint rows as operational frames (OperationalFrames::retarget, no allocation): contact i is
//       a frame at point_a on A and one at point_b on B (world-aligned axes, FrameRows::linear(): Jain's
//       eq. 46), none on the world's side; a bilateral constraint is its frame F_a on A and, on B, a frame
//       at F_a's current placement, both with its row selection. Λ = oscm(q) (O(N + n_c·d + n_c²)), and
//       the blocks of G = Q Λ Qᵀ combine the frames of a row pair with + on A and − on B:
//       G_cd = Λ(a_c, a_d) − Λ(a_c, b_d) − Λ(b_c, a_d) + Λ(b_c, b_d). Rows: 3 per contact (world
//       coordinates), then the bilateral rows (in F_a coordinates): G_uu, G_bu, G_bb of eq. 53.
//   T3  Collisions (§7). Relative velocities at θ̇⁻ by one velocity pass (v = J θ̇⁻). A contact whose
//       normal approach speed −n̂ᵀv exceeds ws.collision_speed and whose gap closes within the step
//       (distance ≤ −n̂ᵀv Δt) collides. If any does, the contacts that touch within the step (distance ≤
//       max(0, −n̂ᵀv Δt)) and the bilateral rows take the compression LCP (eq. 54: eq. 53 with Δt = 0,
//       q-vector from v⁻), θ̇_c = θ̇⁻ + M⁻¹ J* p_c (eq. 55); then, if some ε_i > 0, decompression (eqs.
//       56–57): the recovered impulse ϑ_i = ε_i (n̂_iᵀ p_c,i) n̂_i is applied (θ̇ += M⁻¹ J* ϑ), and the
//       LCP again on the velocities that gives (= v_c⁺ + G ϑ of eq. 57, by a velocity pass), its impulse
//       applied as before. Those contacts report phase `collision`.
//   T4  Time step (§6): v_f = θ̇_c + Δt q̈_f (θ̇_c = θ̇⁻ without a collision); v_u = J v_f by a velocity
//       pass (eq. 53's v_u⁻ + Q_u α^f Δt with the J̇ q̇ Δt term dropped, as Jain drops Q̇); a contact with
//       distance d > 0 may close its gap within the step: its normal row gets + d/Δt (target n̂ᵀv⁺ ≥
//       −d/Δt). A penetration (d < 0) is not corrected (no stabilisation). v_b = the bilateral rows of
//       J v_f (U̇ = 0: the constraint holds the relative velocity at zero, without drift correction).
//       contact_lcp (Schur elimination of p_b, Lemke) gives the impulses.
//   T5  Impulses to joint velocities: θ̇⁺ = v_f + M⁻¹ J* p by impulse_aba (O(N), the articulated inertias
//       of T2's oscm, no M⁻¹ formed).
//   T6  q⁺ = integrate(q, Δt θ̇⁺) (semi-implicit Euler; quaternions by the exponential map).
// Results: ws.q_next, ws.v_next, per contact the normal impulse F_n ≥ 0 and the friction impulse (world
// coordinates) summed over the step's phases, and its phase; lcp_size() = n_b + n_u (n_f + 2) of the
// last LCP solved (Jain's Table 2 count).
// Contract: ContactStepWorkspace(model, max_contacts, max_friction_directions, bilateral) validates the
// bilateral constraints (std::invalid_argument naming the constraint) and allocates everything once;
// contact_step is noexcept and never allocates for at most max_contacts contacts. Sizes and the model
// are checked (detail/check.hpp); too many contacts, a contact on a body the model does not have, more
// friction directions than the workspace holds or Δt not > 0 give status invalid_argument. The contacts'
// values are checked by validate_contacts (setup, by the caller). A failed LCP leaves q_next = q,
// v_next = q̇ and names the phase and the LCP status.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/impulse_aba.hpp"
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/contact/contact.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/model/configuration.hpp"

namespace treedyn {

/// Whether a contact took part in a collision (compression / decompression) in the last step.
enum class ContactPhase { contact, collision };

/// How contact_step ended.
template <class Scalar>
struct ContactStepStatus {
  /// solved; invalid_argument (a check failed and the handler returned); dynamics_failed (a joint pivot of
  /// the ABA / OSCM or the configuration: `dynamics`); lcp_failed (the LCP of `phase`: `lcp`).
  enum class Code { solved, invalid_argument, dynamics_failed, lcp_failed };
  enum class Phase { none, compression, decompression, time_step };
  Code code = Code::solved;
  Phase phase = Phase::none;        ///< the LCP that failed
  ContactLcpStatus<Scalar> lcp;     ///< that LCP's status (the time step's when solved)
  FactorStatus dynamics;            ///< the ABA / OSCM status
  [[nodiscard]] bool ok() const noexcept { return code == Code::solved; }
};

template <class Scalar, int N>
class ContactStepWorkspace {
 public:
  using VectorX = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using MatrixX = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

  ContactStepWorkspace(const Model<Scalar, N>& model, int max_contacts, int max_friction_directions = 4,
                       std::vector<BilateralConstraint<Scalar>> bilateral = {})
      : q_next(VectorX::Zero(model.nq())), v_next(VectorX::Zero(model.nv())),
        model_id_(model.id()), max_contacts_(checked_sizes(max_contacts, max_friction_directions)),
        max_nf_(max_friction_directions),
        bilateral_(validated(model, std::move(bilateral))), n_b_(bilateral_rows(bilateral_)),
        frames_(model),
        lcp_(max_contacts, max_friction_directions, n_b_),
        G_(MatrixX::Zero(3 * max_contacts + n_b_, 3 * max_contacts + n_b_)),
        Gs_(MatrixX::Zero(3 * max_contacts + n_b_, 3 * max_contacts + n_b_)),
        velocity_(VectorX::Zero(3 * max_contacts + n_b_)), vs_(VectorX::Zero(3 * max_contacts + n_b_)),
        impulse_(VectorX::Zero(3 * max_contacts)), normal_(VectorX::Zero(max_contacts)),
        normals_(VectorX::Zero(3 * max_contacts)),
        qdd_free_(VectorX::Zero(model.nv())), v_free_(VectorX::Zero(model.nv())), dqd_(VectorX::Zero(model.nv())),
        body_impulse_(static_cast<std::size_t>(model.nbodies()), Force<Scalar>::Zero()),
        phase_(static_cast<std::size_t>(max_contacts), ContactPhase::contact) {
    const int nframes = 2 * max_contacts + 2 * static_cast<int>(bilateral_.size());
    int max_depth = 0;
    for (int d : frames_.depth) max_depth = d > max_depth ? d : max_depth;
    frames_.reserve(nframes, nframes * max_depth);
    specs_.reserve(static_cast<std::size_t>(nframes));
    groups_.reserve(static_cast<std::size_t>(max_contacts) + bilateral_.size());
    touching_.reserve(static_cast<std::size_t>(max_contacts));
    touching_index_.reserve(static_cast<std::size_t>(max_contacts));
  }

  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> q_next, v_next;  ///< the last step's q⁺ (nq) and θ̇⁺ (nv)
  /// The approach speed −n̂ᵀv above which a contact collides (T3), in the model's units of speed: by
  /// default 1e-3 m/s (1e-3 · g · 0.1 ms-scale steps, far below the speed a step of gravity builds up).
  Scalar collision_speed = Scalar(1e-3);

  /// F_n of contact i over the last step (all phases).
  [[nodiscard]] Scalar normal_impulse(int i) const noexcept { return normal_(i); }
  /// The friction impulse of contact i over the last step, world coordinates (⟂ n̂).
  [[nodiscard]] Vector3<Scalar> friction_impulse(int i) const noexcept { return impulse_.template segment<3>(3 * i) - normal_(i) * normal_dir(i); }
  /// The total linear impulse on A at contact i (normal + friction), world coordinates.
  [[nodiscard]] Vector3<Scalar> impulse(int i) const noexcept { return impulse_.template segment<3>(3 * i); }
  [[nodiscard]] ContactPhase phase(int i) const noexcept { return phase_[static_cast<std::size_t>(i)]; }
  /// n_b + n_u (n_f + 2) of the last LCP solved.
  [[nodiscard]] int lcp_size() const noexcept { return lcp_size_; }
  [[nodiscard]] const ContactStepStatus<Scalar>& status() const noexcept { return status_; }
  [[nodiscard]] int contacts() const noexcept { return n_u_; }
  [[nodiscard]] int bilateral_rows() const noexcept { return n_b_; }
  [[nodiscard]] int max_contacts() const noexcept { return max_contacts_; }
  /// The largest friction_directions a contact may have in this workspace (the constructor's argument).
  [[nodiscard]] int max_friction_directions() const noexcept { return max_nf_; }
  /// The bilateral impulses p_b of the last time-step LCP.
  [[nodiscard]] auto bilateral_impulse() const noexcept { return lcp_.bilateral_impulse(); }
  /// The LCP workspace (Lemke's cap and tie rule may be set through it).
  ContactLcpWorkspace<Scalar>& lcp_workspace() noexcept { return lcp_; }

 private:
  template <class S, int M, class Dq, class Dv, class Dt>
  friend const ContactStepStatus<S>& contact_step(const Model<S, M>&, Data<S, M>&, ContactStepWorkspace<S, M>&,
                                                  const Eigen::MatrixBase<Dq>&, const Eigen::MatrixBase<Dv>&,
                                                  const Eigen::MatrixBase<Dt>&, const std::vector<Contact<S>>&,
                                                  S) noexcept;

  /// One row group of G: a contact (3 rows) or a bilateral constraint (its selected rows), its frame on A
  /// and on B (−1: the world), and its first row.
  struct Group {
    int frame_a = 0, frame_b = -1, row = 0, count = 3;
  };

  static int checked_sizes(int max_contacts, int max_friction_directions) {
    if (max_contacts < 0) throw std::invalid_argument("ContactStepWorkspace: max_contacts must be >= 0");
    if (max_friction_directions < 2 || max_friction_directions % 2 != 0)
      throw std::invalid_argument("ContactStepWorkspace: max_friction_directions must be even and >= 2");
    return max_contacts;
  }
  static std::vector<BilateralConstraint<Scalar>> validated(const Model<Scalar, N>& model,
                                                            std::vector<BilateralConstraint<Scalar>> bilateral) {
    using std::abs;
    for (std::size_t k = 0; k < bilateral.size(); ++k) {
      const BilateralConstraint<Scalar>& b = bilateral[k];
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
    return bilateral;
  }
  static int bilateral_rows(const std::vector<BilateralConstraint<Scalar>>& bilateral) noexcept {
    int n = 0;
    for (const BilateralConstraint<Scalar>& b : bilateral) n += FrameRows{b.rows}.count();
    return n;
  }
  Vector3<Scalar> normal_dir(int i) const noexcept { return normals_.template segment<3>(3 * i); }

  std::uint64_t model_id_;
  int max_contacts_, max_nf_;
  std::vector<BilateralConstraint<Scalar>> bilateral_;
  int n_b_;
  OperationalFrames<Scalar> frames_;
  ContactLcpWorkspace<Scalar> lcp_;
  MatrixX G_, Gs_;            // T2: G of all rows; the rows of the contacts that touch (T3)
  VectorX velocity_, vs_;     // relative velocities of all rows; of the touching rows
  VectorX impulse_;           // linear impulse on A per contact, summed over the phases
  VectorX normal_, normals_;  // F_n per contact; the unit normals, 3 per contact
  VectorX qdd_free_, v_free_, dqd_;
  std::vector<Force<Scalar>> body_impulse_;
  std::vector<ContactPhase> phase_;
  std::vector<typename OperationalFrames<Scalar>::Spec> specs_;
  std::vector<Group> groups_;
  std::vector<Contact<Scalar>> touching_;
  std::vector<int> touching_index_;
  int n_u_ = 0, lcp_size_ = 0;
  ContactStepStatus<Scalar> status_;
};

namespace detail {

/// The relative velocities of the row groups at joint velocities v (one velocity pass) into out.
template <class Scalar, int N, class Groups, class Dv, class Dout>
void constraint_velocities(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                           const OperationalFrames<Scalar>& frames, const Groups& groups,
                           const Eigen::MatrixBase<Dv>& v, Eigen::MatrixBase<Dout>& out) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) body_velocity(model, data, v, i);
  const auto frame_velocity = [&](int f) -> Motion<Scalar> {
    return frames.placement(f).apply_motion(data.v[frames.body(f)]);
  };
  for (const auto& g : groups) {
    const Motion<Scalar> va = frame_velocity(g.frame_a);
    const Motion<Scalar> vb = g.frame_b < 0 ? Motion<Scalar>::Zero().eval() : frame_velocity(g.frame_b);
    for (int k = 0; k < g.count; ++k) {
      const int r = frames.row_index(g.frame_a, k);
      out(g.row + k) = va(r) - vb(r);
    }
  }
}

/// G_cd = Λ(a_c, a_d) − Λ(a_c, b_d) − Λ(b_c, a_d) + Λ(b_c, b_d) for every pair of row groups (T2).
template <class Scalar, class Groups, class DG>
void assemble_constraint_compliance(const OperationalFrames<Scalar>& frames, const Groups& groups,
                                    Eigen::MatrixBase<DG>& G) noexcept {
  const auto& L = frames.compliance;
  for (const auto& c : groups)
    for (const auto& d : groups) {
      auto block = G.block(c.row, d.row, c.count, d.count);
      block = L.block(frames.row_offset(c.frame_a), frames.row_offset(d.frame_a), c.count, d.count);
      if (d.frame_b >= 0) block -= L.block(frames.row_offset(c.frame_a), frames.row_offset(d.frame_b), c.count, d.count);
      if (c.frame_b >= 0) {
        block -= L.block(frames.row_offset(c.frame_b), frames.row_offset(d.frame_a), c.count, d.count);
        if (d.frame_b >= 0) block += L.block(frames.row_offset(c.frame_b), frames.row_offset(d.frame_b), c.count, d.count);
      }
    }
}

/// The body impulses of row-group impulses: linear impulse F (world, 3 per contact group) or the bilateral
/// rows' impulse, + on A's frame and − on B's, carried to body coordinates; then Δq̇ = M⁻¹ J* p by impulse_aba.
template <class Scalar, int N, class Groups, class Dp>
void apply_constraint_impulses(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                               const OperationalFrames<Scalar>& frames, const Groups& groups,
                               std::vector<Force<Scalar>>& body_impulse, const Eigen::MatrixBase<Dp>& p,
                               Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& dqd) noexcept {
  for (Force<Scalar>& f : body_impulse) f.setZero();
  for (const auto& g : groups) {
    Force<Scalar> phi = Force<Scalar>::Zero();
    for (int k = 0; k < g.count; ++k) phi(frames.row_index(g.frame_a, k)) = p(g.row + k);
    body_impulse[static_cast<std::size_t>(frames.body(g.frame_a))] += frames.placement(g.frame_a).apply_inverse_force(phi);
    if (g.frame_b >= 0)
      body_impulse[static_cast<std::size_t>(frames.body(g.frame_b))] -= frames.placement(g.frame_b).apply_inverse_force(phi);
  }
  impulse_aba(model, data, body_impulse, dqd);
}

}  // namespace detail

/// One time step with contacts (file comment, T1–T6); results in ws (q_next, v_next, impulses, phases).
template <class Scalar, int N, class Dq, class Dv, class Dt>
const ContactStepStatus<Scalar>& contact_step(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                              ContactStepWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q,
                                              const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Dt>& tau,
                                              const std::vector<Contact<Scalar>>& contacts, Scalar dt) noexcept {
  using Status = ContactStepStatus<Scalar>;
  using Spec = typename OperationalFrames<Scalar>::Spec;
  using Group = typename ContactStepWorkspace<Scalar, N>::Group;
  ws.status_ = Status{};
  const int n = static_cast<int>(contacts.size()), nb = ws.n_b_;
  const auto invalid = [&ws]() -> const Status& {
    ws.status_.code = Status::Code::invalid_argument;
    return ws.status_;
  };
  if (!detail::forward_dynamics_arguments_ok("contact_step", model, data, q, qd, tau, detail::NoExternalForces<Scalar>{}) ||
      !detail::same_model("contact_step", "ws", ws.model_id_, model.id()))
    return invalid();
  TREEDYN_CHECK(n <= ws.max_contacts_, "contact_step", "contacts", "at most the workspace's max_contacts",
                ws.max_contacts_, n, return invalid());
  TREEDYN_CHECK(dt > Scalar(0) && std::isfinite(dt), "contact_step", "dt", "a finite step > 0", -1, -1, return invalid());
  for (const Contact<Scalar>& c : contacts) {
    TREEDYN_CHECK(c.body_a >= 0 && c.body_a < model.nbodies() && c.body_b >= world && c.body_b < model.nbodies() &&
                      c.body_b != c.body_a,
                  "contact_step", "contacts", "bodies of the model (body_b may be `world`)", model.nbodies(), c.body_a,
                  return invalid());
    TREEDYN_CHECK(c.friction_directions >= 2 && c.friction_directions % 2 == 0 && c.friction_directions <= ws.max_nf_,
                  "contact_step", "contacts", "friction_directions even, >= 2 and at most the workspace's maximum",
                  ws.max_nf_, c.friction_directions, return invalid());
  }
  ws.n_u_ = n;
  ws.lcp_size_ = 0;
  ws.q_next = q;
  ws.v_next = qd;

  const auto& qdd = aba(model, data, q, qd, tau);                                   // T1
  if (!data.aba_status.ok()) {
    ws.status_.code = Status::Code::dynamics_failed;
    ws.status_.dynamics = data.aba_status;
    return ws.status_;
  }
  ws.qdd_free_ = qdd;

  ws.specs_.clear();                                                                // T2
  ws.groups_.clear();
  if (n + static_cast<int>(ws.bilateral_.size()) > 0) detail::world_placements(model, data);
  const auto world_axes = [&](int body, const Vector3<Scalar>& point) {
    return Transform<Scalar>{data.X_world[body].E.transpose(), point};
  };
  int row = 0;
  for (int i = 0; i < n; ++i) {
    const Contact<Scalar>& c = contacts[static_cast<std::size_t>(i)];
    Group g;
    g.row = row;
    g.frame_a = static_cast<int>(ws.specs_.size());
    ws.specs_.push_back(Spec{c.body_a, world_axes(c.body_a, c.point_a), FrameRows::linear()});
    if (c.body_b != world) {
      g.frame_b = static_cast<int>(ws.specs_.size());
      ws.specs_.push_back(Spec{c.body_b, world_axes(c.body_b, c.point_b), FrameRows::linear()});
    }
    ws.groups_.push_back(g);
    row += 3;
    ws.normals_.template segment<3>(3 * i) = c.normal.normalized();
    ws.phase_[static_cast<std::size_t>(i)] = ContactPhase::contact;
  }
  for (const BilateralConstraint<Scalar>& b : ws.bilateral_) {
    Group g;
    g.row = row;
    g.count = FrameRows{b.rows}.count();
    g.frame_a = static_cast<int>(ws.specs_.size());
    ws.specs_.push_back(Spec{b.body_a, b.frame_a, FrameRows{b.rows}});
    if (b.body_b != world) {                                                         // F_a's placement, fixed on B
      g.frame_b = static_cast<int>(ws.specs_.size());
      ws.specs_.push_back(Spec{b.body_b, b.frame_a * data.X_world[b.body_a] * data.X_world[b.body_b].inverse(), FrameRows{b.rows}});
    }
    ws.groups_.push_back(g);
    row += g.count;
  }
  const int m = row;
  ws.impulse_.head(3 * n).setZero();
  ws.normal_.head(n).setZero();
  auto G = ws.G_.topLeftCorner(m, m);
  if (m > 0) {
    if (!ws.frames_.retarget(ws.specs_.data(), static_cast<int>(ws.specs_.size()))) return invalid();
    oscm(model, data, ws.frames_, q);
    if (!ws.frames_.status.ok()) {
      ws.status_.code = Status::Code::dynamics_failed;
      ws.status_.dynamics = ws.frames_.status;
      return ws.status_;
    }
    detail::assemble_constraint_compliance(ws.frames_, ws.groups_, G);
  }
  auto vel = ws.velocity_.head(m);  // relative velocities of the rows (and, between uses, their impulses)
  const auto fail_lcp = [&](typename Status::Phase phase, const ContactLcpStatus<Scalar>& s) -> const Status& {
    ws.q_next = q;
    ws.v_next = qd;
    ws.status_.code = Status::Code::lcp_failed;
    ws.status_.phase = phase;
    ws.status_.lcp = s;
    return ws.status_;
  };

  // T3: collisions, on the rows of the contacts that touch within the step (and the bilateral rows)
  ws.v_free_ = qd;                                                                  // θ̇ (θ̇_c after a collision)
  if (n > 0) {
    detail::constraint_velocities(model, data, ws.frames_, ws.groups_, qd, vel);
    bool collision = false;
    ws.touching_.clear();
    ws.touching_index_.clear();
    for (int i = 0; i < n; ++i) {
      const Contact<Scalar>& c = contacts[static_cast<std::size_t>(i)];
      const Scalar vn = ws.normal_dir(i).dot(vel.template segment<3>(3 * i));
      const Scalar closing = vn < Scalar(0) ? -vn * dt : Scalar(0);
      if (c.distance <= closing) {
        ws.touching_.push_back(c);
        ws.touching_index_.push_back(i);
        if (-vn > ws.collision_speed) collision = true;
      }
    }
    if (collision) {
      const int ns = static_cast<int>(ws.touching_.size()), ms = 3 * ns + nb;
      auto Gs = ws.Gs_.topLeftCorner(ms, ms);
      auto vs = ws.vs_.head(ms);
      const auto row_of = [&](int k) {  // gathered row k → row of G
        return k < 3 * ns ? 3 * ws.touching_index_[static_cast<std::size_t>(k / 3)] + k % 3 : 3 * n + (k - 3 * ns);
      };
      for (int j = 0; j < ms; ++j) {
        vs(j) = vel(row_of(j));
        for (int k = 0; k < ms; ++k) Gs(k, j) = G(row_of(k), row_of(j));
      }
      const auto solve = [&](typename Status::Phase phase) {
        const ContactLcpStatus<Scalar>& s =
            contact_lcp(ws.lcp_, ws.touching_, Gs.topLeftCorner(3 * ns, 3 * ns), vs.head(3 * ns),
                        Gs.bottomLeftCorner(nb, 3 * ns), Gs.bottomRightCorner(nb, nb), vs.tail(nb));
        ws.status_.lcp = s;
        if (!s.ok()) {
          fail_lcp(phase, s);
          return false;
        }
        ws.lcp_size_ = ws.lcp_.lcp_size();
        return true;
      };
      // the impulse of the gathered rows, scattered over all rows, applied to θ̇ and summed per contact
      const auto apply = [&](const auto& F, const auto& p_b) {
        auto& p = vel;
        p.setZero();
        for (int k = 0; k < 3 * ns; ++k) p(row_of(k)) = F(k);
        for (int k = 0; k < static_cast<int>(p_b.size()); ++k) p(3 * n + k) = p_b(k);
        ws.impulse_.head(3 * n) += p.head(3 * n);
        detail::apply_constraint_impulses(model, data, ws.frames_, ws.groups_, ws.body_impulse_, p, ws.dqd_);
        ws.v_free_ += ws.dqd_;
      };
      if (!solve(Status::Phase::compression)) return ws.status_;                  // eqs. 54–55
      apply(ws.lcp_.impulse(), ws.lcp_.bilateral_impulse());
      bool restitution = false;
      for (const Contact<Scalar>& c : ws.touching_) restitution = restitution || c.restitution > Scalar(0);
      if (restitution) {                                                           // eqs. 56–57
        auto theta = ws.vs_.head(ms);                   // ϑ in the contact rows, 0 in the bilateral ones
        theta.setZero();
        const auto Fc = ws.lcp_.impulse();
        for (int k = 0; k < ns; ++k) {
          const Vector3<Scalar> nk = ws.normal_dir(ws.touching_index_[static_cast<std::size_t>(k)]);
          theta.template segment<3>(3 * k) = ws.touching_[static_cast<std::size_t>(k)].restitution *
                                             nk.dot(Fc.template segment<3>(3 * k)) * nk;
        }
        // v_c⁺ + G ϑ, formed as the velocities after ϑ is applied (impulse_aba, then a velocity pass)
        apply(theta.head(3 * ns), theta.tail(0));
        detail::constraint_velocities(model, data, ws.frames_, ws.groups_, ws.v_free_, vel);
        for (int j = 0; j < ms; ++j) vs(j) = vel(row_of(j));
        if (!solve(Status::Phase::decompression)) return ws.status_;
        apply(ws.lcp_.impulse(), ws.lcp_.bilateral_impulse());
      }
      for (int i : ws.touching_index_) ws.phase_[static_cast<std::size_t>(i)] = ContactPhase::collision;
    }
  }

  ws.v_free_ += dt * ws.qdd_free_;                                                  // T4
  if (m == 0) {
    ws.v_next = ws.v_free_;
  } else {
    detail::constraint_velocities(model, data, ws.frames_, ws.groups_, ws.v_free_, vel);
    for (int i = 0; i < n; ++i) {
      const Scalar d = contacts[static_cast<std::size_t>(i)].distance;
      if (d > Scalar(0)) vel.template segment<3>(3 * i) += (d / dt) * ws.normal_dir(i);
    }
    const ContactLcpStatus<Scalar>& s =
        contact_lcp(ws.lcp_, contacts, G.topLeftCorner(3 * n, 3 * n), vel.head(3 * n), G.bottomLeftCorner(nb, 3 * n),
                    G.bottomRightCorner(nb, nb), vel.tail(nb));
    ws.status_.lcp = s;
    if (!s.ok()) return fail_lcp(Status::Phase::time_step, s);
    ws.lcp_size_ = ws.lcp_.lcp_size();
    auto& p = vel;                                                                  // T5
    p.head(3 * n) = ws.lcp_.impulse();
    p.tail(nb) = ws.lcp_.bilateral_impulse();
    ws.impulse_.head(3 * n) += p.head(3 * n);
    detail::apply_constraint_impulses(model, data, ws.frames_, ws.groups_, ws.body_impulse_, p, ws.dqd_);
    ws.v_next = ws.v_free_ + ws.dqd_;
  }
  for (int i = 0; i < n; ++i) ws.normal_(i) = ws.normal_dir(i).dot(ws.impulse_.template segment<3>(3 * i));
  integrate(model, q, ws.v_next, dt, ws.q_next);                                    // T6
  return ws.status_;
}

}  // namespace treedyn
