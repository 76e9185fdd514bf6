// 50-digit H, C, H⁻¹ and q̈ = H⁻¹(τ − C): the CRBA, bias (RNEA) and the LTDL kernels in cpp_bin_float_50.
#include <stdexcept>

#include "accuracy/suite/reference_common.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/tree_products.hpp"

namespace treedyn::accuracy {

Reference reference_dynamics(const Model<double>& model_d, const State& s) {
  const Model<Real> model = model_d.cast<Real>();
  Data<Real> data(model);
  const VectorR q = to_real(s.q), qd = to_real(s.qd), tau = to_real(s.tau);
  const int n = model.nv();
  crba(model, data, q);
  MatrixR H = dense_H(model, data);
  const VectorR C = bias(model, data, q, qd);
  Reference ref;
  ref.H = to_long_double(H);
  ref.C = to_long_double(C);
  const FactorStatus status = ltdl(H, model.dof_parents());
  if (!status) throw std::runtime_error("reference: H is not positive definite in 50 digits");
  VectorR x = tau - C;
  ltdl_solve(H, model.dof_parents(), x);
  ref.qdd = to_long_double(x);
  MatrixR inv = MatrixR::Identity(n, n);
  for (int j = 0; j < n; ++j) {
    VectorR e = inv.col(j);
    ltdl_solve(H, model.dof_parents(), e);
    inv.col(j) = e;
  }
  ref.Hinv = to_long_double(inv);
  ref.kappa = test::spd_condition(ref.H);
  ref.kappa_s = scaled_condition(ref.H);
  return ref;
}

}  // namespace treedyn::accuracy
