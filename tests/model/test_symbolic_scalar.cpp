// A symbolic scalar through rnea, crba, aba, integrate, difference and the sparse factorizations of H,
// and the scalar policy itself (treedyn/detail/scalar.hpp).
//
// Sym below stands in for a CasADi-like expression type. Like one, it has arithmetic and the math
// functions (found by argument-dependent lookup), comparison operators that return a Sym rather than a
// bool, an if_else(c, a, b) free function, an Eigen::NumTraits specialisation and no std::numeric_limits.
// Instead of an expression graph it carries the number the expression would evaluate to, plus a flag
// saying whether that number depends on a symbolic input; if_else picks by that number, which is what
// evaluating CasADi's if_else does. So the test can compare the results with the double computation: the
// operations are the same, and only Eigen's vectorised summation order for double separates the two (a
// few ulps).
// Nothing converts a Sym to double. It converts explicitly to bool, as an expression type must for Eigen
// 3.4's own product code (which asks whether imag(α) == 0 for a constant α), and the answer is known only
// for a constant expression. The truth of an expression that depends on a symbolic input cannot be known:
// the mock counts every such question, and the test requires none, since that is the branch on a value a
// symbolic run must never take.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "model_test_support.hpp"
#include "support/crba_dense.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/kernels/ltl.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/robots/humanoid30.hpp"
#include "treedyn/robots/random_tree.hpp"

#include <unsupported/Eigen/AutoDiff>

namespace symbolic_mock {

/// The mock symbolic scalar (see the file comment).
class Sym {
 public:
  Sym() = default;
  Sym(double value) : value_(value) {}  // implicit, as a symbolic type's constants are

  /// A symbolic input whose value, once evaluated, is `value`.
  static Sym variable(double value) { return Sym(value, true); }

  [[nodiscard]] double value() const { return value_; }
  [[nodiscard]] bool symbolic() const { return symbolic_; }

  /// Number of if_else calls so far (the symbolic form of a branch).
  static long& if_else_calls() {
    static long calls = 0;
    return calls;
  }
  /// Number of times the truth value of a symbolic expression was asked for (an error).
  static long& symbolic_truths() {
    static long count = 0;
    return count;
  }

  /// Truth value: known for a constant; asked of a symbolic expression it is an error, counted.
  explicit operator bool() const {
    if (symbolic_) ++symbolic_truths();
    return value_ != 0.0;
  }

  Sym& operator+=(const Sym& b) { return *this = *this + b; }
  Sym& operator-=(const Sym& b) { return *this = *this - b; }
  Sym& operator*=(const Sym& b) { return *this = *this * b; }
  Sym& operator/=(const Sym& b) { return *this = *this / b; }

  friend Sym operator+(const Sym& a) { return a; }
  friend Sym operator-(const Sym& a) { return Sym(-a.value_, a.symbolic_); }
  friend Sym operator+(const Sym& a, const Sym& b) { return Sym(a.value_ + b.value_, a.symbolic_ || b.symbolic_); }
  friend Sym operator-(const Sym& a, const Sym& b) { return Sym(a.value_ - b.value_, a.symbolic_ || b.symbolic_); }
  friend Sym operator*(const Sym& a, const Sym& b) { return Sym(a.value_ * b.value_, a.symbolic_ || b.symbolic_); }
  friend Sym operator/(const Sym& a, const Sym& b) { return Sym(a.value_ / b.value_, a.symbolic_ || b.symbolic_); }

  // comparisons build an expression (here: its 0/1 value), never a bool
  friend Sym operator<(const Sym& a, const Sym& b) { return truth(a.value_ < b.value_, a, b); }
  friend Sym operator<=(const Sym& a, const Sym& b) { return truth(a.value_ <= b.value_, a, b); }
  friend Sym operator>(const Sym& a, const Sym& b) { return truth(a.value_ > b.value_, a, b); }
  friend Sym operator>=(const Sym& a, const Sym& b) { return truth(a.value_ >= b.value_, a, b); }
  friend Sym operator==(const Sym& a, const Sym& b) { return truth(a.value_ == b.value_, a, b); }
  friend Sym operator!=(const Sym& a, const Sym& b) { return truth(a.value_ != b.value_, a, b); }

  /// CasADi's conditional: c ? a : b as an expression; evaluation picks by the value of c.
  friend Sym if_else(const Sym& c, const Sym& a, const Sym& b) {
    ++if_else_calls();
    const Sym& chosen = c.value_ != 0.0 ? a : b;
    return Sym(chosen.value_, c.symbolic_ || a.symbolic_ || b.symbolic_);
  }

  friend Sym sqrt(const Sym& a) { return Sym(std::sqrt(a.value_), a.symbolic_); }
  friend Sym sin(const Sym& a) { return Sym(std::sin(a.value_), a.symbolic_); }
  friend Sym cos(const Sym& a) { return Sym(std::cos(a.value_), a.symbolic_); }
  friend Sym tan(const Sym& a) { return Sym(std::tan(a.value_), a.symbolic_); }
  friend Sym atan(const Sym& a) { return Sym(std::atan(a.value_), a.symbolic_); }
  friend Sym exp(const Sym& a) { return Sym(std::exp(a.value_), a.symbolic_); }
  friend Sym log(const Sym& a) { return Sym(std::log(a.value_), a.symbolic_); }
  friend Sym abs(const Sym& a) { return Sym(std::abs(a.value_), a.symbolic_); }
  friend Sym atan2(const Sym& y, const Sym& x) {
    return Sym(std::atan2(y.value_, x.value_), y.symbolic_ || x.symbolic_);
  }
  friend Sym pow(const Sym& a, const Sym& b) { return Sym(std::pow(a.value_, b.value_), a.symbolic_ || b.symbolic_); }

 private:
  Sym(double value, bool symbolic) : value_(value), symbolic_(symbolic) {}
  static Sym truth(bool t, const Sym& a, const Sym& b) { return Sym(t ? 1.0 : 0.0, a.symbolic_ || b.symbolic_); }

  double value_ = 0.0;
  bool symbolic_ = false;
};

}  // namespace symbolic_mock

namespace Eigen {
/// What Eigen needs to know of Sym; its epsilon is that of the arithmetic it is evaluated in, double.
template <>
struct NumTraits<symbolic_mock::Sym> {
  using Real = symbolic_mock::Sym;
  using NonInteger = symbolic_mock::Sym;
  using Literal = symbolic_mock::Sym;
  using Nested = symbolic_mock::Sym;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 2, MulCost = 2 };
  static Real epsilon() { return Real(std::numeric_limits<double>::epsilon()); }
  static Real dummy_precision() { return Real(1e-12); }
  static Real highest() { return Real(std::numeric_limits<double>::max()); }
  static Real lowest() { return Real(std::numeric_limits<double>::lowest()); }
  static int digits10() { return std::numeric_limits<double>::digits10; }
  static int digits() { return std::numeric_limits<double>::digits; }
};
}  // namespace Eigen

using model_test::MatX;
using model_test::VecX;
using symbolic_mock::Sym;

static_assert(!std::numeric_limits<Sym>::is_specialized, "the mock must have no std::numeric_limits");
static_assert(!treedyn::detail::is_numeric<Sym>::value, "Sym is symbolic");
static_assert(treedyn::detail::is_numeric<double>::value && treedyn::detail::is_numeric<float>::value &&
                  treedyn::detail::is_numeric<long double>::value,
              "the floating-point types are numeric");
static_assert(treedyn::detail::is_numeric<Eigen::AutoDiffScalar<Eigen::Vector2d>>::value, "AutoDiffScalar is numeric");

namespace {

/// Symbolic inputs carrying the values of x.
VecX<Sym> variables(const VecX<double>& x) {
  VecX<Sym> out(x.size());
  for (Eigen::Index k = 0; k < x.size(); ++k) out(k) = Sym::variable(x(k));
  return out;
}

/// The payload of a symbolic result.
template <class Derived>
MatX<double> evaluate(const Eigen::MatrixBase<Derived>& x) {
  MatX<double> out(x.rows(), x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i) out(i, j) = x(i, j).value();
  return out;
}

/// Number of entries of x that depend on a symbolic input.
template <class Derived>
Eigen::Index symbolic_entries(const Eigen::MatrixBase<Derived>& x) {
  Eigen::Index count = 0;
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i) count += x(i, j).symbolic() ? 1 : 0;
  return count;
}

/// Largest difference between the symbolic result's payload and the double result, relative to the latter's size.
template <class DerivedS, class DerivedD>
double relative_difference(const Eigen::MatrixBase<DerivedS>& symbolic, const Eigen::MatrixBase<DerivedD>& numeric) {
  const MatX<double> values = evaluate(symbolic);
  REQUIRE(values.rows() == numeric.rows());
  REQUIRE(values.cols() == numeric.cols());
  REQUIRE(values.allFinite());
  return (values - numeric).cwiseAbs().maxCoeff() / std::max(1.0, numeric.cwiseAbs().maxCoeff());
}

constexpr double tolerance = 1e-13;

void check_dynamics(const treedyn::Model<double>& model, std::uint64_t seed) {
  const treedyn::Model<Sym> model_s = model.cast<Sym>();
  REQUIRE(model_s.nbodies() == model.nbodies());
  for (int i = 0; i < model.nbodies(); ++i) CHECK(model_s.inertia(i).m.value() == model.inertia(i).m);

  treedyn::test::Rng rng(seed);
  const VecX<double> q = treedyn::random_configuration(model, seed);
  const VecX<double> qd = model_test::random_vector<double>(rng, model.nv());
  const VecX<double> qdd = model_test::random_vector<double>(rng, model.nv());
  const VecX<double> tau = model_test::random_vector<double>(rng, model.nv());
  const VecX<Sym> q_s = variables(q), qd_s = variables(qd), qdd_s = variables(qdd), tau_s = variables(tau);

  treedyn::Data<double> data(model);
  treedyn::Data<Sym> data_s(model_s);
  const long truths_before = Sym::symbolic_truths();

  const VecX<Sym>& tau_out = treedyn::rnea(model_s, data_s, q_s, qd_s, qdd_s);
  CHECK(symbolic_entries(tau_out) == model.nv());
  CHECK(relative_difference(tau_out, treedyn::rnea(model, data, q, qd, qdd)) < tolerance);
  const MatX<Sym>& H = treedyn::test::crba_dense(model_s, data_s, q_s);  // a leaf's diagonal entry and the zeros are constants
  CHECK(symbolic_entries(H) > model.nv());
  CHECK(relative_difference(H, treedyn::test::crba_dense(model, data, q)) < tolerance);
  const VecX<Sym>& qdd_out = treedyn::aba(model_s, data_s, q_s, qd_s, tau_s);
  CHECK(symbolic_entries(qdd_out) == model.nv());
  CHECK(relative_difference(qdd_out, treedyn::aba(model, data, q, qd, tau)) < tolerance);
  CHECK(data_s.aba_status.ok());
  CHECK(data.aba_status.ok());
  CHECK(Sym::symbolic_truths() == truths_before);
}

/// integrate(q, v, dt) and difference(q, q1) in Sym against double, for velocities v·scale.
void check_configuration(const treedyn::Model<double>& model, std::uint64_t seed, double scale) {
  const treedyn::Model<Sym> model_s = model.cast<Sym>();
  treedyn::test::Rng rng(seed);
  const VecX<double> q = treedyn::random_configuration(model, seed);
  const VecX<double> v = model_test::random_vector<double>(rng, model.nv()) * scale;
  const double dt = 0.7;
  VecX<double> q1(model.nq());
  treedyn::integrate(model, q, v, dt, q1);
  VecX<Sym> q1_s(model.nq());
  const long truths_before = Sym::symbolic_truths();
  const long calls_before = Sym::if_else_calls();
  treedyn::integrate(model_s, variables(q), variables(v), Sym::variable(dt), q1_s);
  CHECK(Sym::if_else_calls() > calls_before);  // the branches went through if_else
  CHECK(symbolic_entries(q1_s) == model.nq());
  CHECK(relative_difference(q1_s, q1) < tolerance);

  VecX<double> dv(model.nv());
  treedyn::difference(model, q, q1, dv);
  VecX<Sym> dv_s(model.nv());
  treedyn::difference(model_s, variables(q), variables(q1), dv_s);
  CHECK(symbolic_entries(dv_s) == model.nv());
  CHECK(relative_difference(dv_s, dv) < tolerance);
  CHECK(Sym::symbolic_truths() == truths_before);
}

}  // namespace

TEST_CASE("symbolic scalar: rnea, crba and aba match double", "[model][symbolic]") {
  check_dynamics(treedyn::robots::humanoid30<double>(), 1);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) check_dynamics(treedyn::robots::random_tree<double>(14, seed), seed);
}

TEST_CASE("symbolic scalar: integrate and difference match double, at zero, small and large angles",
          "[model][symbolic]") {
  for (const double scale : {0.0, 1e-9, 1e-3, 1.0}) {
    INFO("velocity scale " << scale);
    check_configuration(treedyn::robots::humanoid30<double>(), 5, scale);
    for (std::uint64_t seed = 1; seed <= 3; ++seed)
      check_configuration(treedyn::robots::random_tree<double>(14, seed), seed, scale);
  }
}

TEST_CASE("symbolic scalar: the sparse factorizations of H match double", "[model][symbolic]") {
  const treedyn::Model<double> model = treedyn::robots::random_tree<double>(14, 2);
  const treedyn::Model<Sym> model_s = model.cast<Sym>();
  const VecX<double> q = treedyn::random_configuration(model, 2);
  treedyn::test::Rng rng(2);
  const VecX<double> b = model_test::random_vector<double>(rng, model.nv());
  treedyn::Data<double> data(model);
  treedyn::Data<Sym> data_s(model_s);
  const MatX<double> H = treedyn::test::crba_dense(model, data, q);
  const MatX<Sym> H_s = treedyn::test::crba_dense(model_s, data_s, variables(q));
  const long truths_before = Sym::symbolic_truths();

  MatX<double> F = H;
  MatX<Sym> F_s = H_s;
  REQUIRE(treedyn::ltdl(F, model.dof_parents()).ok());
  REQUIRE(treedyn::ltdl(F_s, model_s.dof_parents()).ok());
  CHECK(relative_difference(F_s, F) < tolerance);

  F = H;
  F_s = H_s;
  REQUIRE(treedyn::ltl(F, model.dof_parents()).ok());
  REQUIRE(treedyn::ltl(F_s, model_s.dof_parents()).ok());
  CHECK(relative_difference(F_s, F) < tolerance);

  const treedyn::AncestorPattern& pattern = model.h_pattern();
  VecX<double> packed(pattern.nonzeros()), x = b;
  VecX<Sym> packed_s(pattern.nonzeros()), x_s = b.cast<Sym>();
  pattern.pack(H, packed);
  pattern.pack(H_s, packed_s);
  REQUIRE(treedyn::ltdl_packed(packed, pattern).ok());
  REQUIRE(treedyn::ltdl_packed(packed_s, pattern).ok());
  treedyn::ltdl_solve_packed(packed, pattern, x);
  treedyn::ltdl_solve_packed(packed_s, pattern, x_s);
  CHECK(symbolic_entries(x_s) == model.nv());
  CHECK(relative_difference(x_s, x) < tolerance);
  CHECK(Sym::symbolic_truths() == truths_before);
}

TEST_CASE("scalar policy: constants and pivot checks per kind", "[model][symbolic]") {
  using treedyn::detail::epsilon;
  using treedyn::detail::evaluation_epsilon;
  using treedyn::detail::nan;
  using treedyn::detail::pivot_ok;
  CHECK(epsilon<double>() == std::numeric_limits<double>::epsilon());
  CHECK(epsilon<float>() == std::numeric_limits<float>::epsilon());
  CHECK(evaluation_epsilon<long double>() == std::numeric_limits<long double>::epsilon());
  CHECK(std::isnan(nan<double>()));
  CHECK(std::isnan(nan<float>()));
  CHECK(epsilon<Sym>().value() == 0.0);
  CHECK(evaluation_epsilon<Sym>().value() == std::numeric_limits<double>::epsilon());
  CHECK(std::isnan(nan<Sym>().value()));

  CHECK(pivot_ok(1.0));
  CHECK_FALSE(pivot_ok(0.0));
  CHECK_FALSE(pivot_ok(-1.0f));
  CHECK_FALSE(pivot_ok(std::numeric_limits<double>::quiet_NaN()));
  CHECK(pivot_ok(Sym::variable(-1.0)));  // a symbolic pivot is never checked
}

TEST_CASE("scalar policy: select and select_branch", "[model][symbolic]") {
  using treedyn::detail::select;
  using treedyn::detail::select_branch;
  CHECK(select(true, 1.0, 2.0) == 1.0);
  CHECK(select(false, 1.0, 2.0) == 2.0);

  int then_runs = 0, else_runs = 0;  // a bool condition runs one branch only
  const auto one = [&] {
    ++then_runs;
    return 1.0;
  };
  const auto two = [&] {
    ++else_runs;
    return 2.0;
  };
  const double picked = select_branch(2.0 < 1.0, one, two);
  CHECK(picked == 2.0);
  CHECK(then_runs == 0);
  CHECK(else_runs == 1);

  const Sym x = Sym::variable(3.0);  // a symbolic condition runs both and selects
  const Sym s = select_branch(
      x < Sym(1.0),
      [&] {
        ++then_runs;
        return Sym(1.0);
      },
      [&] {
        ++else_runs;
        return x * x;
      });
  CHECK(s.value() == 9.0);
  CHECK(s.symbolic());
  CHECK(then_runs == 1);
  CHECK(else_runs == 2);

  const Eigen::Matrix<Sym, 2, 1> a(Sym(1.0), Sym(2.0)), b(Sym(3.0), Sym(4.0));
  const Eigen::Matrix<Sym, 2, 1> c = select(x > Sym(1.0), a, b);  // coefficient by coefficient
  CHECK(c(0).value() == 1.0);
  CHECK(c(1).value() == 2.0);
}
