// treedyn::detail joint pivots: the n_i×n_i pivot D_i = S_iᵀ IA_i S_i of the articulated-body methods.
//
// Reference: the ABA's pass 2, D_i⁻¹ by a small Cholesky (n_i ≤ 6); Featherstone, Rigid Body
// Dynamics Algorithms, 2008, §7.3. A joint pivot is factored in place as D = L Lᵀ (L lower, n ≤ 6); a
// pivot that is not > 0 (zero, negative or NaN) makes factor() return false (never for a symbolic Scalar,
// whose pivots cannot be checked: detail/scalar.hpp, pivot_ok). Solves never divide by a
// reciprocal: for a 1-DoF joint, D⁻¹ Uᵀ is Uᵀ / D, so that an axis-aligned projection gives exactly
// m − m·1 = 0 in any precision (see modified_aba.hpp). Fixed maximum size 6: nothing allocates.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "treedyn/detail/scalar.hpp"

namespace treedyn::detail {

/// A joint-space pivot block, n×n with n ≤ 6, stored inline.
template <class Scalar>
using PivotMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;

/// Cholesky factor of an n×n symmetric matrix in place (lower triangle of `d` overwritten by L): −1, or
/// the first row whose pivot is not > 0 (the factorization stops there). With Relative, a pivot must
/// also exceed `relative` times its row's diagonal entry, so that a matrix singular in exact arithmetic
/// (a pivot that round-off leaves at a tiny positive value) fails too.
template <bool Relative = false, class Derived>
Eigen::Index cholesky_failed_row(Eigen::MatrixBase<Derived>& d,
                                 const typename Derived::Scalar& relative = typename Derived::Scalar(0)) noexcept {
  using std::sqrt;
  using Scalar = typename Derived::Scalar;
  const Eigen::Index n = d.rows();
  for (Eigen::Index k = 0; k < n; ++k) {
    Scalar pivot = d(k, k);
    for (Eigen::Index j = 0; j < k; ++j) pivot -= d(k, j) * d(k, j);
    if (!detail::pivot_ok(pivot)) return k;
    if constexpr (Relative) {
      if (!detail::pivot_ok(pivot - relative * d(k, k))) return k;
    }
    const Scalar lkk = sqrt(pivot);
    d(k, k) = lkk;
    for (Eigen::Index i = k + 1; i < n; ++i) {
      Scalar s = d(i, k);
      for (Eigen::Index j = 0; j < k; ++j) s -= d(i, j) * d(k, j);
      d(i, k) = s / lkk;
    }
  }
  return -1;
}

/// Cholesky factor of an n×n pivot (lower triangle of `d` overwritten by L). False on a pivot not > 0.
template <class Derived>
bool factor_joint_pivot(Eigen::MatrixBase<Derived>& d) noexcept {
  return cholesky_failed_row(d) < 0;
}

/// x ← D⁻¹ x for the factor L of factor_joint_pivot (x: n×k, any k; rows past the first n, if any, are
/// neither read nor written), by two triangular solves.
template <class DerivedL, class DerivedX>
void solve_joint_pivot(const Eigen::MatrixBase<DerivedL>& L, Eigen::MatrixBase<DerivedX>& x) noexcept {
  const Eigen::Index n = L.rows();
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    for (Eigen::Index i = 0; i < n; ++i) {  // L y = x
      for (Eigen::Index j = 0; j < i; ++j) x(i, c) -= L(i, j) * x(j, c);
      x(i, c) /= L(i, i);
    }
    for (Eigen::Index i = n - 1; i >= 0; --i) {  // Lᵀ z = y
      for (Eigen::Index j = i + 1; j < n; ++j) x(i, c) -= L(j, i) * x(j, c);
      x(i, c) /= L(i, i);
    }
  }
}

}  // namespace treedyn::detail
