// What the measure_*.cpp units share: the recorder that turns an error into a Measurement in units of ε, the
// widening of a computed result to long double, and the test of whether a forward problem is meaningful in T.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "accuracy/suite/accuracy.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"

namespace treedyn::accuracy {

template <class Derived>
MatrixL widen(const Eigen::MatrixBase<Derived>& a) {
  return a.template cast<long double>();
}

/// True while 8·n·ε·κ_s < 1: the scaled H rounded to T is safely positive definite (accuracy.hpp).
template <class T>
bool solvable(int n, double kappa_s) {
  return 8.0 * n * test::eps<T>() * kappa_s < 1.0;
}

template <class T>
struct Recorder {
  const Case& c;
  std::vector<Measurement> out;

  /// Records `error` (absolute, in the metric's units) against the bound c·n·ε·κ.
  void add(const std::string& algorithm, const std::string& metric, double error, double constant, int n,
           double kappa = 1.0) {
    Measurement m;
    m.model = c.name;
    m.kind = c.kind;
    m.algorithm = algorithm;
    m.metric = metric;
    m.scalar = std::is_same<T, float>::value ? "float" : "double";
    m.error = error / test::eps<T>();
    m.c = constant;
    m.n = n;
    m.kappa = kappa;
    out.push_back(m);
  }
};

}  // namespace treedyn::accuracy
