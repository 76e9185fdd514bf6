// oscm_dense: the reference path for Λ⁻¹ = J M⁻¹ Jᵀ: stacked frame Jacobians, CRBA and the tree-sparse LTDL solve.
//
// Reference: the definition Λ⁻¹ = J M⁻¹ Jᵀ, J from body Jacobians, M⁻¹ from the LTDL factor (the check of
// oscm.hpp); Jain (n.d.) eq. 46 (row selection Q_u; docs/references.md); the factorization
// of forward_dynamics_crba.hpp (Featherstone (2005) §5, App. A).
//   R1  H = crba(q) (packed);  its copy = Lᵀ D L in place (kernels/ltdl_packed.hpp); pivot not > 0 → status
//   R2  Jᵀ: column offset(a) + k = row row_index(a, k) of frame_jacobian(b(a), ^aX_b(a), local)
//   R3  Y = L⁻¹ D⁻¹ L⁻ᵀ Jᵀ        (ltdl_solve_packed, one column per row of Λ⁻¹)
//   R4  Λ⁻¹ = J Y, symmetrized      (a coefficient-wise product: no GEMM workspace)
// Contract: frames built on this model. q has model.nq() entries. Writes data.Xup, data.X_world, data.J,
// data.H, data.H_factor, data.factor_status, frames.Jt, frames.MinvJt, frames.status and
// frames.compliance (returned, both triangles). If H is not positive definite, frames.status names
// the DoF row of the failing pivot and Λ⁻¹ is NaN. Cost: CRBA + LTDL + m·(d·n_i + 2·D1 + n) + m²·n for m
// rows of Λ⁻¹ (O(n³) worst case on a chain; the recursive oscm.hpp is O(N)). noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"

namespace treedyn {

/// Λ⁻¹ = J M(q)⁻¹ Jᵀ by dense Jacobians and the LTDL factor of H; status in frames.status.
template <class Scalar, int N, class Dq>
const typename OperationalFrames<Scalar>::MatrixX& oscm_dense(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                              OperationalFrames<Scalar>& frames,
                                                              const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!detail::oscm_arguments_ok("oscm_dense", model, data, frames, &q)) return frames.compliance;
  crba(model, data, q);                                                              // R1
  if (!data.config_status) return detail::oscm_fail(frames, data.config_status);
  data.H_factor = data.H;                                                           // factored in place
  data.factor_status = ltdl_packed(data.H_factor, model.h_pattern());
  if (!data.factor_status) return detail::oscm_fail(frames, data.factor_status);
  frames.status = data.factor_status;
  detail::world_placements(model, data);                                             // R2 (data.Xup: R1)
  for (int a = 0; a < frames.size(); ++a) {
    frame_jacobian(model, data, frames.body(a), frames.placement(a), ReferenceFrame::local);
    for (int k = 0; k < frames.row_count(a); ++k)
      frames.Jt.col(frames.row_offset(a) + k) = data.J.row(frames.row_index(a, k)).transpose();
  }
  frames.MinvJt = frames.Jt;                                                         // R3
  ltdl_solve_packed(data.H_factor, model.h_pattern(), frames.MinvJt);
  frames.compliance.noalias() = frames.Jt.transpose().lazyProduct(frames.MinvJt);    // R4
  const Eigen::Index m = frames.compliance.rows();
  for (Eigen::Index j = 0; j < m; ++j)
    for (Eigen::Index i = j + 1; i < m; ++i) {
      const Scalar s = Scalar(0.5) * (frames.compliance(i, j) + frames.compliance(j, i));
      frames.compliance(i, j) = s;
      frames.compliance(j, i) = s;
    }
  return frames.compliance;
}

}  // namespace treedyn
