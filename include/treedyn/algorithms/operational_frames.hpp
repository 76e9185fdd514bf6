// OperationalFrames: the n_c operational frames of the OSCM / OSIM kernels, chosen once.
//
// Reference: frames c = 1..n_c, each fixed on a body b(c) with a constant placement ^cX_{b(c)}
// (docs/notation.md); Jain (n.d.) eq. 46 (docs/references.md): a contact node uses only
// the 3 linear rows of its frame, (Λ⁻¹)_u = Q_u Λ⁻¹ Q_uᵀ — here a per-frame row selection.
// Contract: built once from the model (allocates); add() validates and throws std::invalid_argument naming
// the frame and the problem. Frames may sit on any branches of a fixed- or floating-base tree, several on
// one body. Row selection: a mask over the frame's 6 spatial rows (angular x, y, z, linear x, y, z); the
// selected rows of frame a occupy rows row_offset(a) … row_offset(a) + row_count(a) − 1 of Λ⁻¹, in the order
// of the mask. The kernels (oscm.hpp, oscm_dense.hpp, osim.hpp) keep their per-frame workspace here.
// Frames that change every call (the contact points of a time step): reserve(max_frames, max_depth_sum)
// sizes the workspace once (allocates); retarget(specs, n) then replaces the frames without allocating
// (noexcept, no validation: the caller's frames are valid by construction, bodies in range) at a cost of
// O(N + n·d + n²·d). After retarget only oscm / oscm_faithful apply, and Λ⁻¹ is the leading rows() × rows()
// block of `compliance` (which keeps its reserved size).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/status.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

/// Which of a frame's 6 spatial rows [ω; v] enter Λ⁻¹: bit k selects row k (0–2 angular, 3–5 linear).
struct FrameRows {
  std::uint8_t mask = 0x3F;
  static constexpr FrameRows all() noexcept { return FrameRows{0x3F}; }
  static constexpr FrameRows angular() noexcept { return FrameRows{0x07}; }
  static constexpr FrameRows linear() noexcept { return FrameRows{0x38}; }  ///< a contact point (Jain (n.d.) eq. 46)
  [[nodiscard]] constexpr bool selects(int k) const noexcept { return ((mask >> k) & 1U) != 0; }
  [[nodiscard]] constexpr int count() const noexcept {
    int n = 0;
    for (int k = 0; k < 6; ++k) n += selects(k) ? 1 : 0;
    return n;
  }
};

template <class Scalar>
class OperationalFrames {
 public:
  OperationalFrames() = default;

  /// Frames on `model` (its body count is kept to validate add() and to size the kernels' workspaces).
  template <int N>
  explicit OperationalFrames(const Model<Scalar, N>& model)
      : model_id(model.id()), nbodies_(model.nbodies()), nv_(model.nv()) {
    parent.resize(static_cast<std::size_t>(nbodies_));
    depth.resize(static_cast<std::size_t>(nbodies_));
    Omega.assign(static_cast<std::size_t>(nbodies_), Matrix6<Scalar>::Zero());
    Dinv.resize(static_cast<std::size_t>(nbodies_));
    on_path.assign(static_cast<std::size_t>(nbodies_), 0);
    for (int i = 0; i < nbodies_; ++i) {
      const std::size_t ui = static_cast<std::size_t>(i);
      parent[ui] = model.parent(i);
      depth[ui] = 1 + (parent[ui] == no_parent ? 0 : depth[static_cast<std::size_t>(parent[ui])]);
      const Eigen::Index ni = model.motion_subspaces()[i].cols();
      Dinv[ui] = detail::PivotMatrix<Scalar>::Zero(ni, ni);
    }
    size_workspace();
  }

  /// Adds frame ^F X_body = placement on `body` (0-based), with the rows `rows`; returns its index a.
  int add(int body, const Transform<Scalar>& placement, FrameRows rows = FrameRows::all(), std::string name = {}) {
    const int a = size();
    if (name.empty()) name = "frame" + std::to_string(a);
    const std::string who = "treedyn::OperationalFrames: frame " + std::to_string(a) + " ('" + name + "'): ";
    if (body < 0 || body >= nbodies_)
      throw std::invalid_argument(who + "body " + std::to_string(body) + " is not a moving body of the model (0.." +
                                  std::to_string(nbodies_ - 1) + ")");
    if (rows.mask == 0 || (rows.mask & ~0x3F) != 0)
      throw std::invalid_argument(who + "the row selection must pick 1 to 6 of the rows 0..5");
    if (!(placement.E.allFinite() && placement.r.allFinite()))
      throw std::invalid_argument(who + "the placement is not finite");
    using std::abs;
    const Scalar orth = (placement.E * placement.E.transpose() - Matrix3<Scalar>::Identity()).cwiseAbs().maxCoeff();
    if (!(orth <= Scalar(64) * std::numeric_limits<Scalar>::epsilon()))
      throw std::invalid_argument(who + "the placement's rotation is not orthonormal");
    for (const Entry& e : frames_)
      if (e.name == name) throw std::invalid_argument(who + "duplicate name");
    Entry e{std::move(name), body, placement, rows, rows_, {}};
    int k = 0;
    for (int r = 0; r < 6; ++r)
      if (rows.selects(r)) e.row_index[static_cast<std::size_t>(k++)] = r;
    rows_ += rows.count();
    frames_.push_back(std::move(e));
    reserved_frames_ = reserved_path_ = 0;  // sized for the frames added: a retarget() needs reserve() again
    for (int i = body; i != no_parent; i = parent[static_cast<std::size_t>(i)]) on_path[static_cast<std::size_t>(i)] = 1;
    size_workspace();
    return a;
  }

  /// Adds one of the model's named frames (model.frame(name), e.g. a merged fixed link of a URDF).
  int add(const Frame<Scalar>& frame, FrameRows rows = FrameRows::all()) {
    if (frame.body == no_parent)
      throw std::invalid_argument("treedyn::OperationalFrames: frame '" + frame.name +
                                  "' is fixed on the base: it has no operational-space dynamics");
    return add(frame.body, frame.placement, rows, frame.name);
  }

  /// A frame for retarget(): body, placement ^F X_body and row selection.
  struct Spec {
    int body = 0;
    Transform<Scalar> placement = Transform<Scalar>::identity();
    FrameRows rows = FrameRows::all();
  };

  /// Setup for retarget(): room for max_frames frames whose bodies' depths sum to at most max_path
  /// (max_frames × the tree's depth is always enough). Allocates; drops the current frames.
  void reserve(int max_frames, int max_path) {
    frames_.clear();
    frames_.reserve(static_cast<std::size_t>(max_frames));
    rows_ = 0;
    size_workspace();
    compliance = MatrixX::Zero(6 * max_frames, 6 * max_frames);
    K_offset.reserve(static_cast<std::size_t>(max_frames));
    K.reserve(static_cast<std::size_t>(max_path));
    SK.reserve(static_cast<std::size_t>(max_path));
    reserved_frames_ = max_frames;
    reserved_path_ = max_path;
  }

  /// Replaces the frames by specs[0 … n) within the room reserve() made; false (frames unchanged) when
  /// they do not fit. noexcept, never allocates; the specs are not validated.
  bool retarget(const Spec* specs, int n) noexcept {
    int path = 0;
    for (int a = 0; a < n; ++a) path += depth[static_cast<std::size_t>(specs[a].body)];
    if (n > reserved_frames_ || path > reserved_path_) return false;
    frames_.clear();
    rows_ = 0;
    K_offset.clear();
    K.clear();
    SK.resize(static_cast<std::size_t>(path));
    on_path.assign(on_path.size(), 0);
    omega_node.assign(omega_node.size(), 0);
    for (int a = 0; a < n; ++a) {
      Entry e;
      e.body = specs[a].body;
      e.placement = specs[a].placement;
      e.rows = specs[a].rows;
      e.row_offset = rows_;
      int k = 0;
      for (int r = 0; r < 6; ++r)
        if (e.rows.selects(r)) e.row_index[static_cast<std::size_t>(k++)] = r;
      rows_ += e.rows.count();
      K_offset.push_back(static_cast<int>(K.size()));
      K.push_back(e.placement.inverse().force_matrix());
      K.resize(K.size() + static_cast<std::size_t>(depth[static_cast<std::size_t>(e.body)] - 1));
      for (int i = e.body; i != no_parent && !on_path[static_cast<std::size_t>(i)]; i = parent[static_cast<std::size_t>(i)])
        on_path[static_cast<std::size_t>(i)] = 1;
      for (const Entry& other : frames_) mark_omega_path(other.body, e.body);
      frames_.push_back(e);
    }
    anchor_omega();
    return true;
  }

  [[nodiscard]] int size() const noexcept { return static_cast<int>(frames_.size()); }
  [[nodiscard]] int rows() const noexcept { return rows_; }            ///< rows of Λ⁻¹: Σ_a row_count(a)
  [[nodiscard]] int nbodies() const noexcept { return nbodies_; }
  [[nodiscard]] int nv() const noexcept { return nv_; }
  [[nodiscard]] int body(int a) const noexcept { return at(a).body; }
  [[nodiscard]] const Transform<Scalar>& placement(int a) const noexcept { return at(a).placement; }
  [[nodiscard]] FrameRows selection(int a) const noexcept { return at(a).rows; }
  [[nodiscard]] const std::string& name(int a) const noexcept { return at(a).name; }
  [[nodiscard]] int row_offset(int a) const noexcept { return at(a).row_offset; }
  [[nodiscard]] int row_count(int a) const noexcept { return at(a).rows.count(); }
  /// The spatial row (0..5) that row k (0 ≤ k < row_count(a)) of frame a's block is.
  [[nodiscard]] int row_index(int a, int k) const noexcept { return at(a).row_index[static_cast<std::size_t>(k)]; }
  /// All of frame a's spatial rows in order: row_index(a, k) for k < row_count(a), then zeros.
  [[nodiscard]] const std::array<int, 6>& row_indices(int a) const noexcept { return at(a).row_index; }

  // ---- kernel workspace and outputs (oscm.hpp, oscm_dense.hpp, osim.hpp), sized at setup ----------------
  // Built by the constructor and add(); the kernels only write into it (never allocate). Not thread-safe:
  // one OperationalFrames per thread, like Data.
  using MatrixX = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  /// Model::id() of the model it was built for; the algorithms taking it check it (detail/check.hpp).
  std::uint64_t model_id = 0;
  MatrixX compliance;                          ///< oscm, oscm_faithful, oscm_dense: the operational-space
                                               ///< compliance Λ⁻¹ = J M⁻¹ Jᵀ (rows() × rows(), both triangles)
  MatrixX inertia;                             ///< osim: the operational-space inertia Λ, both triangles
  /// The last kernel's status: oscm / oscm_faithful name the BODY whose joint pivot D_i is not > 0
  /// (Index::body); oscm_dense the DoF whose LTDL pivot of H is not > 0, osim the row of Λ⁻¹ whose pivot is
  /// (numerically) not > 0 (Index::row).
  FactorStatus status;
  std::vector<int> parent;                     ///< the model's body parent array λ
  std::vector<int> depth;                      ///< d_i = |anc(i)| (a root has depth 1)
  std::vector<char> on_path;                   ///< body i is an ancestor of (or is) some frame's body
  std::vector<char> omega_node;                ///< oscm: Ω_i is formed (i is, or is above, where two frames meet)
  std::vector<int> omega_anchor;               ///< oscm: the nearest ancestor-or-self with omega_node (or no_parent)
  std::vector<Matrix6<Scalar>> Omega;          ///< oscm: Ω_i (motion side, angular first)
  std::vector<detail::PivotMatrix<Scalar>> Dinv;  ///< oscm: D_i⁻¹ (n_i×n_i)
  std::vector<Matrix6<Scalar>> K;              ///< oscm: K_{k←b(a)} (^aX_b(a))ᵀ for frame a, ancestor k (flat;
                                               ///< the first entry of each frame, k = b(a), is set at setup;
                                               ///< the others where oscm.hpp's O6 reads them)
  std::vector<Matrix6<Scalar>> SK;             ///< oscm: S_kᵀ K_{k←b(a)} (^aX_b(a))ᵀ in the first n_k rows (as K)
  std::vector<int> K_offset;                   ///< first entry of frame a's path in K (then depth(b(a)) of them)
  MatrixX Jt;                                  ///< oscm_dense: Jᵀ (nv × rows), then M⁻¹ Jᵀ
  MatrixX MinvJt;                              ///< oscm_dense: M⁻¹ Jᵀ
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> compliance_factor;  ///< osim: LTDL factor of Λ⁻¹, packed rows
  AncestorPattern dense_pattern;               ///< osim: the chain λ(k) = k − 1: packed rows = the dense triangle

 private:
  /// Sizes the outputs and the per-frame workspace for the current frames (setup only: allocates).
  void size_workspace() {
    const int m = rows_;
    compliance = MatrixX::Zero(m, m);
    inertia = MatrixX::Zero(m, m);
    std::vector<int> chain(static_cast<std::size_t>(m));
    for (int k = 0; k < m; ++k) chain[static_cast<std::size_t>(k)] = k - 1;
    dense_pattern = AncestorPattern(chain);
    compliance_factor = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>::Zero(dense_pattern.nonzeros());
    Jt = MatrixX::Zero(nv_, m);
    MinvJt = MatrixX::Zero(nv_, m);
    K_offset.assign(frames_.size(), 0);
    int total = 0;
    for (std::size_t a = 0; a < frames_.size(); ++a) {
      K_offset[a] = total;
      total += depth[static_cast<std::size_t>(frames_[a].body)];
    }
    K.assign(static_cast<std::size_t>(total), Matrix6<Scalar>::Zero());
    for (std::size_t a = 0; a < frames_.size(); ++a)  // K_{b←b} (^aX_b)ᵀ = ^bX*_a: constant, the kernels read it
      K[static_cast<std::size_t>(K_offset[a])] = frames_[a].placement.inverse().force_matrix();
    SK.assign(static_cast<std::size_t>(total), Matrix6<Scalar>::Zero());
    // Ω is needed where two frames meet (their closest common ancestor, or their body if they share one)
    // and above; only a frame's own diagonal block then sums joint terms (O(d) each, oscm.hpp O6').
    omega_node.assign(static_cast<std::size_t>(nbodies_), 0);
    for (std::size_t a = 0; a < frames_.size(); ++a)
      for (std::size_t b = a + 1; b < frames_.size(); ++b) mark_omega_path(frames_[a].body, frames_[b].body);
    omega_anchor.assign(static_cast<std::size_t>(nbodies_), no_parent);
    anchor_omega();
  }

  /// omega_node on the closest common ancestor of bodies a and b and above (stops at a marked body: the
  /// rest of the path is marked already).
  void mark_omega_path(int a, int b) noexcept {
    for (int x = closest_common_ancestor(parent, a, b); x != no_parent && !omega_node[static_cast<std::size_t>(x)];
         x = parent[static_cast<std::size_t>(x)])
      omega_node[static_cast<std::size_t>(x)] = 1;
  }

  /// omega_anchor from omega_node (bodies are numbered parents first).
  void anchor_omega() noexcept {
    for (int i = 0; i < nbodies_; ++i) {
      const std::size_t ui = static_cast<std::size_t>(i);
      omega_anchor[ui] = omega_node[ui] ? i : (parent[ui] == no_parent ? no_parent : omega_anchor[static_cast<std::size_t>(parent[ui])]);
    }
  }

  struct Entry {
    std::string name;
    int body = 0;
    Transform<Scalar> placement = Transform<Scalar>::identity();
    FrameRows rows;
    int row_offset = 0;
    std::array<int, 6> row_index{};
  };
  const Entry& at(int a) const noexcept {
    TREEDYN_CHECK(a >= 0 && a < size(), "OperationalFrames", "a", "a frame index below size()", size(), a, {
      static const Entry none{};
      return none;
    });
    return frames_[static_cast<std::size_t>(a)];
  }

  std::vector<Entry> frames_;
  int reserved_frames_ = 0, reserved_path_ = 0;
  int nbodies_ = 0;
  int nv_ = 0;
  int rows_ = 0;
};

namespace detail {

/// Records a failed factorization of an OSCM route: frames.status = status, Λ⁻¹ is NaN. Returns Λ⁻¹.
template <class Scalar>
const typename OperationalFrames<Scalar>::MatrixX& oscm_fail(OperationalFrames<Scalar>& frames,
                                                            const FactorStatus& status) noexcept {
  frames.status = status;
  frames.compliance.setConstant(detail::nan<Scalar>());
  return frames.compliance;
}

/// The entry checks of the OSCM routes: data and frames were built for model, q (when given) has nq entries.
template <class Scalar, int N, class Dq>
bool oscm_arguments_ok(const char* function, const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                       const OperationalFrames<Scalar>& frames, const Eigen::MatrixBase<Dq>* q) noexcept {
  return (q != nullptr ? model_data_q_ok(function, model, data, *q)
                       : same_model(function, "data", data.model_id, model.id())) &&
         same_model(function, "frames", frames.model_id, model.id());
}

}  // namespace detail
}  // namespace treedyn
