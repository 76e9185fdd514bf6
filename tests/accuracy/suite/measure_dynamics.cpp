// measure_dynamics<T>: H, τ, C, the LTL / LTDL factors and the three forward-dynamics routes in T against the
// 50-digit reference. Compiled once per scalar (TREEDYN_TEST_SCALAR).
#include <cmath>

#include "accuracy/suite/measure_common.hpp"
#include "support/tree_matrices.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltl.hpp"

namespace treedyn::accuracy {

namespace {

/// The backward error of an in-place factor F of A: max_ij |(LᵀDL − A)_ij| / √(A_ii A_jj) (unit: LTDL).
template <class T, class Parents>
double factor_error(const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>& F, const Parents& lambda,
                    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>& A, bool unit) {
  const std::vector<int> parents(lambda.begin(), lambda.end());
  const MatrixL L = widen(test::dense_factor(F, parents, unit));
  const MatrixL product = unit ? MatrixL(L.transpose() * widen(F).diagonal().asDiagonal() * L) : MatrixL(L.transpose() * L);
  return scaled_error(product, widen(A));
}

}  // namespace

template <class T>
std::vector<Measurement> measure_dynamics(const Case& c, const std::vector<Reference>& refs) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  const Model<T> model = c.model.template cast<T>();
  Data<T> data(model);
  Recorder<T> r{c, {}};
  const int n = model.nv();
  for (std::size_t k = 0; k < c.states.size(); ++k) {
    const State& s = c.states[k];
    const Reference& ref = refs[k];
    const VectorT q = s.q.cast<T>(), qd = s.qd.cast<T>(), tau = s.tau.cast<T>();
    crba(model, data, q);
    const MatrixT H = dense_H(model, data);
    const VectorL tau_n = widen(rnea(model, data, q, qd, tau));  // at q̈ = the state's τ vector
    record_h_tau_c(r, s, ref, widen(H), tau_n, widen(bias(model, data, q, qd)), n);
    if (!forward_checked<T>(c, n, ref)) continue;
    for (const bool unit : {true, false}) {
      if (!solvable<T>(n, ref.kappa_s)) break;  // a factor of an H that need not be positive definite in T: nothing to bound
      MatrixT F = H;
      const FactorStatus status = unit ? ltdl(F, model.dof_parents()) : ltl(F, model.dof_parents());
      r.add(unit ? "ltdl" : "ltl", "factor", status ? factor_error(F, model.dof_parents(), H, unit) : std::numeric_limits<double>::quiet_NaN(), 16, n);
    }
    record_forward(r, "forward_dynamics_crba", s, ref, widen(forward_dynamics_crba(model, data, q, qd, tau)), n);
    record_forward(r, "aba", s, ref, widen(aba(model, data, q, qd, tau)), n);
    record_forward(r, "modified_aba", s, ref, widen(modified_aba(model, data, q, qd, tau)), n);
  }
  return r.out;
}

template std::vector<Measurement> measure_dynamics<TREEDYN_TEST_SCALAR>(const Case&, const std::vector<Reference>&);

}  // namespace treedyn::accuracy
