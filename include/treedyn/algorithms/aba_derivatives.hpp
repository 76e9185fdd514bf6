// aba_derivatives: the partial derivatives of forward dynamics q̈ = FD(q, q̇, τ[, f_ext]) = aba(...):
// ∂q̈/∂q, ∂q̈/∂q̇ and ∂q̈/∂τ = H(q)⁻¹, from the inverse-dynamics derivatives at the forward-dynamics solution.
//
// Reference: Carpentier & Mansard, "Analytical derivatives of rigid body dynamics algorithms", RSS 2018: since
// RNEA(q, q̇, FD(q, q̇, τ)) = τ for all (q, q̇, τ), differentiating gives H ∂q̈/∂q + ∂τ/∂q = 0 and the same in q̇,
// and H ∂q̈/∂τ = 1 (docs/derivatives.md#forward-dynamics):
//   F1  q̈ = aba(q, q̇, τ[, f_ext])                                  (aba.hpp; data.qdd)
//   F2  H⁻¹ = minverse_aba(q)                                        (minverse_aba.hpp: one O(n²) pass, not n ABAs)
//   F3  ∂τ/∂q, ∂τ/∂q̇ = rnea_derivatives(q, q̇, q̈[, f_ext])            (rnea_derivatives.hpp, at F1's q̈)
//   F4  ∂q̈/∂q = −H⁻¹ ∂τ/∂q;  ∂q̈/∂q̇ = −H⁻¹ ∂τ/∂q̇;  ∂q̈/∂τ = H⁻¹   (on the nonzero rows of ∂τ's columns only:
//       body j's columns have them in j's ancestors and subtree, D12; minus_minv_times_tree_sparse)
// Tangent convention and layout as rnea_derivatives (docs/derivatives.md#tangent-convention): every matrix is
// n×n, column c the c-th tangent increment of q (or entry of q̇, τ), row r the DoF r of q̈.
// Cost: the ABA O(N), minverse_aba O(n²), rnea_derivatives O(n·d), and the two products of F4: n² times the
// number of nonzero rows of ∂τ's columns (ancestors plus subtree; O(n³) for a chain, about half of it for a
// humanoid's branches), coefficient-based (no allocation).
// Contract: q (nq), q̇, τ (nv) any Eigen vectors; f_ext any container of Force<Scalar> indexed by body (default
// none). Writes ws (ddq_dq, ddq_dv, ddq_dtau, and the workspaces of F2 and F3), data.qdd (q̈), data.tau (the τ
// that F3 recomputes from q̈), and what aba and minverse_aba write in data. Arguments are checked like aba's
// (detail/check.hpp); a failure of F1–F3 (a zero quaternion, a NaN or an infinity in an input, a joint pivot
// that is not positive definite) returns that step's status, with every output NaN. noexcept; never allocates.
#pragma once

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/detail/minus_product.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"

namespace treedyn {

/// The workspace and outputs of aba_derivatives, sized once from the model (allocates unless N is fixed).
/// One per thread, like Data.
template <class Scalar, int N = Dynamic>
struct AbaDerivativesWorkspace {
  explicit AbaDerivativesWorkspace(const Model<Scalar, N>& model)
      : ddq_dq(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        ddq_dv(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        ddq_dtau(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        rnea(model),
        minverse(model),
        model_id(model.id()) {}

  MatrixN<Scalar, N> ddq_dq;    ///< output: ∂q̈/∂q (n×n; column c: the tangent increment δ_c)
  MatrixN<Scalar, N> ddq_dv;    ///< output: ∂q̈/∂q̇ (n×n)
  MatrixN<Scalar, N> ddq_dtau;  ///< output: ∂q̈/∂τ = H⁻¹ (n×n, full symmetric)
  Status status;                ///< the status of the last call (also returned)
  RneaDerivativesWorkspace<Scalar, N> rnea;  ///< F3: ∂τ/∂q and ∂τ/∂q̇ at (q, q̇, q̈) are left here
  MinverseAbaWorkspace<Scalar, N> minverse;  ///< F2
  std::uint64_t model_id;  ///< Model::id() of the model it was built for (checked)
};

namespace detail {

/// A failed call: every output NaN, the status recorded and returned.
template <class Scalar, int N>
Status aba_derivatives_fail(Data<Scalar, N>& data, AbaDerivativesWorkspace<Scalar, N>& ws, const Status& status) noexcept {
  fill_nan(ws.ddq_dq);
  fill_nan(ws.ddq_dv);
  fill_nan(ws.ddq_dtau);
  fill_nan(data.qdd);
  ws.status = status;
  return status;
}

/// The first DoF of the run of rows that ends at `end` and is made of body k's DoFs and those of its ancestors
/// numbered right before each other; `k` is left at the first ancestor outside the run (no_parent if none).
template <class Scalar, int N>
int contiguous_ancestor_run(const Model<Scalar, N>& model, int& k, int start) noexcept {
  while (k != no_parent && model.v_offset(k) + model.motion_subspaces()[k].cols() == start) {
    start = model.v_offset(k);
    k = model.parent(k);
  }
  return start;
}

/// F4 on the tree sparsity of ∂τ (D12): Y = −H⁻¹ X for X = ∂τ/∂q or ∂τ/∂q̇, whose column block of body j is
/// nonzero only in the rows of j's ancestors and of j's subtree. With regular numbering the subtree's rows lie
/// in [vi(j), e_j) (MinverseAbaWorkspace::subtree_end; the rows of that range outside the subtree are 0) and
/// the ancestors' rows before vi(j). Y's block j = −Σ over the runs [a, b) of those rows (the subtree's range
/// extended by the ancestors numbered right before it, then each further run of ancestors) of
/// H⁻¹[:, a … b) X[a … b, block j]. Consecutive bodies with the same runs (a chain: all of them; a humanoid's
/// limb: the limb and the base) form one product. The dense product's arithmetic on the nonzero rows only (detail/minus_product.hpp: in register
/// tiles, no allocation).
template <class Scalar, int N>
void minus_minv_times_tree_sparse(const Model<Scalar, N>& model, const MinverseAbaWorkspace<Scalar, N>& minverse,
                                  const MatrixN<Scalar, N>& X, MatrixN<Scalar, N>& Y) noexcept {
  const MatrixN<Scalar, N>& Minv = minverse.Minv;
  const int nb = model.nbodies();
  for (int j = 0; j < nb;) {
    const int vj = model.v_offset(j), end = minverse.subtree_end[j];
    int k = model.parent(j);
    const int start = contiguous_ancestor_run(model, k, vj);
    int cols = static_cast<int>(model.motion_subspaces()[j].cols());
    int next = j + 1;  // take the following bodies whose runs are the same (first run and first ancestor after it)
    for (; next < nb && model.v_offset(next) == vj + cols && minverse.subtree_end[next] == end; ++next) {
      int kn = model.parent(next);
      if (contiguous_ancestor_run(model, kn, model.v_offset(next)) != start || kn != k) break;
      cols += static_cast<int>(model.motion_subspaces()[next].cols());
    }
    auto Yj = Y.middleCols(vj, cols);
    minus_product(Yj, Minv.middleCols(start, end - start), X.block(start, vj, end - start, cols), true);
    while (k != no_parent) {
      const int run_end = model.v_offset(k) + static_cast<int>(model.motion_subspaces()[k].cols());
      const int run_start = contiguous_ancestor_run(model, k, run_end);
      minus_product(Yj, Minv.middleCols(run_start, run_end - run_start),
                    X.block(run_start, vj, run_end - run_start, cols), false);
    }
    j = next;
  }
}

}  // namespace detail

/// ∂q̈/∂q, ∂q̈/∂q̇ and ∂q̈/∂τ into ws.ddq_dq, ws.ddq_dv, ws.ddq_dtau at (q, q̇, τ[, f_ext]) (tangent increments of
/// q; see the header comment), and q̈ = aba(q, q̇, τ[, f_ext]) into data.qdd. Returns the status.
template <class Scalar, int N, class Dq, class Dv, class Dt, class Fext = detail::NoExternalForces<Scalar>>
Status aba_derivatives(const Model<Scalar, N>& model, Data<Scalar, N>& data, AbaDerivativesWorkspace<Scalar, N>& ws,
                       const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd, const Eigen::MatrixBase<Dt>& tau,
                       const Fext& f_ext = Fext{}) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Dv, "qd");
  TREEDYN_SAME_SCALAR(Scalar, Dt, "tau");
  constexpr const char* fn = "aba_derivatives";
  if (!(detail::forward_dynamics_arguments_ok(fn, model, data, q, qd, tau, f_ext) &&
        detail::same_model(fn, "ws", ws.model_id, model.id())))
    return ws.status = Status::invalid_argument(fn);
  aba(model, data, q, qd, tau, f_ext);                                               // F1
  if (!data.aba_status) return detail::aba_derivatives_fail(data, ws, data.aba_status);
  minverse_aba(model, data, ws.minverse, q);                                         // F2
  if (!ws.minverse.status) return detail::aba_derivatives_fail(data, ws, ws.minverse.status);
  const Status st = rnea_derivatives(model, data, ws.rnea, q, qd, data.qdd, f_ext);  // F3
  if (!st) return detail::aba_derivatives_fail(data, ws, st);
  detail::minus_minv_times_tree_sparse(model, ws.minverse, ws.rnea.dtau_dq, ws.ddq_dq);  // F4
  detail::minus_minv_times_tree_sparse(model, ws.minverse, ws.rnea.dtau_dv, ws.ddq_dv);
  ws.ddq_dtau = ws.minverse.Minv;
  detail::nan_whole_failed_lanes(ws.ddq_dq, ws.ddq_dv, ws.ddq_dtau, data.qdd);  // over lanes (docs/lanes.md)
  return ws.status = Status::success();
}

}  // namespace treedyn
