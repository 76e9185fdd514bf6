// OperationalFrames: the n_c operational frames of the OSCM / OSIM kernels, chosen once.
//
// Reference: ../shared/design/algorithms.md §5 (frames c = 1..n_c, each fixed on a body b(c) with a constant
// placement ^cX_{b(c)}); seed 001 (../shared/seeds/001_de6f40f1aa7ac8ae.txt) eq. 46: a contact node uses only
// the 3 linear rows of its frame, Λ_u = Q_u Λ Q_uᵀ — here a per-frame row selection.
// Contract: built once from the model (allocates); add() validates and throws std::invalid_argument naming
// the frame and the problem. Frames may sit on any branches of a fixed- or floating-base tree, several on
// one body. Row selection: a mask over the frame's 6 spatial rows (angular x, y, z, linear x, y, z); the
// selected rows of frame a occupy rows row_offset(a) … row_offset(a) + row_count(a) − 1 of Λ, in the order
// of the mask. The kernels (oscm.hpp, oscm_dense.hpp, osim.hpp) keep their per-frame workspace here.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

/// Which of a frame's 6 spatial rows [ω; v] enter Λ: bit k selects row k (0–2 angular, 3–5 linear).
struct FrameRows {
  std::uint8_t mask = 0x3F;
  static constexpr FrameRows all() noexcept { return FrameRows{0x3F}; }
  static constexpr FrameRows angular() noexcept { return FrameRows{0x07}; }
  static constexpr FrameRows linear() noexcept { return FrameRows{0x38}; }  ///< a contact point (seed 001 eq. 46)
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
  explicit OperationalFrames(const Model<Scalar, N>& model) : nbodies_(model.nbodies()), nv_(model.nv()) {}

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
    return a;
  }

  /// Adds one of the model's named frames (model.frame(name), e.g. a merged fixed link of a URDF).
  int add(const Frame<Scalar>& frame, FrameRows rows = FrameRows::all()) {
    if (frame.body == no_parent)
      throw std::invalid_argument("treedyn::OperationalFrames: frame '" + frame.name +
                                  "' is fixed on the base: it has no operational-space dynamics");
    return add(frame.body, frame.placement, rows, frame.name);
  }

  [[nodiscard]] int size() const noexcept { return static_cast<int>(frames_.size()); }
  [[nodiscard]] int rows() const noexcept { return rows_; }            ///< rows of Λ: Σ_a row_count(a)
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

 private:
  struct Entry {
    std::string name;
    int body = 0;
    Transform<Scalar> placement = Transform<Scalar>::identity();
    FrameRows rows;
    int row_offset = 0;
    std::array<int, 6> row_index{};
  };
  const Entry& at(int a) const noexcept { return frames_[static_cast<std::size_t>(a)]; }

  std::vector<Entry> frames_;
  int nbodies_ = 0;
  int nv_ = 0;
  int rows_ = 0;
};

}  // namespace treedyn
