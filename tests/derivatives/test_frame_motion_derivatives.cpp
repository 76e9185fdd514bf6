// frame_velocity_derivatives and frame_acceleration_derivatives (issue 41, docs/derivatives.md#kinematics-derivatives)
// on every built-in robot, random trees with every joint type and a chain of free, spherical, planar and helical
// joints (differentiated along integrate: the tangent convention), two frames per model, in the three axes:
//  - forward-mode Eigen::AutoDiffScalar pushed through integrate, body_motion, frame_velocity and
//    frame_acceleration (double): ∂v/∂q, ∂v/∂q̇, ∂a/∂q, ∂a/∂q̇, ∂a/∂q̈ all at once;
//  - central differences through integrate computed in cpp_bin_float_50 on the model and state the tested
//    scalar sees (step 1e-20), rounded (float and double);
//  - identities: ∂v/∂q̇ = ∂a/∂q̈ = frame_jacobian's J; in local axes ∂a/∂q̇ = ∂v/∂q + J̇ with J̇ from
//    frame_jacobian_time_variation (a = J q̈ + J̇ q̇ and J̇ = Σ_k ∂J/∂δ_k q̇_k is linear in q̇, so
//    ∂(J̇ q̇)/∂q̇ = J̇ + (∂J/∂δ_k q̇)_k = J̇ + ∂v/∂q; frame_motion_derivatives.hpp); both calls' ∂v/∂q agree;
//    the forms without q, after one body_motion, give the same numbers to the bit;
//  - a zero quaternion and a NaN in q̇ give a failed status and NaN outputs.
// Tolerances: c·n·ε(T) relative to max(1, the largest entry of the reference).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/forward_mode.hpp"
#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/random_tree.hpp"

#include <unsupported/Eigen/AutoDiff>

using namespace treedyn;
using namespace treedyn::test;

namespace {

using B50 = boost::multiprecision::cpp_bin_float_50;
template <class T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using Mat6N = Eigen::Matrix<T, 6, Eigen::Dynamic>;
using Mat6ND = Mat6N<double>;

constexpr ReferenceFrame kAxes[3] = {ReferenceFrame::local, ReferenceFrame::world_aligned, ReferenceFrame::world_origin};

template <class T>
std::vector<RobotCase<T>> cases(int random_trees) {
  std::vector<RobotCase<T>> out = robot_cases<T>(random_trees);
  out.push_back({"multi_dof_chain6", robots::random_chain<double>(6, 77, {JointType::free_flyer, JointType::spherical,
                                                                          JointType::planar, JointType::helical})
                                         .template cast<T>()});
  return out;
}

/// The frame: a rotated and shifted placement on the last body, and the identity on a body mid-tree.
template <class T>
std::vector<std::pair<int, Transform<T>>> frames(int nbodies) {
  const Matrix3<double> E = Eigen::AngleAxisd(0.7, Vector3<double>(1, -2, 0.5).normalized()).toRotationMatrix();
  const Transform<double> P{E, Vector3<double>(0.1, -0.2, 0.3)};
  return {{nbodies - 1, Transform<T>{P.E.cast<T>(), P.r.cast<T>()}}, {nbodies / 2, Transform<T>::identity()}};
}

/// The five matrices of both calls.
template <class T>
struct Derivs {
  Mat6N<T> dv_dq, dv_dqd, da_dq, da_dqd, da_dqdd;
  explicit Derivs(int n)
      : dv_dq(6, n), dv_dqd(6, n), da_dq(6, n), da_dqd(6, n), da_dqdd(6, n) {}
};

/// Both calls; REQUIREs success and that their ∂v/∂q agree exactly (the same columns).
template <class T>
Derivs<T> compute(const Model<T>& model, const State<T>& s, int body, const Transform<T>& P, ReferenceFrame ax) {
  Data<T> data(model);
  Derivs<T> d(model.nv());
  Mat6N<T> dv_dq_acc(6, model.nv());
  REQUIRE(frame_velocity_derivatives(model, data, body, P, s.q, s.qd, ax, d.dv_dq, d.dv_dqd).ok());
  REQUIRE(frame_acceleration_derivatives(model, data, body, P, s.q, s.qd, s.qdd, ax, dv_dq_acc, d.da_dq, d.da_dqd,
                                         d.da_dqdd)
              .ok());
  CHECK(dv_dq_acc == d.dv_dq);
  // the forms without q, reading one body_motion: the same numbers to the bit
  Data<T> shared(model);
  Derivs<T> r(model.nv());
  REQUIRE(body_motion(model, shared, s.q, s.qd, s.qdd).ok());
  REQUIRE(frame_velocity_derivatives(model, shared, body, P, ax, r.dv_dq, r.dv_dqd).ok());
  REQUIRE(frame_acceleration_derivatives(model, shared, body, P, ax, dv_dq_acc, r.da_dq, r.da_dqd, r.da_dqdd).ok());
  CHECK(r.dv_dq == d.dv_dq);
  CHECK(r.dv_dqd == d.dv_dqd);
  CHECK(dv_dq_acc == d.dv_dq);
  CHECK(r.da_dq == d.da_dq);
  CHECK(r.da_dqd == d.da_dqd);
  CHECK(r.da_dqdd == d.da_dqdd);
  return d;
}

double max_abs(const Mat6ND& m) { return m.size() == 0 ? 0.0 : m.cwiseAbs().maxCoeff(); }

/// The largest |a − b| entry relative to max(1, max|b|).
template <class T>
double relative_error(const Mat6N<T>& a, const Mat6ND& b) {
  return max_abs(a.template cast<double>() - b) / std::max(1.0, max_abs(b));
}

constexpr int kDirections = 6;
using AD = ForwardAD<3 * kDirections>;

/// The velocity and acceleration of a frame in the three axes at one state, computed in B50: [v | a] per axes.
struct Motions50 {
  Eigen::Matrix<B50, 6, 1> v[3], a[3];
};

Motions50 motions_50(const Model<B50>& m, Data<B50>& d, const Vec<B50>& q, const Vec<B50>& qd, const Vec<B50>& qdd,
                     int body, const Transform<B50>& P) {
  REQUIRE(body_motion(m, d, q, qd, qdd).ok());
  Motions50 out;
  for (int x = 0; x < 3; ++x) {
    out.v[x] = frame_velocity(m, d, body, P, kAxes[x]);
    out.a[x] = frame_acceleration(m, d, body, P, kAxes[x]);
  }
  return out;
}

/// 50-digit central differences (step 1e-20) of v and a along the tangent increments of q and the entries of q̇,
/// for each axes: into ref[x] (dv_dq, da_dq, da_dqd; dv_dqd and da_dqdd by the identities test).
template <class T>
void central_differences_50(const Model<T>& model_t, const State<T>& s, int body, const Transform<T>& P_t,
                            std::vector<Derivs<double>>& ref) {
  const Model<B50> m = model_t.template cast<B50>();
  Data<B50> d(m);
  const Transform<B50> P{P_t.E.template cast<B50>(), P_t.r.template cast<B50>()};
  const Vec<B50> q = s.q.template cast<B50>(), qd = s.qd.template cast<B50>(), qdd = s.qdd.template cast<B50>();
  const int n = m.nv();
  const B50 h("1e-20");
  ref.assign(3, Derivs<double>(n));
  Vec<B50> qp(m.nq()), qm(m.nq());
  for (int c = 0; c < n; ++c) {
    const Vec<B50> e = Vec<B50>::Unit(n, c);
    integrate(m, q, e, h, qp);
    integrate(m, q, e, B50(-h), qm);
    const Motions50 p = motions_50(m, d, qp, qd, qdd, body, P), mm = motions_50(m, d, qm, qd, qdd, body, P);
    const Motions50 pv = motions_50(m, d, q, Vec<B50>(qd + h * e), qdd, body, P);
    const Motions50 mv = motions_50(m, d, q, Vec<B50>(qd - h * e), qdd, body, P);
    for (int x = 0; x < 3; ++x) {
      ref[x].dv_dq.col(c) = ((p.v[x] - mm.v[x]) / (2 * h)).template cast<double>();
      ref[x].da_dq.col(c) = ((p.a[x] - mm.a[x]) / (2 * h)).template cast<double>();
      ref[x].da_dqd.col(c) = ((pv.a[x] - mv.a[x]) / (2 * h)).template cast<double>();
    }
  }
}

/// bound(n): the largest relative error allowed on a model with n DoFs.
template <class T, class Bound>
void check_against_central_differences(int random_trees, Bound bound) {
  double worst = 0;
  for_each_robot_state<T>(cases<T>(random_trees), 8300, [&](const RobotCase<T>& rc, const State<T>& s) {
    const int n = rc.model.nv();
    for (const auto& [body, P] : frames<T>(rc.model.nbodies())) {
      INFO("body " << body);
      std::vector<Derivs<double>> ref;
      central_differences_50(rc.model, s, body, P, ref);
      for (int x = 0; x < 3; ++x) {
        INFO("axes " << x);
        const Derivs<T> d = compute(rc.model, s, body, P, kAxes[x]);
        const double e = std::max({relative_error(d.dv_dq, ref[x].dv_dq), relative_error(d.da_dq, ref[x].da_dq),
                                   relative_error(d.da_dqd, ref[x].da_dqd)});
        INFO("error " << e);
        CHECK(e <= bound(n));
        worst = std::max(worst, e);
      }
    }
  });
  WARN("frame motion derivatives vs 50-digit central differences: max relative error " << worst);
}

}  // namespace

TEST_CASE("frame motion derivatives agree with forward-mode autodiff through body_motion and integrate",
          "[derivatives][frame][autodiff]") {
  double worst = 0;
  for_each_robot_state<double>(cases<double>(14), 8100, [&](const RobotCase<double>& rc, const State<double>& s) {
    const Model<double>& model = rc.model;
    const int n = model.nv();
    const Model<AD> model_ad = model.cast<AD>();
    Data<AD> data_ad(model_ad);
    for (const auto& [body, P] : frames<double>(model.nbodies())) {
      INFO("body " << body);
      const Transform<AD> P_ad = P.cast<AD>();
      // v(q ⊕ δ, q̇ + ν), a(q ⊕ δ, q̇ + ν, q̈ + α), seeded at δ = ν = α = 0, kDirections columns at a time
      std::vector<Derivs<double>> ref(3, Derivs<double>(n));
      for (int c0 = 0; c0 < n; c0 += kDirections) {
        const int width = std::min(kDirections, n - c0);
        Vec<AD> delta = constant_ad<AD>(Vec<double>::Zero(n)), qd = constant_ad<AD>(s.qd), qdd = constant_ad<AD>(s.qdd);
        for (int k = 0; k < width; ++k) {
          delta(c0 + k).derivatives()(k) = 1.0;
          qd(c0 + k).derivatives()(kDirections + k) = 1.0;
          qdd(c0 + k).derivatives()(2 * kDirections + k) = 1.0;
        }
        Vec<AD> q(model.nq());
        integrate(model_ad, constant_ad<AD>(s.q), delta, AD(1.0), q);
        REQUIRE(body_motion(model_ad, data_ad, q, qd, qdd).ok());
        for (int x = 0; x < 3; ++x) {
          const Motion<AD> v = frame_velocity(model_ad, data_ad, body, P_ad, kAxes[x]);
          const Motion<AD> a = frame_acceleration(model_ad, data_ad, body, P_ad, kAxes[x]);
          for (int r = 0; r < 6; ++r) {
            ref[x].dv_dq.block(r, c0, 1, width) = v(r).derivatives().head(width).transpose();
            ref[x].dv_dqd.block(r, c0, 1, width) = v(r).derivatives().segment(kDirections, width).transpose();
            ref[x].da_dq.block(r, c0, 1, width) = a(r).derivatives().head(width).transpose();
            ref[x].da_dqd.block(r, c0, 1, width) = a(r).derivatives().segment(kDirections, width).transpose();
            ref[x].da_dqdd.block(r, c0, 1, width) = a(r).derivatives().segment(2 * kDirections, width).transpose();
          }
        }
      }
      for (int x = 0; x < 3; ++x) {
        INFO("axes " << x);
        const Derivs<double> d = compute(model, s, body, P, kAxes[x]);
        const double e = std::max({relative_error(d.dv_dq, ref[x].dv_dq), relative_error(d.dv_dqd, ref[x].dv_dqd),
                                   relative_error(d.da_dq, ref[x].da_dq), relative_error(d.da_dqd, ref[x].da_dqd),
                                   relative_error(d.da_dqdd, ref[x].da_dqdd)});
        INFO("error " << e);
        CHECK(e <= tolerance<double>(64, n, 1.0));
        worst = std::max(worst, e);
      }
    }
  });
  WARN("frame motion derivatives vs forward-mode autodiff, double: max relative error " << worst);
}

// The 50-digit references are the long part of this unit: tagged [slow], they run in the ci build and not under the
// sanitizers (tests/CMakeLists.txt), where they took test_derivatives past 60 s (79.8 s in one CI run).
TEST_CASE("frame motion derivatives agree with 50-digit central differences (double)", "[derivatives][frame][slow]") {
  check_against_central_differences<double>(10, [](int n) { return tolerance<double>(64, n, 1.0); });
}

TEST_CASE("frame motion derivatives agree with 50-digit central differences (float)", "[derivatives][frame][slow]") {
  check_against_central_differences<float>(10, [](int n) { return tolerance<float>(64, n, 1.0); });
}

TEMPLATE_TEST_CASE("frame motion derivatives in long double and cpp_bin_float_50", "[derivatives][frame][scalars][slow]",
                   long double, B50) {
  // the reference is rounded to double, so both scalars must meet it to the rounding of a double (a few ε)
  check_against_central_differences<TestType>(2, [](int) { return tolerance<double>(4, 1, 1.0); });
}

TEMPLATE_TEST_CASE("frame motion derivatives: ∂v/∂q̇ = ∂a/∂q̈ = J; local ∂a/∂q̇ = ∂v/∂q + J̇", "[derivatives][frame]",
                   float, double) {
  using T = TestType;
  for_each_robot_state<T>(cases<T>(14), 8500, [&](const RobotCase<T>& rc, const State<T>& s) {
    const Model<T>& model = rc.model;
    const int n = model.nv();
    for (const auto& [body, P] : frames<T>(model.nbodies())) {
      INFO("body " << body);
      for (const ReferenceFrame ax : kAxes) {
        const Derivs<T> d = compute(model, s, body, P, ax);
        Data<T> data(model);
        REQUIRE(body_motion(model, data, s.q, s.qd).ok());
        FrameJacobianTimeVariation<T> ws(model);
        frame_jacobian_time_variation(model, data, ws, body, P, ax);
        const Mat6ND J = ws.J.template cast<double>();
        CHECK(relative_error(d.dv_dqd, J) <= tolerance<T>(4, 1, 1.0));
        CHECK(relative_error(d.da_dqdd, J) <= tolerance<T>(4, 1, 1.0));
        if (ax != ReferenceFrame::local) continue;
        const Mat6ND sum = (d.dv_dq + ws.dJ).template cast<double>();
        const double scale = std::max({1.0, max_abs(d.dv_dq.template cast<double>()), max_abs(ws.dJ.template cast<double>())});
        const double e = max_abs(d.da_dqd.template cast<double>() - sum) / scale;
        INFO("error " << e);
        CHECK(e <= tolerance<T>(16, n, 1.0));
      }
    }
  });
}

TEST_CASE("frame motion derivatives: a zero quaternion or a NaN in q̇ gives a status and NaN outputs",
          "[derivatives][frame][status]") {
  const Model<double> model = robots::random_chain<double>(4, 91, {JointType::spherical});
  const State<double> s = random_state(model, 3);
  Data<double> data(model);
  Derivs<double> d(model.nv());
  State<double> bad = s;
  bad.qd(0) = std::nan("");
  CHECK(!frame_velocity_derivatives(model, data, 3, Transform<double>::identity(), bad.q, bad.qd,
                                    ReferenceFrame::local, d.dv_dq, d.dv_dqd)
             .ok());
  CHECK((d.dv_dq.array().isNaN().all() && d.dv_dqd.array().isNaN().all()));
  bad = s;
  bad.q.head(4).setZero();  // every joint is spherical: a zero quaternion
  CHECK(!frame_acceleration_derivatives(model, data, 3, Transform<double>::identity(), bad.q, bad.qd, bad.qdd,
                                        ReferenceFrame::world_aligned, d.dv_dq, d.da_dq, d.da_dqd, d.da_dqdd)
             .ok());
  CHECK((d.dv_dq.array().isNaN().all() && d.da_dq.array().isNaN().all() && d.da_dqd.array().isNaN().all() &&
         d.da_dqdd.array().isNaN().all()));
  // the form without q after that failed body_motion: its status, NaN outputs
  CHECK(!body_motion(model, data, bad.q, bad.qd, bad.qdd).ok());
  const Status st = frame_acceleration_derivatives(model, data, 3, Transform<double>::identity(), ReferenceFrame::local,
                                                   d.dv_dq, d.da_dq, d.da_dqd, d.da_dqdd);
  CHECK(st.code == Status::Code::invalid_configuration);
  CHECK((d.dv_dq.array().isNaN().all() && d.da_dq.array().isNaN().all() && d.da_dqd.array().isNaN().all()));
  // a good call afterwards writes finite numbers again
  CHECK(frame_velocity_derivatives(model, data, 3, Transform<double>::identity(), s.q, s.qd, ReferenceFrame::local,
                                   d.dv_dq, d.dv_dqd)
            .ok());
  CHECK(d.dv_dq.allFinite());
}
