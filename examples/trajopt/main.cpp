// trajopt: control-limited iLQR (ilqr.hpp) on the built-in arm7 (the Franka Emika Panda) reaching a target
// flange pose in a given time under torque limits (a fraction of the Panda's), twice: once linearised with aba_derivatives
// (∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ) and once with central differences of aba; prints each run's iterations, cost and
// time per iteration, and compares the two solutions (docs/trajopt.md).
//
// Discretisation: semi-implicit (symplectic) Euler with step h, x = (q, v):
//   v' = v + h·FD(q, v, τ),  q' = q ⊕ h·v'   (aba for FD, integrate for ⊕; no Runge–Kutta stages)
// whose Jacobians in tangent increments, for arm7's revolute joints (q ⊕ δ = q + δ), are
//   ∂v'/∂q = h·a_q,  ∂v'/∂v = 1 + h·a_v,  ∂v'/∂τ = h·a_τ,  ∂q'/∂• = h·∂v'/∂• (+ 1 for ∂q'/∂q)
// with a_q, a_v, a_τ = ∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ. Cost: h Σ_k (½ w_u |τ_k|² + ½ w_v |v_k|²) + the terminal
// ½ w_p |p − p*|² + ½ w_r Σ_i |r_i − r*_i|² + ½ w_vT |v_K|², p the flange's origin and r_i its axes in world
// coordinates; their Gauss–Newton Hessians from the world-aligned frame Jacobian: dp = J_v dq,
// dr_i = ω × r_i = −[r_i]× J_ω dq.
//
// Usage: trajopt [--quick] [--seconds T] [--dt H] [--torque-scale S] [--out DIR]
//   --quick    0.5 s horizon, at most 8 iterations (for CI); exits non-zero if the cost does not decrease,
//              a run fails, or the two linearisations of a moving state disagree (beyond 1e-6 relative)
//   --seconds  horizon (default 1 s); --dt the step (default 0.01 s)
//   --torque-scale  the fraction of the Panda's torque limits allowed (default 0.25: with the full limits
//              the optimum of this cost stays below 30 % of them and no bound is active)
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

#include <treedyn/algorithms/aba.hpp>
#include <treedyn/algorithms/aba_derivatives.hpp>
#include <treedyn/algorithms/forward_kinematics.hpp>
#include <treedyn/algorithms/frame_jacobian.hpp>
#include <treedyn/algorithms/frame_placements.hpp>
#include <treedyn/algorithms/gravity_torques.hpp>
#include <treedyn/model/configuration.hpp>
#include <treedyn/robots/arm7.hpp>

#include "ilqr.hpp"

namespace {

using namespace trajopt;
using treedyn::Model;

/// Which derivatives of q̈ = FD(q, v, τ) the linearisation uses.
enum class Derivatives { analytic, finite_differences };

/// The arm reaching problem (see the header comment).
class ArmReach final : public Problem {
 public:
  ArmReach(const Model<double>& model, Derivatives derivatives, double seconds, double h, const VectorXd& q0,
           const VectorXd& q_target, const VectorXd& tau_limit)
      : model_(model), data_(model), ws_(model), derivatives_(derivatives), h_(h),
        knots_(static_cast<int>(std::lround(seconds / h))), n_(model.nv()), frame_(model.frame("flange")) {
    x0_ = VectorXd::Zero(2 * n_);
    x0_.head(n_) = q0;
    lower_ = -tau_limit;
    upper_ = tau_limit;
    treedyn::forward_kinematics(model_, data_, q_target);
    const treedyn::Transform<double> X = treedyn::frame_placement(model_, data_, frame_);
    p_target_ = X.r;
    R_target_ = X.E.transpose();  // columns: the flange's axes in world coordinates
  }

  [[nodiscard]] int nx() const override { return 2 * n_; }
  [[nodiscard]] int ndx() const override { return 2 * n_; }
  [[nodiscard]] int nu() const override { return n_; }
  [[nodiscard]] int knots() const override { return knots_; }
  [[nodiscard]] const VectorXd& lower() const override { return lower_; }
  [[nodiscard]] const VectorXd& upper() const override { return upper_; }
  [[nodiscard]] const VectorXd& x0() const override { return x0_; }
  [[nodiscard]] double h() const { return h_; }

  bool step(const VectorXd& x, const VectorXd& u, VectorXd& x_next) override {
    q_ = x.head(n_);
    v_ = x.tail(n_);
    treedyn::aba(model_, data_, q_, v_, u);
    if (!data_.aba_status) return false;
    x_next.resize(2 * n_);
    x_next.tail(n_) = v_ + h_ * data_.qdd;
    VectorXd q_next(n_);
    treedyn::integrate(model_, q_, VectorXd(x_next.tail(n_)), h_, q_next);
    x_next.head(n_) = q_next;
    return x_next.allFinite();
  }

  double running_cost(const VectorXd& x, const VectorXd& u) override {
    return h_ * 0.5 * (w_u * u.squaredNorm() + w_v * x.tail(n_).squaredNorm());
  }

  double terminal_cost(const VectorXd& x) override {
    pose(x);
    return 0.5 * (w_p * (p_ - p_target_).squaredNorm() + w_r * (R_ - R_target_).squaredNorm() +
                  w_vT * x.tail(n_).squaredNorm());
  }

  bool linearise(const VectorXd& x, const VectorXd& u, Knot& k) override {
    q_ = x.head(n_);
    v_ = x.tail(n_);
    if (derivatives_ == Derivatives::analytic) {
      if (!treedyn::aba_derivatives(model_, data_, ws_, q_, v_, u)) return false;
      a_q_ = ws_.ddq_dq;
      a_v_ = ws_.ddq_dv;
      a_tau_ = ws_.ddq_dtau;
    } else if (!central_differences(u)) {
      return false;
    }
    const MatrixXd I = MatrixXd::Identity(n_, n_);
    k.A.resize(2 * n_, 2 * n_);
    k.B.resize(2 * n_, n_);
    k.A.bottomLeftCorner(n_, n_) = h_ * a_q_;  // v' rows
    k.A.bottomRightCorner(n_, n_) = I + h_ * a_v_;
    k.B.bottomRows(n_) = h_ * a_tau_;
    k.A.topRows(n_) = h_ * k.A.bottomRows(n_);  // q' = q + h v'
    k.A.topLeftCorner(n_, n_) += I;
    k.B.topRows(n_) = h_ * k.B.bottomRows(n_);
    k.lx = VectorXd::Zero(2 * n_);
    k.lx.tail(n_) = h_ * w_v * v_;
    k.lu = h_ * w_u * u;
    k.lxx = MatrixXd::Zero(2 * n_, 2 * n_);
    k.lxx.bottomRightCorner(n_, n_) = h_ * w_v * I;
    k.luu = h_ * w_u * I;
    k.lux = MatrixXd::Zero(n_, 2 * n_);
    return k.A.allFinite() && k.B.allFinite();
  }

  void linearise_terminal(const VectorXd& x, VectorXd& Vx, MatrixXd& Vxx) override {
    pose(x);  // also leaves forward kinematics at q for the Jacobian
    const Eigen::Matrix<double, 6, Eigen::Dynamic> J =
        treedyn::frame_jacobian(model_, data_, frame_.body, frame_.placement, treedyn::ReferenceFrame::world_aligned);
    Vx = VectorXd::Zero(2 * n_);
    Vxx = MatrixXd::Zero(2 * n_, 2 * n_);
    const MatrixXd Jv = J.bottomRows(3), Jw = J.topRows(3);
    Vx.head(n_) = w_p * Jv.transpose() * (p_ - p_target_);
    Vxx.topLeftCorner(n_, n_) = w_p * Jv.transpose() * Jv;
    for (int i = 0; i < 3; ++i) {  // dr_i = ω × r_i = −[r_i]× J_ω dq
      const Eigen::Vector3d r = R_.col(i);
      Eigen::Matrix3d skew;
      skew << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
      const MatrixXd Jr = -skew * Jw;
      Vx.head(n_) += w_r * Jr.transpose() * (r - R_target_.col(i));
      Vxx.topLeftCorner(n_, n_) += w_r * Jr.transpose() * Jr;
    }
    Vx.tail(n_) = w_vT * x.tail(n_);
    Vxx.bottomRightCorner(n_, n_) = w_vT * MatrixXd::Identity(n_, n_);
  }

  void difference(const VectorXd& x0, const VectorXd& x1, VectorXd& dx) override {
    dx.resize(2 * n_);
    VectorXd dq(n_);
    treedyn::difference(model_, VectorXd(x0.head(n_)), VectorXd(x1.head(n_)), dq);
    dx.head(n_) = dq;
    dx.tail(n_) = x1.tail(n_) - x0.tail(n_);
  }

  /// The flange's world position and axes at x (runs forward kinematics).
  void pose(const VectorXd& x) {
    q_ = x.head(n_);
    treedyn::forward_kinematics(model_, data_, q_);
    const treedyn::Transform<double> X = treedyn::frame_placement(model_, data_, frame_);
    p_ = X.r;
    R_ = X.E.transpose();
  }
  [[nodiscard]] const Eigen::Vector3d& position() const { return p_; }
  [[nodiscard]] const Eigen::Vector3d& target() const { return p_target_; }
  [[nodiscard]] double orientation_error() const { return (R_ - R_target_).norm(); }

  /// The three derivative matrices of the last linearise call.
  [[nodiscard]] const MatrixXd& a_q() const { return a_q_; }
  [[nodiscard]] const MatrixXd& a_v() const { return a_v_; }
  [[nodiscard]] const MatrixXd& a_tau() const { return a_tau_; }

 private:
  /// Central differences of aba along each tangent direction of q and each entry of v and τ, step
  /// ε^{1/3}·max(1, |x_c|) (the truncation error h² and the rounding ε/h balance at h ~ ε^{1/3}).
  bool central_differences(const VectorXd& u) {
    a_q_.resize(n_, n_);
    a_v_.resize(n_, n_);
    a_tau_.resize(n_, n_);
    const double cbrt_eps = std::cbrt(std::numeric_limits<double>::epsilon());
    VectorXd qp(n_), qm(n_), e = VectorXd::Zero(n_), up = u, vp = v_;
    for (int c = 0; c < n_; ++c) {
      e.setZero();
      e(c) = 1.0;
      const double hq = cbrt_eps * std::max(1.0, std::abs(q_(c)));
      treedyn::integrate(model_, q_, e, hq, qp);
      treedyn::integrate(model_, q_, e, -hq, qm);
      a_q_.col(c) = (acceleration(qp, v_, u) - acceleration(qm, v_, u)) / (2.0 * hq);
      a_v_.col(c) = entry_difference(vp, c, cbrt_eps, [&](const VectorXd& v) { return acceleration(q_, v, u); });
      a_tau_.col(c) = entry_difference(up, c, cbrt_eps, [&](const VectorXd& t) { return acceleration(q_, v_, t); });
    }
    return a_q_.allFinite() && a_v_.allFinite() && a_tau_.allFinite();
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

  const Model<double>& model_;
  treedyn::Data<double> data_;
  treedyn::AbaDerivativesWorkspace<double> ws_;
  Derivatives derivatives_;
  double h_;
  int knots_, n_;
  treedyn::Frame<double> frame_;
  VectorXd x0_, lower_, upper_, q_, v_;
  MatrixXd a_q_, a_v_, a_tau_;
  Eigen::Vector3d p_target_, p_ = Eigen::Vector3d::Zero();
  Eigen::Matrix3d R_target_, R_ = Eigen::Matrix3d::Identity();

 public:
  double w_u = 1e-3, w_v = 1e-2, w_p = 1e4, w_r = 1e3, w_vT = 1e2;  ///< cost weights (header comment)
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

bool write_outputs(const std::filesystem::path& out, const Run& analytic, const Run& fd, double h, const VectorXd& limit) {
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
  const int nv = static_cast<int>(limit.size());
  {
    std::ofstream f(out / "trajopt_q.dat");
    f << "# t  q_1 … q_7 (rad), the aba_derivatives run\n";
    for (std::size_t k = 0; k < s.x.size(); ++k) f << static_cast<double>(k) * h << ' ' << s.x[k].head(nv).transpose() << '\n';
  }
  {
    std::ofstream f(out / "trajopt_tau.dat");
    f << "# t  tau_1 … tau_7 / limit_i (1 = at the limit), the aba_derivatives run\n";
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
     << "set xlabel 't (s)'\nset ylabel 'q (rad)'\nplot for [i=2:" << nv + 1 << "] '" << dir
     << "/trajopt_q.dat' u 1:i w l t sprintf('q%d', i-1)\n"
     << "set ylabel 'tau / limit'\nset yrange [-1.05:1.05]\nplot for [i=2:" << nv + 1 << "] '" << dir
     << "/trajopt_tau.dat' u 1:i w l t sprintf('tau%d', i-1)\nunset multiplot\n";
  gp.close();
  return std::system(("gnuplot '" + (out / "trajopt.gp").string() + "'").c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  double seconds = 1.0, h = 0.01, torque_scale = 0.25;
  const char* out = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--dt") == 0 && i + 1 < argc) h = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--torque-scale") == 0 && i + 1 < argc) torque_scale = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--quick] [--seconds T] [--dt H] [--torque-scale S] [--out DIR]\n", argv[0]);
      return 2;
    }
  }
  if (quick) seconds = 0.5;
  if (!(seconds > 0.0 && h > 0.0 && seconds / h >= 1.0 && seconds / h < 1e5 && torque_scale > 0.0)) {
    std::fprintf(stderr, "trajopt: --seconds, --dt and --torque-scale must be positive, with at least one step\n");
    return 2;
  }
  const Model<double> model = treedyn::robots::arm7<double>();
  const int n = model.nv();
  VectorXd q0(n), q_target(n), limit(n);
  q0 << 0.0, -M_PI / 4, 0.0, -3 * M_PI / 4, 0.0, M_PI / 2, M_PI / 4;  // Franka's "ready" pose
  q_target << 1.2, 0.3, -0.4, -1.4, 0.6, 1.9, -0.3;                   // the flange pose to reach is FK(q_target)
  limit << 87, 87, 87, 87, 12, 12, 12;  // the Panda's joint torque limits (N·m, Franka's datasheet)
  limit *= torque_scale;
  Options options;
  if (quick) options.max_iterations = 8;

  ArmReach analytic_problem(model, Derivatives::analytic, seconds, h, q0, q_target, limit);
  ArmReach fd_problem(model, Derivatives::finite_differences, seconds, h, q0, q_target, limit);
  // Initial controls: gravity compensation at q0, held.
  treedyn::Data<double> data(model);
  const VectorXd g0 = treedyn::gravity_torques(model, data, q0);
  const std::vector<VectorXd> u0(static_cast<std::size_t>(analytic_problem.knots()), g0.cwiseMax(-limit).cwiseMin(limit));

  // The two linearisations of the initial state agree (a check of the finite differences' step).
  Knot ka, kf;
  VectorXd x_check = analytic_problem.x0();  // at a moving state, where ∂q̈/∂q̇ is not zero
  x_check.tail(n) << 0.5, -0.4, 0.3, 0.6, -0.7, 0.8, -0.2;
  analytic_problem.linearise(x_check, u0[0], ka);
  fd_problem.linearise(x_check, u0[0], kf);
  auto relative = [](const MatrixXd& a, const MatrixXd& b) { 
    return (a - b).cwiseAbs().maxCoeff() / std::max(a.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  };
  const double dq_diff = relative(analytic_problem.a_q(), fd_problem.a_q());
  const double dv_diff = relative(analytic_problem.a_v(), fd_problem.a_v());
  const double dt_diff = relative(analytic_problem.a_tau(), fd_problem.a_tau());
  std::printf("trajopt: arm7 reaching FK(q_target) in %.3g s, %d knots of %.3g s (semi-implicit Euler), torque limits "
              "%.3g × (87, 87, 87, 87, 12, 12, 12) N·m; gravity at q0 needs |τ|/limit up to %.2f\n",
              seconds, analytic_problem.knots(), h, torque_scale, g0.cwiseQuotient(limit).lpNorm<Eigen::Infinity>());
  std::printf("at x0 with a velocity: central differences against aba_derivatives, max |difference| / max |entry|: "
              "dq̈/dq %.1e, dq̈/dq̇ %.1e, dq̈/dτ %.1e\n",
              dq_diff, dv_diff, dt_diff);
  const bool linearisations_agree = dq_diff < 1e-6 && dv_diff < 1e-6 && dt_diff < 1e-6;

  const Run analytic{"iLQR with aba_derivatives", solve(analytic_problem, u0, options)};
  print_run(analytic);
  const Run fd{"iLQR with central differences of aba", solve(fd_problem, u0, options)};
  print_run(fd);

  double du = 0.0, dx = 0.0;
  for (std::size_t k = 0; k < analytic.solution.u.size() && k < fd.solution.u.size(); ++k)
    du = std::max(du, (analytic.solution.u[k] - fd.solution.u[k]).lpNorm<Eigen::Infinity>());
  for (std::size_t k = 0; k < analytic.solution.x.size() && k < fd.solution.x.size(); ++k)
    dx = std::max(dx, (analytic.solution.x[k].head(n) - fd.solution.x[k].head(n)).lpNorm<Eigen::Infinity>());
  analytic_problem.pose(analytic.solution.x.back());
  std::printf("\nmax |τ difference| %.2e N·m, max |q difference| %.2e rad between the two solutions\n", du, dx);
  std::printf("final flange position error %.2e m, axes error %.2e (aba_derivatives run)\n",
              (analytic_problem.position() - analytic_problem.target()).norm(), analytic_problem.orientation_error());
  auto per_iteration = [](const Solution& s) {
    double t = 0.0;
    for (const Iteration& it : s.iterations) t += it.ms;
    return s.iterations.empty() ? 0.0 : t / static_cast<double>(s.iterations.size());
  };
  const double ta = per_iteration(analytic.solution), tf = per_iteration(fd.solution);
  int at_limit = 0;
  for (const VectorXd& u : analytic.solution.u)
    for (int i = 0; i < n; ++i) at_limit += std::abs(u(i)) >= limit(i) * (1.0 - 1e-12) ? 1 : 0;
  std::printf("%d of %zu torque entries at their limit in the solution (aba_derivatives run)\n", at_limit,
              analytic.solution.u.size() * static_cast<std::size_t>(n));
  std::printf("time per iteration: %.2f ms with aba_derivatives, %.2f ms with finite differences (%.1f×)\n", ta, tf,
              ta > 0.0 ? tf / ta : 0.0);

  if (out != nullptr) {
    const bool png = write_outputs(out, analytic, fd, h, limit);
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
  if (!linearisations_agree) std::fprintf(stderr, "trajopt: the two linearisations disagree\n");
  return ok ? 0 : 1;
}
