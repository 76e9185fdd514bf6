// osim: Khatib's operational-space inertia Λ = (J M⁻¹ Jᵀ)⁻¹ of n_c frames, by oscm and a dense LᵀDL factorization.
//
// Reference: Λ is Khatib's operational-space inertia and Λ⁻¹ = J M⁻¹ Jᵀ the compliance (Jain's OSCM, which
// Jain writes Λ: docs/notation.md#operational-space-λ-is-the-inertia); Jain (n.d.) Appendix (docs/references.md); the LTDL kernel
// of Featherstone (2005) App. A on packed rows (kernels/ltdl_packed.hpp) with the chain parent array λ(k) = k − 1,
// which makes it the dense reversed LᵀDL factorization (tested), and its inverse
// (kernels/ltdl_inverse.hpp).
//   I1  Λ⁻¹ = oscm(q, frames)                    (oscm.hpp; a failed joint pivot → frames.status = that status)
//   I2  Λ⁻¹ = Lᵀ D L   (ltdl_packed on a packed copy, λ(k) = k − 1); stop at the first pivot D_k ≤ m·ε·max_j (Λ⁻¹)_jj
//   I3  Λ = L⁻¹ D⁻¹ L⁻ᵀ                      (ltdl_inverse_packed, both triangles)
// A pivot at or below m·ε·max_j (Λ⁻¹)_jj counts as zero: Λ⁻¹ is then singular to working precision (J does not
// have full row rank, e.g. 6 rows on a body with fewer than 6 DoFs between it and the base), and
// frames.status names the row of Λ⁻¹ where the factorization stopped; Λ is NaN then.
// Contract: frames built on this model; q has model.nq() entries. Writes everything oscm writes, and
// frames.compliance_factor, frames.status and frames.inertia (returned, both triangles). Cost: oscm +
// m³/6 + m³/2 multiply-adds for m rows. noexcept; never allocates.
#pragma once

#include <limits>

#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/ltdl_inverse.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"

namespace treedyn {
namespace detail {

/// I2–I3 on the Λ⁻¹ that oscm left in frames (frames.status as oscm set it). Returns frames.inertia.
template <class Scalar>
const typename OperationalFrames<Scalar>::MatrixX& osim_from_compliance(OperationalFrames<Scalar>& frames) noexcept {
  if (frames.status) {
    const int m = frames.rows();
    frames.dense_pattern.pack(frames.compliance, frames.compliance_factor);              // I2
    const FactorStatus factored = ltdl_packed(frames.compliance_factor, frames.dense_pattern);
    const Scalar singular = Scalar(m) * detail::evaluation_epsilon<Scalar>() * frames.compliance.diagonal().maxCoeff();
    frames.status = factored;
    for (int k = m - 1; k >= (factored ? 0 : factored.row); --k)  // the pivots ltdl formed, in its order
      if (!(frames.compliance_factor(frames.dense_pattern.row_start(k)) > singular)) {
        frames.status = FactorStatus::non_positive_pivot(k, "osim");
        break;
      }
  }
  if (!frames.status) {
    frames.inertia.setConstant(detail::nan<Scalar>());
    return frames.inertia;
  }
  ltdl_inverse_packed(frames.compliance_factor, frames.dense_pattern, frames.inertia);   // I3 (both triangles)
  return frames.inertia;
}

}  // namespace detail

/// Λ (the operational-space inertia) for the frames; status in frames.status. Returns frames.inertia.
template <class Scalar, int N, class Dq>
const typename OperationalFrames<Scalar>::MatrixX& osim(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                        OperationalFrames<Scalar>& frames,
                                                        const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  oscm(model, data, frames, q);                                                      // I1
  return detail::osim_from_compliance(frames);
}

/// The same Λ at the q of the last call that formed data.Xup (compute_all_terms, crba, forward_kinematics, …):
/// I1 is oscm(model, data, frames), which reuses those joint transforms
/// (docs/operational-space.md#after-a-controller-tick).
template <class Scalar, int N>
const typename OperationalFrames<Scalar>::MatrixX& osim(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                        OperationalFrames<Scalar>& frames) noexcept {
  oscm(model, data, frames);                                                         // I1
  return detail::osim_from_compliance(frames);
}

}  // namespace treedyn
