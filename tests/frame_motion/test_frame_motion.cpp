// Frame velocity and acceleration, the Jacobian in three reference frames, its time variation J̇ and the
// drift J̇ q̇ (issue 42, docs/frame-motion.md), on every built-in robot, random trees with every joint type
// (free flyers and spherical joints included: J is over the tangent space) and two ill-conditioned chains
// (seed 004's Table 1 two-link chain at r = 1e-3 and its Example 2 collinear masses), in float and double.
// The references are computed in boost cpp_bin_float_50 on the same model and rounded:
//   - J(q) in each axes by frame_jacobian, whose local form is tested against dense products in test_algorithms;
//   - J̇ by central differences of J along q̇, q(t) = integrate(q, t q̇), h = 1e-15 (truncation ~h², rounding
//     ~1e-50/h: both far below double's ε);
//   - the frame's spatial acceleration from the RNEA's body acceleration with gravity taken out
//     (data.a_b − ^bX_0 [0; −g]), moved to the frame and to each axes by dense 6×6 transforms;
//   - the frame's velocity from the RNEA's body velocity the same way.
// J̇ is also checked against forward-mode Eigen::AutoDiffScalar pushed through integrate, forward_kinematics and
// frame_jacobian in double (one direction: d/dt J(q ⊕ t q̇) at t = 0), an exact derivative of the same code path.
// Identities checked on the references themselves (so the stated semantics hold, not only agreement):
// J q̈ + J̇ q̇ = spatial acceleration in local and world axes and classical in world-aligned axes; J q̇ = velocity.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/random.hpp"
#include "support/robot_cases.hpp"
#include "support/seed004_cases.hpp"
#include "support/tolerance.hpp"
#include "support/unit_quaternions.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/frame_jacobian_time_variation.hpp"
#include "treedyn/algorithms/frame_motion.hpp"
#include "treedyn/model/configuration.hpp"

#include <unsupported/Eigen/AutoDiff>

using namespace treedyn;
using namespace treedyn::test;

namespace {

using B = boost::multiprecision::cpp_bin_float_50;
using L = long double;
using VecB = Eigen::Matrix<B, Eigen::Dynamic, 1>;
using MatL = Eigen::Matrix<L, Eigen::Dynamic, Eigen::Dynamic>;
using Mat6L = Eigen::Matrix<L, 6, 6>;
using Vec6L = Eigen::Matrix<L, 6, 1>;

constexpr ReferenceFrame kAxes[3] = {ReferenceFrame::local, ReferenceFrame::world_aligned, ReferenceFrame::world_origin};

const char* axes_name(ReferenceFrame r) {
  return r == ReferenceFrame::local ? "local" : r == ReferenceFrame::world_origin ? "world" : "world_aligned";
}

template <class To, class From>
Transform<To> cast_transform(const Transform<From>& X) {
  return Transform<To>{X.E.template cast<To>(), X.r.template cast<To>()};
}

template <class D>
MatL to_l(const Eigen::MatrixBase<D>& m) {
  MatL out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out(i, j) = static_cast<L>(m(i, j));
  return out;
}

/// The dense map from frame coordinates to `r`'s axes: 1, ^0X_F, or blockdiag(^0R_F, ^0R_F).
Mat6L axes_matrix(ReferenceFrame r, const Transform<L>& X_F0) {
  if (r == ReferenceFrame::local) return Mat6L::Identity();
  if (r == ReferenceFrame::world_origin) return X_F0.motion_matrix().inverse();
  Mat6L R = Mat6L::Zero();
  R.topLeftCorner<3, 3>() = R.bottomRightCorner<3, 3>() = X_F0.E.transpose();
  return R;
}

/// The references at one state for one frame, along each axes (index as kAxes).
struct FrameReference {
  MatL J[3], dJ[3];
  Vec6L v[3], a[3], a_classical[3];
};

using MatB = Eigen::Matrix<B, Eigen::Dynamic, Eigen::Dynamic>;

/// J(q) along every axes for one frame, in 50 digits.
void jacobians_at(const Model<B>& m, Data<B>& d, const VecB& q, int body, const Transform<B>& P, MatB (&J)[3]) {
  forward_kinematics(m, d, q);
  for (int k = 0; k < 3; ++k) J[k] = frame_jacobian(m, d, body, P, kAxes[k]);
}

std::vector<FrameReference> references(const Model<B>& m, const State<double>& s, const std::vector<int>& bodies,
                                       const std::vector<Transform<B>>& placements) {
  const VecB qd = s.qd.cast<B>(), qdd = s.qdd.cast<B>();
  const VecB q = unit_quaternions(m, VecB(s.q.cast<B>()));  // support/unit_quaternions.hpp says why
  const B h("1e-15");
  VecB qp(m.nq()), qm(m.nq());
  integrate(m, q, qd, h, qp);
  integrate(m, q, qd, B(-h), qm);
  Data<B> d(m);
  std::vector<FrameReference> out(bodies.size());
  for (std::size_t f = 0; f < bodies.size(); ++f) {
    MatB Jp[3], Jm[3], J0[3];
    jacobians_at(m, d, qp, bodies[f], placements[f], Jp);
    jacobians_at(m, d, qm, bodies[f], placements[f], Jm);
    jacobians_at(m, d, q, bodies[f], placements[f], J0);
    for (int k = 0; k < 3; ++k) {  // the difference in 50 digits, then rounded
      out[f].J[k] = to_l(J0[k]);
      out[f].dJ[k] = to_l(MatB((Jp[k] - Jm[k]) / (2 * h)));
    }
  }
  forward_kinematics(m, d, q);
  rnea(m, d, q, qd, qdd);  // data.a: gravity as the base acceleration a_0 = −[0; g]
  for (std::size_t f = 0; f < bodies.size(); ++f) {
    const int b = bodies[f];
    const Transform<L> Pl = cast_transform<L>(placements[f]);
    const Transform<L> Xb0 = cast_transform<L>(d.X_world[b]);
    Vec6L g0 = Vec6L::Zero();
    g0.tail<3>() = -to_l(m.gravity());
    const Vec6L a_body = to_l(d.a[b]) - Xb0.motion_matrix() * g0;  // take the base acceleration back out
    const Vec6L v_local = Pl.motion_matrix() * to_l(d.v[b]);
    const Vec6L a_local = Pl.motion_matrix() * a_body;
    const Transform<L> X_F0 = Pl * Xb0;
    for (int k = 0; k < 3; ++k) {
      const Mat6L A = axes_matrix(kAxes[k], X_F0);
      FrameReference& r = out[f];
      r.v[k] = A * v_local;
      r.a[k] = A * a_local;
      r.a_classical[k] = r.a[k];
      r.a_classical[k].tail<3>() += r.v[k].head<3>().cross(r.v[k].tail<3>());
    }
  }
  return out;
}

struct Worst {
  double ratio[6] = {0, 0, 0, 0, 0, 0};  // error / (ε n scale): J, dJ, v, a, classical, drift
};

template <class D1, class D2>
double err(const Eigen::MatrixBase<D1>& a, const Eigen::MatrixBase<D2>& b) {
  return static_cast<double>((to_l(a) - to_l(b)).cwiseAbs().maxCoeff());
}

}  // namespace

TEMPLATE_TEST_CASE("frame motion and J̇ against 50-digit references", "[frame_motion]", float, double) {
  using T = TestType;
  Worst worst;
  const std::vector<RobotCase<double>> all = robot_cases_and_seed004(16);
  for (std::size_t ci = 0; ci < all.size(); ++ci) {
    const RobotCase<double>& c = all[ci];
    INFO(c.name);
    const State<double> sd = random_state(c.model, 9100u + ci);
    const Model<T> model = c.model.template cast<T>();
    const Model<B> mb = c.model.template cast<B>();
    const int nb = model.nbodies();
    std::vector<int> bodies{nb - 1, nb / 2, 0};
    std::sort(bodies.begin(), bodies.end());
    bodies.erase(std::unique(bodies.begin(), bodies.end()), bodies.end());
    Rng rng(77u + ci);
    std::vector<Transform<double>> pd;
    for (std::size_t f = 0; f < bodies.size(); ++f) pd.push_back(random_transform<double>(rng));
    // the state and the placements rounded to T, and the reference computed from the rounded values
    State<double> s;
    s.q = sd.q.template cast<T>().template cast<double>();
    s.qd = sd.qd.template cast<T>().template cast<double>();
    s.qdd = sd.qdd.template cast<T>().template cast<double>();
    std::vector<Transform<B>> pb;
    std::vector<Transform<T>> pt;
    for (const Transform<double>& Xd : pd) {
      pt.push_back(cast_transform<T>(Xd));
      // the rounded rotation made orthogonal again in 50 digits (Newton's polar iteration): the transform
      // algebra takes Eᵀ as E's inverse, so the reference must have a rotation that is one
      Transform<B> X = cast_transform<B>(pt.back());
      for (int it = 0; it < 6; ++it) {
        const Matrix3<B> E = X.E;
        const Matrix3<B> EEtE = (E * E.transpose()).eval() * E;
        X.E = (B(3) * E - EEtE) / B(2);
      }
      REQUIRE(static_cast<double>((X.E * X.E.transpose() - Matrix3<B>::Identity()).cwiseAbs().maxCoeff()) < 1e-40);
      pb.push_back(X);
    }
    const std::vector<FrameReference> ref = references(mb, s, bodies, pb);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> q = s.q.template cast<T>(), qd = s.qd.template cast<T>(),
                                              qdd = s.qdd.template cast<T>();
    Data<T> data(model);
    REQUIRE(body_motion(model, data, q, qd, qdd).ok());
    FrameJacobianTimeVariation<T> ws(model);
    Data<T> fk(model);
    forward_kinematics(model, fk, q);
    for (std::size_t f = 0; f < bodies.size(); ++f) {
      const int b = bodies[f];
      INFO("body " << b);
      const FrameReference& r = ref[f];
      int depth = 0;
      for (int j = b; j != no_parent; j = model.parent(j)) ++depth;
      const double n = depth + 1;
      for (int k = 0; k < 3; ++k) {
        const ReferenceFrame ax = kAxes[k];
        INFO(axes_name(ax));
        // the semantics on the references alone: J q̈ + J̇ q̇ and J q̇ (50-digit inputs, long double sums)
        const Eigen::Matrix<L, Eigen::Dynamic, 1> ql = s.qd.template cast<L>(), qal = s.qdd.template cast<L>();
        const Vec6L a_from_J = r.J[k] * qal + r.dJ[k] * ql;
        const Vec6L& a_expected = ax == ReferenceFrame::world_aligned ? r.a_classical[k] : r.a[k];
        const double sa = 1 + static_cast<double>(a_expected.cwiseAbs().maxCoeff());
        INFO("a from J q̈ + J̇ q̇ " << a_from_J.transpose() << "\n expected " << a_expected.transpose());
        CHECK(err(a_from_J, a_expected) <= 1e-14 * sa * n);
        CHECK(err(Vec6L(r.J[k] * ql), r.v[k]) <= 1e-15 * (1 + static_cast<double>(r.v[k].cwiseAbs().maxCoeff())) * n);

        // treedyn in T against them
        const double sJ = 1 + static_cast<double>(r.J[k].cwiseAbs().maxCoeff());
        const double sdJ = 1 + static_cast<double>(r.dJ[k].cwiseAbs().maxCoeff());
        const double sv = 1 + static_cast<double>(r.v[k].cwiseAbs().maxCoeff());
        const double scale_dJ = sdJ + sJ * sv;  // J̇'s terms are v × J
        const double scale_a = sa + sdJ * sv + sJ * sv * sv;
        const double base = eps<T>() * n;
        frame_jacobian_time_variation(model, data, ws, b, pt[f], ax);
        const double e_J = std::max(err(ws.J, r.J[k]), err(frame_jacobian(model, fk, b, pt[f], ax), r.J[k]));
        const double e_dJ = err(ws.dJ, r.dJ[k]);
        const double e_v = err(frame_velocity(model, data, b, pt[f], ax), r.v[k]);
        const double e_a = err(frame_acceleration(model, data, b, pt[f], ax), r.a[k]);
        const double e_c = err(frame_classical_acceleration(model, data, b, pt[f], ax), r.a_classical[k]);
        const Vec6L drift_ref = r.dJ[k] * ql;
        const double e_d = err(frame_jacobian_drift(model, data, qd, b, pt[f], ax), drift_ref);
        const double ratios[6] = {e_J / (base * sJ), e_dJ / (base * scale_dJ), e_v / (base * sJ * sv),
                                  e_a / (base * scale_a), e_c / (base * scale_a), e_d / (base * scale_a)};
        for (int i = 0; i < 6; ++i) {
          INFO("quantity " << i << " (J, dJ, v, a, classical, drift): error / (eps n scale) = " << ratios[i]);
          CHECK(ratios[i] <= 64);
          worst.ratio[i] = std::max(worst.ratio[i], ratios[i]);
        }
      }
    }
  }
  if (std::getenv("TREEDYN_REPORT_ERRORS") != nullptr)
    std::printf("%s worst error / (eps n scale): J %.3g dJ %.3g v %.3g a %.3g classical %.3g drift %.3g\n",
                sizeof(T) == 4 ? "float" : "double", worst.ratio[0], worst.ratio[1], worst.ratio[2], worst.ratio[3],
                worst.ratio[4], worst.ratio[5]);
}

TEST_CASE("frame motion: the drift is the acceleration at q̈ = 0, J̇ q̇ matches it, long double agrees",
          "[frame_motion]") {
  for (const RobotCase<L>& c : robot_cases<L>(6)) {
    INFO(c.name);
    const State<L> s = random_state(c.model, 555u);
    Data<L> data(c.model);
    const Eigen::Matrix<L, Eigen::Dynamic, 1> zero = Eigen::Matrix<L, Eigen::Dynamic, 1>::Zero(c.model.nv());
    REQUIRE(body_motion(c.model, data, s.q, s.qd, zero).ok());
    FrameJacobianTimeVariation<L> ws(c.model);
    const int b = c.model.nbodies() - 1;
    const Transform<L> P = xlt(Vector3<L>(0.1L, -0.2L, 0.3L));
    for (const ReferenceFrame ax : kAxes) {
      INFO(axes_name(ax));
      const Vec6L drift = frame_jacobian_drift(c.model, data, s.qd, b, P, ax);
      const Vec6L a0 = ax == ReferenceFrame::world_aligned ? frame_classical_acceleration(c.model, data, b, P, ax)
                                                           : frame_acceleration(c.model, data, b, P, ax);
      frame_jacobian_time_variation(c.model, data, ws, b, P, ax);
      const Vec6L dJqd = ws.dJ * s.qd;
      const double scale = 1 + static_cast<double>(a0.cwiseAbs().maxCoeff());
      CHECK(err(drift, a0) <= 1e3 * eps<L>() * scale);
      CHECK(err(dJqd, a0) <= 1e3 * eps<L>() * scale);
    }
  }
}

TEST_CASE("frame motion: a non-finite q̇ or a zero quaternion gives NaN and a status", "[frame_motion]") {
  const Model<double> model = robots::humanoid30<double>();
  const State<double> s = random_state(model, 3u);
  Data<double> data(model);
  Eigen::VectorXd qd = s.qd;
  qd(2) = std::numeric_limits<double>::quiet_NaN();
  const Status st = body_motion(model, data, s.q, qd, s.qdd);
  CHECK(st.code == Status::Code::non_finite_input);
  CHECK(frame_velocity(model, data, 3, Transform<double>::identity()).hasNaN());
  CHECK(frame_acceleration(model, data, 3, Transform<double>::identity()).hasNaN());
  Eigen::VectorXd q = s.q;
  q.segment<4>(3).setZero();  // humanoid30's free-flyer quaternion (p, then x, y, z, w)
  const Status sq = body_motion(model, data, q, s.qd);
  CHECK(!sq.ok());
  CHECK(frame_velocity(model, data, 0, Transform<double>::identity()).hasNaN());
}

TEST_CASE("frame motion: J̇ against forward-mode autodiff of J along q ⊕ t q̇", "[frame_motion][autodiff]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
  using VecAD = Eigen::Matrix<AD, Eigen::Dynamic, 1>;
  double worst = 0;
  for_each_robot_state<double>(robot_cases_and_seed004(16), 9100, [&](const RobotCase<double>& c, const State<double>& s) {
    const Model<double>& m = c.model;
    const int b = m.nbodies() - 1;
    const Transform<double> P = xlt(Vector3<double>(0.1, -0.2, 0.3));
    Data<double> data(m);
    REQUIRE(body_motion(m, data, s.q, s.qd).ok());
    FrameJacobianTimeVariation<double> ws(m);
    const Model<AD> m_ad = m.cast<AD>();
    Data<AD> d_ad(m_ad);
    VecAD q0(m.nq()), qd(m.nv()), q(m.nq());
    for (int k = 0; k < m.nq(); ++k) q0(k) = AD(s.q(k));
    for (int k = 0; k < m.nv(); ++k) qd(k) = AD(s.qd(k));
    const AD t(0.0, Eigen::Matrix<double, 1, 1>::Ones());  // the one direction: d/dt at t = 0
    integrate(m_ad, q0, qd, t, q);
    forward_kinematics(m_ad, d_ad, q);
    const Transform<AD> P_ad = P.cast<AD>();
    for (const ReferenceFrame ax : kAxes) {
      INFO(axes_name(ax));
      frame_jacobian_time_variation(m, data, ws, b, P, ax);
      const Eigen::Matrix<AD, 6, Eigen::Dynamic> J_ad = frame_jacobian(m_ad, d_ad, b, P_ad, ax);
      Eigen::Matrix<double, 6, Eigen::Dynamic> dJ(6, m.nv());
      for (int r = 0; r < 6; ++r)
        for (int k = 0; k < m.nv(); ++k) dJ(r, k) = J_ad(r, k).derivatives().size() ? J_ad(r, k).derivatives()(0) : 0.0;
      const double scale = 1 + dJ.cwiseAbs().maxCoeff();
      const double e = (ws.dJ - dJ).cwiseAbs().maxCoeff() / scale;
      INFO("error " << e << " of the scale " << scale);
      CHECK(e <= tolerance<double>(64, m.nbodies(), 1.0));
      worst = std::max(worst, e);
    }
  });
  std::printf("J̇ vs forward-mode autodiff, double: worst error %.3g of 1 + max|J̇|\n", worst);
}
