// FactorStatus: how a factorization ended, naming the row of a non-positive pivot.
//
// Hot kernels are noexcept (architecture.md §5): instead of throwing or leaving NaN behind, a
// factorization that meets a pivot that is not > 0 (zero, negative or NaN) stops at that row and
// returns its 0-based index here. The rows above it are then untouched, the rows below it hold
// finished factor rows; the matrix is no factorization and must not be used for solves.
// Pivots are checked by detail::pivot_ok (detail/scalar.hpp): a symbolic Scalar's pivots cannot be
// checked, so for it every factorization runs to the end and reports success.
#pragma once

namespace treedyn {

struct FactorStatus {
  enum class Code { success, non_positive_pivot };

  Code code = Code::success;
  /// 0-based row whose pivot was not positive; -1 on success.
  int row = -1;

  [[nodiscard]] constexpr bool ok() const noexcept { return code == Code::success; }
  constexpr explicit operator bool() const noexcept { return ok(); }

  static constexpr FactorStatus success() noexcept { return {}; }
  static constexpr FactorStatus non_positive_pivot(int failed_row) noexcept {
    return {Code::non_positive_pivot, failed_row};
  }
};

}  // namespace treedyn
