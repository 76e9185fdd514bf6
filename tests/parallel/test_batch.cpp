// BatchRunner (treedyn/parallel/batch.hpp): batched aba, rnea and crba over the columns of state matrices
// equal a serial loop of the same kernel bit for bit, for any thread count; sizes are checked; one failing
// state is reported by index and leaves the others untouched. double only: one small unit.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/check_recorder.hpp"
#include "support/random.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"
#include "treedyn/parallel/batch.hpp"

namespace {

using namespace treedyn;
using MatrixXd = Eigen::MatrixXd;
using test::Recorder;

/// n states of the humanoid (free-flying torso): a random unit quaternion and joint angles per column,
/// q̇, τ and q̈ uniform in [−1, 1).
struct States {
  MatrixXd Q, QD, TAU, QDD;
  States(const Model<double>& model, int n, std::uint64_t seed)
      : Q(model.nq(), n), QD(model.nv(), n), TAU(model.nv(), n), QDD(model.nv(), n) {
    test::Rng rng(seed);
    for (int k = 0; k < n; ++k) Q.col(k) = random_configuration(model, seed + static_cast<std::uint64_t>(k));
    QD = rng.matrix<double>(model.nv(), n);
    TAU = rng.matrix<double>(model.nv(), n);
    QDD = rng.matrix<double>(model.nv(), n);
  }
};

bool bitwise_equal(const MatrixXd& a, const MatrixXd& b) {
  // an empty matrix has no storage (data() is null, which memcmp must not be given even for 0 bytes)
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0);
}

/// The reference: one Data, a serial loop over the columns.
struct Serial {
  MatrixXd qdd, tau, H;
  Serial(const Model<double>& model, const States& s) {
    Data<double> data(model);
    const auto n = s.Q.cols();
    qdd.resize(model.nv(), n);
    tau.resize(model.nv(), n);
    H.resize(model.h_pattern().nonzeros(), n);
    for (Eigen::Index k = 0; k < n; ++k) {
      qdd.col(k) = aba(model, data, s.Q.col(k), s.QD.col(k), s.TAU.col(k));
      tau.col(k) = rnea(model, data, s.Q.col(k), s.QD.col(k), s.QDD.col(k));
      H.col(k) = crba(model, data, s.Q.col(k));
    }
  }
};

}  // namespace

TEST_CASE("batched aba, rnea and crba equal a serial loop bit for bit, for 1, 2 and 3 threads", "[batch]") {
  const Model<double> model = robots::humanoid30<double>();
  for (const int n : {0, 1, 7, 50}) {  // 7 and 50 are not multiples of 3; 7 is not of 2
    const States s(model, n, 1000 + static_cast<std::uint64_t>(n));
    const Serial ref(model, s);
    for (const int threads : {1, 2, 3}) {
      INFO("n = " << n << ", threads = " << threads);
      BatchRunner<double> batch(model, threads);
      REQUIRE(batch.threads() == threads);
      MatrixXd qdd = MatrixXd::Zero(model.nv(), n), tau = qdd, H = MatrixXd::Zero(ref.H.rows(), n);
      for (int call = 0; call < 2; ++call) {  // a runner is reused: the second call must give the same
        CHECK(batch.aba(s.Q, s.QD, s.TAU, qdd).ok());
        CHECK(batch.rnea(s.Q, s.QD, s.QDD, tau).ok());
        CHECK(batch.crba(s.Q, H).ok());
        CHECK(bitwise_equal(qdd, ref.qdd));
        CHECK(bitwise_equal(tau, ref.tau));
        CHECK(bitwise_equal(H, ref.H));
      }
    }
  }
}

TEST_CASE("for_each runs every state once, thread t on batch_range t, the caller on range 0", "[batch]") {
  const Model<double> model = robots::humanoid30<double>();
  BatchRunner<double> batch(model, 3);
  const int n = 10;
  std::vector<int> thread_of(n, -1), calls(n, 0);
  std::vector<const Data<double>*> data_of(n, nullptr);
  std::vector<const Model<double>*> model_of(n, nullptr);
  // Catch's assertions are not thread-safe: the callable records, the checks come after the call.
  const BatchStatus st = batch.for_each(n, [&](const Model<double>& m, Data<double>& d, int k, int t) {
    model_of[static_cast<std::size_t>(k)] = &m;
    thread_of[static_cast<std::size_t>(k)] = t;
    data_of[static_cast<std::size_t>(k)] = &d;
    ++calls[static_cast<std::size_t>(k)];
  });
  CHECK(st.ok());
  for (int t = 0; t < 3; ++t) {
    const BatchRange r = batch_range(n, 3, t);
    CHECK(r.end - r.begin >= 3);
    for (int k = r.begin; k < r.end; ++k) {
      CHECK(calls[static_cast<std::size_t>(k)] == 1);
      CHECK(model_of[static_cast<std::size_t>(k)] == &model);
      CHECK(thread_of[static_cast<std::size_t>(k)] == t);
      CHECK(data_of[static_cast<std::size_t>(k)] == &batch.data(t));
    }
  }
  CHECK(batch_range(n, 3, 0).begin == 0);
  CHECK(batch_range(n, 3, 2).end == n);
}

TEST_CASE("for_each merges the BatchStatus of groups in item order; for_each_thread runs once per thread", "[batch]") {
  const Model<double> model = robots::humanoid30<double>();
  BatchRunner<double> batch(model, 3);
  // Item k stands for the states 10k … 10k + 9; items 2 (one), 3 (two) and 8 (one) report failures.
  const auto group = [](const Model<double>&, Data<double>&, int k) {
    BatchStatus s;
    if (k == 2 || k == 3) s.add(10 * k + 4, FactorStatus::invalid_configuration(k, "group"));
    if (k == 3 || k == 8) s.add(10 * k + 7, FactorStatus::non_positive_pivot(k, "group"));
    return s;
  };
  const BatchStatus st = batch.for_each(10, group);
  CHECK(st.failures == 4);
  CHECK(st.first_failed == 24);
  CHECK(st.first_status.code == FactorStatus::Code::invalid_configuration);
  CHECK(st.first_status.row == 2);
  CHECK(batch.for_each(10, [](const Model<double>&, Data<double>&, int) { return BatchStatus{}; }).ok());

  std::vector<int> runs(3, 0);
  std::vector<std::thread::id> ids(3);
  batch.for_each_thread([&](int t) {
    ++runs[static_cast<std::size_t>(t)];
    ids[static_cast<std::size_t>(t)] = std::this_thread::get_id();
  });
  CHECK(runs == std::vector<int>{1, 1, 1});
  CHECK(ids[0] == std::this_thread::get_id());
  CHECK(ids[1] != ids[0]);
  CHECK(ids[2] != ids[0]);
  CHECK(ids[2] != ids[1]);
  // An exception on a worker reaches the caller after every thread has finished; the first in thread order.
  std::vector<int> finished(3, 0);
  const auto throwing = [&](int t) {
    finished[static_cast<std::size_t>(t)] = 1;
    if (t >= 1) throw std::runtime_error("thread " + std::to_string(t));
  };
  CHECK_THROWS_WITH(batch.for_each_thread(throwing), "thread 1");
  CHECK(finished == std::vector<int>{1, 1, 1});
  MatrixXd none(model.nv(), 0);
  CHECK(batch.aba(MatrixXd(model.nq(), 0), none, none, none).ok());  // the runner is still usable
}

TEST_CASE("calls back to back (workers polling) and after a pause (workers asleep) each run every state once",
          "[batch]") {
  const Model<double> model = robots::humanoid30<double>();
  for (const int threads : {2, 3}) {
    INFO("threads = " << threads);
    BatchRunner<double> batch(model, threads);
    const int n = 7;
    std::vector<int> calls(n, 0);
    const auto count = [&](const Model<double>&, Data<double>&, int k) { ++calls[static_cast<std::size_t>(k)]; };
    for (int call = 1; call <= 300; ++call) {
      if (call % 100 == 0)  // longer than WorkerTeam::spin_time: the workers have gone to sleep
        std::this_thread::sleep_for(2 * detail::WorkerTeam::spin_time);
      CHECK(batch.for_each(n, count).ok());
    }
    CHECK(calls == std::vector<int>(n, 300));
  }
}

TEST_CASE("a zero quaternion in one state is reported by its index; every other state is still exact", "[batch]") {
  const Model<double> model = robots::humanoid30<double>();
  const int n = 11, bad = 6;  // with 3 threads state 6 is on the last worker (ranges 0–2, 3–6, 7–10)
  States s(model, n, 77);
  s.Q.col(bad).segment<4>(model.q_offset(0) + 3).setZero();  // the free flyer's (x, y, z, w)
  const Serial ref(model, s);
  BatchRunner<double> batch(model, 3);
  MatrixXd qdd(model.nv(), n), tau(model.nv(), n);
  std::vector<FactorStatus> statuses(n);
  for (const bool rnea_call : {false, true}) {
    INFO((rnea_call ? "rnea" : "aba"));
    const BatchStatus st = rnea_call ? batch.rnea(s.Q, s.QD, s.QDD, tau, &statuses)
                                     : batch.aba(s.Q, s.QD, s.TAU, qdd, &statuses);
    CHECK_FALSE(st.ok());
    CHECK(st.failures == 1);
    CHECK(st.first_failed == bad);
    CHECK(st.first_status.code == FactorStatus::Code::invalid_configuration);
    CHECK(st.first_status.row == 0);  // body 0, the torso
    for (int k = 0; k < n; ++k) CHECK(statuses[static_cast<std::size_t>(k)].ok() == (k != bad));
    const MatrixXd& out = rnea_call ? tau : qdd;
    CHECK(out.col(bad).array().isNaN().all());
    CHECK(bitwise_equal(out, rnea_call ? ref.tau : ref.qdd));  // the NaN column too: the same fill
  }
  // Two bad states on two threads: the count is 2, the first is the smaller index.
  s.Q.col(1).segment<4>(model.q_offset(0) + 3).setConstant(std::numeric_limits<double>::quiet_NaN());
  const BatchStatus st = batch.aba(s.Q, s.QD, s.TAU, qdd);
  CHECK(st.failures == 2);
  CHECK(st.first_failed == 1);
}

TEST_CASE("batched calls check the sizes of the caller's matrices", "[batch]") {
  const Model<double> model = robots::humanoid30<double>();
  const int n = 5;
  const States s(model, n, 5);
  BatchRunner<double> batch(model, 2);
  Recorder recorder;
  MatrixXd qdd = MatrixXd::Constant(model.nv(), n, 3.0);
  const MatrixXd untouched = qdd;
  const auto expect_failure = [&](const BatchStatus& st, const char* argument, long long expected, long long given) {
    INFO("argument " << argument);
    CHECK(st.first_status.code == FactorStatus::Code::invalid_argument);
    REQUIRE(Recorder::seen.size() == 1);
    CHECK(std::string(Recorder::seen[0].argument) == argument);
    CHECK(Recorder::seen[0].expected_size == expected);
    CHECK(Recorder::seen[0].actual_size == given);
    Recorder::seen.clear();
    CHECK(bitwise_equal(qdd, untouched));
  };
  MatrixXd wrong_tau = s.TAU.leftCols(n - 1), short_q = s.Q.topRows(model.nv());
  expect_failure(batch.aba(s.Q, s.QD, wrong_tau, qdd), "TAU", n, n - 1);   // one state too few
  expect_failure(batch.aba(short_q, s.QD, s.TAU, qdd), "Q", model.nq(), model.nv());  // nv rows, not nq
  MatrixXd wide = MatrixXd::Zero(model.nv(), n + 1);
  expect_failure(batch.rnea(s.Q, s.QD, s.QDD, wide), "TAU", n, n + 1);
  MatrixXd dense_H = MatrixXd::Zero(model.nv(), n);  // the packed H has nonzeros() rows, not nv
  expect_failure(batch.crba(s.Q, dense_H), "H", model.h_pattern().nonzeros(), model.nv());
  std::vector<FactorStatus> statuses(n - 2);
  expect_failure(batch.aba(s.Q, s.QD, s.TAU, qdd, &statuses), "statuses", n, n - 2);
  expect_failure(batch.for_each(-1, [](const Model<double>&, Data<double>&, int) {}), "n", -1, -1);
}

// The example of docs/batch.md, compiled and run here.
TEST_CASE("README example: forward dynamics of 1024 humanoid states on all cores", "[batch]") {
  // --8<-- docs/batch.md
  const treedyn::Model<double> model = treedyn::robots::humanoid30<double>();
  const int n = 1024;
  Eigen::MatrixXd Q(model.nq(), n), QD = Eigen::MatrixXd::Zero(model.nv(), n);
  Eigen::MatrixXd TAU = Eigen::MatrixXd::Zero(model.nv(), n), QDD(model.nv(), n);
  for (int k = 0; k < n; ++k) Q.col(k) = treedyn::random_configuration(model, k);

  treedyn::BatchRunner<double> batch(model);          // one thread per core, one Data per thread
  treedyn::BatchStatus s = batch.aba(Q, QD, TAU, QDD);  // QDD.col(k) = FD(Q.col(k), QD.col(k), TAU.col(k))
  if (!s) std::printf("%d states failed, the first is %d\n", s.failures, s.first_failed);

  // Anything else: f(model, data, k) per state, on the thread's own Data.
  Eigen::MatrixXd C(model.nv(), n);
  batch.for_each(n, [&](const treedyn::Model<double>& m, treedyn::Data<double>& d, int k) {
    C.col(k) = treedyn::bias(m, d, Q.col(k), QD.col(k));
  });
  // --8<--
  CHECK(s.ok());
  // Inverse dynamics of each result gives back the zero torque; for_each's bias equals a direct call.
  Data<double> data(model);
  for (int k = 0; k < n; k += 97) {
    INFO("state " << k);
    const Eigen::VectorXd tau_back = rnea(model, data, Q.col(k), QD.col(k), QDD.col(k));
    CHECK(tau_back.cwiseAbs().maxCoeff() < 1e-9);
    CHECK(C.col(k) == bias(model, data, Q.col(k), QD.col(k)));
  }
}
