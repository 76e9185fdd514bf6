// experiments/formulation_stiffness.hpp: the computations behind examples/formulation_stiffness and
// tests/study. A research harness, not part of the installed library: it measures float and double runs
// against double references and integrates with Boost.Odeint (header-only); the CMake target
// treedyn_experiments gives its include path and Boost's. Nothing in include/ depends on Boost.
//
// Ascher, Pai & Cloutier (1996): U. Ascher, D. Pai, B. Cloutier, "Forward Dynamics, Elimination Methods,
// and Formulation Stiffness in Robot Simulation" (see docs/references.md); the setups are its Examples 2–3
// with Table 2 and its Example 1 with Table 1.
//
// Four forward-dynamics methods, all solving H q̈ = τ − C (the paper's eq. 3):
//   crbm_ldlt      H from crba, C from bias, H factored by ltdl (square-root-free Lᵀ D L) and solved;
//   crbm_cholesky  the same with ltl (Lᵀ L, the Cholesky variant the paper's Example 1 says it used);
//   aba            the articulated-body method (algorithms/aba.hpp);
//   modified_aba   the paper's eq. (11) (algorithms/modified_aba.hpp).
// The paper's §3: in exact arithmetic all four form the same base pivot D2 = H2 M̂2 H2*; they differ in the
// order in which the light base link's inertia meets the heavy distal link's.
//
// What is here:
//   Dynamics<Scalar>              one method on one model in one scalar type, preallocated, no throw;
//   CountingRhs<Scalar, State>    the ODE right-hand side x = [q0, q1, q̇0, q̇1] ↦ [q̇0, q̇1, q̈0, q̈1] that
//                                 counts its evaluations (Table 1's n_ABM, n_CRBM);
//   count_evaluations             Table 1: 10 s from rest with Boost.Odeint's controlled Cash–Karp 5(4)
//                                 stepper, relative tolerance 1e-4;
//   kappa_max                     Table 1's O(κ_max) column: max over q_distal ∈ [0, 2π] of κ(H);
//   example1_sweep                Example 1 / Fig. 1: base-joint acceleration in float against a long
//                                 double run of the same (float-rounded) model;
//   table2                        Examples 2–3 / Table 2: base pivot D2 and tip acceleration q̈1 in float.
// Numbering: the paper numbers links tip → base; the models (robots/two_link.hpp,
// robots/collinear_masses.hpp) put the base link in body 0, so q(0) is the base joint ("joint 2" of
// Fig. 1) and q(1) the distal one. Dynamics allocates only when constructed; its call operator never does.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <boost/numeric/odeint.hpp>

#include "treedyn/robots/collinear_masses.hpp"
#include "treedyn/robots/two_link.hpp"
#include "treedyn/treedyn.hpp"

namespace treedyn::study {

// ---- methods ------------------------------------------------------------------------------------

enum class Method { crbm_ldlt, crbm_cholesky, aba, modified_aba };

inline constexpr std::array<Method, 4> all_methods{Method::crbm_ldlt, Method::crbm_cholesky, Method::aba,
                                                   Method::modified_aba};

inline const char* name(Method m) noexcept {
  switch (m) {
    case Method::crbm_ldlt: return "CRBM-LDLT";
    case Method::crbm_cholesky: return "CRBM-Chol";
    case Method::aba: return "ABA";
    case Method::modified_aba: return "modABA";
  }
  return "?";
}

// ---- one method on one model --------------------------------------------------------------------

/// Forward dynamics by one Method, in Scalar, on a model converted once (Model::cast) from any scalar type:
/// rounded from double, or widened exactly from float (Example 1's long double reference). N: the number
/// of degrees of freedom fixed at compile time (2 here), which keeps every matrix on the stack.
template <class Scalar, int N = 2>
class Dynamics {
 public:
  using Vector = Eigen::Matrix<Scalar, N, 1>;
  using Matrix = Eigen::Matrix<Scalar, N, N>;

  template <class FromScalar, int M>
  Dynamics(const Model<FromScalar, M>& model, Method method)
      : model_(model.template cast<Scalar, N>()),
        data_(model_),
        method_(method),
        A_(Matrix::Zero(model_.nv(), model_.nv())),
        x_(Vector::Zero(model_.nv())),
        qdd_(Vector::Zero(model_.nv())) {}

  [[nodiscard]] const Model<Scalar, N>& model() const noexcept { return model_; }
  [[nodiscard]] Method method() const noexcept { return method_; }

  /// q̈ = FD(q, q̇, τ). On a non-positive pivot q̈ is NaN and ok() is false. No allocation.
  template <class Dq, class Dv, class Dt>
  const Vector& operator()(const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                           const Eigen::MatrixBase<Dt>& tau) noexcept {
    switch (method_) {
      case Method::crbm_ldlt:
      case Method::crbm_cholesky: {
        crba(model_, data_, q);
        bias(model_, data_, q, qd);
        dense_H(model_, data_, A_);
        const FactorStatus s = method_ == Method::crbm_ldlt ? ltdl(A_, model_.dof_parents())
                                                            : ltl(A_, model_.dof_parents());
        // the paper's "D2", the base pivot, is row 0 of the factor (both kernels eliminate the tip row
        // first); ltl leaves L_00 = √D2 on success and the unsquared pivot where it stopped. (The tip pivot,
        // H_11 = the tip's own inertia, is positive in every model here, so a stop is always at row 0.)
        base_pivot_ = (method_ == Method::crbm_cholesky && s.ok()) ? A_(0, 0) * A_(0, 0) : A_(0, 0);
        ok_ = s.ok();
        if (!ok_) {
          qdd_.setConstant(std::numeric_limits<Scalar>::quiet_NaN());
          return qdd_;
        }
        x_ = tau - data_.C;
        if (method_ == Method::crbm_ldlt) ltdl_solve(A_, model_.dof_parents(), x_);
        else ltl_solve(A_, model_.dof_parents(), x_);
        qdd_ = x_;
        break;
      }
      case Method::aba:
      case Method::modified_aba: {
        qdd_ = method_ == Method::aba ? aba(model_, data_, q, qd, tau) : modified_aba(model_, data_, q, qd, tau);
        ok_ = data_.aba_status.ok();
        base_pivot_ = data_.D[0](0, 0);
        break;
      }
    }
    if (ok_) {
      using std::isfinite;
      for (Eigen::Index k = 0; k < qdd_.size(); ++k)
        if (!isfinite(qdd_(k))) ok_ = false;
    }
    return qdd_;
  }

  /// Whether the last call factored every pivot and produced finite accelerations.
  [[nodiscard]] bool ok() const noexcept { return ok_; }
  /// The paper's "D2": the base joint's pivot as the last call formed it (before any check).
  [[nodiscard]] Scalar base_pivot() const noexcept { return base_pivot_; }
  /// The joint-space inertia matrix of the last CRBM call (a dense copy of the packed data.H).
  [[nodiscard]] Matrix H() const { return dense_H(model_, data_); }

 private:
  Model<Scalar, N> model_;
  Data<Scalar, N> data_;
  Method method_;
  Matrix A_;
  Vector x_;
  Vector qdd_;
  Scalar base_pivot_ = Scalar(0);
  bool ok_ = true;
};

// ---- Table 1: the chain and the integrator -------------------------------------------------------

/// Table 1's eleven link-length ratios r = l2 / (l1 + l2) (l2 = base link).
inline const std::vector<double>& table1_ratios() {
  static const std::vector<double> r{0.1, 0.05, 0.01, 0.005, 0.004, 0.0035, 0.003, 0.0025, 0.002, 0.0018, 0.0015};
  return r;
}

/// The published order of magnitude of κ_max for each r (Table 1's last column, as the exponent).
inline const std::vector<int>& table1_kappa_exponents() {
  static const std::vector<int> e{2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5};
  return e;
}

/// The published counts (Ascher, Pai & Cloutier (1996) Table 1): n_ABM and n_CRBM (-1 = "(fail)").
inline const std::vector<long>& table1_published_aba() {
  static const std::vector<long> n{3169, 4623, 8189, 10534, 11170, 12375, 11990, 12170, 12779, 12418, 12860};
  return n;
}
inline const std::vector<long>& table1_published_crbm() {
  static const std::vector<long> n{3041, 5109, 8082, 10420, 11835, 13792, 18986, 35406, 44294, 86656, -1};
  return n;
}

/// Table 1's chain: l1 + l2 = 1 m, m1 + m2 = 1 kg, l_k = m_k, r = l2 = m2 (base link), width 0.1 m.
inline Model<double> table1_chain(double r) { return robots::two_link<double>(1.0 - r, 1.0 - r, r, r, 0.1); }

/// Example 1's chain (Fig. 1): l1 = 2.0, m1 = 10 (distal), l2 = 0.02, m2 = 0.1 (base), width 0.02.
inline Model<double> example1_chain() { return robots::two_link<double>(2.0, 10.0, 0.02, 0.1, 0.02); }

/// Thrown by CountingRhs to stop an integration: a failed pivot, or the evaluation budget spent.
struct IntegrationStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The ODE right-hand side of a 2-DoF model for Boost.Odeint, counting its evaluations. State is
/// x = [q0, q1, q̇0, q̇1] in StateScalar; the forward dynamics run in Scalar (the state is rounded to
/// Scalar on entry and q̈ widened on exit when the two differ). τ = 0.
/// Odeint copies the system functor, so the stepper gets a Ref (a pointer) to this object. The state is a
/// std::vector (odeint sizes it once): odeint default-constructs and copies its stepper's temporaries, and
/// with std::array those copies of indeterminate values trip GCC's -Wmaybe-uninitialized at -O1 and above.
template <class Scalar, class StateScalar = Scalar>
class CountingRhs {
 public:
  using state_type = std::vector<StateScalar>;

  CountingRhs(const Model<double>& model, Method method, long budget)
      : fd_(model, method), budget_(budget) {}

  void operator()(const state_type& x, state_type& dxdt, StateScalar /*t*/) {
    if (++evaluations_ > budget_) throw IntegrationStopped("evaluation budget exhausted");
    q_ << static_cast<Scalar>(x[0]), static_cast<Scalar>(x[1]);
    qd_ << static_cast<Scalar>(x[2]), static_cast<Scalar>(x[3]);
    const auto& qdd = fd_(q_, qd_, tau_);
    if (!fd_.ok()) throw IntegrationStopped("non-positive pivot");
    dxdt[0] = x[2];
    dxdt[1] = x[3];
    dxdt[2] = static_cast<StateScalar>(qdd(0));
    dxdt[3] = static_cast<StateScalar>(qdd(1));
  }

  [[nodiscard]] long evaluations() const noexcept { return evaluations_; }

  /// What the stepper holds: a copyable handle forwarding to this object.
  struct Ref {
    CountingRhs* self;
    void operator()(const state_type& x, state_type& dxdt, StateScalar t) const { (*self)(x, dxdt, t); }
  };
  [[nodiscard]] Ref ref() noexcept { return Ref{this}; }

 private:
  Dynamics<Scalar, 2> fd_;
  long budget_;
  long evaluations_ = 0;
  Eigen::Matrix<Scalar, 2, 1> q_ = Eigen::Matrix<Scalar, 2, 1>::Zero(), qd_ = q_, tau_ = q_;  // τ = 0
};

/// Integrator settings: Boost.Odeint controlled_runge_kutta<runge_kutta_cash_karp54>
/// with default_error_checker(eps_abs, eps_rel, a_x = 1, a_dxdt = 1), i.e. the error norm
/// max_i |err_i| / (eps_abs + eps_rel (|x_i| + |h| |f_i|)) — Numerical Recipes' rkqs yscal with a tiny
/// nonzero eps_abs (the state starts at exactly 0).
struct IntegratorSettings {
  double eps_rel = 1e-4;
  double eps_abs = 1e-30;
  double dt0 = 1e-3;          ///< first trial step
  double t_end = 10.0;        ///< the paper's 10 s
  long budget = 20'000'000;   ///< evaluations before giving up ("fail")
};

struct CountResult {
  long evaluations = 0;   ///< right-hand-side evaluations (accepted and rejected attempts, 6 per attempt)
  bool failed = false;    ///< a pivot failed, the step size collapsed, or the budget ran out
  std::string reason;     ///< why it failed
  std::array<double, 4> final_state{};  ///< x(t_end) when not failed
};

/// Table 1: simulate the chain from rest at q = 0 with τ = 0 for settings.t_end seconds and count the
/// right-hand-side evaluations. Scalar: the forward dynamics; StateScalar: the integrator's arithmetic.
template <class Scalar, class StateScalar = Scalar>
CountResult count_evaluations(const Model<double>& model, Method method, const IntegratorSettings& settings = {}) {
  namespace odeint = boost::numeric::odeint;
  using Rhs = CountingRhs<Scalar, StateScalar>;
  using state_type = typename Rhs::state_type;
  using stepper_type = odeint::runge_kutta_cash_karp54<state_type, StateScalar, state_type, StateScalar>;
  using checker_type =
      odeint::default_error_checker<StateScalar, typename stepper_type::algebra_type,
                                    typename stepper_type::operations_type>;
  using controlled_type = odeint::controlled_runge_kutta<stepper_type, checker_type>;

  Rhs rhs(model, method, settings.budget);
  controlled_type stepper(checker_type(static_cast<StateScalar>(settings.eps_abs),
                                       static_cast<StateScalar>(settings.eps_rel), StateScalar(1), StateScalar(1)));
  state_type x(4, StateScalar(0));  // at rest, arm straight: q = q̇ = 0
  CountResult result;
  try {
    odeint::integrate_adaptive(stepper, rhs.ref(), x, StateScalar(0), static_cast<StateScalar>(settings.t_end),
                               static_cast<StateScalar>(settings.dt0));
    for (std::size_t k = 0; k < 4; ++k) {
      result.final_state[k] = static_cast<double>(x[k]);
      if (!std::isfinite(result.final_state[k])) {
        result.failed = true;
        result.reason = "non-finite state";
      }
    }
  } catch (const IntegrationStopped& e) {
    result.failed = true;
    result.reason = e.what();
  } catch (const odeint::step_adjustment_error& e) {
    result.failed = true;
    result.reason = e.what();
  }
  result.evaluations = rhs.evaluations();
  return result;
}

/// count_evaluations for every Method (all_methods order).
template <class Scalar, class StateScalar = Scalar>
std::array<CountResult, 4> count_all_methods(const Model<double>& model, const IntegratorSettings& settings = {}) {
  std::array<CountResult, 4> out;
  for (std::size_t m = 0; m < all_methods.size(); ++m)
    out[m] = count_evaluations<Scalar, StateScalar>(model, all_methods[m], settings);
  return out;
}

/// n_num / n_den of two runs (∞ if the numerator's run failed: a failure counts as "infinitely many").
inline double count_ratio(const CountResult& num, const CountResult& den) {
  if (num.failed) return std::numeric_limits<double>::infinity();
  return static_cast<double>(num.evaluations) / static_cast<double>(den.evaluations);
}

// ---- Table 1: κ_max(H) ---------------------------------------------------------------------------

/// κ(H) = λ_max / λ_min of the chain's H at q = (0, q_distal), in long double.
inline long double kappa(const Model<long double, 2>& model, Data<long double, 2>& data, long double q_distal) {
  Eigen::Matrix<long double, 2, 1> q(0.0L, q_distal);
  crba(model, data, q);
  Eigen::Matrix<long double, 2, 2> H;
  dense_H(model, data, H);
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<long double, 2, 2>> eig(H, Eigen::EigenvaluesOnly);
  return eig.eigenvalues()(1) / eig.eigenvalues()(0);
}

/// max over q_distal ∈ [0, 2π] of κ(H), on a grid of `samples` + 1 points (H depends on q_distal only).
inline double kappa_max(const Model<double>& model_d, int samples = 3600) {
  const Model<long double, 2> model = model_d.cast<long double, 2>();
  Data<long double, 2> data(model);
  const long double two_pi = 2.0L * 3.14159265358979323846264338327950288L;
  long double best = 0.0L;
  for (int k = 0; k <= samples; ++k) {
    const long double kq = kappa(model, data, two_pi * static_cast<long double>(k) / static_cast<long double>(samples));
    if (kq > best) best = kq;
  }
  return static_cast<double>(best);
}

// ---- Example 1 / Fig. 1 ---------------------------------------------------------------------------

struct Example1Point {
  double q_distal = 0;
  double reference = 0;                ///< q̈_base in long double (ABA; CRBM-LDLT agrees, see reference_spread)
  std::array<double, 4> computed{};    ///< q̈_base in float, per Method (all_methods order); NaN on failure
  std::array<bool, 4> ok{};
};

struct Example1Result {
  std::vector<Example1Point> points;
  std::array<double, 4> max_abs_error{};  ///< max over the sweep of |q̈_float − q̈_ref|, per Method
  double max_abs_reference = 0;           ///< max over the sweep of |q̈_ref|
  double reference_spread = 0;            ///< max |ABA − CRBM-LDLT| of the two long double runs
  std::array<int, 4> failures{};          ///< points where the method's pivot failed
};

/// Example 1: at q = (0, q_distal), q̇ = 0, τ = 0, gravity perpendicular to the arm, compute the base-joint
/// acceleration in float by each method, and in long double on the same float-rounded model, for
/// `samples` + 1 values of q_distal evenly spaced over [0, 2π].
inline Example1Result example1_sweep(const Model<double>& model_d = example1_chain(), int samples = 720) {
  const Model<float, 2> model_f = model_d.cast<float, 2>();
  std::vector<Dynamics<float>> fd;
  for (Method m : all_methods) fd.emplace_back(model_f, m);
  // the reference: the float model widened exactly, so only the forward dynamics' rounding is compared
  Dynamics<long double> ref_aba(model_f, Method::aba), ref_crbm(model_f, Method::crbm_ldlt);
  const Eigen::Vector2f zero_f = Eigen::Vector2f::Zero();
  const Eigen::Matrix<long double, 2, 1> zero_l = Eigen::Matrix<long double, 2, 1>::Zero();
  Example1Result out;
  const double two_pi = 2.0 * 3.14159265358979323846;
  for (int k = 0; k <= samples; ++k) {
    Example1Point p;
    const float qd_f = static_cast<float>(two_pi * k / samples);
    p.q_distal = static_cast<double>(qd_f);
    const Eigen::Vector2f q_f(0.0f, qd_f);
    const Eigen::Matrix<long double, 2, 1> q_l = q_f.cast<long double>();
    const long double ra = ref_aba(q_l, zero_l, zero_l)(0);
    const long double rc = ref_crbm(q_l, zero_l, zero_l)(0);
    p.reference = static_cast<double>(ra);
    out.reference_spread = std::max(out.reference_spread, static_cast<double>(std::fabs(ra - rc)));
    out.max_abs_reference = std::max(out.max_abs_reference, std::fabs(p.reference));
    for (std::size_t m = 0; m < fd.size(); ++m) {
      const float v = fd[m](q_f, zero_f, zero_f)(0);
      p.ok[m] = fd[m].ok();
      p.computed[m] = static_cast<double>(v);
      if (!p.ok[m]) {
        ++out.failures[m];
        out.max_abs_error[m] = std::numeric_limits<double>::infinity();
      } else {
        out.max_abs_error[m] = std::max(out.max_abs_error[m], std::fabs(p.computed[m] - p.reference));
      }
    }
    out.points.push_back(p);
  }
  return out;
}

// ---- Table 2 (Examples 2 and 3) -------------------------------------------------------------------

struct Table2Entry {
  double m1 = 0;         ///< tip mass (the paper's m1)
  int seed_case = 1;     ///< 1: s = e_z; 2: s = (0, 1, 1)/√2
  Method method = Method::crbm_ldlt;
  double D2 = 0;         ///< base pivot as formed in float (0 or negative: singular)
  double qdd_tip = 0;    ///< the paper's q̈1, NaN when singular
  bool ok = false;
};

/// Exact values: D2 = m_base = 1, q̈1 = 971.19 + 981 / m1.
inline double table2_exact_qdd_tip(double m1) { return 971.19 + 981.0 / m1; }

/// Ascher, Pai & Cloutier (1996) Table 2 in float: collinear_masses(1, m1, axis) built in double and rounded once,
/// τ = (9.81, 981) in our order (base, tip), no gravity, at rest.
inline std::vector<Table2Entry> table2(const std::vector<double>& m1s = {1e6, 1e7, 1e8, 1e9}) {
  std::vector<Table2Entry> out;
  for (int c : {1, 2}) {
    const Vector3<double> axis = c == 1 ? Vector3<double>(0.0, 0.0, 1.0) : Vector3<double>(0.0, 1.0, 1.0);
    for (double m1 : m1s) {
      const Model<double> model = robots::collinear_masses<double>(1.0, m1, axis);
      for (Method m : all_methods) {
        Dynamics<float> fd(model, m);
        const Eigen::Vector2f zero = Eigen::Vector2f::Zero();
        const Eigen::Vector2f tau(9.81f, 981.0f);
        const float qdd_tip = fd(zero, zero, tau)(1);
        Table2Entry e;
        e.m1 = m1;
        e.seed_case = c;
        e.method = m;
        e.D2 = static_cast<double>(fd.base_pivot());
        e.ok = fd.ok();
        e.qdd_tip = e.ok ? static_cast<double>(qdd_tip) : std::numeric_limits<double>::quiet_NaN();
        out.push_back(e);
      }
    }
  }
  return out;
}

}  // namespace treedyn::study
