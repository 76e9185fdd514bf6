// trajopt's solver (ilqr.hpp): the box QP by projected Newton and control-limited iLQR (Tassa, Mansard &
// Todorov 2014): backward pass with the box QP per knot and feedback only on the free controls, forward pass
// with a backtracking line search on the clamped controls, Levenberg–Marquardt regularisation of Q_uu.
#include "ilqr.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace trajopt {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

VectorXd clamp(const VectorXd& x, const VectorXd& lo, const VectorXd& hi) { return x.cwiseMax(lo).cwiseMin(hi); }

double quadratic(const MatrixXd& H, const VectorXd& g, const VectorXd& x) { return 0.5 * x.dot(H * x) + g.dot(x); }

/// The entries of x not held at a bound by a gradient pushing outwards (Tassa et al. 2014, eq. 7's set f).
std::vector<int> free_set(const VectorXd& x, const VectorXd& grad, const VectorXd& lo, const VectorXd& hi) {
  std::vector<int> free;
  for (int i = 0; i < x.size(); ++i)
    if (!((x(i) <= lo(i) && grad(i) > 0.0) || (x(i) >= hi(i) && grad(i) < 0.0))) free.push_back(i);
  return free;
}

MatrixXd rows_cols(const MatrixXd& M, const std::vector<int>& idx) { return M(idx, idx); }

}  // namespace

bool box_qp(const MatrixXd& H, const VectorXd& g, const VectorXd& lo, const VectorXd& hi, VectorXd& x,
            std::vector<int>& free, Eigen::LLT<MatrixXd>& H_free_llt) {
  constexpr double armijo = 0.1, shrink = 0.6, min_step = 1e-12, gradient_tolerance = 1e-10;
  x = clamp(x, lo, hi);
  double f = quadratic(H, g, x);
  std::vector<int> previous;
  for (int it = 0; it < 100; ++it) {
    const VectorXd grad = g + H * x;
    free = free_set(x, grad, lo, hi);
    if (free.empty()) return true;  // every entry held at a bound
    if (it == 0 || free != previous) {
      H_free_llt.compute(rows_cols(H, free));
      if (H_free_llt.info() != Eigen::Success) return false;
      previous = free;
    }
    const VectorXd grad_free = grad(free);
    if (grad_free.lpNorm<Eigen::Infinity>() < gradient_tolerance * (1.0 + g.lpNorm<Eigen::Infinity>())) break;
    VectorXd dir = VectorXd::Zero(x.size());  // the Newton step on the free entries, the clamped ones held
    dir(free) = -H_free_llt.solve(grad_free);
    double step = 1.0, f_new = f;
    VectorXd x_new = x;
    for (; step > min_step; step *= shrink) {  // projected Armijo search
      x_new = clamp(x + step * dir, lo, hi);
      f_new = quadratic(H, g, x_new);
      if (f_new - f <= armijo * grad.dot(x_new - x)) break;
    }
    if (step <= min_step) break;  // no descent left along the projected arc
    const double decrease = f - f_new;
    x = x_new;
    f = f_new;
    if (decrease <= 1e-14 * (1.0 + std::abs(f))) break;
  }
  free = free_set(x, g + H * x, lo, hi);  // the set and factor the feedback gain is formed on
  if (free.empty()) return true;
  H_free_llt.compute(rows_cols(H, free));
  return H_free_llt.info() == Eigen::Success;
}

namespace {

/// The forward rollout x_{k+1} = f(x_k, clamp(ū_k + α k_k + K_k (x_k ⊖ x̄_k))); false on a dynamics failure.
bool rollout(Problem& p, const Solution& nominal, const std::vector<VectorXd>& kff, const std::vector<MatrixXd>& K,
             double alpha, std::vector<VectorXd>& x, std::vector<VectorXd>& u, double& cost) {
  const int n = p.knots();
  x.assign(static_cast<std::size_t>(n) + 1, VectorXd());
  u.assign(static_cast<std::size_t>(n), VectorXd());
  x[0] = p.x0();
  cost = 0.0;
  VectorXd dx(p.ndx());
  for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) {
    p.difference(nominal.x[k], x[k], dx);
    u[k] = clamp(nominal.u[k] + alpha * kff[k] + K[k] * dx, p.lower(), p.upper());
    cost += p.running_cost(x[k], u[k]);
    if (!p.step(x[k], u[k], x[k + 1])) return false;
  }
  cost += p.terminal_cost(x.back());
  return std::isfinite(cost);
}

}  // namespace

Solution solve(Problem& p, std::vector<VectorXd> u, const Options& options) {
  const int n = p.knots(), nu = p.nu(), ndx = p.ndx();
  const auto un = static_cast<std::size_t>(n);
  Solution s;
  std::vector<VectorXd> kff(un, VectorXd::Zero(nu));
  std::vector<MatrixXd> K(un, MatrixXd::Zero(nu, ndx));
  {  // the initial rollout: the given controls, clamped
    Solution seed;
    seed.u = std::move(u);
    seed.x.assign(un + 1, VectorXd::Zero(p.nx()));
    for (std::size_t k = 0; k <= un; ++k) seed.x[k] = p.x0();  // any nominal: K = 0 ignores it
    if (!rollout(p, seed, kff, K, 0.0, s.x, s.u, s.initial_cost)) return s;
  }
  double cost = s.initial_cost, mu = 0.0, delta = 1.0;
  constexpr double delta0 = 2.0;
  std::vector<Knot> knots(un);
  std::vector<VectorXd> x_new, u_new;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    Iteration record;
    const Clock::time_point t0 = Clock::now();
    for (std::size_t k = 0; k < un; ++k)  // linearise the nominal trajectory
      if (!p.linearise(s.x[k], s.u[k], knots[k])) return s;
    record.ms_linearise = ms_since(t0);
    VectorXd Vx_end;
    MatrixXd Vxx_end;
    p.linearise_terminal(s.x.back(), Vx_end, Vxx_end);
    bool accepted = false;
    while (!accepted) {
      // Backward pass (Tassa et al. 2014 §III): Q's expansion, the box QP for k, feedback on the free set.
      VectorXd Vx = Vx_end;
      MatrixXd Vxx = Vxx_end;
      double dV1 = 0.0, dV2 = 0.0;
      int clamped = 0;
      bool backward_ok = true;
      for (std::size_t k = un; k-- > 0;) {
        const Knot& kn = knots[k];
        const VectorXd Qx = kn.lx + kn.A.transpose() * Vx;
        const VectorXd Qu = kn.lu + kn.B.transpose() * Vx;
        const MatrixXd VxxA = Vxx * kn.A, VxxB = Vxx * kn.B;
        const MatrixXd Qxx = kn.lxx + kn.A.transpose() * VxxA;
        const MatrixXd Quu = kn.luu + kn.B.transpose() * VxxB;
        const MatrixXd Qux = kn.lux + kn.B.transpose() * VxxA;
        const MatrixXd Quu_reg = Quu + mu * MatrixXd::Identity(nu, nu);
        std::vector<int> free;
        Eigen::LLT<MatrixXd> llt;
        VectorXd warm = kff[k];
        if (!box_qp(Quu_reg, Qu, p.lower() - s.u[k], p.upper() - s.u[k], warm, free, llt)) {
          backward_ok = false;
          break;
        }
        kff[k] = warm;
        K[k].setZero();
        if (!free.empty()) K[k](free, Eigen::all) = -llt.solve(Qux(free, Eigen::all));
        clamped += nu - static_cast<int>(free.size());
        const VectorXd& kk = kff[k];
        const MatrixXd& KK = K[k];
        dV1 += kk.dot(Qu);
        dV2 += 0.5 * kk.dot(Quu * kk);
        Vx = Qx + KK.transpose() * (Quu * kk) + KK.transpose() * Qu + Qux.transpose() * kk;
        Vxx = Qxx + KK.transpose() * Quu * KK + KK.transpose() * Qux + Qux.transpose() * KK;
        Vxx = 0.5 * (Vxx + Vxx.transpose()).eval();
      }
      // Forward pass: a backtracking line search on α, accepted when the actual decrease is at least a tenth
      // of the expected one (Tassa, Erez & Todorov 2012, §II-F).
      if (backward_ok)
        for (double alpha = 1.0; alpha >= 1e-3 && !accepted; alpha *= 0.5) {
          double new_cost = 0.0;
          const double expected = -(alpha * dV1 + alpha * alpha * dV2);
          if (!rollout(p, s, kff, K, alpha, x_new, u_new, new_cost)) continue;
          if (expected > 0.0 ? (cost - new_cost) / expected > 0.1 : new_cost < cost) {
            accepted = true;
            record.alpha = alpha;
            record.clamped = clamped;
            record.mu = mu;
            const double relative = (cost - new_cost) / std::max(std::abs(cost), 1e-300);
            s.x.swap(x_new);
            s.u.swap(u_new);
            cost = new_cost;
            delta = std::min(1.0 / delta0, delta / delta0);
            mu = mu * delta > options.mu_min ? mu * delta : 0.0;
            if (relative < options.tolerance) s.converged = true;
          }
        }
      if (!accepted) {  // more regularisation; at its ceiling, the nominal cannot be improved: converged
        delta = std::max(delta0, delta * delta0);
        mu = std::max(options.mu_min, mu * delta);
        if (mu > options.mu_max) {
          s.converged = true;
          break;
        }
      }
    }
    record.cost = cost;
    record.ms = ms_since(t0);
    s.iterations.push_back(record);
    if (s.converged) break;
  }
  s.ok = std::isfinite(cost);
  return s;
}

}  // namespace trajopt
