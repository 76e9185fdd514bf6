// CRBA (Featherstone (2005) §5, generalized to multi-DoF joints) against the dense reference, RNEA columns,
// kinetic energy, exact branch-induced zeros, and the fixed-size model.
#include <catch2/catch.hpp>

#include "support/robot_cases.hpp"
#include "reference/dense_dynamics.hpp"
#include "support/crba_dense.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

/// Entrywise agreement to c·n·ε·max|H|: both sides are sums of O(n) products of O(max|H|) terms.
template <class T, class A, class B>
void require_close(const A& actual, const B& reference, double scale, int n) {
  REQUIRE(close_entrywise(actual.template cast<double>(), reference.template cast<double>(),
                          tolerance<T>(64.0, n + 1, scale)));
}

}  // namespace

TEMPLATE_TEST_CASE("crba equals the dense Σ Jᵢᵀ Iᵢ Jᵢ and has exactly the branch-induced zeros", "[crba]", float,
                   double) {
  using T = TestType;
  for_each_robot_state<T>(50, 700u, [](const RobotCase<T>& c, const State<T>& s) {
    Data<T> data(c.model);
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> H = crba_dense(c.model, data, s.q);
    // reference in double from the same (rounded) model, so only the algorithm's rounding is measured
    const Model<double> md = c.model.template cast<double>();
    const Eigen::MatrixXd Href = reference::mass_matrix(md, s.q.template cast<double>());
    require_close<T>(H, Href, Href.cwiseAbs().maxCoeff(), c.model.nv());
    REQUIRE(H == H.transpose());
    const auto& mu = c.model.dof_parents();
    for (int i = 0; i < c.model.nv(); ++i)
      for (int j = 0; j < i; ++j) {
        bool ancestor = false;
        for (int a = mu[i]; a != no_parent; a = mu[a]) ancestor = ancestor || (a == j);
        if (!ancestor) {
          INFO("H(" << i << ", " << j << ") is a branch-induced zero");
          REQUIRE(H(i, j) == T(0));
        }
      }
  });
}

TEMPLATE_TEST_CASE("crba columns equal RNEA(q, 0, e_j) − RNEA(q, 0, 0); ½ q̇ᵀHq̇ is the kinetic energy", "[crba]",
                   float, double) {
  using T = TestType;
  for_each_robot_state<T>(20, 800u, [](const RobotCase<T>& c, const State<T>& s) {
    const int n = c.model.nv();
    Data<T> data(c.model);
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> H = crba_dense(c.model, data, s.q);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> zero = Eigen::Matrix<T, Eigen::Dynamic, 1>::Zero(n);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> g = rnea(c.model, data, s.q, zero, zero);
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> cols(n, n);
    for (int j = 0; j < n; ++j) cols.col(j) = rnea(c.model, data, s.q, zero, Eigen::Matrix<T, Eigen::Dynamic, 1>::Unit(n, j)) - g;
    require_close<T>(cols, H, H.cwiseAbs().maxCoeff() + g.cwiseAbs().maxCoeff(), n);
    const Model<double> md = c.model.template cast<double>();
    const double ke = reference::kinetic_energy(md, s.q.template cast<double>(), s.qd.template cast<double>());
    const double quad = 0.5 * static_cast<double>(s.qd.dot(H * s.qd));
    const double scale = 0.5 * static_cast<double>(s.qd.cwiseAbs().dot(H.cwiseAbs() * s.qd.cwiseAbs()));
    INFO("½ q̇ᵀHq̇ = " << quad << ", Σ ½ vᵀIv = " << ke);
    REQUIRE(std::abs(quad - ke) <= 64.0 * (n + 1) * eps<T>() * scale);
  });
}

TEST_CASE("Model<double, 30> of the humanoid gives the same H as Model<double>", "[crba][fixed-size]") {
  const Model<double> dyn = robots::humanoid30<double>();
  const Model<double, 30> fixed = dyn.cast<double, 30>();
  REQUIRE_THROWS_WITH((dyn.cast<double, 29>()), Catch::Contains("30 degrees of freedom, not 29"));
  Data<double> d1(dyn);
  Data<double, 30> d2(fixed);
  const State<double> s = random_state(dyn, 99);
  const Eigen::MatrixXd H1 = crba_dense(dyn, d1, s.q);
  const Eigen::Matrix<double, 30, 30> H2 = crba_dense(fixed, d2, s.q);
  const double ulp = std::numeric_limits<double>::epsilon() * H1.cwiseAbs().maxCoeff();
  REQUIRE(close_entrywise(H1, H2, 4 * ulp));
}

TEST_CASE("packed crba: dense_H's two forms agree with the packed entries; forward_dynamics_crba is the dense route",
          "[crba][packed]") {
  for_each_robot_state<double>(5, 900u, [](const RobotCase<double>& c, const State<double>& s) {
    const int n = c.model.nv();
    const AncestorPattern& pattern = c.model.h_pattern();
    Data<double> data(c.model);
    crba(c.model, data, s.q);
    const Eigen::MatrixXd H = dense_H(c.model, data);
    REQUIRE(H == H.transpose());
    Eigen::MatrixXd out = Eigen::MatrixXd::Constant(n, n, std::numeric_limits<double>::quiet_NaN());
    dense_H(c.model, data, out);  // overwrites every entry, the zeros included
    REQUIRE(out == H);
    Eigen::VectorXd packed(pattern.nonzeros());
    pattern.pack(H, packed);
    REQUIRE(packed == data.H);
    // the route forward_dynamics_crba took with a dense H: pack it, factor, solve; bit for bit the same
    const Eigen::VectorXd tau = rnea(c.model, data, s.q, s.qd, s.qdd);
    const Eigen::VectorXd qdd = forward_dynamics_crba(c.model, data, s.q, s.qd, tau);
    REQUIRE(ltdl_packed(packed, pattern).ok());
    Eigen::VectorXd x = tau - data.C;
    ltdl_solve_packed(packed, pattern, x);
    REQUIRE(x == qdd);
  });
}
