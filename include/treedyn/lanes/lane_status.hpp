// Per-lane statuses of the kernels on treedyn::Lanes: which lanes failed, and where, as the scalar call on
// each lane's state would report it (docs/lanes.md#per-lane-statuses).
//
// A kernel instantiated on Lanes<T, W> returns one Status for W states, and the library's checks cannot stop
// for one lane: they let every lane through and a failing lane goes on in NaN
// (docs/lanes.md#how-the-kernels-see-lanes), so that Status says success. The calls here give the lane-wise answer, LaneStatus<W> (one Status
// per lane), from what the kernel read and wrote:
//   lane_finite_statuses(call, argument, x)  lane j: non_finite_input naming `argument` and the first entry k
//                        whose lane j is a NaN or an infinity (what detail::finite_ok reports on that state);
//   lane_configuration_statuses(model, q, call)  lane j: as the scalar outward pass (algorithms/detail/
//                        outward_pass.hpp, joint_transforms) checks q: a non-finite q first (the entry), else the
//                        first body whose quaternion is zero or not finite (invalid_configuration, the body);
//   lane_pivot_statuses(model, data)  lane j: non_positive_pivot at the row where the scalar ltdl_packed stops
//                        (kernels/ltdl_packed.hpp, step G5), read from the factor's pivots (below);
//   factor_H_lanes(model, data[, q])  factor_H, then its lane-wise status: with q (the configuration crba was
//                        called with) a lane whose q failed reports that, as the scalar factor_H returns crba's
//                        data.config_status; every other lane its pivot status;
//   non_finite_lanes(x)  the mask of the lanes in which some entry of a kernel's output is not finite.
//
// How the failing row is read from the pivots: ltdl_packed factors the rows from the last to the first (G1) and
// the scalar path stops at the first pivot that is not > 0 (G5). On lanes, detail::nan_unless_positive turns
// that lane's pivot into NaN and the factorization goes on; the NaN reaches the pivots of that row's ancestors
// (lower rows, factored later) through the updates G8, never a higher row (already factored). So in lane j every
// pivot is > 0 or NaN, and the highest row whose pivot is not > 0 is exactly the scalar path's failing row.
//
// Cost: one pass over the pivots (or the vector) with a mask per entry; the per-lane bookkeeping runs only for
// a failing entry. noexcept; nothing allocates (LaneStatus is a std::array).
#pragma once

#include <array>

#include <Eigen/Core>

#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/lanes/lanes.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/status.hpp"

namespace treedyn {

/// One Status per lane: lane j's is what the scalar call on lane j's state reports.
template <int W>
struct LaneStatus {
  std::array<Status, W> lanes{};

  [[nodiscard]] const Status& operator[](int j) const noexcept { return lanes[static_cast<std::size_t>(j)]; }
  [[nodiscard]] Status& operator[](int j) noexcept { return lanes[static_cast<std::size_t>(j)]; }
  /// True when every lane succeeded.
  [[nodiscard]] bool ok() const noexcept { return first_failed() < 0; }
  explicit operator bool() const noexcept { return ok(); }
  /// The lowest lane that failed, or −1.
  [[nodiscard]] int first_failed() const noexcept {
    for (int j = 0; j < W; ++j)
      if (!(*this)[j].ok()) return j;
    return -1;
  }
  /// The number of lanes that failed.
  [[nodiscard]] int failed_count() const noexcept {
    int n = 0;
    for (int j = 0; j < W; ++j) n += (*this)[j].ok() ? 0 : 1;
    return n;
  }
  /// The same status in every lane (a failure of the call itself, e.g. a size check: no lane ran).
  static LaneStatus all(const Status& s) noexcept {
    LaneStatus out;
    out.lanes.fill(s);
    return out;
  }
  /// Each lane that has not failed yet and is set in `failed` takes `s`; earlier failures stand (a call reports
  /// the first thing that stopped it).
  template <class Mask>
  void fail_where(const Mask& failed, const Status& s) noexcept {
    for (int j = 0; j < W; ++j)
      if (failed.lane(j) && (*this)[j].ok()) (*this)[j] = s;
  }
  /// Each lane that has not failed yet takes `other`'s status for it.
  void then(const LaneStatus& other) noexcept {
    for (int j = 0; j < W; ++j)
      if ((*this)[j].ok()) (*this)[j] = other[j];
  }
};

/// The lanes in which some entry of x (a kernel's output or an input, of Lanes<T, W>) is a NaN or an infinity.
template <class Derived>
auto non_finite_lanes(const Eigen::MatrixBase<Derived>& x) noexcept {
  using L = typename Derived::Scalar;
  auto failed = L(0) != L(0);  // all false
  for (Eigen::Index k = 0; k < x.size(); ++k) failed = failed || !(x(k) * L(0) == L(0));  // x·0: NaN unless finite
  return failed;
}

/// Lane j: non_finite_input naming `argument` and the first entry of x whose lane j is not finite (entry kind
/// `index`), reported by `call`; success where every entry is finite.
template <class Derived>
auto lane_finite_statuses(const char* call, const char* argument, const Eigen::MatrixBase<Derived>& x,
                          Status::Index index = Status::Index::entry) noexcept {
  using L = typename Derived::Scalar;
  LaneStatus<L::width> out;
  if (!any(non_finite_lanes(x))) return out;  // the common case: one pass, no per-lane work
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    const auto bad = !(x(k) * L(0) == L(0));
    if (any(bad)) out.fail_where(bad, Status::non_finite_input(argument, static_cast<int>(k), index, call));
  }
  return out;
}

/// Lane j: what the scalar outward pass of `call` (e.g. "crba", "aba") reports for lane j's q: non_finite_input
/// ("q", the coordinate) when q holds a NaN or an infinity, else invalid_configuration (the first body whose
/// spherical or free-flyer quaternion is zero), else success.
template <class T, int W, int N, class Dq>
LaneStatus<W> lane_configuration_statuses(const Model<Lanes<T, W>, N>& model, const Eigen::MatrixBase<Dq>& q,
                                          const char* call) noexcept {
  using L = Lanes<T, W>;
  LaneStatus<W> out = lane_finite_statuses(call, "q", q);
  for (int i = 0; i < model.nbodies(); ++i) {
    const Joint<L>& joint = model.joint(i);
    if (!joint.has_quaternion()) continue;  // structure: the same in every lane
    const int k = model.q_offset(i) + (joint.type == JointType::spherical ? 0 : 3);  // the quaternion's first entry
    const L n2 = q(k) * q(k) + q(k + 1) * q(k + 1) + q(k + 2) * q(k + 2) + q(k + 3) * q(k + 3);
    const auto bad = !(n2 > L(0) && n2 - n2 == L(0));  // detail::quaternion_ok, lane by lane
    if (any(bad)) out.fail_where(bad, Status::invalid_configuration(i, call));
  }
  return out;
}

/// Lane j: non_positive_pivot at the row where the scalar factor_H on lane j's H stops ("ltdl_packed", as
/// the scalar path names it), read from data.H_factor after factor_H on lanes (see the header comment);
/// success where every pivot is > 0.
template <class T, int W, int N>
LaneStatus<W> lane_pivot_statuses(const Model<Lanes<T, W>, N>& model, const Data<Lanes<T, W>, N>& data) noexcept {
  using L = Lanes<T, W>;
  LaneStatus<W> out;
  const AncestorPattern& pattern = model.h_pattern();
  for (int i = pattern.size() - 1; i >= 0; --i) {  // G1's order: the first failure found is the scalar's
    const auto bad = !(data.H_factor(pattern.row_start(i)) > L(0));
    if (any(bad)) out.fail_where(bad, Status::non_positive_pivot(i, "ltdl_packed"));
  }
  return out;
}

/// factor_H on lanes (data.H from crba) and its lane-wise status: a failure of the call itself (data built for
/// another model) in every lane, else each lane's pivot status (lane_pivot_statuses).
template <class T, int W, int N>
LaneStatus<W> factor_H_lanes(const Model<Lanes<T, W>, N>& model, Data<Lanes<T, W>, N>& data) noexcept {
  const Status s = factor_H(model, data);
  if (!s) return LaneStatus<W>::all(s);
  return lane_pivot_statuses(model, data);
}

/// The same, and a lane whose q (the configuration crba was called with) is not finite or has a zero quaternion
/// reports that, named by "crba", as the scalar factor_H returns crba's data.config_status.
template <class T, int W, int N, class Dq>
LaneStatus<W> factor_H_lanes(const Model<Lanes<T, W>, N>& model, Data<Lanes<T, W>, N>& data,
                             const Eigen::MatrixBase<Dq>& q) noexcept {
  const Status s = factor_H(model, data);
  if (!s) return LaneStatus<W>::all(s);
  LaneStatus<W> out = lane_configuration_statuses(model, q, "crba");
  out.then(lane_pivot_statuses(model, data));
  return out;
}

}  // namespace treedyn
