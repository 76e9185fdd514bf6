// FactorStatus: how a factorization ended, naming the row of a non-positive pivot and what that row counts.
// It also reports the two input failures that are values rather than sizes: a joint quaternion that is
// zero or not finite (invalid_configuration) and an irregular parent array (invalid_parent_array).
//
// Hot kernels are noexcept: instead of throwing or leaving NaN behind, a factorization that meets a pivot
// that is not > 0 (zero, negative or NaN) stops there and reports it here. For the matrix kernels the
// rows above it are then untouched, the rows below it hold finished factor rows; the matrix is no
// factorization and must not be used for solves.
// What `row` counts is stated by `index`, because two kinds of pivot fail in this library:
//   Index::row   a row of the factored matrix — for H a DoF (the LTL / LTDL kernels, the CRBA routes), for
//                an operational-space matrix a row of Λ, for a block system the first scalar row of the block;
//   Index::body  a body whose joint pivot D_i = S_iᵀ IA_i S_i is not positive definite (the articulated-body
//                methods, the ABA-based inverse and the OSCM kernels, which never form H).
// Pivots are checked by detail::pivot_ok (detail/scalar.hpp): a symbolic Scalar's pivots cannot be
// checked, so for it every factorization runs to the end and reports success.
#pragma once

namespace treedyn {

struct FactorStatus {
  /// non_positive_pivot: see above. invalid_configuration: the quaternion of body `row`'s spherical or
  /// free-flyer joint is zero or not finite (Index::body); the algorithm's outputs are NaN.
  /// invalid_parent_array: entry `row` of a kernel's parent array is not regular (−1 ≤ λ(row) < row), so
  /// the kernel did nothing (Index::row).
  /// invalid_argument: a size check failed and the check handler returned (detail/check.hpp); row = -1.
  enum class Code { success, non_positive_pivot, invalid_configuration, invalid_parent_array, invalid_argument };
  enum class Index { row, body };

  Code code = Code::success;
  /// 0-based row (or body, see `index`) whose pivot was not positive; -1 on success.
  int row = -1;
  /// What `row` counts: a matrix row (a DoF for H) or a body.
  Index index = Index::row;

  [[nodiscard]] constexpr bool ok() const noexcept { return code == Code::success; }
  constexpr explicit operator bool() const noexcept { return ok(); }
  /// True when `row` is a body index (a failed joint pivot), false when it is a matrix row.
  [[nodiscard]] constexpr bool names_body() const noexcept { return index == Index::body; }

  static constexpr FactorStatus success() noexcept { return {}; }
  /// A matrix pivot: row `failed_row` of the factored matrix (for H: that DoF).
  static constexpr FactorStatus non_positive_pivot(int failed_row) noexcept {
    return {Code::non_positive_pivot, failed_row, Index::row};
  }
  /// A joint pivot D_i of body `failed_body` is not positive definite.
  static constexpr FactorStatus non_positive_joint_pivot(int failed_body) noexcept {
    return {Code::non_positive_pivot, failed_body, Index::body};
  }
  /// The joint configuration of body `body` (its quaternion) is zero or not finite.
  static constexpr FactorStatus invalid_configuration(int body) noexcept {
    return {Code::invalid_configuration, body, Index::body};
  }
  /// A size check failed and the check handler returned.
  static constexpr FactorStatus invalid_argument() noexcept { return {Code::invalid_argument, -1, Index::row}; }
  /// Entry `failed_row` of the parent array is not regular (λ(row) < −1 or λ(row) ≥ row).
  static constexpr FactorStatus invalid_parent_array(int failed_row) noexcept {
    return {Code::invalid_parent_array, failed_row, Index::row};
  }
};

}  // namespace treedyn
