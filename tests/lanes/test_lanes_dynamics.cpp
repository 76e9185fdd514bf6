// aba, modified_aba, minverse_aba, forward_dynamics_crba, rnea_derivatives, aba_derivatives, the frame motion
// derivatives and the packed LTDL factor and solve (factor_H, solve_H) instantiated on
// treedyn::Lanes (docs/lanes.md): every lane equals the scalar kernel on that lane's state, and a lane whose
// state fails (a non-positive pivot, a zero quaternion) turns NaN without changing its neighbours by a bit.
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>

#include "lanes/lanes_support.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"
#include "treedyn/lanes/lane_status.hpp"

namespace {

using treedyn::Lanes;
using treedyn::test::dense;
using treedyn::test::DenseOf;
using treedyn::test::LaneStates;
using treedyn::test::LaneVector;
using treedyn::test::pack;

const auto aba_kernel = [](const auto& m, auto& d, const auto& q, const auto& qd, const auto& tau) {
  return dense(treedyn::aba(m, d, q, qd, tau));
};
const auto modified_aba_kernel = [](const auto& m, auto& d, const auto& q, const auto& qd, const auto& tau) {
  return dense(treedyn::modified_aba(m, d, q, qd, tau));
};
/// H⁻¹ (its workspace built per call: a test, not a hot path).
const auto minverse_aba_kernel = [](const auto& m, auto& d, const auto& q, const auto&, const auto&) {
  treedyn::MinverseAbaWorkspace<typename std::decay_t<decltype(q)>::Scalar> ws(m);
  return dense(treedyn::minverse_aba(m, d, ws, q));
};
/// [∂τ/∂q ∂τ/∂q̇] at (q, q̇, q̈) (the workspace built per call).
const auto rnea_derivatives_kernel = [](const auto& m, auto& d, const auto& q, const auto& qd, const auto& qdd) {
  using S = typename std::decay_t<decltype(q)>::Scalar;
  treedyn::RneaDerivativesWorkspace<S> ws(m);
  treedyn::rnea_derivatives(m, d, ws, q, qd, qdd);
  DenseOf<S> out(ws.dtau_dq.rows(), 2 * ws.dtau_dq.cols());
  out << ws.dtau_dq, ws.dtau_dv;
  return out;
};
/// [∂q̈/∂q ∂q̈/∂q̇ ∂q̈/∂τ] at (q, q̇, τ).
const auto aba_derivatives_kernel = [](const auto& m, auto& d, const auto& q, const auto& qd, const auto& tau) {
  using S = typename std::decay_t<decltype(q)>::Scalar;
  treedyn::AbaDerivativesWorkspace<S> ws(m);
  treedyn::aba_derivatives(m, d, ws, q, qd, tau);
  DenseOf<S> out(ws.ddq_dq.rows(), 3 * ws.ddq_dq.cols());
  out << ws.ddq_dq, ws.ddq_dv, ws.ddq_dtau;
  return out;
};
/// The last body's frame (offset from its origin) in `axes`: [∂v/∂q ∂v/∂q̇] of frame_velocity_derivatives and
/// [∂v/∂q ∂a/∂q ∂a/∂q̇ ∂a/∂q̈] of frame_acceleration_derivatives at (q, q̇, q̈), side by side (6 × 6n).
template <treedyn::ReferenceFrame axes>
const auto frame_derivatives_kernel = [](const auto& m, auto& d, const auto& q, const auto& qd, const auto& qdd) {
  using S = typename std::decay_t<decltype(q)>::Scalar;
  treedyn::Transform<S> placement = treedyn::Transform<S>::identity();
  placement.r << S(0.1), S(-0.2), S(0.3);
  const int n = m.nv(), tip = m.nbodies() - 1;
  Eigen::Matrix<S, 6, Eigen::Dynamic> out(6, 6 * n);
  treedyn::frame_velocity_derivatives(m, d, tip, placement, q, qd, axes, out.middleCols(0, n), out.middleCols(n, n));
  treedyn::frame_acceleration_derivatives(m, d, tip, placement, q, qd, qdd, axes, out.middleCols(2 * n, n),
                                          out.middleCols(3 * n, n), out.middleCols(4 * n, n), out.middleCols(5 * n, n));
  return DenseOf<S>(out);
};
const auto forward_dynamics_crba_kernel = [](const auto& m, auto& d, const auto& q, const auto& qd, const auto& tau) {
  return dense(treedyn::forward_dynamics_crba(m, d, q, qd, tau));
};

/// κ(H) at lane j's state (H in double): forward dynamics solves with H, so a perturbation of the inputs
/// by a few ulps (the lanes' sin/cos) reaches q̈ amplified by up to κ(H).
template <class T>
double kappa(const treedyn::Model<double>& model, const LaneStates<T>& s, int j) {
  treedyn::Data<double> d(model);
  treedyn::crba(model, d, s.q[static_cast<std::size_t>(j)].template cast<double>());
  return treedyn::test::spd_condition(treedyn::dense_H(model, d));
}

/// Forward dynamics over lanes against the scalar path within c·n·ε(T)·κ(H)·(1 + ‖q̈‖∞) (not bit for bit:
/// the joint transforms' sin/cos, as in test_lanes_kinematics.cpp).
template <class Kernel>
void check_both(const char* what, const Kernel& kernel, std::uint64_t seed) {
  treedyn::test::check_double4_float8(what, kernel, seed,
                                      [](const auto& m, const auto& s, int j) { return kappa(m, s, j); });
}

}  // namespace

TEST_CASE("aba over Lanes<double, 4> and Lanes<float, 8> equals the scalar aba lane by lane", "[lanes]") {
  check_both("aba", aba_kernel, 6100);
}

TEST_CASE("modified_aba over Lanes<double, 4> and Lanes<float, 8> equals the scalar modified_aba lane by lane",
          "[lanes]") {
  check_both("modified_aba", modified_aba_kernel, 6500);
}

TEST_CASE("minverse_aba over Lanes equals the scalar minverse_aba lane by lane (H⁻¹ within c n ε κ(H) scale)",
          "[lanes]") {
  check_both("minverse_aba", minverse_aba_kernel, 6700);
}

TEST_CASE("rnea_derivatives over Lanes<double, 4> and Lanes<float, 8> equals the scalar call lane by lane",
          "[lanes][derivatives]") {
  treedyn::test::check_double4_float8("rnea_derivatives", rnea_derivatives_kernel, 6900,
                                      [](const auto&, const auto&, int) { return 1.0; });
}

TEST_CASE("aba_derivatives over Lanes equals the scalar call lane by lane (within c n ε κ(H) scale)",
          "[lanes][derivatives]") {
  check_both("aba_derivatives", aba_derivatives_kernel, 7100);
}

TEST_CASE("frame_velocity_derivatives and frame_acceleration_derivatives over Lanes equal the scalar calls lane by lane",
          "[lanes][derivatives]") {
  const auto one = [](const auto&, const auto&, int) { return 1.0; };
  treedyn::test::check_double4_float8("frame derivatives local", frame_derivatives_kernel<treedyn::ReferenceFrame::local>,
                                      7300, one);
  treedyn::test::check_double4_float8("frame derivatives world-aligned",
                                      frame_derivatives_kernel<treedyn::ReferenceFrame::world_aligned>, 7500, one);
}

TEST_CASE("forward_dynamics_crba over Lanes equals the scalar forward_dynamics_crba lane by lane", "[lanes]") {
  check_both("forward_dynamics_crba", forward_dynamics_crba_kernel, 6300);
}

namespace {

/// A pivot made non-positive in one lane: H's diagonal entry of `row` in lane `lane` set to `value`.
struct BadPivot {
  int lane, row;
  double value;
};

/// factor_H_lanes and solve_H over Lanes<T, W> on H of W states of `model` (each lane's H from the scalar crba),
/// with the diagonal entries of `bad` set (0 or −1: the pivot of that row is then ≤ 0):
/// - every lane's status (factor_H_lanes, lane_status.hpp) is the scalar factor_H's on that lane's H: the
///   failing lanes name non_positive_pivot at their row, the others success;
/// - the good lanes' factor and solution equal the scalar factor_H and solve_H bit for bit (the same
///   operations in the same order: the factor and solve are loops of scalar arithmetic, no sin/cos, no
///   packet reductions; the test unit is built with -ffp-contract=off so neither path fuses a multiply-add);
/// - the failing lanes of the solution are all NaN (the NaN pivot reaches the root's pivot through the updates,
///   and every entry's back-substitution reads the root: `model` must be one tree);
/// - the good lanes are bit for bit what they are when every lane is good.
template <class T, int W>
void check_factor_with_failing_lanes(const treedyn::Model<double>& model, const std::vector<BadPivot>& bad,
                                     std::uint64_t seed) {
  using L = Lanes<T, W>;
  const treedyn::Model<T> ms = model.cast<T>();
  const treedyn::Model<L> ml = model.cast<L>();
  treedyn::Data<T> ds(ms);
  treedyn::Data<L> dl(ml), dl_good(ml);
  const LaneStates<T> s = treedyn::test::lane_states<T, W>(model, seed);
  std::vector<Eigen::Matrix<T, Eigen::Dynamic, 1>> H;
  for (int j = 0; j < W; ++j) H.push_back(treedyn::crba(ms, ds, s.q[static_cast<std::size_t>(j)]));
  dl_good.H = pack<T, W>(H);
  std::vector<int> bad_row(W, -1);
  for (const BadPivot& b : bad) {
    H[static_cast<std::size_t>(b.lane)](model.h_pattern().row_start(b.row)) = static_cast<T>(b.value);
    bad_row[static_cast<std::size_t>(b.lane)] = b.row;
  }
  dl.H = pack<T, W>(H);
  const LaneVector<T, W> b = pack<T, W>(s.qdd);
  LaneVector<T, W> x = b, x_good = b;
  const treedyn::LaneStatus<W> statuses = treedyn::factor_H_lanes(ml, dl);
  REQUIRE(treedyn::solve_H(ml, dl, x).ok());  // solve_H reads the factor's one status (success on lanes)
  REQUIRE(treedyn::factor_H_lanes(ml, dl_good).ok());
  REQUIRE(treedyn::solve_H(ml, dl_good, x_good).ok());
  CHECK(statuses.failed_count() == static_cast<int>(bad.size()));
  for (int j = 0; j < W; ++j) {
    INFO("lane " << j);
    const auto ju = static_cast<std::size_t>(j);
    ds.H = H[ju];
    const treedyn::FactorStatus status = treedyn::factor_H(ms, ds);
    treedyn::test::check_same_status(statuses[j], status);
    Eigen::Matrix<T, Eigen::Dynamic, 1> xs = s.qdd[ju];
    treedyn::solve_H(ms, ds, xs);
    if (bad_row[ju] >= 0) {
      CHECK(statuses[j].code == treedyn::FactorStatus::Code::non_positive_pivot);
      CHECK(statuses[j].row == bad_row[ju]);
      for (Eigen::Index k = 0; k < x.size(); ++k) CHECK(std::isnan(x(k).lane(j)));
      continue;
    }
    REQUIRE(status.ok());
    CHECK(statuses[j].ok());
    for (Eigen::Index k = 0; k < x.size(); ++k) {
      CHECK(x(k).lane(j) == xs(k));
      CHECK(x(k).lane(j) == x_good(k).lane(j));
    }
    for (Eigen::Index k = 0; k < ds.H_factor.size(); ++k) CHECK(dl.H_factor(k).lane(j) == ds.H_factor(k));
  }
}

/// The failing-lane cases at `row` (and `other`, a different row): one lane alone (zero, then negative), two
/// lanes at the same row, two lanes at different rows; on Lanes<double, 4> and Lanes<float, 8>.
void check_failing_pivots(const treedyn::Model<double>& model, int row, int other, std::uint64_t seed) {
  const std::vector<std::vector<BadPivot>> cases = {
      {{1, row, 0.0}}, {{3, row, -1.0}}, {{1, row, 0.0}, {2, row, -1.0}}, {{0, row, -1.0}, {2, other, 0.0}}};
  for (const auto& bad : cases) {
    check_factor_with_failing_lanes<double, 4>(model, bad, seed);
    check_factor_with_failing_lanes<float, 8>(model, bad, seed + 100);
  }
}

}  // namespace

TEST_CASE("factor_H over Lanes: a non-positive pivot in one lane gives NaN there only, and its status names it",
          "[lanes]") {
  const treedyn::Model<double> humanoid = treedyn::robots::humanoid30<double>();
  const treedyn::Model<double> chain = treedyn::robots::chain30<double>();
  // A leaf row (its pivot is the first the factorization meets), a middle one and the root.
  for (const int row : {humanoid.nv() - 1, humanoid.nv() / 2, 0}) {
    INFO("humanoid30, row " << row);
    check_failing_pivots(humanoid, row, row == 0 ? humanoid.nv() - 1 : 0, 7100);
  }
  for (const int row : {chain.nv() - 1, 7, 0}) {
    INFO("chain30, row " << row);
    check_failing_pivots(chain, row, row == 0 ? 7 : 0, 7300);
  }
}

namespace {

/// kernel over Lanes<T, W> on humanoid30 (a free-flyer base) with lane 1's base quaternion zero: the first
/// `nan_entries` entries of lane 1 (all when −1, some when 0) are NaN (the base's NaN transform reaches every
/// body) and the other lanes are bit for bit what they are when lane 1 is good; the scalar kernel names the configuration on
/// lane 1's state, and so does lane_configuration_statuses on the lane state.
template <class T, int W, class Kernel>
void check_zero_quaternion(const Kernel& kernel, treedyn::FactorStatus treedyn::Data<T>::*status,
                           Eigen::Index nan_entries = -1) {
  using L = Lanes<T, W>;
  const treedyn::Model<double> md = treedyn::robots::humanoid30<double>();
  const treedyn::Model<T> ms = md.cast<T>();
  const treedyn::Model<L> ml = md.cast<L>();
  treedyn::Data<T> ds(ms);
  treedyn::Data<L> dl(ml);
  LaneStates<T> s = treedyn::test::lane_states<T, W>(md, 8100);
  REQUIRE(md.joint(0).nq() == 7);
  const DenseOf<L> good = kernel(ml, dl, pack<T, W>(s.q), pack<T, W>(s.qd), pack<T, W>(s.qdd));
  s.q[1].template segment<4>(3).setZero();
  const DenseOf<L> bad = kernel(ml, dl, pack<T, W>(s.q), pack<T, W>(s.qd), pack<T, W>(s.qdd));
  kernel(ms, ds, s.q[1], s.qd[1], s.qdd[1]);
  CHECK((ds.*status).code == treedyn::FactorStatus::Code::invalid_configuration);
  const treedyn::LaneStatus<W> lanes = treedyn::lane_configuration_statuses(ml, pack<T, W>(s.q), "kernel");
  CHECK(lanes.failed_count() == 1);
  CHECK(lanes[1].code == treedyn::FactorStatus::Code::invalid_configuration);
  bool some_nan = false;
  for (Eigen::Index k = 0; k < bad.size(); ++k) {
    INFO("entry " << k << " of " << bad.size() << ": " << bad(k).lane(1));
    some_nan = some_nan || std::isnan(bad(k).lane(1));
    if (nan_entries < 0 || k < nan_entries) CHECK(std::isnan(bad(k).lane(1)));
    for (int j = 0; j < W; ++j)
      if (j != 1) CHECK(bad(k).lane(j) == good(k).lane(j));
  }
  CHECK(some_nan);
}

}  // namespace

TEST_CASE("aba, modified_aba, forward_dynamics_crba and the derivatives over Lanes: a zero quaternion in one lane stays there",
          "[lanes]") {
  check_zero_quaternion<double, 4>(aba_kernel, &treedyn::Data<double>::aba_status);
  check_zero_quaternion<float, 8>(aba_kernel, &treedyn::Data<float>::aba_status);
  // modified_aba, the derivatives and the frame derivatives end as aba does, with
  // detail::nan_whole_failed_lanes over their outputs: the failing lane is NaN throughout (without it the
  // NaN placement of the base reached only some entries), the others untouched. The frame derivatives in
  // world_aligned and world axes: in local axes no output depends on the base's placement (no gravity in them),
  // so the zero quaternion reaches none and the lane stays finite; its status (lane_configuration_statuses) names it.
  check_zero_quaternion<double, 4>(modified_aba_kernel, &treedyn::Data<double>::aba_status);
  check_zero_quaternion<float, 8>(modified_aba_kernel, &treedyn::Data<float>::aba_status);
  check_zero_quaternion<double, 4>(rnea_derivatives_kernel, &treedyn::Data<double>::config_status);
  check_zero_quaternion<float, 8>(rnea_derivatives_kernel, &treedyn::Data<float>::config_status);
  check_zero_quaternion<double, 4>(aba_derivatives_kernel, &treedyn::Data<double>::config_status);
  check_zero_quaternion<float, 8>(aba_derivatives_kernel, &treedyn::Data<float>::config_status);
  check_zero_quaternion<double, 4>(frame_derivatives_kernel<treedyn::ReferenceFrame::world_aligned>,
                                   &treedyn::Data<double>::config_status);
  check_zero_quaternion<float, 8>(frame_derivatives_kernel<treedyn::ReferenceFrame::world_origin>,
                                  &treedyn::Data<float>::config_status);
  check_zero_quaternion<double, 4>(forward_dynamics_crba_kernel, &treedyn::Data<double>::factor_status);
  check_zero_quaternion<float, 8>(forward_dynamics_crba_kernel, &treedyn::Data<float>::factor_status);
}
