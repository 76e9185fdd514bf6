// Optimised sparse LTDL on packed ancestor rows: seed 000 App. A with every inner loop a contiguous axpy.
//
// Source: the algorithm of kernels/ltdl.hpp (R. Featherstone, IJRR 24(6), 2005, Appendix A;
// ../shared/seeds/000_7f543bc10ea1056d.txt, algorithms.md §2.3), reorganised for speed and tested
// against it (tests/kernels). Storage idea as in MuJoCo's mj_factorM (performance.md): row i of the
// lower triangle keeps only its d_i structural entries, contiguously and in path order
//     packed row i = [ A_ii, A_i,λ(i), A_i,λ(λ(i)), … ]          (d_i = depth of i, n + D1 entries in all)
// Because the path of k passes through each ancestor i, the entries A_kj, j ∈ path(i), form a contiguous
// tail of row k. The paper's inner loop (ltdl.hpp T5–T8: "j = i; while j ≠ 0: A_ij −= A_kj a; j = λ(j)")
// is therefore one contiguous, vectorisable axpy with no parent-pointer chase:
//     row_i[0 .. d_i) −= a · row_k[t .. t + d_i)        where i is the t-th entry of row k
// and T4's division becomes a multiplication by 1/A_kk, computed once per row (n divisions, not D1).
//
// Contract
//   AncestorPattern(lambda) is built once (allocates; validates lambda and throws std::invalid_argument
//   naming the bad entry). It maps between a dense lower triangle and the packed vector and holds the
//   column index of every packed entry.
//   ltdl_packed(values, pattern): values (pattern.nonzeros() entries) holds A packed; on exit packed
//   row i = [D_i, L_i,λ(i), …]. Same FactorStatus rules as ltdl (first non-positive pivot from the
//   bottom stops the factorization). Cost n divisions + D1 multiplications + D2 multiply-subtracts.
//   ltdl_solve_packed(values, pattern, x): x ← A⁻¹ x (x an n-vector or n×m matrix), 2·D1 + n operations
//   per column. Both noexcept, never allocate.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/parent_access.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/kernels/factor_status.hpp"

namespace treedyn {

/// Where each structural entry of a tree-patterned lower triangle lives in a packed vector.
class AncestorPattern {
 public:
  AncestorPattern() = default;

  template <class Parents>
  explicit AncestorPattern(const Parents& lambda) {
    const int n = detail::parent_count(lambda);
    std::vector<int> depth(static_cast<std::size_t>(n));
    start_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int i = 0; i < n; ++i) {
      const int p = detail::parent(lambda, i);
      if (p < no_parent || p >= i) {
        throw std::invalid_argument("AncestorPattern: parent array entry " + std::to_string(i) + " has parent " +
                                    std::to_string(p) + ", but regular numbering requires -1 <= lambda[" +
                                    std::to_string(i) + "] < " + std::to_string(i));
      }
      depth[idx(i)] = (p == no_parent ? 1 : depth[idx(p)] + 1);
      start_[idx(i) + 1] = start_[idx(i)] + depth[idx(i)];
    }
    col_.resize(static_cast<std::size_t>(start_.back()));
    for (int i = 0; i < n; ++i) {
      int t = start_[idx(i)];
      for (int j = i; j != no_parent; j = detail::parent(lambda, j)) col_[idx(t++)] = j;
    }
  }

  [[nodiscard]] int size() const noexcept { return static_cast<int>(start_.size()) - 1; }
  /// Number of packed entries: n + D1 (the lower triangle's structural nonzeros).
  [[nodiscard]] int nonzeros() const noexcept { return start_.empty() ? 0 : start_.back(); }
  /// Offset of row i's first entry (its diagonal) in the packed vector.
  [[nodiscard]] int row_start(int i) const noexcept { return start_[idx(i)]; }
  /// d_i: entries in row i (the diagonal and the strict ancestors).
  [[nodiscard]] int row_length(int i) const noexcept { return start_[idx(i) + 1] - start_[idx(i)]; }
  /// Column of packed entry t.
  [[nodiscard]] int column(int t) const noexcept { return col_[idx(t)]; }

  /// values ← the structural entries of the lower triangle of A (packed row by row).
  template <class DA, class DV>
  void pack(const Eigen::MatrixBase<DA>& A, Eigen::MatrixBase<DV>& values) const noexcept {
    TREEDYN_ASSERT(A.rows() == size() && A.cols() == size() && values.size() == nonzeros(), "pack: size mismatch");
    for (int i = 0; i < size(); ++i)
      for (int t = row_start(i); t < row_start(i + 1); ++t) values(t) = A(i, column(t));
  }
  /// The lower triangle of A ← values at the structural entries; nothing else of A is written.
  template <class DV, class DA>
  void unpack(const Eigen::MatrixBase<DV>& values, Eigen::MatrixBase<DA>& A) const noexcept {
    TREEDYN_ASSERT(A.rows() == size() && A.cols() == size() && values.size() == nonzeros(), "unpack: size mismatch");
    for (int i = 0; i < size(); ++i)
      for (int t = row_start(i); t < row_start(i + 1); ++t) A(i, column(t)) = values(t);
  }

 private:
  static std::size_t idx(int i) noexcept { return static_cast<std::size_t>(i); }
  std::vector<int> start_;  // n + 1 row offsets
  std::vector<int> col_;    // column of each packed entry: i, λ(i), λ(λ(i)), …
};

/// A = Lᵀ D L on packed ancestor rows (see the file comment); labels refer to kernels/ltdl.hpp.
template <class DV>
FactorStatus ltdl_packed(Eigen::MatrixBase<DV>& values, const AncestorPattern& pattern) noexcept {
  using Scalar = typename DV::Scalar;
  TREEDYN_ASSERT(values.size() == pattern.nonzeros(), "ltdl_packed: values must hold pattern.nonzeros() entries");
  Scalar* v = values.derived().data();
  for (int k = pattern.size() - 1; k >= 0; --k) {                 // T1
    Scalar* row_k = v + pattern.row_start(k);
    if (!(row_k[0] > Scalar(0))) return FactorStatus::non_positive_pivot(k);
    const Scalar inv_d = Scalar(1) / row_k[0];
    const int d_k = pattern.row_length(k);
    for (int t = 1; t < d_k; ++t) {                                // T2, T3, T11: i = t-th entry of row k
      const int i = pattern.column(pattern.row_start(k) + t);
      Scalar* row_i = v + pattern.row_start(i);
      const Scalar a = row_k[t] * inv_d;                           // T4
      const int d_i = d_k - t;
      for (int j = 0; j < d_i; ++j) row_i[j] -= row_k[t + j] * a;  // T5–T8: A_ij −= A_kj a along path(i)
      row_k[t] = a;                                                // T10
    }
  }
  return FactorStatus::success();
}

template <class DV>
FactorStatus ltdl_packed(Eigen::MatrixBase<DV>&& values, const AncestorPattern& pattern) noexcept {
  return ltdl_packed(values, pattern);
}

/// x ← A⁻¹ x with A factorized by ltdl_packed: x ← L⁻ᵀ x (scatter), x ← D⁻¹ x, x ← L⁻¹ x (gather);
/// tree_products.hpp Q1–Q8 and P1–P8 with the unit diagonal.
template <class DV, class X>
void ltdl_solve_packed(const Eigen::MatrixBase<DV>& values, const AncestorPattern& pattern, X&& x) noexcept {
  using Scalar = typename DV::Scalar;
  const int n = pattern.size();
  TREEDYN_ASSERT(values.size() == pattern.nonzeros() && x.rows() == n, "ltdl_solve_packed: size mismatch");
  const Scalar* v = values.derived().data();
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    auto xc = x.col(c);
    for (int i = n - 1; i >= 0; --i) {                              // Q1
      const Scalar xi = xc(i);
      const int s = pattern.row_start(i);
      for (int t = s + 1; t < pattern.row_start(i + 1); ++t) xc(pattern.column(t)) -= v[t] * xi;  // Q5
    }
    for (int i = 0; i < n; ++i) xc(i) /= v[pattern.row_start(i)];   // D⁻¹
    for (int i = 0; i < n; ++i) {                                   // P1
      Scalar xi = xc(i);
      const int s = pattern.row_start(i);
      for (int t = s + 1; t < pattern.row_start(i + 1); ++t) xi -= v[t] * xc(pattern.column(t));  // P4
      xc(i) = xi;
    }
  }
}

}  // namespace treedyn
