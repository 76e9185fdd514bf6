// trajopt: control-limited iLQR (ilqr.hpp) reaching a target frame pose in a given time under torque limits,
// twice: once linearised with aba_derivatives (∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ) and once with central differences of aba;
// prints each run's iterations, cost and time per iteration, and compares the two solutions (docs/trajopt.md).
// Two robots (--robot): the built-in arm7 (the Franka Emika Panda) reaching a flange pose under a fraction of the
// Panda's torque limits, and humanoid30 floating free (no gravity), its 24 joints actuated and its torso not,
// reaching a left-hand pose (docs/trajopt.md#the-humanoid-floating-free).
//
// Discretisation: semi-implicit (symplectic) Euler with step h, x = (q, v), controls u, τ = S u (S puts u on the
// actuated velocity entries):
//   v' = v + h·FD(q, v, S u),  q' = q ⊕ h·v'   (aba for FD, integrate for ⊕; no Runge–Kutta stages)
// whose Jacobians in tangent increments, for one-dimensional joints (q ⊕ δ = q + δ), are
//   ∂v'/∂q = h·a_q,  ∂v'/∂v = 1 + h·a_v,  ∂v'/∂u = h·a_τ S,  ∂q'/∂• = h·∂v'/∂• (+ 1 for ∂q'/∂q)
// with a_q, a_v, a_τ = ∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ. A free flyer's rows of q' = q ⊕ w, w = h v' (the SE(3) exponential of
// the body twist, configuration.hpp): the placement moves as M' = M exp(w), so a right increment δ of M and an
// increment dw of w give M' exp(δ') with δ' = Ad(exp(−w)) δ + J_r(w) dw: Ad(exp(−w)) is exp6(w).motion_matrix()
// (exp6(w) = ^B X_A carries A's motion vectors to B, B = A displaced by w) and J_r(w) = jlog6(exp6(w))⁻¹
// (spatial/log6.hpp: jlog6 is the inverse right Jacobian at log6(X)). So ∂q'/∂• = Ad·[∂q/∂•] + J_r·h·∂v'/∂• there.
// Both are checked at start against central differences of the whole step (step_check).
// Cost: h Σ_k (½ w_u |u_k|² + ½ w_v |v_k|²) + the terminal ½ w_p |p − p*|² + ½ w_r Σ_i |r_i − r*_i|² + ½ w_vT |v_K|²,
// p the frame's origin and r_i its axes in world coordinates; their Gauss–Newton Hessians from the world-aligned
// frame Jacobian: dp = J_v dq, dr_i = ω × r_i = −[r_i]× J_ω dq.
//
// Usage: trajopt [--robot arm7|humanoid30] [--quick] [--seconds T] [--dt H] [--torque-scale S] [--out DIR]
//   --robot    arm7 (default) or humanoid30
//   --quick    0.5 s horizon, at most 8 iterations (for CI); exits non-zero if the cost does not decrease,
//              a run fails, or the linearisations of a moving state disagree (beyond 1e-6 relative)
//   --seconds  horizon (default 1 s); --dt the step (default 0.01 s)
//   --torque-scale  the fraction of the torque limits allowed (arm7: of the Panda's, default 0.25: with the full
//              limits the optimum of this cost stays below 30 % of them and no bound is active; humanoid30: of
//              15 N·m for the arms and 30 N·m for the legs, default 1)
//   --out      writes trajopt_cost.dat, trajopt_q.dat, trajopt_tau.dat (+ PNGs when gnuplot is on PATH)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <treedyn/algorithms/aba.hpp>
#include <treedyn/algorithms/aba_derivatives.hpp>
#include <treedyn/algorithms/center_of_mass.hpp>
#include <treedyn/algorithms/forward_kinematics.hpp>
#include <treedyn/algorithms/frame_jacobian.hpp>
#include <treedyn/algorithms/frame_placements.hpp>
#include <treedyn/algorithms/gravity_torques.hpp>
#include <treedyn/model/configuration.hpp>
#include <treedyn/robots/arm7.hpp>
#include <treedyn/robots/humanoid30.hpp>
#include <treedyn/spatial/log6.hpp>

#include "ilqr.hpp"

namespace {

using namespace trajopt;
using treedyn::Model;

/// Which derivatives of q̈ = FD(q, v, τ) the linearisation uses.
enum class Derivatives { analytic, finite_differences };

/// What differs between the robots (header comment): the model, the frame to place, the start, the target
/// (the frame's pose at FK(q_target)), the actuated velocity entries (u's entries; a free flyer's six are not
/// actuated: τ = S u) and their torque limits, and the cost weights.
struct Scenario {
  std::string robot;
  Model<double> model;
  treedyn::Frame<double> frame;
  VectorXd q0, q_target, limit;
  std::vector<int> actuated;
  std::string limits_text;
  double w_u = 1e-3, w_v = 1e-2, w_p = 1e4, w_r = 1e3, w_vT = 1e2;  ///< cost weights (header comment)
};

/// arm7 from Franka's "ready" pose to the flange pose of q_target, limits s · the Panda's.
Scenario arm7_scenario(double torque_scale) {
  Scenario sc{"arm7", treedyn::robots::arm7<double>(), {}, VectorXd(7), VectorXd(7), VectorXd(7), {}, {}};
  sc.frame = sc.model.frame("flange");
  sc.q0 << 0.0, -M_PI / 4, 0.0, -3 * M_PI / 4, 0.0, M_PI / 2, M_PI / 4;  // Franka's "ready" pose
  sc.q_target << 1.2, 0.3, -0.4, -1.4, 0.6, 1.9, -0.3;                   // the flange pose to reach is FK(q_target)
  sc.limit << 87, 87, 87, 87, 12, 12, 12;  // the Panda's joint torque limits (N·m, Franka's datasheet)
  sc.limit *= torque_scale;
  for (int i = 0; i < 7; ++i) sc.actuated.push_back(i);
  char text[96];
  std::snprintf(text, sizeof text, "%.3g × (87, 87, 87, 87, 12, 12, 12) N·m", torque_scale);
  sc.limits_text = text;
  return sc;
}

/// humanoid30 floating free (no gravity: in orbit, or a jump's flight phase seen from the falling centre of
/// mass), its 24 joints actuated, the torso not: the left hand (the frame of body arm_l_6) to the pose it has
/// at q_target, which bends the left arm from the neutral pose with the torso where it started. The torso
/// recoils (the momentum stays zero), so the solver must reach the pose with the whole body.
Scenario humanoid30_scenario(double torque_scale) {
  Model<double> model = treedyn::robots::humanoid30<double>().with_gravity(treedyn::Vector3<double>::Zero());
  Scenario sc{"humanoid30", model, {}, treedyn::neutral(model), {}, {}, {}, {}};
  sc.frame = treedyn::Frame<double>{"hand_l", model.body_index("arm_l_6"), treedyn::Transform<double>::identity()};
  sc.q_target = sc.q0;
  const int arm = model.q_offset(model.body_index("arm_l_1"));
  sc.q_target.segment(arm, 6) << 0.5, -0.4, 0.3, 0.6, -0.3, 0.2;
  std::vector<double> limits;
  for (int i = 0; i < model.nbodies(); ++i) {
    if (model.joint(i).type == treedyn::JointType::free_flyer) continue;
    const bool leg = model.name(i).rfind("leg", 0) == 0;
    for (int k = 0; k < model.joint(i).nv(); ++k) {
      sc.actuated.push_back(model.v_offset(i) + k);
      limits.push_back((leg ? 30.0 : 15.0) * torque_scale);
    }
  }
  sc.limit = Eigen::Map<const VectorXd>(limits.data(), static_cast<Eigen::Index>(limits.size()));
  char text[96];
  std::snprintf(text, sizeof text, "%.3g × 15 N·m (arms), %.3g × 30 N·m (legs), the torso free", torque_scale,
                torque_scale);
  sc.limits_text = text;
  return sc;
}

/// The reaching problem (see the header comment).
class Reach final : public Problem {
 public:
  Reach(const Scenario& sc, Derivatives derivatives, double seconds, double h)
      : sc_(sc), model_(sc.model), data_(model_), ws_(model_), derivatives_(derivatives), h_(h),
        knots_(static_cast<int>(std::lround(seconds / h))), nq_(model_.nq()), n_(model_.nv()),
        nu_(static_cast<int>(sc.actuated.size())), frame_(sc.frame), tau_(VectorXd::Zero(n_)) {
    x0_ = VectorXd::Zero(nq_ + n_);
    x0_.head(nq_) = sc.q0;
    lower_ = -sc.limit;
    upper_ = sc.limit;
    for (int i = 0; i < model_.nbodies(); ++i)
      if (model_.joint(i).type == treedyn::JointType::free_flyer) free_flyers_.push_back(model_.v_offset(i));
    treedyn::forward_kinematics(model_, data_, sc.q_target);
    const treedyn::Transform<double> X = treedyn::frame_placement(model_, data_, frame_);
    p_target_ = X.r;
    R_target_ = X.E.transpose();  // columns: the frame's axes in world coordinates
  }

  [[nodiscard]] int nx() const override { return nq_ + n_; }
  [[nodiscard]] int ndx() const override { return 2 * n_; }
  [[nodiscard]] int nu() const override { return nu_; }
  [[nodiscard]] int knots() const override { return knots_; }
  [[nodiscard]] const VectorXd& lower() const override { return lower_; }
  [[nodiscard]] const VectorXd& upper() const override { return upper_; }
  [[nodiscard]] const VectorXd& x0() const override { return x0_; }
  [[nodiscard]] double h() const { return h_; }

  bool step(const VectorXd& x, const VectorXd& u, VectorXd& x_next) override {
    q_ = x.head(nq_);
    v_ = x.tail(n_);
    treedyn::aba(model_, data_, q_, v_, joint_torques(u));
    if (!data_.aba_status) return false;
    x_next.resize(nq_ + n_);
    x_next.tail(n_) = v_ + h_ * data_.qdd;
    VectorXd q_next(nq_);
    treedyn::integrate(model_, q_, VectorXd(x_next.tail(n_)), h_, q_next);
    x_next.head(nq_) = q_next;
    return x_next.allFinite();
  }

  double running_cost(const VectorXd& x, const VectorXd& u) override {
    return h_ * 0.5 * (sc_.w_u * u.squaredNorm() + sc_.w_v * x.tail(n_).squaredNorm());
  }

  double terminal_cost(const VectorXd& x) override {
    pose(x);
    return 0.5 * (sc_.w_p * (p_ - p_target_).squaredNorm() + sc_.w_r * (R_ - R_target_).squaredNorm() +
                  sc_.w_vT * x.tail(n_).squaredNorm());
  }

  bool linearise(const VectorXd& x, const VectorXd& u, Knot& k) override {
    q_ = x.head(nq_);
    v_ = x.tail(n_);
    if (derivatives_ == Derivatives::analytic) {
      if (!treedyn::aba_derivatives(model_, data_, ws_, q_, v_, joint_torques(u))) return false;
      a_q_ = ws_.ddq_dq;
      a_v_ = ws_.ddq_dv;
      a_tau_ = ws_.ddq_dtau;
    } else if (!central_differences(u)) {
      return false;
    }
    const MatrixXd I = MatrixXd::Identity(n_, n_);
    k.A.resize(2 * n_, 2 * n_);
    k.B.resize(2 * n_, nu_);
    k.A.bottomLeftCorner(n_, n_) = h_ * a_q_;  // v' rows
    k.A.bottomRightCorner(n_, n_) = I + h_ * a_v_;
    for (int c = 0; c < nu_; ++c) k.B.bottomRows(n_).col(c) = h_ * a_tau_.col(sc_.actuated[static_cast<std::size_t>(c)]);
    k.A.topRows(n_) = h_ * k.A.bottomRows(n_);  // q' = q + h v' (one-dimensional joints)
    k.A.topLeftCorner(n_, n_) += I;
    k.B.topRows(n_) = h_ * k.B.bottomRows(n_);
    if (!free_flyers_.empty()) {
      // v' of the nominal step: aba_derivatives leaves the nominal q̈ in data.qdd; the central differences' last
      // aba call was at a perturbed τ, so that route evaluates it again.
      v_next_ = v_ + h_ * (derivatives_ == Derivatives::analytic ? VectorXd(data_.qdd)
                                                                 : acceleration(q_, v_, joint_torques(u)));
    }
    for (int o : free_flyers_) {  // q' = q ⊕ w, w = h v' on SE(3): δq' = Ad δq + J_r(w) h δv' (header comment)
      const treedyn::Transform<double> E = treedyn::exp6(Eigen::Matrix<double, 6, 1>(h_ * v_next_.segment(o, 6)));
      const Eigen::Matrix<double, 6, 6> Jr = treedyn::jlog6(E).inverse();
      k.A.middleRows(o, 6) = h_ * Jr * k.A.bottomRows(n_).middleRows(o, 6);
      k.A.block(o, o, 6, 6) += E.motion_matrix();
      k.B.middleRows(o, 6) = h_ * Jr * k.B.bottomRows(n_).middleRows(o, 6);
    }
    k.lx = VectorXd::Zero(2 * n_);
    k.lx.tail(n_) = h_ * sc_.w_v * v_;
    k.lu = h_ * sc_.w_u * u;
    k.lxx = MatrixXd::Zero(2 * n_, 2 * n_);
    k.lxx.bottomRightCorner(n_, n_) = h_ * sc_.w_v * I;
    k.luu = h_ * sc_.w_u * MatrixXd::Identity(nu_, nu_);
    k.lux = MatrixXd::Zero(nu_, 2 * n_);
    return k.A.allFinite() && k.B.allFinite();
  }

  void linearise_terminal(const VectorXd& x, VectorXd& Vx, MatrixXd& Vxx) override {
    pose(x);  // also leaves forward kinematics at q for the Jacobian
    const Eigen::Matrix<double, 6, Eigen::Dynamic> J =
        treedyn::frame_jacobian(model_, data_, frame_.body, frame_.placement, treedyn::ReferenceFrame::world_aligned);
    Vx = VectorXd::Zero(2 * n_);
    Vxx = MatrixXd::Zero(2 * n_, 2 * n_);
    const MatrixXd Jv = J.bottomRows(3), Jw = J.topRows(3);
    Vx.head(n_) = sc_.w_p * Jv.transpose() * (p_ - p_target_);
    Vxx.topLeftCorner(n_, n_) = sc_.w_p * Jv.transpose() * Jv;
    for (int i = 0; i < 3; ++i) {  // dr_i = ω × r_i = −[r_i]× J_ω dq
      const Eigen::Vector3d r = R_.col(i);
      Eigen::Matrix3d skew;
      skew << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
      const MatrixXd Jr = -skew * Jw;
      Vx.head(n_) += sc_.w_r * Jr.transpose() * (r - R_target_.col(i));
      Vxx.topLeftCorner(n_, n_) += sc_.w_r * Jr.transpose() * Jr;
    }
    Vx.tail(n_) = sc_.w_vT * x.tail(n_);
    Vxx.bottomRightCorner(n_, n_) = sc_.w_vT * MatrixXd::Identity(n_, n_);
  }

  void difference(const VectorXd& x0, const VectorXd& x1, VectorXd& dx) override {
    dx.resize(2 * n_);
    VectorXd dq(n_);
    treedyn::difference(model_, VectorXd(x0.head(nq_)), VectorXd(x1.head(nq_)), dq);
    dx.head(n_) = dq;
    dx.tail(n_) = x1.tail(n_) - x0.tail(n_);
  }

  /// x ⊕ t·dx: q by integrate, v by addition (the inverse of difference).
  void retract(const VectorXd& x, const VectorXd& dx, double t, VectorXd& out) const {
    VectorXd q(nq_);
    treedyn::integrate(model_, VectorXd(x.head(nq_)), VectorXd(dx.head(n_)), t, q);
    out.resize(nq_ + n_);
    out.head(nq_) = q;
    out.tail(n_) = x.tail(n_) + t * dx.tail(n_);
  }

  /// The frame's world position and axes at x (runs forward kinematics).
  void pose(const VectorXd& x) {
    q_ = x.head(nq_);
    treedyn::forward_kinematics(model_, data_, q_);
    const treedyn::Transform<double> X = treedyn::frame_placement(model_, data_, frame_);
    p_ = X.r;
    R_ = X.E.transpose();
  }
  [[nodiscard]] const Eigen::Vector3d& position() const { return p_; }
  [[nodiscard]] const Eigen::Vector3d& target() const { return p_target_; }
  [[nodiscard]] double orientation_error() const { return (R_ - R_target_).norm(); }

  /// The three derivative matrices of the last linearise call (∂q̈/∂τ in every velocity entry's column; the
  /// central differences fill the actuated ones only).
  [[nodiscard]] const MatrixXd& a_q() const { return a_q_; }
  [[nodiscard]] const MatrixXd& a_v() const { return a_v_; }
  [[nodiscard]] const MatrixXd& a_tau() const { return a_tau_; }

 private:
  /// τ = S u: u's entries on the actuated velocity entries, zero on the others.
  const VectorXd& joint_torques(const VectorXd& u) {
    for (int c = 0; c < nu_; ++c) tau_(sc_.actuated[static_cast<std::size_t>(c)]) = u(c);
    return tau_;
  }

  /// Central differences of aba along each tangent direction of q, each entry of v and each actuated entry
  /// of τ, step ε^{1/3}·max(1, |x_c|) (the truncation error h² and the rounding ε/h balance at h ~ ε^{1/3}).
  bool central_differences(const VectorXd& u) {
    a_q_.resize(n_, n_);
    a_v_.resize(n_, n_);
    a_tau_ = MatrixXd::Zero(n_, n_);
    const double cbrt_eps = std::cbrt(std::numeric_limits<double>::epsilon());
    const VectorXd tau = joint_torques(u);
    VectorXd qp(nq_), qm(nq_), e = VectorXd::Zero(n_), up = tau, vp = v_;
    for (int c = 0; c < n_; ++c) {
      e.setZero();
      e(c) = 1.0;
      const double hq = cbrt_eps * std::max(1.0, angle_scale(c));
      treedyn::integrate(model_, q_, e, hq, qp);
      treedyn::integrate(model_, q_, e, -hq, qm);
      a_q_.col(c) = (acceleration(qp, v_, tau) - acceleration(qm, v_, tau)) / (2.0 * hq);
      a_v_.col(c) = entry_difference(vp, c, cbrt_eps, [&](const VectorXd& v) { return acceleration(q_, v, tau); });
    }
    for (int c : sc_.actuated)
      a_tau_.col(c) = entry_difference(up, c, cbrt_eps, [&](const VectorXd& t) { return acceleration(q_, v_, t); });
    return a_q_.allFinite() && a_v_.allFinite() && a_tau_.allFinite();
  }

  /// |q| of the coordinate of velocity entry c where the joint has one coordinate per velocity entry (a
  /// revolute or prismatic joint), else 0 (a free flyer's tangent directions).
  [[nodiscard]] double angle_scale(int c) const {
    const int i = model_.dof_body(c);
    const treedyn::Joint<double>& joint = model_.joint(i);
    if (joint.nv() != 1 || joint.nq() != 1) return 0.0;
    return std::abs(q_(model_.q_offset(i)));
  }

  /// Column c of ∂q̈/∂y by central differences along entry c of y (v or τ; restored on return), with
  /// at(y) = q̈ at that y.
  template <class At>
  static VectorXd entry_difference(VectorXd& y, int c, double cbrt_eps, At&& at) {
    const double y0 = y(c), step = cbrt_eps * std::max(1.0, std::abs(y0));
    y(c) = y0 + step;
    const VectorXd plus = at(y);
    y(c) = y0 - step;
    const VectorXd column = (plus - at(y)) / (2.0 * step);
    y(c) = y0;
    return column;
  }

  VectorXd acceleration(const VectorXd& q, const VectorXd& v, const VectorXd& tau) {
    return treedyn::aba(model_, data_, q, v, tau);
  }

  const Scenario& sc_;
  const Model<double>& model_;
  treedyn::Data<double> data_;
  treedyn::AbaDerivativesWorkspace<double> ws_;
  Derivatives derivatives_;
  double h_;
  int knots_, nq_, n_, nu_;
  treedyn::Frame<double> frame_;
  std::vector<int> free_flyers_;  ///< velocity offsets of the free-flyer joints
  VectorXd x0_, lower_, upper_, q_, v_, tau_, v_next_;
  MatrixXd a_q_, a_v_, a_tau_;
  Eigen::Vector3d p_target_, p_ = Eigen::Vector3d::Zero();
  Eigen::Matrix3d R_target_, R_ = Eigen::Matrix3d::Identity();
};

struct Run {
  const char* name;
  Solution solution;
};

void print_run(const Run& run) {
  std::printf("\n%s\n  iter        cost   alpha        mu  clamped   ms/iter   of which linearise\n", run.name);
  std::printf("  %4d  %10.5g\n", 0, run.solution.initial_cost);
  double total = 0.0, linearise = 0.0;
  for (std::size_t i = 0; i < run.solution.iterations.size(); ++i) {
    const Iteration& it = run.solution.iterations[i];
    std::printf("  %4zu  %10.5g  %6.4f  %8.1e  %7d  %8.2f  %8.2f\n", i + 1, it.cost, it.alpha, it.mu, it.clamped,
                it.ms, it.ms_linearise);
    total += it.ms;
    linearise += it.ms_linearise;
  }
  const double count = std::max<double>(1.0, static_cast<double>(run.solution.iterations.size()));
  std::printf("  %s after %zu iterations: cost %.6g; %.2f ms per iteration (%.2f ms linearising), %.1f ms in all\n",
              run.solution.converged ? "converged" : "stopped", run.solution.iterations.size(),
              run.solution.iterations.empty() ? run.solution.initial_cost : run.solution.iterations.back().cost,
              total / count, linearise / count, total);
}

bool have_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

bool write_outputs(const std::filesystem::path& out, const Run& analytic, const Run& fd, double h, int nq,
                   const VectorXd& limit) {
  std::filesystem::create_directories(out);
  {
    std::ofstream f(out / "trajopt_cost.dat");
    f << "# iteration  cost(aba_derivatives)  cost(finite differences)\n";
    const std::size_t n = std::max(analytic.solution.iterations.size(), fd.solution.iterations.size());
    auto cost_at = [](const Solution& s, std::size_t i) {
      return i == 0 ? s.initial_cost : s.iterations[std::min(i, s.iterations.size()) - 1].cost;
    };
    for (std::size_t i = 0; i <= n; ++i)
      f << i << ' ' << cost_at(analytic.solution, i) << ' ' << cost_at(fd.solution, i) << '\n';
  }
  const Solution& s = analytic.solution;
  const int nu = static_cast<int>(limit.size());
  {
    std::ofstream f(out / "trajopt_q.dat");
    f << "# t  q_1 … q_" << nq << " (rad; a free flyer's position in m and quaternion x, y, z, w), the aba_derivatives run\n";
    for (std::size_t k = 0; k < s.x.size(); ++k) f << static_cast<double>(k) * h << ' ' << s.x[k].head(nq).transpose() << '\n';
  }
  {
    std::ofstream f(out / "trajopt_tau.dat");
    f << "# t  u_1 … u_" << nu << " (the actuated joints' torques) / limit_i (1 = at the limit), the aba_derivatives run\n";
    for (std::size_t k = 0; k < s.u.size(); ++k)
      f << static_cast<double>(k) * h << ' ' << s.u[k].cwiseQuotient(limit).transpose() << '\n';
  }
  if (!have_gnuplot()) return false;
  const std::string dir = out.string();
  std::ofstream gp(out / "trajopt.gp");
  gp << "set terminal pngcairo size 900,600\nset grid\n"
     << "set output '" << dir << "/trajopt_cost.png'\nset logscale y\nset xlabel 'iteration'\nset ylabel 'cost'\n"
     << "plot '" << dir << "/trajopt_cost.dat' u 1:2 w lp t 'aba\\_derivatives', '' u 1:3 w lp t 'finite differences'\n"
     << "unset logscale y\nset output '" << dir << "/trajopt_joints.png'\nset multiplot layout 2,1\n"
     << "set xlabel 't (s)'\nset ylabel 'q'\nplot for [i=2:" << nq + 1 << "] '" << dir
     << "/trajopt_q.dat' u 1:i w l notitle\n"
     << "set ylabel 'tau / limit'\nset yrange [-1.05:1.05]\nplot for [i=2:" << nu + 1 << "] '" << dir
     << "/trajopt_tau.dat' u 1:i w l notitle\nunset multiplot\n";
  gp.close();
  return std::system(("gnuplot '" + (out / "trajopt.gp").string() + "'").c_str()) == 0;
}

double relative(const MatrixXd& a, const MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(a.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
}

/// The knot's A and B against central differences of the whole step x' = f(x, u) along every tangent
/// direction of x (through retract and difference) and every entry of u: max |difference| / max |entry|. It
/// checks what the derivatives of q̈ alone do not: the Jacobians of q ⊕ h v' (the free flyer's SE(3) blocks).
std::pair<double, double> step_check(Reach& p, const VectorXd& x, const VectorXd& u, const Knot& k) {
  const double cbrt_eps = std::cbrt(std::numeric_limits<double>::epsilon());
  MatrixXd A(p.ndx(), p.ndx()), B(p.ndx(), p.nu());
  VectorXd e, xp, xm, fp, fm, d;
  for (int c = 0; c < p.ndx(); ++c) {
    e = VectorXd::Zero(p.ndx());
    e(c) = 1.0;
    p.retract(x, e, cbrt_eps, xp);
    p.retract(x, e, -cbrt_eps, xm);
    if (!p.step(xp, u, fp) || !p.step(xm, u, fm)) return {INFINITY, INFINITY};
    p.difference(fm, fp, d);
    A.col(c) = d / (2.0 * cbrt_eps);
  }
  for (int c = 0; c < p.nu(); ++c) {
    VectorXd up = u, um = u;
    const double step = cbrt_eps * std::max(1.0, std::abs(u(c)));
    up(c) += step;
    um(c) -= step;
    if (!p.step(x, up, fp) || !p.step(x, um, fm)) return {INFINITY, INFINITY};
    p.difference(fm, fp, d);
    B.col(c) = d / (2.0 * step);
  }
  return {relative(k.A, A), relative(k.B, B)};
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  double seconds = 1.0, h = 0.01, torque_scale = 0.0;
  bool scale_given = false;
  std::string robot = "arm7";
  const char* out = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--robot") == 0 && i + 1 < argc) robot = argv[++i];
    else if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--dt") == 0 && i + 1 < argc) h = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--torque-scale") == 0 && i + 1 < argc) {
      torque_scale = std::atof(argv[++i]);
      scale_given = true;
    }
    else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--robot arm7|humanoid30] [--quick] [--seconds T] [--dt H] [--torque-scale S] [--out DIR]\n", argv[0]);
      return 2;
    }
  }
  if (robot != "arm7" && robot != "humanoid30") {
    std::fprintf(stderr, "trajopt: --robot must be arm7 or humanoid30, not '%s'\n", robot.c_str());
    return 2;
  }
  if (!scale_given) torque_scale = robot == "arm7" ? 0.25 : 1.0;
  if (quick) seconds = 0.5;
  if (!(seconds > 0.0 && h > 0.0 && seconds / h >= 1.0 && seconds / h < 1e5 && torque_scale > 0.0)) {
    std::fprintf(stderr, "trajopt: --seconds, --dt and --torque-scale must be positive, with at least one step\n");
    return 2;
  }
  const Scenario sc = robot == "arm7" ? arm7_scenario(torque_scale) : humanoid30_scenario(torque_scale);
  const Model<double>& model = sc.model;
  const int n = model.nv(), nq = model.nq();
  const VectorXd& limit = sc.limit;
  Options options;
  if (quick) options.max_iterations = 8;

  Reach analytic_problem(sc, Derivatives::analytic, seconds, h);
  Reach fd_problem(sc, Derivatives::finite_differences, seconds, h);
  // Initial controls: gravity compensation at q0 (zero without gravity), held.
  treedyn::Data<double> data(model);
  const VectorXd g_all = treedyn::gravity_torques(model, data, sc.q0);
  VectorXd g0(analytic_problem.nu());
  for (int c = 0; c < g0.size(); ++c) g0(c) = g_all(sc.actuated[static_cast<std::size_t>(c)]);
  const std::vector<VectorXd> u0(static_cast<std::size_t>(analytic_problem.knots()), g0.cwiseMax(-limit).cwiseMin(limit));

  // The two linearisations of the initial state agree (a check of the finite differences' step), and the
  // analytic knot agrees with central differences of the whole step.
  Knot ka, kf;
  VectorXd x_check = analytic_problem.x0();  // at a moving state, where ∂q̈/∂q̇ is not zero
  x_check.tail(n) = VectorXd::LinSpaced(n, 0.5, -0.7);
  if (robot == "arm7") x_check.tail(n) << 0.5, -0.4, 0.3, 0.6, -0.7, 0.8, -0.2;
  analytic_problem.linearise(x_check, u0[0], ka);
  fd_problem.linearise(x_check, u0[0], kf);
  MatrixXd a_tau_analytic(n, g0.size()), a_tau_fd(n, g0.size());  // the actuated columns
  for (int c = 0; c < g0.size(); ++c) {
    a_tau_analytic.col(c) = analytic_problem.a_tau().col(sc.actuated[static_cast<std::size_t>(c)]);
    a_tau_fd.col(c) = fd_problem.a_tau().col(sc.actuated[static_cast<std::size_t>(c)]);
  }
  const double dq_diff = relative(analytic_problem.a_q(), fd_problem.a_q());
  const double dv_diff = relative(analytic_problem.a_v(), fd_problem.a_v());
  const double dt_diff = relative(a_tau_analytic, a_tau_fd);
  const auto [dA, dB] = step_check(analytic_problem, x_check, u0[0], ka);
  const auto [dA_fd, dB_fd] = step_check(fd_problem, x_check, u0[0], kf);
  std::printf("trajopt: %s reaching the pose of frame '%s' at FK(q_target) in %.3g s, %d knots of %.3g s "
              "(semi-implicit Euler), torque limits %s; gravity at q0 needs |τ|/limit up to %.2f\n",
              sc.robot.c_str(), sc.frame.name.c_str(), seconds, analytic_problem.knots(), h, sc.limits_text.c_str(),
              g0.cwiseQuotient(limit).lpNorm<Eigen::Infinity>());
  std::printf("at x0 with a velocity: central differences against aba_derivatives, max |difference| / max |entry|: "
              "dq̈/dq %.1e, dq̈/dq̇ %.1e, dq̈/dτ %.1e; the knot's A %.1e, B %.1e against central differences of the step "
              "(%.1e, %.1e for the knot from central differences of aba)\n",
              dq_diff, dv_diff, dt_diff, dA, dB, dA_fd, dB_fd);
  const bool linearisations_agree = dq_diff < 1e-6 && dv_diff < 1e-6 && dt_diff < 1e-6 && dA < 1e-6 && dB < 1e-6 &&
                                    dA_fd < 1e-6 && dB_fd < 1e-6;

  const Run analytic{"iLQR with aba_derivatives", solve(analytic_problem, u0, options)};
  print_run(analytic);
  const Run fd{"iLQR with central differences of aba", solve(fd_problem, u0, options)};
  print_run(fd);

  double du = 0.0, dx = 0.0;
  for (std::size_t k = 0; k < analytic.solution.u.size() && k < fd.solution.u.size(); ++k)
    du = std::max(du, (analytic.solution.u[k] - fd.solution.u[k]).lpNorm<Eigen::Infinity>());
  VectorXd dq(n);
  for (std::size_t k = 0; k < analytic.solution.x.size() && k < fd.solution.x.size(); ++k) {
    treedyn::difference(model, VectorXd(fd.solution.x[k].head(nq)), VectorXd(analytic.solution.x[k].head(nq)), dq);
    dx = std::max(dx, dq.lpNorm<Eigen::Infinity>());
  }
  analytic_problem.pose(analytic.solution.x.back());
  std::printf("\nmax |τ difference| %.2e N·m, max |q difference| %.2e (rad, m) between the two solutions\n", du, dx);
  std::printf("final frame position error %.2e m, axes error %.2e (aba_derivatives run)\n",
              (analytic_problem.position() - analytic_problem.target()).norm(), analytic_problem.orientation_error());
  if (model.joint(0).type == treedyn::JointType::free_flyer) {  // what the unactuated torso did
    const VectorXd qK = analytic.solution.x.back().head(nq);
    treedyn::difference(model, sc.q0, qK, dq);
    treedyn::center_of_mass(model, data, sc.q0);
    const Eigen::Vector3d c0 = data.com;
    treedyn::center_of_mass(model, data, qK);
    std::printf("the torso moved %.3f m and turned %.3f rad; the centre of mass moved %.1e m (no gravity, no "
                "momentum at start: it stays put up to the integrator's error)\n",
                (qK.head(3) - sc.q0.head(3)).norm(), dq.segment(model.v_offset(0), 3).norm(), (data.com - c0).norm());
  }
  auto per_iteration = [](const Solution& s) {
    double t = 0.0;
    for (const Iteration& it : s.iterations) t += it.ms;
    return s.iterations.empty() ? 0.0 : t / static_cast<double>(s.iterations.size());
  };
  const double ta = per_iteration(analytic.solution), tf = per_iteration(fd.solution);
  int at_limit = 0;
  for (const VectorXd& u : analytic.solution.u)
    for (int i = 0; i < u.size(); ++i) at_limit += std::abs(u(i)) >= limit(i) * (1.0 - 1e-12) ? 1 : 0;
  std::printf("%d of %zu torque entries at their limit in the solution (aba_derivatives run)\n", at_limit,
              analytic.solution.u.size() * static_cast<std::size_t>(limit.size()));
  std::printf("time per iteration: %.2f ms with aba_derivatives, %.2f ms with finite differences (%.1f×)\n", ta, tf,
              ta > 0.0 ? tf / ta : 0.0);

  if (out != nullptr) {
    const bool png = write_outputs(out, analytic, fd, h, nq, limit);
    std::printf("wrote trajopt_cost.dat, trajopt_q.dat, trajopt_tau.dat%s in %s\n", png ? " and PNGs" : " (no gnuplot: no PNG)", out);
  }

  bool ok = linearisations_agree;
  for (const Run* run : {&analytic, &fd}) {
    const Solution& s = run->solution;
    const bool decreased = !s.iterations.empty() && s.iterations.back().cost < s.initial_cost;
    if (!s.ok || !decreased) {
      std::fprintf(stderr, "trajopt: %s %s\n", run->name, s.ok ? "did not decrease the cost" : "failed");
      ok = false;
    }
  }
  if (!linearisations_agree) std::fprintf(stderr, "trajopt: the linearisations disagree\n");
  return ok ? 0 : 1;
}
