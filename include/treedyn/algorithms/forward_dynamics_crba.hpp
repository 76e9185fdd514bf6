// forward_dynamics_crba: q̈ = H⁻¹ (τ − C) by CRBA, RNEA bias and the tree-sparse LTDL factorization.
//
// Reference: Featherstone (2005) §6 (the "O(n³)" route: CRBA + LTDL + back-substitution; docs/references.md).
//   F1  H = crba(q)                     (crba.hpp; packed ancestor rows of model.h_pattern())
//   F2  C = bias(q, q̇[, f_ext])          (rnea.hpp)
//   F3  H = Lᵀ D L on a copy of packed H (factor_H: kernels/ltdl_packed.hpp on model.h_pattern())
//   F4  q̈ = L⁻¹ D⁻¹ L⁻ᵀ (τ − C)         (ltdl_solve_packed)
// Contract: q (nq), q̇, τ (nv), f_ext (nbodies), checked (detail/check.hpp); a zero or non-finite
// quaternion gives data.factor_status = invalid_configuration naming the body and q̈ = NaN; a NaN or an
// infinity in q, q̇, τ or f_ext gives non_finite_input naming the argument and entry (docs/errors.md). Writes data.H,
// data.C, data.H_factor, data.factor_status and data.qdd (returned). If H is not positive definite (e.g.
// massless bodies at the tips), data.factor_status names the row of the failing pivot and data.qdd is set
// to NaN — never a silently wrong number.
// Cost: CRBA + RNEA + n divisions + D2 (factor) + 2·D1 (solve). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"

namespace treedyn {

/// q̈ = H(q)⁻¹ (τ − C(q, q̇)); status in data.factor_status. External forces f_ext[i] (body-i
/// coordinates; default none) enter C. The joint transforms are computed once, by F1, and reused by F2.
/// Returns data.qdd.
template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext = detail::NoExternalForces<Scalar>>
const VectorN<Scalar, N>& forward_dynamics_crba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                                                const Eigen::MatrixBase<Dt>& tau, const Fext& f_ext = Fext{}) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Dt, "tau");
  if (!detail::forward_dynamics_arguments_ok("forward_dynamics_crba", model, data, q, qd, tau, f_ext)) return data.qdd;
  crba(model, data, q);                                                             // F1 (sets data.Xup)
  if (!data.config_status || !detail::velocity_inputs_finite("forward_dynamics_crba", data, qd, f_ext) ||
      !detail::finite_ok("forward_dynamics_crba", "tau", tau, data.config_status)) {
    data.factor_status = data.config_status;
    return detail::fill_nan(data.qdd);
  }
  detail::rnea_given_transforms(model, data, qd, static_cast<const Eigen::MatrixBase<Dv>*>(nullptr), f_ext,
                                data.C);                                            // F2
  if (!factor_H(model, data)) return detail::fill_nan(data.qdd);                   // F3 (factor_h.hpp)
  data.qdd = tau - data.C;
  ltdl_solve_packed(data.H_factor, model.h_pattern(), data.qdd);                    // F4
  return data.qdd;
}

}  // namespace treedyn
