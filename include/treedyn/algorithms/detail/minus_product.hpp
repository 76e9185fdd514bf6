// minus_product: Y = −A B or Y −= A B for the dense products of aba_derivatives' F4 (−H⁻¹ times the nonzero
// rows of ∂τ), without allocation and without Eigen's blocked product (which keeps its blocks on the stack or
// the heap: tests/no_alloc forbids both).
//
// With AVX (256-bit registers or wider) and float or double, Y is computed in tiles of 8 rows × 4 columns held
// in registers: for each k in order, the tile's 4 columns += A(rows, k) · B(k, column), so every entry is the
// sum over k in the same order as the coefficient-based product, with one load of A's column segment for four
// multiply-adds. When the rows are not a multiple of 8, the last tile is the last 8 rows, overlapping the one
// before; it writes only its rows not written yet. Measured on 35 × 35 and 36 × 36 products (AVX-512 AMD EPYC,
// -O3 -march=native, docs/derivatives.md#the-products-of-f4): 2.3× (double) and 3.5× (float) faster than
// Eigen's lazyProduct, which slows down 2–3× when the rows are not a multiple of the packet size. Other scalars
// (long double, AutoDiff, multiprecision, Lanes), fewer than 8 rows, or no AVX: Eigen's lazyProduct.
#pragma once

#include <algorithm>
#include <type_traits>

#include <Eigen/Core>

namespace treedyn::detail {

/// Rows and columns of one register tile of minus_product.
inline constexpr int minus_product_tile_rows = 8;
inline constexpr int minus_product_tile_cols = 4;

/// One tile: Y = −A B (assign) or Y −= A B on the R rows from row i and the CC columns from column j, the sum
/// over A's columns in order; rows i … i + skip − 1 are left as they are (the tile above wrote them).
template <int R, int CC, class Y, class A, class B>
inline void minus_product_tile(Y& y, const A& a, const B& b, Eigen::Index i, Eigen::Index j, int skip,
                               bool assign) noexcept {
  using Scalar = typename Y::Scalar;
  using Col = Eigen::Matrix<Scalar, R, 1>;
  Col acc[CC];
  for (int c = 0; c < CC; ++c) acc[c].setZero();
  for (Eigen::Index t = 0; t < a.cols(); ++t) {
    const Col at = a.col(t).template segment<R>(i);
    for (int c = 0; c < CC; ++c) acc[c] += at * b(t, j + c);
  }
  for (int c = 0; c < CC; ++c) {
    auto yc = y.col(j + c).template segment<R>(i);
    if (skip == 0 && assign)
      yc = -acc[c];
    else if (skip == 0)
      yc -= acc[c];
    else
      for (int r = skip; r < R; ++r) yc(r) = assign ? Scalar(-acc[c](r)) : Scalar(yc(r) - acc[c](r));
  }
}

/// The tiled form for float or double (m ≥ 8 rows; the caller checks): Y = −A B (assign) or Y −= A B, Y (m×n)
/// and A (m×k) with contiguous columns, B (k×n) any block.
template <class Y, class A, class B>
void minus_product_tiled(Y& y, const A& a, const B& b, bool assign) noexcept {
  constexpr int R = minus_product_tile_rows, C = minus_product_tile_cols;
  const Eigen::Index m = a.rows(), n = b.cols();
  for (Eigen::Index i = 0; i < m; i += R) {
    const Eigen::Index i0 = std::min<Eigen::Index>(i, m - R);  // the last tile: the last R rows
    const int skip = static_cast<int>(i - i0);
    Eigen::Index j = 0;
    for (; j + C <= n; j += C) minus_product_tile<R, C>(y, a, b, i0, j, skip, assign);
    for (; j < n; ++j) minus_product_tile<R, 1>(y, a, b, i0, j, skip, assign);
  }
}

/// Y = −A B (assign) or Y −= A B; Y (m×n) and A (m×k) with contiguous columns, B (k×n) any block: the tiled
/// form with AVX for float and double when m ≥ 8, Eigen's lazyProduct otherwise (file comment).
template <class Y, class A, class B>
void minus_product(Y&& y, const A& a, const B& b, bool assign) noexcept {
#ifdef EIGEN_VECTORIZE_AVX
  using Scalar = typename std::decay_t<Y>::Scalar;
  if constexpr (std::is_same_v<Scalar, float> || std::is_same_v<Scalar, double>) {
    if (a.rows() >= minus_product_tile_rows) return minus_product_tiled(y, a, b, assign);
  }
#endif
  if (assign)
    y.noalias() = -a.lazyProduct(b);
  else
    y.noalias() -= a.lazyProduct(b);
}

}  // namespace treedyn::detail
