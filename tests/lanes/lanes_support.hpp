// What the lane tests share (tests/lanes): packing W states into lanes, and the comparison of a kernel run
// over Lanes<T, W> with the scalar kernel run on each lane's state.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <Eigen/Core>

#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/lanes/lanes.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/status.hpp"

namespace treedyn::test {

template <class S>
using DenseOf = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

template <class T, int W>
using LaneVector = Eigen::Matrix<Lanes<T, W>, Eigen::Dynamic, 1>;

/// W states packed lane by lane: out(k).lane(j) = xs[j](k).
template <class T, int W>
LaneVector<T, W> pack(const std::vector<Eigen::Matrix<T, Eigen::Dynamic, 1>>& xs) {
  LaneVector<T, W> out(xs[0].size());
  for (Eigen::Index k = 0; k < out.size(); ++k)
    for (int j = 0; j < W; ++j) out(k).set_lane(j, xs[static_cast<std::size_t>(j)](k));
  return out;
}

/// Lane j of a matrix of lanes.
template <class T, int W>
DenseOf<T> lane_of(const DenseOf<Lanes<T, W>>& x, int j) {
  DenseOf<T> out(x.rows(), x.cols());
  for (Eigen::Index c = 0; c < x.cols(); ++c)
    for (Eigen::Index r = 0; r < x.rows(); ++r) out(r, c) = x(r, c).lane(j);
  return out;
}

/// A lane's status equals the scalar call's on that lane's state: code, row and what it counts, the call and
/// the argument named (compared as strings: the same literal may have two addresses).
inline void check_same_status(const Status& lane, const Status& scalar) {
  const auto str = [](const char* p) { return std::string(p == nullptr ? "(null)" : p); };
  INFO("lane status " << code_name(lane.code) << " row " << lane.row << " (" << str(lane.call) << ", "
                      << str(lane.argument) << "); scalar " << code_name(scalar.code) << " row " << scalar.row
                      << " (" << str(scalar.call) << ", " << str(scalar.argument) << ")");
  CHECK(lane.code == scalar.code);
  CHECK(lane.row == scalar.row);
  CHECK(lane.index == scalar.index);
  CHECK(str(lane.call) == str(scalar.call));
  CHECK(str(lane.argument) == str(scalar.argument));
}

/// A kernel's result as a dense matrix (what the comparisons below take).
template <class D>
DenseOf<typename D::Scalar> dense(const Eigen::MatrixBase<D>& x) {
  return x;
}

/// W random states of one model (seeded per case and lane), in T.
template <class T>
struct LaneStates {
  std::vector<Eigen::Matrix<T, Eigen::Dynamic, 1>> q, qd, qdd;
};

template <class T, int W>
LaneStates<T> lane_states(const Model<double>& model, std::uint64_t seed) {
  LaneStates<T> s;
  for (int j = 0; j < W; ++j) {
    const auto r = random_state(model, seed + static_cast<std::uint64_t>(j));
    s.q.push_back(r.q.template cast<T>());
    s.qd.push_back(r.qd.template cast<T>());
    s.qdd.push_back(r.qdd.template cast<T>());
  }
  return s;
}

/// kernel(model, data, q, q̇, x) — a generic callable returning dense(result) — run once over Lanes<T, W> on
/// W random states of every built-in robot and `random_trees` random trees (every joint type), and once per
/// state in T: lane j must equal state j's scalar result within c·n·ε(T)·scale, n the number of bodies and
/// scale = 1 + ‖scalar result‖∞ (times the extra factor `condition(model, state)` gives: 1 for the kernels
/// whose error does not grow with H's conditioning). Returns the worst |error| / (n ε scale) seen.
template <class T, int W, class Kernel, class Condition>
double lanes_against_scalar(int random_trees, std::uint64_t seed, double c, const Kernel& kernel,
                            const Condition& condition) {
  using L = Lanes<T, W>;
  double worst = 0;
  for_each_robot_state<double>(random_trees, seed, [&](const auto& rc, const auto&, int index) {
    const Model<T> ms = rc.model.template cast<T>();
    const Model<L> ml = rc.model.template cast<L>();
    Data<T> ds(ms);
    Data<L> dl(ml);
    const LaneStates<T> s = lane_states<T, W>(rc.model, 1000u * static_cast<std::uint64_t>(index));
    const DenseOf<L> got = kernel(ml, dl, pack<T, W>(s.q), pack<T, W>(s.qd), pack<T, W>(s.qdd));
    const double n = ms.nbodies();
    for (int j = 0; j < W; ++j) {
      const auto ju = static_cast<std::size_t>(j);
      const DenseOf<T> ref = kernel(ms, ds, s.q[ju], s.qd[ju], s.qdd[ju]);
      const DenseOf<T> lane = lane_of<T, W>(got, j);
      REQUIRE(lane.rows() == ref.rows());
      REQUIRE(lane.cols() == ref.cols());
      const double scale = (1.0 + static_cast<double>(ref.cwiseAbs().maxCoeff())) * condition(rc.model, s, j);
      INFO("lane " << j);
      CHECK(close_entrywise(lane, ref, tolerance<T>(c, n, scale)));
      const double err = static_cast<double>((lane - ref).cwiseAbs().maxCoeff());
      worst = std::max(worst, err / (n * eps<T>() * scale));
    }
  });
  return worst;
}

/// lanes_against_scalar (10 random trees, c = 4) on Lanes<double, 4> and Lanes<float, 8>; WARNs the worst
/// ratios (docs/lanes.md#accuracy-of-the-kernels-on-lanes).
template <class Kernel, class Condition>
void check_double4_float8(const char* what, const Kernel& kernel, std::uint64_t seed, const Condition& condition) {
  const double d = lanes_against_scalar<double, 4>(10, seed, 4.0, kernel, condition);
  const double f = lanes_against_scalar<float, 8>(10, seed + 100, 4.0, kernel, condition);
  WARN(what << ": worst |error| / (n eps scale), double4 " << d << ", float8 " << f);
}

}  // namespace treedyn::test
