// minverse_ltdl: the inverse joint-space inertia matrix H(q)⁻¹ by CRBA, sparse LTDL and the tree inverse.
//
// Reference: H⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ with the ancestor sparsity of L⁻¹ (kernels/ltdl_inverse.hpp),
// on Featherstone (2005) §5 (CRBA) and Appendix A (LTDL); docs/references.md.
//   V1  H = crba(q)                                   (crba.hpp)
//   V2  H = Lᵀ D L on a copy of packed H              (kernels/ltdl_packed.hpp, model.h_pattern())
//   V3  if a pivot D_k is not > 0: status names row k; H⁻¹ ← NaN
//   V4  H⁻¹ row by row: X_ij = δ_ij/D_i − Σ_{k ∈ anc(i), k<i} L_ik X_kj, j ≤ i, mirrored (kernels/ltdl_inverse.hpp)
// Why the packed factor: it is the library's fastest LTDL (it gathers long rows,
// pushes short ones), and V4 reads only row i's ancestor entries, which the packed layout stores
// contiguously; the dense ltdl gives the same numbers up to rounding order (tested) and is slower,
// the more so the longer the chain (docs/design-notes.md#minverse_ltdl-factors-on-packed-ancestor-rows).
// Contract: q has model.nq() entries. Writes data.H (crba, packed), data.H_factor, data.factor_status and
// the workspace ws (MinverseLtdlWorkspace: Minv, returned): the FULL symmetric n×n H⁻¹, both triangles.
// H⁻¹ is n×n, so it lives in the workspace of this O(n²)-storage algorithm, not in Data (the calling
// shape of minverse_aba). If H is not positive definite (e.g. massless tip bodies), data.factor_status
// names the row (DoF) of the failing pivot and ws.Minv is NaN — never a silently wrong matrix. Cost:
// CRBA + D2 (factor) + Σ_i (d_i − 1)(i + 1) (≤ n·D1); O(n³) for a chain, O(n²) for trees of bounded
// depth. noexcept; never allocates.
#pragma once

#include <cstdint>
#include <limits>

#include "treedyn/algorithms/crba.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/ltdl_inverse.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {

/// The output of minverse_ltdl, sized once from the model (allocates n×n; with a fixed N it is a fixed-size
/// matrix and does not). One per thread, like Data.
template <class Scalar, int N = Dynamic>
struct MinverseLtdlWorkspace {
  explicit MinverseLtdlWorkspace(const Model<Scalar, N>& model)
      : Minv(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())), model_id(model.id()) {}

  MatrixN<Scalar, N> Minv;  ///< output: H⁻¹, full symmetric (both triangles)
  std::uint64_t model_id;   ///< Model::id() of the model it was built for (checked by minverse_ltdl)
};

/// H(q)⁻¹, full symmetric, into ws.Minv; status in data.factor_status. Returns ws.Minv.
template <class Scalar, int N, class Dq>
const MatrixN<Scalar, N>& minverse_ltdl(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                        MinverseLtdlWorkspace<Scalar, N>& ws, const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!(detail::model_data_q_ok("minverse_ltdl", model, data, q) &&
        detail::same_model("minverse_ltdl", "ws", ws.model_id, model.id())))
    return ws.Minv;
  crba(model, data, q);                                                             // V1
  if (!data.config_status) {
    data.factor_status = data.config_status;
    return detail::fill_nan(ws.Minv);
  }
  data.H_factor = data.H;
  data.factor_status = ltdl_packed(data.H_factor, model.h_pattern());               // V2
  if (!data.factor_status) {                                                        // V3
    ws.Minv.setConstant(detail::nan<Scalar>());
    return ws.Minv;
  }
  ltdl_inverse_packed(data.H_factor, model.h_pattern(), ws.Minv);                   // V4
  return ws.Minv;
}

}  // namespace treedyn
