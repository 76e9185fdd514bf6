// trajopt's solver: control-limited iLQR (Tassa, Mansard & Todorov, "Control-limited differential dynamic
// programming", ICRA 2014) on a problem that supplies its discrete dynamics, its costs and their first
// derivatives (docs/trajopt.md#the-solver). Plain Eigen, double only: the solver knows nothing of treedyn;
// the problem (main.cpp) linearises with aba_derivatives or with finite differences of aba.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace trajopt {

using Eigen::MatrixXd;
using Eigen::VectorXd;

/// The local model of one knot: x' ≈ f + A δx + B δu (δx a tangent increment of the state), and the
/// quadratic model of the knot's cost l (Gauss–Newton: lxx, luu, lux from residual Jacobians).
struct Knot {
  MatrixXd A, B;
  VectorXd lx, lu;
  MatrixXd lxx, luu, lux;
};

/// An optimal-control problem of horizon `knots()` (x_0 … x_K, controls u_0 … u_{K−1}), controls in a box.
class Problem {
 public:
  virtual ~Problem() = default;
  [[nodiscard]] virtual int nx() const = 0;   ///< entries of a state
  [[nodiscard]] virtual int ndx() const = 0;  ///< entries of a state's tangent increment
  [[nodiscard]] virtual int nu() const = 0;
  [[nodiscard]] virtual int knots() const = 0;
  [[nodiscard]] virtual const VectorXd& lower() const = 0;  ///< control box
  [[nodiscard]] virtual const VectorXd& upper() const = 0;
  [[nodiscard]] virtual const VectorXd& x0() const = 0;
  /// x_next = f(x, u); false when the dynamics fail (a non-finite state, a failed ABA).
  virtual bool step(const VectorXd& x, const VectorXd& u, VectorXd& x_next) = 0;
  [[nodiscard]] virtual double running_cost(const VectorXd& x, const VectorXd& u) = 0;
  [[nodiscard]] virtual double terminal_cost(const VectorXd& x) = 0;
  /// The knot's linear dynamics and quadratic cost model at (x, u); false on failure.
  virtual bool linearise(const VectorXd& x, const VectorXd& u, Knot& knot) = 0;
  /// The terminal cost's gradient and Gauss–Newton Hessian at x.
  virtual void linearise_terminal(const VectorXd& x, VectorXd& Vx, MatrixXd& Vxx) = 0;
  /// dx = x1 ⊖ x0 (tangent increment).
  virtual void difference(const VectorXd& x0, const VectorXd& x1, VectorXd& dx) = 0;
};

/// What one iteration did.
struct Iteration {
  double cost = 0.0;         ///< the cost after the iteration
  double ms = 0.0;           ///< wall time of the whole iteration
  double ms_linearise = 0.0; ///< of which: linearising the K knots
  double alpha = 0.0;        ///< the accepted step (0: none accepted)
  double mu = 0.0;           ///< the regularisation used in the last backward pass
  int clamped = 0;           ///< control entries the box QPs left on a bound
};

struct Options {
  int max_iterations = 100;
  double tolerance = 1e-7;   ///< stop when the relative cost decrease of an accepted step is below this
  double mu_min = 1e-6;      ///< Levenberg–Marquardt schedule of Tassa, Erez & Todorov 2012 (on Q_uu)
  double mu_max = 1e10;
};

struct Solution {
  std::vector<VectorXd> x, u;   ///< K+1 states, K controls
  double initial_cost = 0.0;
  std::vector<Iteration> iterations;
  bool ok = false;              ///< converged or ran out of iterations with finite numbers throughout
  bool converged = false;
};

/// The box QP min ½ δuᵀ H δu + gᵀ δu, lo ≤ δu ≤ hi by projected Newton (Bertsekas 1982, as in Tassa et al.
/// 2014 Algorithm 3). x: the warm start in, the solution out; free: the entries off their bound at the
/// solution; H_free_llt: the Cholesky factor of H on the free entries. False if H is not positive definite
/// on a free set.
bool box_qp(const MatrixXd& H, const VectorXd& g, const VectorXd& lo, const VectorXd& hi, VectorXd& x,
            std::vector<int>& free, Eigen::LLT<MatrixXd>& H_free_llt);

/// Control-limited iLQR from the initial controls u (K entries).
Solution solve(Problem& problem, std::vector<VectorXd> u, const Options& options);

}  // namespace trajopt
