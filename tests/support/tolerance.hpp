// Tolerances derived from the scalar's epsilon, the problem size and the condition number, and the one
// entrywise matrix comparison the tests use: CHECK(close_entrywise(actual, expected, bound)) passes when
// every |actual(i, j) − expected(i, j)| <= bound and, when it fails, Catch prints the worst entry (row,
// column, both values, the error and the bound).
#pragma once

#include <cmath>
#include <limits>
#include <ostream>
#include <type_traits>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

namespace treedyn::test {

/// Machine epsilon of Scalar, as a double (so bounds are computed alike for every scalar).
template <class Scalar>
double eps() {
  return static_cast<double>(std::numeric_limits<Scalar>::epsilon());
}

/// The bound c·n·ε(Scalar)·scale on the rounding of a computation with ~n terms of magnitude ~scale.
template <class Scalar, class Scale>
double tolerance(double c, double n, const Scale& scale) {
  return c * n * eps<Scalar>() * static_cast<double>(scale);
}

/// 2-norm condition number of a symmetric positive-definite matrix, computed in double.
template <class Derived>
double spd_condition(const Eigen::MatrixBase<Derived>& A) {
  const Eigen::MatrixXd Ad = A.template cast<double>();
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Ad, Eigen::EigenvaluesOnly).eigenvalues();
  return ev.maxCoeff() / ev.minCoeff();
}

/// The outcome of close_entrywise: true when every entry is within the bound; streams the worst entry.
struct EntrywiseComparison {
  bool within = true;
  bool same_shape = true;
  Eigen::Index rows = 0, cols = 0, expected_rows = 0, expected_cols = 0;
  Eigen::Index row = 0, col = 0;  ///< the worst entry
  double actual = 0, expected = 0, error = 0, bound = 0;

  explicit operator bool() const { return within; }
};

inline std::ostream& operator<<(std::ostream& os, const EntrywiseComparison& c) {
  if (!c.same_shape)
    return os << "shape " << c.rows << "x" << c.cols << " vs expected " << c.expected_rows << "x" << c.expected_cols;
  os.precision(17);
  return os << "worst entry (" << c.row << ", " << c.col << ") of " << c.rows << "x" << c.cols << ": actual "
            << c.actual << ", expected " << c.expected << ", |error| " << c.error << (c.within ? " <= " : " > ")
            << "bound " << c.bound;
}

/// The comparison on dynamic matrices of one scalar, so that each scalar instantiates it once.
template <class S>
EntrywiseComparison close_entrywise_dynamic(const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>& a,
                                            const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>& b, double bound) {
  EntrywiseComparison c;
  c.rows = a.rows();
  c.cols = a.cols();
  c.expected_rows = b.rows();
  c.expected_cols = b.cols();
  c.bound = bound;
  if (c.rows != c.expected_rows || c.cols != c.expected_cols) {
    c.within = c.same_shape = false;
    return c;
  }
  bool first = true;
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      using std::abs;
      const double e = static_cast<double>(abs(a(i, j) - b(i, j)));
      if (first || std::isnan(e) || (!std::isnan(c.error) && e > c.error)) {
        first = false;
        c.row = i;
        c.col = j;
        c.error = e;
        c.actual = static_cast<double>(a(i, j));
        c.expected = static_cast<double>(b(i, j));
      }
    }
  c.within = !std::isnan(c.error) && c.error <= bound;
  return c;
}

/// Entrywise |actual − expected| <= bound. The difference is formed in the wider of the two scalars (so a
/// long double comparison keeps its precision); a NaN entry fails; empty matrices of one shape pass.
template <class DerivedA, class DerivedB, class Bound>
EntrywiseComparison close_entrywise(const Eigen::MatrixBase<DerivedA>& actual, const Eigen::MatrixBase<DerivedB>& expected,
                                    const Bound& bound) {
  using S = std::common_type_t<typename DerivedA::Scalar, typename DerivedB::Scalar>;
  using M = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  return close_entrywise_dynamic<S>(M(actual.template cast<S>()), M(expected.template cast<S>()),
                                    static_cast<double>(bound));
}

}  // namespace treedyn::test
