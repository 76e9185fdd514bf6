// crba_dense: the CRBA followed by its dense view, for tests that compare H as an n×n matrix.
#pragma once

#include "treedyn/algorithms/crba.hpp"

namespace treedyn::test {

/// H(q), full symmetric n×n: crba (packed, into data.H) then dense_H. Allocates (tests only).
template <class Scalar, int N, class Dq>
MatrixN<Scalar, N> crba_dense(const Model<Scalar, N>& model, Data<Scalar, N>& data, const Eigen::MatrixBase<Dq>& q) {
  crba(model, data, q);
  return dense_H(model, data);
}

}  // namespace treedyn::test
