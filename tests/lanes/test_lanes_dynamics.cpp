// aba, forward_dynamics_crba and the packed LTDL factor and solve (factor_H, solve_H) instantiated on
// treedyn::Lanes (docs/lanes.md): every lane equals the scalar kernel on that lane's state, and a lane whose
// state fails (a non-positive pivot, a zero quaternion) turns NaN without changing its neighbours by a bit.
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "lanes/lanes_support.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"

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

TEST_CASE("forward_dynamics_crba over Lanes equals the scalar forward_dynamics_crba lane by lane", "[lanes]") {
  check_both("forward_dynamics_crba", forward_dynamics_crba_kernel, 6300);
}

namespace {

/// factor_H and solve_H over Lanes<T, W> on H of W states of `model` (each lane's H from the scalar crba),
/// with lane 1's pivot of row `row` set to 0 and lane 2's to −1 (W ≥ 4):
/// - the good lanes' factor and solution equal the scalar factor_H and solve_H bit for bit (the same
///   operations in the same order: the factor and solve are loops of scalar arithmetic, no sin/cos, no
///   packet reductions; the test unit is built with -ffp-contract=off so neither path fuses a multiply-add);
/// - the scalar path reports non_positive_pivot at `row` for lanes 1 and 2;
/// - lanes 1 and 2 of the solution are all NaN (the NaN pivot reaches the root's pivot through the updates,
///   and every entry's back-substitution reads the root: `model` must be one tree);
/// - the good lanes are bit for bit what they are when every lane is good.
template <class T, int W>
void check_factor_with_failing_lanes(const treedyn::Model<double>& model, int row, std::uint64_t seed) {
  using L = Lanes<T, W>;
  const treedyn::Model<T> ms = model.cast<T>();
  const treedyn::Model<L> ml = model.cast<L>();
  treedyn::Data<T> ds(ms);
  treedyn::Data<L> dl(ml), dl_good(ml);
  const LaneStates<T> s = treedyn::test::lane_states<T, W>(model, seed);
  const int diagonal = model.h_pattern().row_start(row);
  std::vector<Eigen::Matrix<T, Eigen::Dynamic, 1>> H;
  for (int j = 0; j < W; ++j) H.push_back(treedyn::crba(ms, ds, s.q[static_cast<std::size_t>(j)]));
  dl_good.H = pack<T, W>(H);
  H[1](diagonal) = T(0);
  H[2](diagonal) = T(-1);
  dl.H = pack<T, W>(H);
  const LaneVector<T, W> b = pack<T, W>(s.qdd);
  LaneVector<T, W> x = b, x_good = b;
  REQUIRE(treedyn::factor_H(ml, dl).ok());  // lanes report no status yet (docs/lanes.md#not-done-yet)
  REQUIRE(treedyn::solve_H(ml, dl, x).ok());
  REQUIRE(treedyn::factor_H(ml, dl_good).ok());
  REQUIRE(treedyn::solve_H(ml, dl_good, x_good).ok());
  for (int j = 0; j < W; ++j) {
    INFO("lane " << j);
    const auto ju = static_cast<std::size_t>(j);
    ds.H = H[ju];
    const treedyn::FactorStatus status = treedyn::factor_H(ms, ds);
    Eigen::Matrix<T, Eigen::Dynamic, 1> xs = s.qdd[ju];
    treedyn::solve_H(ms, ds, xs);
    if (j == 1 || j == 2) {
      CHECK(status.code == treedyn::FactorStatus::Code::non_positive_pivot);
      CHECK(status.row == row);
      for (Eigen::Index k = 0; k < x.size(); ++k) CHECK(std::isnan(x(k).lane(j)));
      continue;
    }
    REQUIRE(status.ok());
    for (Eigen::Index k = 0; k < x.size(); ++k) {
      CHECK(x(k).lane(j) == xs(k));
      CHECK(x(k).lane(j) == x_good(k).lane(j));
    }
    for (Eigen::Index k = 0; k < ds.H_factor.size(); ++k) CHECK(dl.H_factor(k).lane(j) == ds.H_factor(k));
  }
}

}  // namespace

TEST_CASE("factor_H and solve_H over Lanes: a non-positive pivot in one lane gives NaN there only", "[lanes]") {
  const treedyn::Model<double> humanoid = treedyn::robots::humanoid30<double>();
  const treedyn::Model<double> chain = treedyn::robots::chain30<double>();
  // A leaf row (its pivot is the first the factorization meets), a middle one and the root.
  for (const int row : {humanoid.nv() - 1, humanoid.nv() / 2, 0}) {
    INFO("humanoid30, row " << row);
    check_factor_with_failing_lanes<double, 4>(humanoid, row, 7100);
    check_factor_with_failing_lanes<float, 8>(humanoid, row, 7200);
  }
  for (const int row : {chain.nv() - 1, 7, 0}) {
    INFO("chain30, row " << row);
    check_factor_with_failing_lanes<double, 4>(chain, row, 7300);
    check_factor_with_failing_lanes<float, 8>(chain, row, 7400);
  }
}

namespace {

/// kernel over Lanes<T, W> on humanoid30 (a free-flyer base) with lane 1's base quaternion zero: every entry
/// of lane 1 is NaN (the base's NaN transform reaches every body) and the other lanes are bit for bit what
/// they are when lane 1 is good; the scalar kernel names the configuration on lane 1's state.
template <class T, int W, class Kernel>
void check_zero_quaternion(const Kernel& kernel, treedyn::FactorStatus treedyn::Data<T>::*status) {
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
  for (Eigen::Index k = 0; k < bad.size(); ++k) {
    INFO("entry " << k << " of " << bad.size() << ": " << bad(k).lane(1));
    CHECK(std::isnan(bad(k).lane(1)));
    for (int j = 0; j < W; ++j)
      if (j != 1) CHECK(bad(k).lane(j) == good(k).lane(j));
  }
}

}  // namespace

TEST_CASE("aba and forward_dynamics_crba over Lanes: a zero quaternion in one lane gives NaN there only", "[lanes]") {
  check_zero_quaternion<double, 4>(aba_kernel, &treedyn::Data<double>::aba_status);
  check_zero_quaternion<float, 8>(aba_kernel, &treedyn::Data<float>::aba_status);
  check_zero_quaternion<double, 4>(forward_dynamics_crba_kernel, &treedyn::Data<double>::factor_status);
  check_zero_quaternion<float, 8>(forward_dynamics_crba_kernel, &treedyn::Data<float>::factor_status);
}
