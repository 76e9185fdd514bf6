// aba and modified_aba called through one switch, for the tests that run both on the same inputs.
#pragma once

#include <Eigen/Core>

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/modified_aba.hpp"

namespace treedyn::test {

enum class Method { aba, modified_aba };

template <class T, class Dq, class Dv, class Dt>
Eigen::Matrix<T, Eigen::Dynamic, 1> run(Method m, const Model<T>& model, Data<T>& data, const Dq& q, const Dv& qd,
                                       const Dt& tau) {
  return m == Method::aba ? aba(model, data, q, qd, tau) : modified_aba(model, data, q, qd, tau);
}

inline const char* name(Method m) { return m == Method::aba ? "aba" : "modified_aba"; }

}  // namespace treedyn::test
