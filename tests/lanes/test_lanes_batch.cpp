// LaneBatchRunner (treedyn/parallel/lane_batch.hpp, docs/lanes.md#the-batch-runner-on-lanes): batched aba,
// rnea and crba with W states per kernel call. Each state's result is the lane kernel's on that state alone
// (bit for bit, whatever its lane, the pack's other states, n, the masked tail and the thread count) and within
// the lane accuracy bound of the scalar BatchRunner; every state's status, the failure count, the first failure
// and a failing state's output are exactly BatchRunner's; sizes are checked.
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "lanes/lanes_support.hpp"
#include "support/check_recorder.hpp"
#include "support/random.hpp"
#include "support/tolerance.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/parallel/lane_batch.hpp"
#include "treedyn/robots/robots.hpp"

namespace {

using namespace treedyn;
using test::DenseOf;

/// n states: random configurations per column, q̇, τ and q̈ uniform in [−1, 1).
template <class T>
struct States {
  DenseOf<T> Q, QD, TAU, QDD;
  States(const Model<double>& model, int n, std::uint64_t seed) {
    test::Rng rng(seed);
    DenseOf<double> q(model.nq(), n);
    for (int k = 0; k < n; ++k) q.col(k) = random_configuration(model, seed + static_cast<std::uint64_t>(k));
    Q = q.cast<T>();
    QD = rng.matrix<double>(model.nv(), n).cast<T>();
    TAU = rng.matrix<double>(model.nv(), n).cast<T>();
    QDD = rng.matrix<double>(model.nv(), n).cast<T>();
  }
};

template <class T>
bool bitwise_equal(const DenseOf<T>& a, const DenseOf<T>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(T) * static_cast<std::size_t>(a.size())) == 0);
}

/// The three batched outputs of one runner.
template <class T>
struct Outputs {
  DenseOf<T> qdd, tau, H;
  std::vector<FactorStatus> aba_st, rnea_st, crba_st;
  BatchStatus aba, rnea, crba;

  template <class Runner>
  Outputs(Runner& runner, const Model<T>& model, const States<T>& s) {
    const auto n = s.Q.cols();
    qdd.resize(model.nv(), n);
    tau.resize(model.nv(), n);
    H.resize(model.h_pattern().nonzeros(), n);
    aba_st.resize(static_cast<std::size_t>(n));
    rnea_st = crba_st = aba_st;
    aba = runner.aba(s.Q, s.QD, s.TAU, qdd, &aba_st);
    rnea = runner.rnea(s.Q, s.QD, s.QDD, tau, &rnea_st);
    crba = runner.crba(s.Q, H, &crba_st);
  }
};

/// State k alone, broadcast to every lane of one lane-kernel call on a Data of its own: lane 0's result.
template <class T, int W>
struct OneState {
  using L = Lanes<T, W>;
  Model<L> model;
  Data<L> data;
  explicit OneState(const Model<T>& m) : model(m.template cast<L>()), data(model) {}

  static Eigen::Matrix<L, Eigen::Dynamic, 1> broadcast(const DenseOf<T>& X, Eigen::Index k) {
    Eigen::Matrix<L, Eigen::Dynamic, 1> out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) out(i) = L(X(i, k));
    return out;
  }
  template <class V>
  static DenseOf<T> lane0(const V& y) {
    DenseOf<T> out(y.size(), 1);
    for (Eigen::Index i = 0; i < y.size(); ++i) out(i, 0) = y(i).lane(0);
    return out;
  }
  DenseOf<T> aba(const States<T>& s, Eigen::Index k) {
    return lane0(treedyn::aba(model, data, broadcast(s.Q, k), broadcast(s.QD, k), broadcast(s.TAU, k)));
  }
  DenseOf<T> rnea(const States<T>& s, Eigen::Index k) {
    return lane0(treedyn::rnea(model, data, broadcast(s.Q, k), broadcast(s.QD, k), broadcast(s.QDD, k)));
  }
  DenseOf<T> crba(const States<T>& s, Eigen::Index k) { return lane0(treedyn::crba(model, data, broadcast(s.Q, k))); }
};

void check_same_batch_status(const BatchStatus& lanes, const BatchStatus& scalar) {
  CHECK(lanes.failures == scalar.failures);
  CHECK(lanes.first_failed == scalar.first_failed);
  test::check_same_status(lanes.first_status, scalar.first_status);
}

/// On `robot` (humanoid30: a free-flyer base; chain30: revolute only), n states on 1, 2 and 3 threads: the
/// lane runner against the lane kernel on each state alone (bit for bit) and against BatchRunner<T> (within
/// c·n·ε·scale, times κ(H) for q̈, and the same statuses); the results do not change with the thread count.
template <class T, int W>
void check_runner(const Model<double>& md, int n, std::uint64_t seed) {
  const Model<T> model = md.cast<T>();
  const States<T> s(md, n, seed);
  BatchRunner<T> scalar_runner(model, 1);
  const Outputs<T> ref(scalar_runner, model, s);
  OneState<T, W> one(model);
  const double bodies = model.nbodies();
  // q̈ solves with H: the lanes' sin/cos (a few ulps apart from the scalar's) reach it amplified by up to κ(H),
  // as test_lanes_dynamics.cpp bounds the lane aba.
  std::vector<double> kappa;
  Data<double> dd(md);
  for (int k = 0; k < n; ++k) {
    crba(md, dd, s.Q.col(k).template cast<double>().eval());
    kappa.push_back(test::spd_condition(dense_H(md, dd)));
  }
  DenseOf<T> first_qdd;
  for (const int threads : {1, 2, 3}) {
    INFO("W = " << W << ", n = " << n << ", threads = " << threads);
    LaneBatchRunner<T, W> runner(model, threads);
    REQUIRE(runner.threads() == threads);
    const Outputs<T> got(runner, model, s);
    CHECK(got.aba.ok());
    CHECK(got.rnea.ok());
    CHECK(got.crba.ok());
    for (int k = 0; k < n; ++k) {
      INFO("state " << k);
      CHECK(bitwise_equal<T>(got.qdd.col(k), one.aba(s, k)));
      CHECK(bitwise_equal<T>(got.tau.col(k), one.rnea(s, k)));
      CHECK(bitwise_equal<T>(got.H.col(k), one.crba(s, k)));
      const auto close = [&](const DenseOf<T>& a, const DenseOf<T>& b, double condition) {
        const double scale = (1.0 + static_cast<double>(b.cwiseAbs().maxCoeff())) * condition;
        return test::close_entrywise(a, b, test::tolerance<T>(4.0, bodies, scale));
      };
      CHECK(close(got.qdd.col(k), ref.qdd.col(k), kappa[static_cast<std::size_t>(k)]));
      CHECK(close(got.tau.col(k), ref.tau.col(k), 1.0));
      CHECK(close(got.H.col(k), ref.H.col(k), 1.0));
    }
    if (threads == 1) first_qdd = got.qdd;
    else CHECK(bitwise_equal<T>(got.qdd, first_qdd));
  }
}

}  // namespace

TEST_CASE("LaneBatchRunner: each state is the lane kernel's on it alone; full packs, a masked tail, W = 1, 1–3 threads",
          "[lanes][batch]") {
  const Model<double> humanoid = robots::humanoid30<double>();
  const Model<double> chain = robots::chain30<double>();
  SECTION("double, 4 lanes") {
    for (const int n : {1, 3, 4, 13}) check_runner<double, 4>(humanoid, n, 11u + static_cast<std::uint64_t>(n));
    check_runner<double, 4>(chain, 9, 21);
  }
  SECTION("float, 8 lanes") {
    for (const int n : {7, 8, 21}) check_runner<float, 8>(humanoid, n, 31u + static_cast<std::uint64_t>(n));
    check_runner<float, 8>(chain, 17, 41);
  }
  SECTION("one lane (W = 1): every state a pack of its own") {
    check_runner<double, 1>(humanoid, 3, 81);
    check_runner<float, 1>(chain, 2, 91);
  }
  SECTION("the native widths") {
    check_runner<double, native_lane_width<double>>(humanoid, 5, 51);
    check_runner<float, native_lane_width<float>>(humanoid, 6, 61);
  }
}

TEST_CASE("LaneBatchRunner: failing states report BatchRunner's statuses, the others are untouched",
          "[lanes][batch]") {
  const Model<double> model = robots::humanoid30<double>();
  const int n = 19;
  States<double> s(model, n, 71);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const int quaternion = model.q_offset(0) + 3;  // the free flyer's (x, y, z, w)
  // Two bad states in one pack of 4 (lanes 1 and 3 of pack 1), more in other packs and in the tail.
  s.Q.col(5).segment<4>(quaternion).setZero();  // invalid_configuration, body 0
  s.QD(7, 7) = nan;                             // non_finite_input qd
  s.TAU(model.nv() - 1, 10) = inf;              // non_finite_input tau (aba only)
  s.QDD(2, 10) = -inf;                          // non_finite_input qdd (rnea only)
  s.Q(model.nq() - 1, 12) = nan;                // non_finite_input q, a revolute coordinate
  s.Q(1, 18) = inf;                             // in the tail pack, the base position
  s.Q.col(18).segment<4>(quaternion).setZero(); // and a zero quaternion: the non-finite q is named first
  BatchRunner<double> scalar_runner(model, 2);
  const Outputs<double> ref(scalar_runner, model, s);
  REQUIRE(ref.aba.failures == 5);
  REQUIRE(ref.rnea.failures == 5);
  REQUIRE(ref.crba.failures == 3);
  for (const int threads : {1, 2, 3}) {
    INFO("threads = " << threads);
    LaneBatchRunner<double, 4> runner(model, threads);
    const Outputs<double> got(runner, model, s);
    check_same_batch_status(got.aba, ref.aba);
    check_same_batch_status(got.rnea, ref.rnea);
    check_same_batch_status(got.crba, ref.crba);
    OneState<double, 4> one(model);
    for (int k = 0; k < n; ++k) {
      INFO("state " << k);
      const auto ku = static_cast<std::size_t>(k);
      test::check_same_status(got.aba_st[ku], ref.aba_st[ku]);
      test::check_same_status(got.rnea_st[ku], ref.rnea_st[ku]);
      test::check_same_status(got.crba_st[ku], ref.crba_st[ku]);
      // A failing state: BatchRunner's output (NaN); the others: the lane kernel's on the state alone.
      CHECK(bitwise_equal<double>(got.qdd.col(k), ref.aba_st[ku].ok() ? one.aba(s, k) : DenseOf<double>(ref.qdd.col(k))));
      CHECK(bitwise_equal<double>(got.tau.col(k), ref.rnea_st[ku].ok() ? one.rnea(s, k) : DenseOf<double>(ref.tau.col(k))));
      CHECK(bitwise_equal<double>(got.H.col(k), ref.crba_st[ku].ok() ? one.crba(s, k) : DenseOf<double>(ref.H.col(k))));
      if (!ref.aba_st[ku].ok()) CHECK(got.qdd.col(k).array().isNaN().all());
    }
  }
}

TEST_CASE("LaneBatchRunner checks the sizes of the caller's matrices", "[lanes][batch]") {
  const Model<double> model = robots::humanoid30<double>();
  const int n = 5;
  const States<double> s(model, n, 5);
  LaneBatchRunner<double, 4> batch(model, 2);
  test::Recorder recorder;
  DenseOf<double> qdd = DenseOf<double>::Constant(model.nv(), n, 3.0);
  const DenseOf<double> untouched = qdd;
  const auto expect_failure = [&](const BatchStatus& st, const char* argument, long long expected, long long given) {
    INFO("argument " << argument);
    CHECK(st.first_status.code == FactorStatus::Code::invalid_argument);
    REQUIRE(test::Recorder::seen.size() == 1);
    CHECK(std::string(test::Recorder::seen[0].function).rfind("LaneBatchRunner::", 0) == 0);
    CHECK(std::string(test::Recorder::seen[0].argument) == argument);
    CHECK(test::Recorder::seen[0].expected_size == expected);
    CHECK(test::Recorder::seen[0].actual_size == given);
    test::Recorder::seen.clear();
    CHECK(bitwise_equal(qdd, untouched));
  };
  DenseOf<double> wrong_tau = s.TAU.leftCols(n - 1), short_q = s.Q.topRows(model.nv());
  expect_failure(batch.aba(s.Q, s.QD, wrong_tau, qdd), "TAU", n, n - 1);
  expect_failure(batch.aba(short_q, s.QD, s.TAU, qdd), "Q", model.nq(), model.nv());
  DenseOf<double> wide = DenseOf<double>::Zero(model.nv(), n + 1);
  expect_failure(batch.rnea(s.Q, s.QD, s.QDD, wide), "TAU", n, n + 1);
  DenseOf<double> dense_H = DenseOf<double>::Zero(model.nv(), n);
  expect_failure(batch.crba(s.Q, dense_H), "H", model.h_pattern().nonzeros(), model.nv());
  std::vector<FactorStatus> statuses(n - 2);
  expect_failure(batch.aba(s.Q, s.QD, s.TAU, qdd, &statuses), "statuses", n, n - 2);
  const auto no_pack = [](const auto&, auto&, const auto&, auto&, int, int, int) { return BatchStatus{}; };
  const BatchStatus st = batch.for_each_pack(-1, no_pack);
  CHECK(st.first_status.code == FactorStatus::Code::invalid_argument);
  REQUIRE(test::Recorder::seen.size() == 1);
  CHECK(std::string(test::Recorder::seen[0].function) == "LaneBatchRunner::for_each_pack");
  test::Recorder::seen.clear();
  // for_each_pack visits packs of 4 with the tail last: 5 states are (0, 4) and (4, 1).
  std::vector<std::pair<int, int>> seen_packs(2, {-1, -1});
  CHECK(batch.for_each_pack(5, [&](const auto&, auto&, const auto&, auto&, int k0, int count, int) {
          seen_packs[static_cast<std::size_t>(k0 / 4)] = {k0, count};
          return BatchStatus{};
        }).ok());
  CHECK(seen_packs == std::vector<std::pair<int, int>>{{0, 4}, {4, 1}});
}
