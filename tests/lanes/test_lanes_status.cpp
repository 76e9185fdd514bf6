// Per-lane statuses (treedyn/lanes/lane_status.hpp, docs/lanes.md#per-lane-statuses): after crba and
// factor_H_lanes on Lanes, every lane's status is the one the scalar crba + factor_H report on that lane's state
// (a non-finite q, a zero quaternion, a non-positive pivot, success), each failing lane naming its own entry,
// body or row. The pivot cases on their own (humanoid30 and chain30, every row kind) are in
// test_lanes_dynamics.cpp.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

#include "lanes/lanes_support.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/lanes/lane_status.hpp"

namespace {

using treedyn::Lanes;
using treedyn::test::LaneStates;
using treedyn::test::pack;

/// How lane j's state is spoiled.
enum class Spoil { none, nan_q, inf_q_and_zero_quaternion, zero_quaternion, negative_pivot };

/// crba + factor_H_lanes(model, data, q) on W states of humanoid30 (a free-flyer base), lane j spoiled by
/// spoil[j] (pivot_row: the row whose H diagonal is set to −1), against crba + factor_H on each lane's state.
template <class T, int W>
void check_statuses(const std::array<Spoil, W>& spoil, int pivot_row, std::uint64_t seed) {
  using L = Lanes<T, W>;
  const treedyn::Model<double> md = treedyn::robots::humanoid30<double>();
  REQUIRE(md.joint(0).nq() == 7);  // q(3 … 6): the base quaternion
  const treedyn::Model<T> ms = md.cast<T>();
  const treedyn::Model<L> ml = md.cast<L>();
  treedyn::Data<T> ds(ms);
  treedyn::Data<L> dl(ml);
  LaneStates<T> s = treedyn::test::lane_states<T, W>(md, seed);
  const int coordinate = ms.nq() - 2;  // a revolute coordinate
  for (int j = 0; j < W; ++j) {
    auto& q = s.q[static_cast<std::size_t>(j)];
    switch (spoil[static_cast<std::size_t>(j)]) {
      case Spoil::nan_q: q(coordinate) = std::numeric_limits<T>::quiet_NaN(); break;
      case Spoil::inf_q_and_zero_quaternion:
        q(coordinate) = std::numeric_limits<T>::infinity();
        q.template segment<4>(3).setZero();
        break;
      case Spoil::zero_quaternion: q.template segment<4>(3).setZero(); break;
      case Spoil::none:
      case Spoil::negative_pivot: break;
    }
  }
  const auto q = pack<T, W>(s.q);
  treedyn::crba(ml, dl, q);
  const int diagonal = md.h_pattern().row_start(pivot_row);
  for (int j = 0; j < W; ++j)
    if (spoil[static_cast<std::size_t>(j)] == Spoil::negative_pivot) dl.H(diagonal).set_lane(j, T(-1));
  const treedyn::LaneStatus<W> statuses = treedyn::factor_H_lanes(ml, dl, q);
  int failed = 0;
  for (int j = 0; j < W; ++j) {
    INFO("lane " << j);
    const Spoil sp = spoil[static_cast<std::size_t>(j)];
    treedyn::crba(ms, ds, s.q[static_cast<std::size_t>(j)]);
    if (sp == Spoil::negative_pivot) ds.H(diagonal) = T(-1);
    const treedyn::FactorStatus status = treedyn::factor_H(ms, ds);
    treedyn::test::check_same_status(statuses[j], status);
    failed += sp == Spoil::none ? 0 : 1;
    switch (sp) {  // what the scalar path must report, so the comparison above cannot pass on two wrong answers
      case Spoil::none: CHECK(status.ok()); break;
      case Spoil::nan_q:
      case Spoil::inf_q_and_zero_quaternion:  // the non-finite q is checked first
        CHECK(status.code == treedyn::Status::Code::non_finite_input);
        CHECK(status.row == coordinate);
        break;
      case Spoil::zero_quaternion:
        CHECK(status.code == treedyn::Status::Code::invalid_configuration);
        CHECK(status.row == 0);
        break;
      case Spoil::negative_pivot:
        CHECK(status.code == treedyn::Status::Code::non_positive_pivot);
        CHECK(status.row == pivot_row);
        break;
    }
  }
  CHECK(statuses.failed_count() == failed);
  CHECK(statuses.ok() == (failed == 0));
}

}  // namespace

TEST_CASE("factor_H_lanes with q: each lane reports what crba and factor_H report on its state", "[lanes]") {
  using S = Spoil;
  const int nv = treedyn::robots::humanoid30<double>().nv();
  for (const int row : {nv - 1, 6, 0}) {
    INFO("pivot row " << row);
    check_statuses<double, 4>({S::none, S::zero_quaternion, S::nan_q, S::negative_pivot}, row, 9100);
    check_statuses<double, 4>({S::negative_pivot, S::none, S::none, S::inf_q_and_zero_quaternion}, row, 9200);
    check_statuses<float, 8>({S::none, S::zero_quaternion, S::nan_q, S::negative_pivot, S::none,
                              S::inf_q_and_zero_quaternion, S::negative_pivot, S::none},
                             row, 9300);
  }
  check_statuses<double, 4>({S::none, S::none, S::none, S::none}, 0, 9400);
  check_statuses<float, 8>({S::none, S::none, S::none, S::none, S::none, S::none, S::none, S::none}, 0, 9500);
}

TEST_CASE("lane_finite_statuses names the first non-finite entry of each lane; non_finite_lanes masks them",
          "[lanes]") {
  using L = Lanes<float, 8>;
  Eigen::Matrix<L, Eigen::Dynamic, 1> x(5);
  for (Eigen::Index k = 0; k < x.size(); ++k) x(k) = L(static_cast<float>(k) + 0.5F);
  x(1).set_lane(2, std::numeric_limits<float>::infinity());
  x(3).set_lane(2, std::numeric_limits<float>::quiet_NaN());
  x(3).set_lane(5, -std::numeric_limits<float>::infinity());
  x(4).set_lane(7, std::numeric_limits<float>::quiet_NaN());
  const auto mask = treedyn::non_finite_lanes(x);
  const treedyn::LaneStatus<8> st = treedyn::lane_finite_statuses("aba", "qd", x);
  for (int j = 0; j < 8; ++j) {
    INFO("lane " << j);
    const int expected = j == 2 ? 1 : j == 5 ? 3 : j == 7 ? 4 : -1;
    CHECK(mask.lane(j) == (expected >= 0));
    treedyn::Status scalar;  // the scalar check on lane j's vector
    Eigen::VectorXf xj(x.size());
    for (Eigen::Index k = 0; k < x.size(); ++k) xj(k) = x(k).lane(j);
    CHECK(treedyn::detail::finite_ok("aba", "qd", xj, scalar) == (expected < 0));
    treedyn::test::check_same_status(st[j], scalar);
    CHECK(st[j].row == expected);
  }
  CHECK(st.first_failed() == 2);
  CHECK(st.failed_count() == 3);
}
