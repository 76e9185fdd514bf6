// urdf_test::check_dynamics: the identities every loaded model must satisfy, in one translation unit so
// that the URDF test files do not each instantiate the algorithms.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "support/crba_dense.hpp"
#include "support/random.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/model/configuration.hpp"
#include "urdf/urdf_test_support.hpp"

namespace urdf_test {

/// Tolerances scale with cond(H) where a forward error is measured: a repaired link may be floored,
/// which makes H ill-conditioned by design.
void check_dynamics(const treedyn::Model<double>& model) {
  treedyn::Data<double> data(model);
  const int n = model.nv();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    treedyn::test::Rng rng(seed);
    const Eigen::VectorXd q = treedyn::random_configuration(model, seed);
    const Eigen::VectorXd qd = rng.matrix<double>(n, 1);
    const Eigen::VectorXd tau = rng.matrix<double>(n, 1);
    const Eigen::MatrixXd H = treedyn::test::crba_dense(model, data, q);
    const Eigen::VectorXd C = treedyn::bias(model, data, q, qd);
    CHECK(max_abs(H - H.transpose()) <= 1e-14 * max_abs(H));
    REQUIRE(Eigen::LLT<Eigen::MatrixXd>(H).info() == Eigen::Success);
    const Eigen::VectorXd h = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues();
    REQUIRE(h(0) > 0.0);
    const double cond = h(n - 1) / h(0);
    // backward error of the ABA: τ = H q̈ + C
    const Eigen::VectorXd qdd = treedyn::aba(model, data, q, qd, tau);
    REQUIRE(data.aba_status.ok());
    const double scale = max_abs(H) * max_abs(qdd) + max_abs(C) + max_abs(tau);
    CHECK(max_abs(H * qdd + C - tau) <= 1e-12 * scale);
    // ABA ∘ RNEA = identity, a forward error: bounded by cond(H) ε
    const Eigen::VectorXd a = rng.matrix<double>(n, 1);
    const Eigen::VectorXd tau_a = treedyn::rnea(model, data, q, qd, a);
    const Eigen::VectorXd a_back = treedyn::aba(model, data, q, qd, tau_a);
    REQUIRE(data.aba_status.ok());
    CHECK(max_abs(a_back - a) <= 1e3 * std::numeric_limits<double>::epsilon() * cond * (1.0 + max_abs(a)));
  }
}


}  // namespace urdf_test
