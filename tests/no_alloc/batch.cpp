// No allocation in the batched calls (treedyn/parallel/batch.hpp) after the runner is built: the caller and
// the worker threads alike (the counting operator new is process-wide and atomic).
#include "no_alloc/no_alloc_support.hpp"

#include "treedyn/parallel/batch.hpp"

TEST_CASE("batched aba, rnea, crba and for_each allocate nothing, on any thread", "[no_alloc][batch]") {
  const Model<double> model = robots::humanoid30<double>();
  const int n = 37;
  Eigen::MatrixXd Q(model.nq(), n), QD = Eigen::MatrixXd::Constant(model.nv(), n, 0.25);
  for (int k = 0; k < n; ++k) Q.col(k) = random_configuration(model, static_cast<std::uint64_t>(k));
  Q.col(n - 1).segment<4>(model.q_offset(0) + 3).setZero();  // one failing state: the failure path too
  const Eigen::MatrixXd TAU = Eigen::MatrixXd::Constant(model.nv(), n, -0.5);
  Eigen::MatrixXd QDD(model.nv(), n), TAU_out(model.nv(), n), H(model.h_pattern().nonzeros(), n);
  std::vector<FactorStatus> statuses(n);
  for (const int threads : {1, 2, 3}) {
    INFO("threads = " << threads);
    BatchRunner<double> batch(model, threads);
    for (int call = 0; call < 2; ++call) {
      INFO((call == 0 ? "first call" : "steady state"));
      BatchStatus s[5];
      CHECK(allocations_in([&] {
              s[0] = batch.aba(Q, QD, TAU, QDD, &statuses);
              s[1] = batch.rnea(Q, QD, QDD, TAU_out);
              s[2] = batch.crba(Q, H);
              s[3] = batch.for_each(n, [&](const Model<double>& m, Data<double>& d, int k) {
                (void)aba(m, d, Q.col(k), QD.col(k), TAU.col(k));
                return d.aba_status;
              });
              s[4] = batch.for_each(0, [](const Model<double>&, Data<double>&, int) {});
            }) == 0);
      for (int i = 0; i < 4; ++i) CHECK(s[i].first_failed == n - 1);
      CHECK(s[4].ok());
    }
  }
}

TEST_CASE("the counting guard sees an allocation made on a worker thread", "[no_alloc][batch]") {
  const Model<double> model = robots::humanoid30<double>();
  BatchRunner<double> batch(model, 2);
  static void* volatile sink = nullptr;  // stored to a volatile: the allocation cannot be elided
  const long long counted = allocations_in([&] {
    batch.for_each(2, [](const Model<double>&, Data<double>&, int, int t) {
      if (t == 1) {
        sink = ::operator new(16);
        ::operator delete(sink);
      }
    });
  });
  CHECK(counted == (TREEDYN_COUNTING_NEW ? 1 : 0));
}
