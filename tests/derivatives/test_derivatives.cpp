// rnea_derivatives and aba_derivatives (issue 41) on every built-in robot, random trees with every joint type
// (floating bases, spherical, planar, helical joints), and an ill-conditioned chain, with gravity and external
// forces, in float and double, each against independent references:
//  - central differences through integrate (tangent increments, docs/derivatives.md#tangent-convention)
//    computed in cpp_bin_float_50 on the very model and state the tested scalar sees (step 1e-20: truncation
//    ~1e-40, rounding ~1e-30 relative), rounded to double;
//  - forward-mode Eigen::AutoDiffScalar pushed through rnea and integrate (double);
//  - identities: ∂τ/∂q̇ = 0 at q̇ = 0 (any q̈); ∂τ/∂q at q̇ = q̈ = 0 is ∂g/∂q (central differences of
//    gravity_torques in 50 digits); ∂q̈/∂τ · H = 1; aba_derivatives = −H⁻¹ rnea_derivatives at q̈ = aba.
// Tolerances: c·n·ε(T)·scale, scale the largest entry of the reference (times the condition number of H for
// the forward-dynamics derivatives, which carry H⁻¹).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/random.hpp"
#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/gravity_torques.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/collinear_masses.hpp"
#include "treedyn/robots/random_tree.hpp"

#include <unsupported/Eigen/AutoDiff>

using namespace treedyn;
using namespace treedyn::test;

namespace {

using B50 = boost::multiprecision::cpp_bin_float_50;
using MatD = Eigen::MatrixXd;
template <class T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

/// The cases: every robot of robot_cases (built-in robots and random trees with every joint type) plus a
/// chain of multi-DoF joints and an ill-conditioned chain (masses 1 and 1e4 on collinear prismatic joints
/// under a chain of revolute links), with gravity.
template <class T>
std::vector<RobotCase<T>> derivative_cases() {
  std::vector<RobotCase<T>> cases = robot_cases<T>(14);
  cases.push_back({"multi_dof_chain6", robots::random_chain<double>(6, 77, {JointType::free_flyer, JointType::spherical,
                                                                           JointType::planar, JointType::helical})
                                            .template cast<T>()});
  const Model<double> stiff = robots::collinear_masses<double>(1.0, 1e4, Vector3<double>(0, 1, 1))
                                  .with_gravity(Vector3<double>(0.3, -2.0, -9.81));
  cases.push_back({"collinear_masses_1e4", stiff.template cast<T>()});
  return cases;
}

/// External forces (body coordinates) drawn in double, rounded to T.
template <class T>
std::vector<Force<T>> random_forces(int nbodies, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Force<T>> out;
  for (int i = 0; i < nbodies; ++i) out.push_back(rng.matrix<double>(6, 1).template cast<T>());
  return out;
}

template <class T, class U>
std::vector<Force<U>> cast_forces(const std::vector<Force<T>>& f) {
  std::vector<Force<U>> out;
  for (const Force<T>& x : f) out.push_back(x.template cast<U>());
  return out;
}

/// Central differences of τ(q ⊕ δ, q̇, q̈) and τ(q, q̇ + δ, q̈) in 50 digits, on the model and state of
/// scalar T made exact in B50; rounded to double. dq, dv: n×n.
template <class T>
void fd_reference(const Model<T>& model_t, const State<T>& s, const std::vector<Force<T>>& f_t, MatD& dq, MatD& dv) {
  const Model<B50> model = model_t.template cast<B50>();
  Data<B50> data(model);
  const Vec<B50> q = s.q.template cast<B50>(), qd = s.qd.template cast<B50>(), qdd = s.qdd.template cast<B50>();
  const std::vector<Force<B50>> f = cast_forces<T, B50>(f_t);
  const int n = model.nv();
  const B50 h("1e-20");
  dq.resize(n, n);
  dv.resize(n, n);
  Vec<B50> qp(model.nq()), qm(model.nq());
  for (int c = 0; c < n; ++c) {
    const Vec<B50> e = Vec<B50>::Unit(n, c);
    integrate(model, q, e, h, qp);
    integrate(model, q, e, B50(-h), qm);
    const Vec<B50> tp = rnea(model, data, qp, qd, qdd, f);
    const Vec<B50> tm = rnea(model, data, qm, qd, qdd, f);
    dq.col(c) = ((tp - tm) / (2 * h)).template cast<double>();
    const Vec<B50> up = rnea(model, data, q, Vec<B50>(qd + h * e), qdd, f);
    const Vec<B50> um = rnea(model, data, q, Vec<B50>(qd - h * e), qdd, f);
    dv.col(c) = ((up - um) / (2 * h)).template cast<double>();
  }
}

/// The same for the forward dynamics q̈ = aba(q, q̇, τ): ∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ.
template <class T>
void fd_reference_aba(const Model<T>& model_t, const Vec<T>& q_t, const Vec<T>& qd_t, const Vec<T>& tau_t,
                      const std::vector<Force<T>>& f_t, MatD& dq, MatD& dv, MatD& dt) {
  const Model<B50> model = model_t.template cast<B50>();
  Data<B50> data(model);
  const Vec<B50> q = q_t.template cast<B50>(), qd = qd_t.template cast<B50>(), tau = tau_t.template cast<B50>();
  const std::vector<Force<B50>> f = cast_forces<T, B50>(f_t);
  const int n = model.nv();
  const B50 h("1e-20");
  dq.resize(n, n);
  dv.resize(n, n);
  dt.resize(n, n);
  Vec<B50> qp(model.nq()), qm(model.nq());
  for (int c = 0; c < n; ++c) {
    const Vec<B50> e = Vec<B50>::Unit(n, c);
    integrate(model, q, e, h, qp);
    integrate(model, q, e, B50(-h), qm);
    Vec<B50> p = aba(model, data, qp, qd, tau, f);
    Vec<B50> m = aba(model, data, qm, qd, tau, f);
    dq.col(c) = ((p - m) / (2 * h)).template cast<double>();
    p = aba(model, data, q, Vec<B50>(qd + h * e), tau, f);
    m = aba(model, data, q, Vec<B50>(qd - h * e), tau, f);
    dv.col(c) = ((p - m) / (2 * h)).template cast<double>();
    p = aba(model, data, q, qd, Vec<B50>(tau + h * e), f);
    m = aba(model, data, q, qd, Vec<B50>(tau - h * e), f);
    dt.col(c) = ((p - m) / (2 * h)).template cast<double>();
  }
}

template <class T>
MatD to_double(const Mat<T>& m) {
  return m.template cast<double>();
}

double max_abs(const MatD& m) { return m.size() == 0 ? 0.0 : m.cwiseAbs().maxCoeff(); }

/// The largest |a − b| entry relative to max(1, max|b|).
double relative_error(const MatD& a, const MatD& b) { return max_abs(a - b) / std::max(1.0, max_abs(b)); }


template <class T>
void check_rnea_derivatives_against_fd(double c) {
  const std::vector<RobotCase<T>> cases = derivative_cases<T>();
  double worst_q = 0, worst_v = 0;
  for_each_robot_state<T>(cases, 4100, [&](const RobotCase<T>& rc, const State<T>& s, int index) {
    const Model<T>& model = rc.model;
    Data<T> data(model);
    RneaDerivativesWorkspace<T> ws(model);
    const std::vector<Force<T>> f = random_forces<T>(model.nbodies(), 900 + static_cast<std::uint64_t>(index));
    const Status st = rnea_derivatives(model, data, ws, s.q, s.qd, s.qdd, f);
    REQUIRE(st.ok());
    const Vec<T> tau = data.tau;
    Data<T> data2(model);
    const Vec<T> tau_rnea = rnea(model, data2, s.q, s.qd, s.qdd, f);
    MatD dq, dv;
    fd_reference(model, s, f, dq, dv);
    const double n = model.nv();
    const double eq = relative_error(to_double<T>(ws.dtau_dq), dq), ev = relative_error(to_double<T>(ws.dtau_dv), dv);
    worst_q = std::max(worst_q, eq);
    worst_v = std::max(worst_v, ev);
    INFO("n " << n << ", max|dtau_dq| " << max_abs(dq) << ", error " << eq << "; max|dtau_dv| " << max_abs(dv)
              << ", error " << ev);
    CHECK(eq <= tolerance<T>(c, n, 1.0));
    CHECK(ev <= tolerance<T>(c, n, 1.0));
    // τ itself is rnea's (different operation order: world against body coordinates)
    const double tscale = std::max(1.0, static_cast<double>(tau_rnea.cwiseAbs().maxCoeff()));
    CHECK(static_cast<double>((tau - tau_rnea).cwiseAbs().maxCoeff()) <= tolerance<T>(c, n, tscale));
  });
  WARN("rnea_derivatives vs 50-digit FD, " << (sizeof(T) == 4 ? "float" : "double") << ": max relative error dtau_dq "
                                            << worst_q << ", dtau_dv " << worst_v);
}

template <class T>
void check_aba_derivatives_against_fd(double c) {
  const std::vector<RobotCase<T>> cases = derivative_cases<T>();
  double worst_q = 0, worst_v = 0, worst_t = 0, worst_identity = 0;
  for_each_robot_state<T>(cases, 5100, [&](const RobotCase<T>& rc, const State<T>& s, int index) {
    const Model<T>& model = rc.model;
    Data<T> data(model);
    AbaDerivativesWorkspace<T> ws(model);
    const std::vector<Force<T>> f = random_forces<T>(model.nbodies(), 700 + static_cast<std::uint64_t>(index));
    const Vec<T> tau = s.qdd;  // a random τ
    const Status st = aba_derivatives(model, data, ws, s.q, s.qd, tau, f);
    REQUIRE(st.ok());
    MatD dq, dv, dt;
    fd_reference_aba(model, s.q, s.qd, tau, f, dq, dv, dt);
    // H in 50 digits (the reference's), its condition number scales the bound: F4 multiplies by H⁻¹
    const Model<B50> model50 = model.template cast<B50>();
    Data<B50> data50(model50);
    crba(model50, data50, Vec<B50>(s.q.template cast<B50>()));
    Mat<B50> H50(model.nv(), model.nv());
    dense_H(model50, data50, H50);
    const MatD H = H50.template cast<double>();
    const double cond = spd_condition(H);
    const double n = model.nv();
    const double eq = relative_error(to_double<T>(ws.ddq_dq), dq), ev = relative_error(to_double<T>(ws.ddq_dv), dv);
    const double et = relative_error(to_double<T>(ws.ddq_dtau), dt);
    // ∂q̈/∂τ · H = 1 (H exact, in 50 digits, rounded to double)
    const double identity = max_abs(to_double<T>(ws.ddq_dtau) * H - MatD::Identity(model.nv(), model.nv()));
    worst_q = std::max(worst_q, eq / cond);
    worst_v = std::max(worst_v, ev / cond);
    worst_t = std::max(worst_t, et / cond);
    worst_identity = std::max(worst_identity, identity / cond);
    INFO("n " << n << ", cond(H) " << cond << ", errors " << eq << " " << ev << " " << et << ", |dqdd_dtau H - 1| "
              << identity);
    const double tol = tolerance<T>(c, n, cond);
    CHECK(eq <= tol);
    CHECK(ev <= tol);
    CHECK(et <= tol);
    CHECK(identity <= tol);
    CHECK(to_double<T>(data.qdd).isApprox(to_double<T>(Vec<T>(aba(model, data, s.q, s.qd, tau, f))), 0));
  });
  WARN("aba_derivatives vs 50-digit FD, " << (sizeof(T) == 4 ? "float" : "double")
                                           << ": max relative error / cond(H): ddq_dq " << worst_q << ", ddq_dv "
                                           << worst_v << ", ddq_dtau " << worst_t << "; |ddq_dtau H - 1| / cond(H) "
                                           << worst_identity);
}

}  // namespace

TEST_CASE("aba_derivatives agrees with 50-digit central differences (double)", "[derivatives][aba]") {
  check_aba_derivatives_against_fd<double>(64);
}

TEST_CASE("aba_derivatives agrees with 50-digit central differences (float)", "[derivatives][aba]") {
  check_aba_derivatives_against_fd<float>(64);
}

TEST_CASE("rnea_derivatives agrees with 50-digit central differences (double)", "[derivatives][rnea]") {
  check_rnea_derivatives_against_fd<double>(64);
}

TEST_CASE("rnea_derivatives agrees with 50-digit central differences (float)", "[derivatives][rnea]") {
  check_rnea_derivatives_against_fd<float>(64);
}
