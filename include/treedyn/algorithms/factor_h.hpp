// factor_H / solve_H: H = Lᵀ D L after crba, then x ← H⁻¹ x, on the model's packed ancestor rows.
//
// Reference: Featherstone (2005) §6 and App. A (the LTDL factorization, docs/references.md) as
// kernels/ltdl_packed.hpp implements it; docs/dynamics.md#solving-with-h-factor_h-and-solve_h.
//   S1  data.H_factor = data.H;  H_factor = Lᵀ D L in place (ltdl_packed, model.h_pattern())
//   S2  x ← L⁻¹ D⁻¹ L⁻ᵀ x                                     (ltdl_solve_packed)
// Names: a Pinocchio user writes cholesky::decompose(model, data) then cholesky::solve(model, data, v);
// these are the same two steps, named for the matrix they act on (H, as crba and dense_H name it) and
// not "cholesky", because the factor is Featherstone's reversed Lᵀ D L, which keeps the tree's
// sparsity, not Cholesky's L Lᵀ (its fill-in is not the tree's).
// Contract: factor_H reads data.H as crba left it (it does not check that H is current) and writes
// data.H_factor and data.factor_status (returned): the row of the first pivot that is not > 0 (H not
// positive definite, e.g. massless tip links), or, after a crba that met a zero or non-finite
// quaternion, data.config_status. solve_H reads data.H_factor and data.factor_status: x (an nv-vector or
// an nv × m matrix, e.g. a Jacobian's transpose) is overwritten with H⁻¹ x, or with NaN when the factor
// failed, and the status is returned. Arguments are checked (detail/check.hpp): data built for this model,
// x with model.nv() rows. Cost: D2 multiply-subtracts and n divisions (factor_H), 2·D1 + n per column
// (solve_H), D1 = Σ depths. noexcept; never allocate.
#pragma once

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {

/// H = Lᵀ D L of data.H (crba first) into data.H_factor; returns data.factor_status.
template <class Scalar, int N>
FactorStatus factor_H(const Model<Scalar, N>& model, Data<Scalar, N>& data) noexcept {
  if (!detail::same_model("factor_H", "data", data.model_id, model.id()))
    return FactorStatus::invalid_argument("factor_H");
  if (!data.config_status) {  // crba met a bad quaternion: H is NaN, say why
    data.factor_status = data.config_status;
    return data.factor_status;
  }
  data.H_factor = data.H;                                                            // S1, in place
  data.factor_status = ltdl_packed(data.H_factor, model.h_pattern());
  return data.factor_status;
}

/// x ← H⁻¹ x with the factor of factor_H (x: nv rows, one or more columns; NaN if the factor failed).
/// Returns data.factor_status.
template <class Scalar, int N, class X>
FactorStatus solve_H(const Model<Scalar, N>& model, const Data<Scalar, N>& data, X&& x) noexcept {
  constexpr const char* fn = "solve_H";
  if (!detail::same_model(fn, "data", data.model_id, model.id())) return FactorStatus::invalid_argument(fn);
  TREEDYN_CHECK(x.rows() == model.nv(), fn, "x", "x.rows() = model.nv()", model.nv(), x.rows(),
                return FactorStatus::invalid_argument(fn));
  if (!data.factor_status) {
    x.setConstant(detail::nan<Scalar>());
    return data.factor_status;
  }
  ltdl_solve_packed(data.H_factor, model.h_pattern(), x);                            // S2
  return data.factor_status;
}

}  // namespace treedyn
