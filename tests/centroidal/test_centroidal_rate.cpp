// The rate of the centroidal momentum ḣ_g = A_g q̈ + Ȧ_g q̇ and its drift Ȧ_g q̇ (centroidal_momentum_rate.hpp,
// issue 42) on every built-in robot, random trees with every joint type and two ill-conditioned chains of seed
// 004, in float and double, against references computed in boost cpp_bin_float_50 on the same (rounded) model
// and state: the drift by central differences of ccrba's h_g along q(t) = integrate(q, t q̇) at constant q̇
// (h = 1e-15), and the rate as that drift plus ccrba's A_g q̈; Ȧ_g (centroidal_map_time_variation.hpp) by central
// differences of A_g along the same path, and Ȧ_g q̇ against the drift. Also a NaN in q̇ gives NaN and a status.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/robot_cases.hpp"
#include "support/seed004_cases.hpp"
#include "support/tolerance.hpp"
#include "support/unit_quaternions.hpp"
#include "treedyn/algorithms/ccrba.hpp"
#include "treedyn/algorithms/centroidal_map_time_variation.hpp"
#include "treedyn/algorithms/centroidal_momentum_rate.hpp"
#include "treedyn/algorithms/frame_motion.hpp"
#include "treedyn/model/configuration.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

using B = boost::multiprecision::cpp_bin_float_50;
using VecB = Eigen::Matrix<B, Eigen::Dynamic, 1>;
using Vec6B = Eigen::Matrix<B, 6, 1>;

struct Reference {
  Vec6B drift, rate;
  double scale = 1;
};

template <class T>
Reference reference(const Model<T>& model_t, const State<T>& s) {
  const Model<B> m = model_t.template cast<B>();
  const VecB q = unit_quaternions(m, VecB(s.q.template cast<B>()));  // support/unit_quaternions.hpp says why
  const VecB qd = s.qd.template cast<B>(), qdd = s.qdd.template cast<B>();
  const B h("1e-15");
  VecB qp(m.nq()), qm(m.nq());
  integrate(m, q, qd, h, qp);
  integrate(m, q, qd, B(-h), qm);
  Data<B> d(m);
  ccrba(m, d, qp, qd);
  const Vec6B hp = d.hg;
  ccrba(m, d, qm, qd);
  const Vec6B hm = d.hg;
  ccrba(m, d, q, qd);
  Reference r;
  r.drift = (hp - hm) / (2 * h);
  r.rate = r.drift + d.Ag * qdd;
  // the size of the terms ḣ_g sums: per body, its inertia times its acceleration and velocity squared (body
  // coordinates, from body_motion without gravity), with the moment arm to c
  body_motion(m, d, q, qd, qdd);
  B scale = 0;
  for (int i = 0; i < m.nbodies(); ++i) {
    const B arm = (d.X_world[i].r - d.com).norm();
    const B I = m.inertia(i).matrix().norm();
    scale += I * (d.a[i].norm() + d.v[i].norm() * d.v[i].norm()) * (1 + arm);
  }
  r.scale = static_cast<double>(scale);
  return r;
}

using MatB = Eigen::Matrix<B, 6, Eigen::Dynamic>;

/// Ȧ_g by central differences of A_g along q(t) = integrate(q, t q̇), in 50 digits on the rounded model and
/// state, and the size of its terms: Σ_i ‖I_i‖ (1 + ‖v_i‖) (1 + |o_i − c|)² (a body's inertia, moved to c,
/// times its velocity).
template <class T>
std::pair<MatB, double> map_rate_reference(const Model<T>& model_t, const State<T>& s) {
  const Model<B> m = model_t.template cast<B>();
  const VecB q = unit_quaternions(m, VecB(s.q.template cast<B>()));
  const VecB qd = s.qd.template cast<B>();
  const B h("1e-15");
  VecB qp(m.nq()), qm(m.nq());
  integrate(m, q, qd, h, qp);
  integrate(m, q, qd, B(-h), qm);
  Data<B> d(m);
  ccrba(m, d, qp, qd);
  const MatB Ap = d.Ag;
  ccrba(m, d, qm, qd);
  const MatB dAg = (Ap - MatB(d.Ag)) / (2 * h);
  ccrba(m, d, q, qd);
  body_motion(m, d, q, qd, VecB(VecB::Zero(m.nv())));
  B scale = 0;
  for (int i = 0; i < m.nbodies(); ++i) {
    const B arm = 1 + (d.X_world[i].r - d.com).norm();
    scale += m.inertia(i).matrix().norm() * (1 + d.v[i].norm()) * arm * arm;
  }
  return {dAg, static_cast<double>(scale)};
}

template <class D1, class D2>
double err(const Eigen::MatrixBase<D1>& a, const Eigen::MatrixBase<D2>& b) {
  return static_cast<double>((a.template cast<B>() - b.template cast<B>()).cwiseAbs().maxCoeff());
}

}  // namespace

TEMPLATE_TEST_CASE("centroidal_momentum_rate and centroidal_drift against differences of h_g in 50 digits",
                   "[centroidal][rate]", float, double) {
  using T = TestType;
  double worst_drift = 0, worst_rate = 0;
  std::vector<RobotCase<T>> typed;
  for (const RobotCase<double>& c : robot_cases_and_seed004(16)) typed.push_back({c.name, c.model.template cast<T>()});
  for_each_robot_state(typed, 5151, [&](const RobotCase<T>& c, const State<T>& s) {
    Data<T> data(c.model);
    const Reference r = reference(c.model, s);
    const double tol = tolerance<T>(16, c.model.nbodies(), r.scale);
    const double e_drift = err(centroidal_drift(c.model, data, s.q, s.qd), r.drift) / tol;
    const double e_rate = err(centroidal_momentum_rate(c.model, data, s.q, s.qd, s.qdd), r.rate) / tol;
    INFO("drift " << e_drift << ", rate " << e_rate << " of the bound");
    CHECK(e_drift <= 1.0);
    CHECK(e_rate <= 1.0);
    worst_drift = std::max(worst_drift, e_drift);
    worst_rate = std::max(worst_rate, e_rate);
  });
  std::printf("centroidal rate in %s: worst ratio to 16·nb·ε·scale: drift %.3g, rate %.3g\n",
              sizeof(T) == 4 ? "float" : "double", worst_drift, worst_rate);
}

TEST_CASE("centroidal_drift: a non-finite q̇ gives NaN and a status", "[centroidal][rate][checks]") {
  const Model<double> model = robots::humanoid30<double>();
  Data<double> data(model);
  const Eigen::VectorXd q = random_configuration(model, 7);
  Eigen::VectorXd qd = Eigen::VectorXd::Ones(model.nv());
  CHECK(centroidal_drift(model, data, q, qd).allFinite());
  qd(4) = std::nan("");
  CHECK(centroidal_drift(model, data, q, qd).array().isNaN().all());
  CHECK(data.config_status.code == Status::Code::non_finite_input);
}

TEMPLATE_TEST_CASE("centroidal_map_time_variation: Ȧ_g against differences of A_g in 50 digits, Ȧ_g q̇ against the "
                   "drift", "[centroidal][rate]", float, double) {
  using T = TestType;
  double worst_map = 0, worst_drift = 0;
  std::vector<RobotCase<T>> typed;
  for (const RobotCase<double>& c : robot_cases_and_seed004(16)) typed.push_back({c.name, c.model.template cast<T>()});
  for_each_robot_state(typed, 6161, [&](const RobotCase<T>& c, const State<T>& s) {
    Data<T> data(c.model), plain(c.model);
    CentroidalMapTimeVariationWorkspace<T> ws(c.model);
    REQUIRE(centroidal_map_time_variation(c.model, data, ws, s.q, s.qd).ok());
    REQUIRE(ccrba(c.model, plain, s.q, s.qd).ok());
    CHECK(data.Ag == plain.Ag);  // D1 is ccrba itself
    CHECK(data.hg == plain.hg);
    const auto [dAg, scale] = map_rate_reference(c.model, s);
    const double tol = tolerance<T>(16, c.model.nbodies(), scale);
    const double e_map = err(ws.dAg, dAg) / tol;
    // Ȧ_g q̇ against centroidal_drift, an independent recursion (the bodies' momentum rates summed at c)
    const Eigen::Matrix<T, 6, 1> drift = centroidal_drift(c.model, plain, s.q, s.qd);
    const Eigen::Matrix<T, 6, 1> product = ws.dAg * s.qd;
    const double e_drift = err(product, drift) / tolerance<T>(16, c.model.nbodies(), scale * (1 + static_cast<double>(s.qd.norm())));
    INFO("Ȧ_g " << e_map << ", Ȧ_g q̇ " << e_drift << " of the bound");
    CHECK(e_map <= 1.0);
    CHECK(e_drift <= 1.0);
    worst_map = std::max(worst_map, e_map);
    worst_drift = std::max(worst_drift, e_drift);
  });
  std::printf("centroidal map time variation in %s: worst ratio to 16·nb·ε·scale: Ȧ_g %.3g, Ȧ_g q̇ vs drift %.3g\n",
              sizeof(T) == 4 ? "float" : "double", worst_map, worst_drift);
}

TEST_CASE("centroidal_map_time_variation: a non-finite q̇ gives NaN and a status", "[centroidal][rate][checks]") {
  const Model<double> model = robots::humanoid30<double>();
  Data<double> data(model);
  CentroidalMapTimeVariationWorkspace<double> ws(model);
  const Eigen::VectorXd q = random_configuration(model, 7);
  Eigen::VectorXd qd = Eigen::VectorXd::Ones(model.nv());
  REQUIRE(centroidal_map_time_variation(model, data, ws, q, qd).ok());
  CHECK(ws.dAg.allFinite());
  qd(4) = std::nan("");
  const Status st = centroidal_map_time_variation(model, data, ws, q, qd);
  CHECK(st.code == Status::Code::non_finite_input);
  CHECK(ws.status.code == Status::Code::non_finite_input);
  CHECK(ws.dAg.array().isNaN().all());
  CHECK(data.Ag.array().isNaN().all());
}
