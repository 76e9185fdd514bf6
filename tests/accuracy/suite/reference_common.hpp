// The 50-digit scalar of the accuracy references (Boost.Multiprecision, header-only) and the conversions
// between it and the long double the references are returned in. Included only by the reference_*.cpp units:
// every algorithm instantiated in this type is expensive to compile, so each unit instantiates one family.
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "accuracy/suite/accuracy.hpp"

namespace treedyn::accuracy {

using Real = boost::multiprecision::cpp_bin_float_50;
using MatrixR = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
using VectorR = Eigen::Matrix<Real, Eigen::Dynamic, 1>;

template <class Derived>
MatrixL to_long_double(const Eigen::MatrixBase<Derived>& a) {
  MatrixL out(a.rows(), a.cols());
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i) out(i, j) = static_cast<long double>(a(i, j));
  return out;
}

inline VectorR to_real(const Eigen::VectorXd& v) {
  VectorR out(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) out(i) = Real(v(i));
  return out;
}

}  // namespace treedyn::accuracy
