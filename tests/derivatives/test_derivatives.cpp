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
#include <limits>
#include <string>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/forward_mode.hpp"
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
std::vector<RobotCase<T>> derivative_cases(int random_trees = 14) {
  std::vector<RobotCase<T>> cases = robot_cases<T>(random_trees);
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

/// Central differences in 50 digits of y = fn(model, data, q, q̇) along the tangent increments of q (into dq)
/// and the entries of q̇ (into dv), on the model and state of scalar T made exact in B50 (step 1e-20), rounded
/// to double. dq, dv: n×n.
template <class T, class Fn>
void central_differences_50(const Model<T>& model_t, const Vec<T>& q_t, const Vec<T>& qd_t, Fn&& fn, MatD& dq,
                            MatD& dv) {
  const Model<B50> model = model_t.template cast<B50>();
  Data<B50> data(model);
  const Vec<B50> q = q_t.template cast<B50>(), qd = qd_t.template cast<B50>();
  const int n = model.nv();
  const B50 h("1e-20");
  dq.resize(n, n);
  dv.resize(n, n);
  Vec<B50> qp(model.nq()), qm(model.nq());
  for (int c = 0; c < n; ++c) {
    const Vec<B50> e = Vec<B50>::Unit(n, c);
    integrate(model, q, e, h, qp);
    integrate(model, q, e, B50(-h), qm);
    Vec<B50> p = fn(model, data, qp, qd), m = fn(model, data, qm, qd);
    dq.col(c) = ((p - m) / (2 * h)).template cast<double>();
    p = fn(model, data, q, Vec<B50>(qd + h * e));
    m = fn(model, data, q, Vec<B50>(qd - h * e));
    dv.col(c) = ((p - m) / (2 * h)).template cast<double>();
  }
}

/// ∂τ/∂q and ∂τ/∂q̇ of τ = rnea(q, q̇, q̈, f_ext) by central_differences_50.
template <class T>
void fd_reference(const Model<T>& model_t, const State<T>& s, const std::vector<Force<T>>& f_t, MatD& dq, MatD& dv) {
  const Vec<B50> qdd = s.qdd.template cast<B50>();
  const std::vector<Force<B50>> f = cast_forces<T, B50>(f_t);
  central_differences_50(
      model_t, s.q, s.qd,
      [&](const Model<B50>& m, Data<B50>& d, const Vec<B50>& q, const Vec<B50>& qd) {
        return Vec<B50>(rnea(m, d, q, qd, qdd, f));
      },
      dq, dv);
}

/// The same for the forward dynamics q̈ = aba(q, q̇, τ): ∂q̈/∂q, ∂q̈/∂q̇ (∂q̈/∂τ is checked by ∂q̈/∂τ · H = 1).
template <class T>
void fd_reference_aba(const Model<T>& model_t, const Vec<T>& q_t, const Vec<T>& qd_t, const Vec<T>& tau_t,
                      const std::vector<Force<T>>& f_t, MatD& dq, MatD& dv) {
  const Vec<B50> tau = tau_t.template cast<B50>();
  const std::vector<Force<B50>> f = cast_forces<T, B50>(f_t);
  central_differences_50(
      model_t, q_t, qd_t,
      [&](const Model<B50>& m, Data<B50>& d, const Vec<B50>& q, const Vec<B50>& qd) {
        return Vec<B50>(aba(m, d, q, qd, tau, f));
      },
      dq, dv);
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
  const std::vector<RobotCase<T>> cases = derivative_cases<T>(6);  // the 50-digit ABAs cost: fewer random trees
  double worst_q = 0, worst_v = 0, worst_identity = 0;
  for_each_robot_state<T>(cases, 5100, [&](const RobotCase<T>& rc, const State<T>& s, int index) {
    const Model<T>& model = rc.model;
    Data<T> data(model);
    AbaDerivativesWorkspace<T> ws(model);
    const std::vector<Force<T>> f = random_forces<T>(model.nbodies(), 700 + static_cast<std::uint64_t>(index));
    const Vec<T> tau = s.qdd;  // a random τ
    const Status st = aba_derivatives(model, data, ws, s.q, s.qd, tau, f);
    REQUIRE(st.ok());
    MatD dq, dv;
    fd_reference_aba(model, s.q, s.qd, tau, f, dq, dv);
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
    // ∂q̈/∂τ · H = 1 (H exact, in 50 digits, rounded to double)
    const double identity = max_abs(to_double<T>(ws.ddq_dtau) * H - MatD::Identity(model.nv(), model.nv()));
    worst_q = std::max(worst_q, eq / cond);
    worst_v = std::max(worst_v, ev / cond);
    worst_identity = std::max(worst_identity, identity / cond);
    INFO("n " << n << ", cond(H) " << cond << ", errors " << eq << " " << ev << ", |dqdd_dtau H - 1| "
              << identity);
    const double tol = tolerance<T>(c, n, cond);
    CHECK(eq <= tol);
    CHECK(ev <= tol);
    CHECK(identity <= tol);
    CHECK(to_double<T>(data.qdd).isApprox(to_double<T>(Vec<T>(aba(model, data, s.q, s.qd, tau, f))), 0));
  });
  WARN("aba_derivatives vs 50-digit FD, " << (sizeof(T) == 4 ? "float" : "double")
                                           << ": max relative error / cond(H): ddq_dq " << worst_q << ", ddq_dv "
                                           << worst_v << "; |ddq_dtau H - 1| / cond(H) "
                                           << worst_identity);
}

}  // namespace

TEST_CASE("aba_derivatives agrees with 50-digit central differences (double)", "[derivatives][aba]") {
  check_aba_derivatives_against_fd<double>(64);
}

TEST_CASE("aba_derivatives agrees with 50-digit central differences (float)", "[derivatives][aba][slow]") {
  check_aba_derivatives_against_fd<float>(64);
}

TEST_CASE("rnea_derivatives agrees with 50-digit central differences (double)", "[derivatives][rnea]") {
  check_rnea_derivatives_against_fd<double>(64);
}

TEST_CASE("rnea_derivatives agrees with 50-digit central differences (float)", "[derivatives][rnea][slow]") {
  check_rnea_derivatives_against_fd<float>(64);
}

TEST_CASE("rnea_derivatives identities: ∂τ/∂q̇ = 0 at q̇ = 0; ∂τ/∂q = ∂g/∂q at q̇ = q̈ = 0", "[derivatives][rnea]") {
  const std::vector<RobotCase<double>> cases = derivative_cases<double>();
  double worst = 0;
  for_each_robot_state<double>(cases, 6100, [&](const RobotCase<double>& rc, const State<double>& s, int index) {
    const Model<double>& model = rc.model;
    const int n = model.nv();
    Data<double> data(model);
    RneaDerivativesWorkspace<double> ws(model);
    const std::vector<Force<double>> f = random_forces<double>(model.nbodies(), 300 + static_cast<std::uint64_t>(index));
    // q̇ = 0: every velocity product vanishes, so ∂τ/∂q̇ is exactly 0 whatever q̈ and f_ext
    REQUIRE(rnea_derivatives(model, data, ws, s.q, Vec<double>::Zero(n), s.qdd, f).ok());
    CHECK(max_abs(ws.dtau_dv) == 0.0);
    // q̇ = q̈ = 0, no f_ext: τ = g(q), so ∂τ/∂q is ∂g/∂q (central differences of gravity_torques, 50 digits)
    REQUIRE(rnea_derivatives(model, data, ws, s.q, Vec<double>::Zero(n), Vec<double>::Zero(n)).ok());
    MatD dg, unused;
    central_differences_50(
        model, s.q, s.qd,
        [](const Model<B50>& m, Data<B50>& d, const Vec<B50>& q, const Vec<B50>&) { return Vec<B50>(gravity_torques(m, d, q)); },
        dg, unused);
    const double e = relative_error(ws.dtau_dq, dg);
    worst = std::max(worst, e);
    INFO("max|dg/dq| " << max_abs(dg) << ", error " << e);
    CHECK(e <= tolerance<double>(64, n, 1.0));
  });
  WARN("rnea_derivatives at rest vs 50-digit FD of gravity_torques, double: max relative error " << worst);
}

namespace {
/// Forward mode with a fixed number of directions (no empty derivative vectors): 6 tangent increments δ and
/// the same 6 entries of q̇ at a time.
constexpr int kDirections = 6;
using AD = ForwardAD<2 * kDirections>;
}  // namespace

TEST_CASE("rnea_derivatives agrees with forward-mode autodiff through rnea and integrate", "[derivatives][autodiff]") {
  const std::vector<RobotCase<double>> cases = derivative_cases<double>();
  double worst = 0;
  for_each_robot_state<double>(cases, 7100, [&](const RobotCase<double>& rc, const State<double>& s, int index) {
    const Model<double>& model = rc.model;
    const int n = model.nv();
    Data<double> data(model);
    RneaDerivativesWorkspace<double> ws(model);
    const std::vector<Force<double>> f = random_forces<double>(model.nbodies(), 500 + static_cast<std::uint64_t>(index));
    REQUIRE(rnea_derivatives(model, data, ws, s.q, s.qd, s.qdd, f).ok());
    // τ(q ⊕ δ, q̇ + ν, q̈), the directions seeded at δ = ν = 0, kDirections columns at a time
    const Model<AD> model_ad = model.cast<AD>();
    Data<AD> data_ad(model_ad);
    std::vector<Force<AD>> f_ad;
    for (const Force<double>& x : f) f_ad.push_back(x.cast<AD>());
    MatD dq(n, n), dv(n, n);
    for (int c0 = 0; c0 < n; c0 += kDirections) {
      const int width = std::min(kDirections, n - c0);
      Vec<AD> delta = constant_ad<AD>(Vec<double>::Zero(n)), qd = constant_ad<AD>(s.qd);
      for (int k = 0; k < width; ++k) {
        delta(c0 + k).derivatives()(k) = 1.0;
        qd(c0 + k).derivatives()(kDirections + k) = 1.0;
      }
      Vec<AD> q(model.nq());
      integrate(model_ad, constant_ad<AD>(s.q), delta, AD(1.0), q);
      const Vec<AD> tau = rnea(model_ad, data_ad, q, qd, constant_ad<AD>(s.qdd), f_ad);
      for (int r = 0; r < n; ++r) {
        dq.block(r, c0, 1, width) = tau(r).derivatives().head(width).transpose();
        dv.block(r, c0, 1, width) = tau(r).derivatives().segment(kDirections, width).transpose();
      }
    }
    const double e = std::max(relative_error(ws.dtau_dq, dq), relative_error(ws.dtau_dv, dv));
    worst = std::max(worst, e);
    INFO("error " << e);
    CHECK(e <= tolerance<double>(64, n, 1.0));
  });
  WARN("rnea_derivatives vs forward-mode autodiff, double: max relative error " << worst);
}

TEST_CASE("rnea_derivatives and aba_derivatives report a zero quaternion and a non-finite input", "[derivatives][status]") {
  const Model<double> model = robots::humanoid30<double>();
  Data<double> data(model);
  RneaDerivativesWorkspace<double> rws(model);
  AbaDerivativesWorkspace<double> aws(model);
  const State<double> s = random_state(model, 99);
  Vec<double> q0 = s.q;
  q0.segment<4>(3).setZero();  // the torso's quaternion
  Status st = rnea_derivatives(model, data, rws, q0, s.qd, s.qdd);
  CHECK(st.code == Status::Code::invalid_configuration);
  CHECK(st.row == 0);
  CHECK(rws.dtau_dq.array().isNaN().all());
  CHECK(rws.dtau_dv.array().isNaN().all());
  st = aba_derivatives(model, data, aws, q0, s.qd, s.qdd);
  CHECK(st.code == Status::Code::invalid_configuration);
  CHECK(aws.ddq_dq.array().isNaN().all());
  CHECK(aws.ddq_dtau.array().isNaN().all());
  Vec<double> qd = s.qd;
  qd(4) = std::numeric_limits<double>::quiet_NaN();
  st = rnea_derivatives(model, data, rws, s.q, qd, s.qdd);
  CHECK(st.code == Status::Code::non_finite_input);
  CHECK(std::string(st.argument) == "qd");
  CHECK(st.row == 4);
  CHECK(rws.dtau_dq.array().isNaN().all());
  st = aba_derivatives(model, data, aws, s.q, qd, s.qdd);
  CHECK(st.code == Status::Code::non_finite_input);
  CHECK(std::string(st.argument) == "qd");
  CHECK(aws.ddq_dv.array().isNaN().all());
  // and a valid call afterwards succeeds again
  CHECK(rnea_derivatives(model, data, rws, s.q, s.qd, s.qdd).ok());
  CHECK(rws.dtau_dq.allFinite());
  CHECK(aba_derivatives(model, data, aws, s.q, s.qd, s.qdd).ok());
  CHECK(aws.ddq_dq.allFinite());
}

TEMPLATE_TEST_CASE("rnea_derivatives and aba_derivatives in long double and cpp_bin_float_50", "[derivatives][scalars]",
                   long double, B50) {
  using T = TestType;
  std::vector<RobotCase<T>> cases;
  cases.push_back({"arm7", robots::arm7<double>().cast<T>()});
  cases.push_back({"random_tree-9", robots::random_tree<double>(9, 109).cast<T>()});
  const double eps_t = static_cast<double>(std::numeric_limits<T>::epsilon());
  for_each_robot_state<T>(cases, 8100, [&](const RobotCase<T>& rc, const State<T>& s) {
    const Model<T>& model = rc.model;
    Data<T> data(model);
    RneaDerivativesWorkspace<T> rws(model);
    AbaDerivativesWorkspace<T> aws(model);
    const std::vector<Force<T>> f = random_forces<T>(model.nbodies(), 11);
    REQUIRE(rnea_derivatives(model, data, rws, s.q, s.qd, s.qdd, f).ok());
    MatD dq, dv;
    fd_reference(model, s, f, dq, dv);
    const double n = model.nv();
    // the reference is rounded to double: the bound is the larger of double's rounding and T's
    const double tol = 64 * n * std::max(eps_t, std::numeric_limits<double>::epsilon());
    CHECK(relative_error(to_double<T>(rws.dtau_dq), dq) <= tol);
    CHECK(relative_error(to_double<T>(rws.dtau_dv), dv) <= tol);
    REQUIRE(aba_derivatives(model, data, aws, s.q, s.qd, s.qdd, f).ok());
    fd_reference_aba(model, s.q, s.qd, s.qdd, f, dq, dv);
    crba(model, data, s.q);
    Mat<T> H(model.nv(), model.nv());
    dense_H(model, data, H);
    const double cond = spd_condition(H);  // F4 multiplies by H⁻¹
    CHECK(relative_error(to_double<T>(aws.ddq_dq), dq) <= cond * tol);
    CHECK(relative_error(to_double<T>(aws.ddq_dv), dv) <= cond * tol);
  });
}

// The recursion works in world axes (as Carpentier & Mansard's): with the world origin as its origin, a floating
// base d ≈ 120 m away made its intermediate quantities (S_i's linear parts, IC_i, BC_i) grow with d, and the
// rounding with d² (2.2e-12 = 1e4 ε measured); with the origin at body 0's (rnea_derivatives.hpp) the bound is
// the one near the origin.
TEST_CASE("rnea_derivatives far from the world origin (world-frame recursion)", "[derivatives][rnea]") {
  const Model<double> model = robots::humanoid30<double>();
  State<double> s = random_state(model, 123);
  s.q.head<3>() << 100.0, -50.0, 40.0;
  const double d = s.q.head<3>().norm();
  Data<double> data(model);
  RneaDerivativesWorkspace<double> ws(model);
  const std::vector<Force<double>> f = random_forces<double>(model.nbodies(), 5);
  REQUIRE(rnea_derivatives(model, data, ws, s.q, s.qd, s.qdd, f).ok());
  MatD dq, dv;
  fd_reference(model, s, f, dq, dv);
  const double eq = relative_error(ws.dtau_dq, dq), ev = relative_error(ws.dtau_dv, dv);
  const double n = model.nv();
  WARN("rnea_derivatives on the humanoid " << d << " m from the world origin, double: relative error dtau_dq " << eq
                                           << ", dtau_dv " << ev << " (" << eq / eps<double>() << " and "
                                           << ev / eps<double>() << " eps)");
  CHECK(eq <= tolerance<double>(64, n, 1.0));
  CHECK(ev <= tolerance<double>(64, n, 1.0));
}

namespace {

/// detail::minus_product_tiled (aba_derivatives' F4 with AVX; called directly here, so that the ci build,
/// without AVX, tests it too) against the sums Σ_t a(r, t) b(t, c) in long double: within 2 k ε Σ|a||b| per
/// entry, for Y = −A B and Y −= A B, on row counts that are and are not multiples of the 8-row tile (the last
/// tile overlaps the one before) and column counts with and without a remainder of the 4-column tile; the
/// columns of B taken from a block of a larger matrix, as F4 takes them.
template <class T>
void check_minus_product_tiled() {
  for (const int m : {8, 9, 15, 16, 17, 35, 36})
    for (const int k : {1, 3, 36})
      for (const int n : {1, 3, 4, 5, 9})
        for (const bool assign : {true, false}) {
          INFO("m " << m << " k " << k << " n " << n << (assign ? " assign" : " subtract"));
          const Mat<T> A = Mat<T>::Random(m, k), big = Mat<T>::Random(k + 2, n + 3), Y0 = Mat<T>::Random(m, n);
          const auto B = big.block(1, 2, k, n);
          Mat<T> Y = Y0;
          detail::minus_product_tiled(Y, A, B, assign);
          for (int r = 0; r < m; ++r)
            for (int c = 0; c < n; ++c) {
              long double sum = 0, abs_sum = 0;
              for (int t = 0; t < k; ++t) {
                sum += static_cast<long double>(A(r, t)) * static_cast<long double>(B(t, c));
                abs_sum += std::abs(static_cast<long double>(A(r, t)) * static_cast<long double>(B(t, c)));
              }
              const long double ref = assign ? -sum : static_cast<long double>(Y0(r, c)) - sum;
              const long double bound =
                  2 * (k + 1) * static_cast<long double>(std::numeric_limits<T>::epsilon()) *
                  (abs_sum + (assign ? 0 : std::abs(static_cast<long double>(Y0(r, c)))));
              CHECK(std::abs(static_cast<long double>(Y(r, c)) - ref) <= bound);
            }
        }
}

}  // namespace

TEST_CASE("aba_derivatives' register-tiled product equals the sums it stands for", "[derivatives][aba]") {
  check_minus_product_tiled<double>();
  check_minus_product_tiled<float>();
}
