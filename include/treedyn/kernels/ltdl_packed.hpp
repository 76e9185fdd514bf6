// Optimised sparse LTDL on packed ancestor rows: Featherstone's LTDL reordered so each row is finished in registers.
//
// Source: the factorization of kernels/ltdl.hpp (R. Featherstone, IJRR 24(6), 2005, Appendix A;
// docs/references.md, docs/notation.md), reorganised for speed and tested
// against it (tests/kernels). Storage as in MuJoCo's mj_factorM: row i of the lower
// triangle keeps only its d_i structural entries, contiguously and in path order
//     packed row i = [ A_ii, A_i,λ(i), A_i,λ(λ(i)), … ]          (d_i = depth of i, n + D1 entries in all)
// The path of a descendant k passes through i, so L_k,path(i) is the last d_i entries of packed row k.
//
// Loop order. The paper's LTDL is right-looking: row k, once final, updates every ancestor row
// (T7: A_ij −= A_kj a), a scattered read-modify-write of d_i entries per pair (k, i) — cheap when the
// target row is short, store-bound when it is long. Written per target row instead, the identity
// A_ij = D_i L_ij + Σ_{k ∈ ν(i)\{i}} L_ki D_k L_kj (j ∈ path(i)) gives a left-looking order in which a
// long row is read and written once while its descendants' tails are only read. Either order is
// valid for each target row separately, so each row takes the one that suits its length d_i:
//   G1  for i = n−1 down to 0:                          (every descendant k > i is final by then)
//   G2    if d_i > push_depth:                          (a long row gathers its updates)
//   G3      for each strict descendant k of i:  c = L_ki · D_k                 (first entry of k's tail)
//   G4        row_i[0 .. d_i) −= c · tail_k[0 .. d_i)  (tail_k = last d_i entries of packed row k;
//                                                        four descendants per pass: row_i stays in L1)
//   G5    D_i = row_i[0]; stop with FactorStatus if D_i is not > 0
//   G6    for t = 1 .. d_i−1:  a = row_i[t] / D_i       (L_ij, j the t-th entry of path(i))
//   G7      if d_j ≤ push_depth:                        (short rows get pushed updates,
//   G8        row_j[0 .. d_j) −= a · row_i[t .. t + d_j)  the paper's T5–T8, t = d_i − d_j)
//           row_i[t] = a                                (after G8: row_i[t ..] still holds D_i L_i·)
// Multiply-subtracts: D2, as the paper's T7; multiplications: D1 at G6 plus one per gathered pair at
// G3; n divisions instead of D1. Pushing suits the short rows of bushy trees (humanoid, binary tree), gathering
// the long rows of chains (docs/design-notes.md#ltdl_packed-pushes-into-short-rows-and-gathers-into-long-ones).

// Contract
//   AncestorPattern(lambda) is built once (allocates; validates lambda and throws std::invalid_argument
//   naming the bad entry). It maps between a dense lower triangle and the packed vector and holds the
//   column index of every packed entry and the strict descendants of every row.
//   ltdl_packed(values, pattern): values (pattern.nonzeros() entries) holds A packed; on exit packed
//   row i = [D_i, L_i,λ(i), …]. Same FactorStatus rules as ltdl: the first row from the bottom whose
//   pivot is not > 0 stops the factorization (rows above it untouched).
//   ltdl_solve_packed(values, pattern, x): x ← A⁻¹ x (x an n-vector or n×m matrix), 2·D1 + n operations
//   per column. Both noexcept, never allocate.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "treedyn/detail/assert.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/fwd.hpp"
#include "treedyn/status.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn {

/// Where each structural entry of a tree-patterned lower triangle lives in a packed vector.
class AncestorPattern {
 public:
  AncestorPattern() = default;

  template <class Parents>
  explicit AncestorPattern(const Parents& lambda) {
    validate_parent_array(lambda);  // throws std::invalid_argument naming the first irregular entry
    const int n = detail::node_count(lambda);
    std::vector<int> depth(static_cast<std::size_t>(n));
    start_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int i = 0; i < n; ++i) {
      const int p = detail::parent_at(lambda, i);
      depth[idx(i)] = (p == no_parent ? 1 : depth[idx(p)] + 1);
      start_[idx(i) + 1] = start_[idx(i)] + depth[idx(i)];
    }
    col_.resize(static_cast<std::size_t>(start_.back()));
    desc_start_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int i = 0; i < n; ++i) {
      int t = start_[idx(i)];
      for (int j = i; j != no_parent; j = detail::parent_at(lambda, j)) col_[idx(t++)] = j;
      for (int j = detail::parent_at(lambda, i); j != no_parent; j = detail::parent_at(lambda, j)) ++desc_start_[idx(j) + 1];
    }
    for (int i = 0; i < n; ++i) desc_start_[idx(i) + 1] += desc_start_[idx(i)];
    desc_diag_.resize(static_cast<std::size_t>(desc_start_.back()));
    desc_end_.resize(desc_diag_.size());
    std::vector<int> fill(desc_start_.begin(), desc_start_.end() - 1);
    for (int k = 0; k < n; ++k)
      for (int j = detail::parent_at(lambda, k); j != no_parent; j = detail::parent_at(lambda, j)) {
        desc_diag_[idx(fill[idx(j)])] = start_[idx(k)];
        desc_end_[idx(fill[idx(j)]++)] = start_[idx(k) + 1];
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
  /// The strict descendants k of row i are listed at q = descendants_begin(i) .. descendants_begin(i + 1) − 1
  /// by the packed offsets of their rows: descendant_diagonal(q) = row_start(k), descendant_end(q) = row_start(k + 1).
  [[nodiscard]] int descendants_begin(int i) const noexcept { return desc_start_[idx(i)]; }
  [[nodiscard]] int descendant_diagonal(int q) const noexcept { return desc_diag_[idx(q)]; }
  [[nodiscard]] int descendant_end(int q) const noexcept { return desc_end_[idx(q)]; }

  /// values ← the structural entries of the lower triangle of A (packed row by row).
  template <class DA, class DV>
  void pack(const Eigen::MatrixBase<DA>& A, Eigen::MatrixBase<DV>& values) const noexcept {
    if (!packing_arguments_ok("AncestorPattern::pack", A, values)) return;
    for (int i = 0; i < size(); ++i)
      for (int t = row_start(i); t < row_start(i + 1); ++t) values(t) = A(i, column(t));
  }
  /// The lower triangle of A ← values at the structural entries; nothing else of A is written.
  template <class DV, class DA>
  void unpack(const Eigen::MatrixBase<DV>& values, Eigen::MatrixBase<DA>& A) const noexcept {
    if (!packing_arguments_ok("AncestorPattern::unpack", A, values)) return;
    for (int i = 0; i < size(); ++i)
      for (int t = row_start(i); t < row_start(i + 1); ++t) A(i, column(t)) = values(t);
  }

 private:
  /// The check pack and unpack share: A is size() × size() and values has nonzeros() entries.
  template <class DA, class DV>
  bool packing_arguments_ok(const char* function, const Eigen::MatrixBase<DA>& A,
                            const Eigen::MatrixBase<DV>& values) const noexcept {
    return detail::shape_ok(function, "A", A, size(), size(), "size()") &&
           detail::size_ok(function, "values", values, nonzeros(), "nonzeros()");
  }
  static std::size_t idx(int i) noexcept { return static_cast<std::size_t>(i); }
  std::vector<int> start_;  // n + 1 row offsets
  std::vector<int> col_;    // column of each packed entry: i, λ(i), λ(λ(i)), …
  std::vector<int> desc_start_;  // n + 1 offsets into desc_diag_ / desc_end_
  std::vector<int> desc_diag_;   // row_start(k) of each strict descendant k of each row (D1 entries)
  std::vector<int> desc_end_;    // row_start(k + 1) of the same descendant
};

namespace detail {

/// G4 for `count` descendants at once: row[j] −= Σ_m c[m] · tail_m[j], j < len, tail_m = v + end[m] − len.
/// Four descendants per pass keep the row in registers (short rows) or read it from L1 once per four
/// updates (long rows).
template <class Scalar, int Count>
inline void gather_update(Scalar* row, int len, const Scalar* v, const int* end, const Scalar* c) noexcept {
  const Scalar* tail[Count];
  for (int m = 0; m < Count; ++m) tail[m] = v + end[m] - len;
  for (int j = 0; j < len; ++j) {
    Scalar sum = c[0] * tail[0][j];
    for (int m = 1; m < Count; ++m) sum += c[m] * tail[m][j];
    row[j] -= sum;
  }
}

/// One chunk of G8's update: row_j[m] −= row_i_t[m] · a for m < N, as one fixed-size Eigen expression.
template <int N, class Scalar>
inline void push_chunk(Scalar* TREEDYN_RESTRICT row_j, const Scalar* TREEDYN_RESTRICT row_i_t, Scalar a) noexcept {
  using Chunk = Eigen::Array<Scalar, N, 1>;
  Eigen::Map<Chunk>(row_j) -= a * Eigen::Map<const Chunk>(row_i_t);
}

/// The first m < 2N entries of G8's update, N, N/2, …, 1 at a time from the end: entry m − 1 first.
template <int N, class Scalar>
inline void push_head(Scalar* TREEDYN_RESTRICT row_j, const Scalar* TREEDYN_RESTRICT row_i_t, int m,
                      Scalar a) noexcept {
  if constexpr (N == 1) {
    if (m == 1) row_j[0] -= row_i_t[0] * a;
  } else {
    if (m >= N) {
      m -= N;
      push_chunk<N>(row_j + m, row_i_t + m, a);
    }
    push_head<N / 2>(row_j, row_i_t, m, a);
  }
}

/// G8's update row_j[m] −= row_i_t[m] · a, m < len. Row j is a strict ancestor of row i, and packed rows
/// do not overlap, so the two pointers are declared disjoint.
///
/// The chunks are counted from the end of the row, where the root's column is: whole chunks of `wide`
/// entries, then at most one chunk of each of wide/2, wide/4, …, 1 entries. Every push into row i covers
/// the whole row, so row i is always written in the chunks of its own length d_i; when row i is later read
/// at offset t (its own pushes, length d_i − t, counted from the same end), each chunk read lies inside one
/// chunk written, because the pieces of a shorter length nest in those of a longer one (the binary digits
/// of the remainder), and a load inside an earlier store can be forwarded from it. Counted from the start of
/// each row, as GCC's own vectorised loop and an earlier form of this one did, the reads straddle two
/// stores. That is the likely reason, not a counted one (no hardware counters were available); what was
/// measured is the effect (docs/design-notes.md#the-push-update-in-chunks-counted-from-the-end-of-the-row):
/// the factor of bushy trees and of short chains faster in both scalars, and long double chains about level. The widths, 8 floats or 4 doubles (32 bytes
/// in both scalars, whatever the length), were the best of those measured on 25 trees of 14 to 255 rows:
/// 16 floats made the float factor of trees with short rows 1.2 to 1.4 times slower than 8 (the same
/// section). Other scalars keep the plain loop. Each
/// entry still receives one multiply-subtract, so the results do not depend on the chunking.
template <class Scalar>
inline void push_update(Scalar* TREEDYN_RESTRICT row_j, const Scalar* TREEDYN_RESTRICT row_i_t, int len,
                        Scalar a) noexcept {
  if constexpr (std::is_same_v<Scalar, float> || std::is_same_v<Scalar, double>) {
    constexpr int wide = std::is_same_v<Scalar, float> ? 8 : 4;
    int m = len;
    for (; m >= wide; m -= wide) push_chunk<wide>(row_j + m - wide, row_i_t + m - wide, a);
    push_head<wide / 2>(row_j, row_i_t, m, a);
  } else {
    for (int m = 0; m < len; ++m) row_j[m] -= row_i_t[m] * a;
  }
}

/// P4's gathered sum x_i − Σ_t v[t] x[column(t)] over packed entries t = first … end − 1 (row i's strict
/// ancestors). A path of 8 or more terms is summed in four partial sums, so that four multiply-adds are in
/// flight instead of one dependent chain; the partial sums trade places after every pass, which keeps
/// GCC 12 from turning the loop into AVX-512 gathers with an in-order reduction (it did so for float only,
/// and the float solve ran slower than the double one:
/// docs/design-notes.md#the-solves-gathering-sum-in-four-partial-sums). A shorter path is one chain written
/// out as a switch, in the loop's order (the same sums to the bit), because GCC 12 turned the short loop
/// into masked gathers in float too. The order of
/// the additions is fixed by this code, so the results are deterministic; splitting a sum into four does
/// not loosen its rounding-error bound.
template <class Scalar, class Xc>
inline Scalar gather_path_sum(Scalar x_i, const Scalar* v, const AncestorPattern& pattern, int first, int end,
                              const Xc& x) noexcept {
  const auto term = [&](int t) -> Scalar { return v[t] * x(pattern.column(t)); };
  switch (end - first) {  // a short path: one chain in the loop's order, written out (see above)
    case 7: x_i -= term(end - 7); [[fallthrough]];
    case 6: x_i -= term(end - 6); [[fallthrough]];
    case 5: x_i -= term(end - 5); [[fallthrough]];
    case 4: x_i -= term(end - 4); [[fallthrough]];
    case 3: x_i -= term(end - 3); [[fallthrough]];
    case 2: x_i -= term(end - 2); [[fallthrough]];
    case 1: x_i -= term(end - 1); [[fallthrough]];
    case 0: return x_i;
    default: break;
  }
  Scalar a0 = x_i, a1(0), a2(0), a3(0);
  int t = first;
  for (; t + 4 <= end; t += 4) {
    const Scalar b0 = a0 - v[t] * x(pattern.column(t));
    const Scalar b1 = a1 - v[t + 1] * x(pattern.column(t + 1));
    const Scalar b2 = a2 - v[t + 2] * x(pattern.column(t + 2));
    const Scalar b3 = a3 - v[t + 3] * x(pattern.column(t + 3));
    a0 = b1;
    a1 = b2;
    a2 = b3;
    a3 = b0;
  }
  switch (end - t) {
    case 3: a2 -= v[t + 2] * x(pattern.column(t + 2)); [[fallthrough]];
    case 2: a1 -= v[t + 1] * x(pattern.column(t + 1)); [[fallthrough]];
    case 1: a0 -= v[t] * x(pattern.column(t)); [[fallthrough]];
    default: break;
  }
  return (a0 + a1) + (a2 + a3);
}

/// G3–G4 for a long row i: gather the updates of every strict descendant, four at a time. Kept out of
/// line: inlining it into ltdl_packed slowed the push loop of bushy trees (code layout;
/// docs/design-notes.md#ltdl_packed-pushes-into-short-rows-and-gathers-into-long-ones).
template <class Scalar>
TREEDYN_NOINLINE void gather_row(Scalar* v, const AncestorPattern& pattern, int i) noexcept {
  Scalar* row_i = v + pattern.row_start(i);
  const int d_i = pattern.row_length(i);
  int q = pattern.descendants_begin(i);
  const int q_end = pattern.descendants_begin(i + 1);
  for (; q + 4 <= q_end; q += 4) {                                          // G3, four at a time
    int end[4];
    Scalar c[4];
    for (int m = 0; m < 4; ++m) {
      end[m] = pattern.descendant_end(q + m);
      c[m] = v[end[m] - d_i] * v[pattern.descendant_diagonal(q + m)];       // L_ki · D_k
    }
    gather_update<Scalar, 4>(row_i, d_i, v, end, c);                        // G4
  }
  for (; q < q_end; ++q) {                                                  // G3, the rest
    const int end = pattern.descendant_end(q);
    const Scalar c = v[end - d_i] * v[pattern.descendant_diagonal(q)];
    gather_update<Scalar, 1>(row_i, d_i, v, &end, &c);                      // G4
  }
}

}  // namespace detail

/// Rows with depth ≤ this receive pushed updates; deeper rows gather theirs (file comment, G2 and G7).
inline constexpr int ltdl_packed_push_depth = 64;

/// A = Lᵀ D L on packed ancestor rows (labels G1–G8 of the file comment).
template <class DV>
FactorStatus ltdl_packed(Eigen::MatrixBase<DV>& values, const AncestorPattern& pattern) noexcept {
  using Scalar = typename DV::Scalar;
  constexpr int push_depth = ltdl_packed_push_depth;
  if (!detail::size_ok("ltdl_packed", "values", values, pattern.nonzeros(), "pattern.nonzeros()"))
    return FactorStatus::invalid_argument("ltdl_packed");
  Scalar* v = values.derived().data();
  for (int i = pattern.size() - 1; i >= 0; --i) {                           // G1
    Scalar* row_i = v + pattern.row_start(i);
    const int d_i = pattern.row_length(i);
    if (d_i > push_depth) detail::gather_row(v, pattern, i);                // G2–G4
    if (!detail::pivot_ok(row_i[0])) return FactorStatus::non_positive_pivot(i, "ltdl_packed");  // G5
    detail::nan_unless_positive(row_i[0]);  // G5 lane by lane: a failing lane goes on in NaN (docs/lanes.md)
    const Scalar inv_d = Scalar(1) / row_i[0];
    const int first_push = d_i > push_depth ? d_i - push_depth : 1;
    for (int t = 1; t < d_i; ++t) {
      const Scalar a = row_i[t] * inv_d;                                    // L_ij, j = t-th entry of path(i)
      if (t >= first_push) {                                                // G7: d_j = d_i − t ≤ push_depth
        Scalar* row_j = v + pattern.row_start(pattern.column(pattern.row_start(i) + t));
        // G8 as the paper's T7: row_i[t ..] is still unscaled (D_i L_i·), so A_jm −= A_im · L_ij
        detail::push_update(row_j, row_i + t, d_i - t, a);
      }
      row_i[t] = a;                                                         // G6
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
  TREEDYN_CHECK(x.rows() == n, "ltdl_solve_packed", "x", "x.rows() = pattern.size()", n, x.rows(), return);
  if (!detail::size_ok("ltdl_solve_packed", "values", values, pattern.nonzeros(), "pattern.nonzeros()")) return;
  const Scalar* v = values.derived().data();
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    auto xc = x.col(c);
    for (int i = n - 1; i >= 0; --i) {                              // Q1
      const Scalar xi = xc(i);
      const int s = pattern.row_start(i);
      for (int t = s + 1; t < pattern.row_start(i + 1); ++t) xc(pattern.column(t)) -= v[t] * xi;  // Q5
    }
    for (int i = 0; i < n; ++i) xc(i) /= v[pattern.row_start(i)];   // D⁻¹
    for (int i = 0; i < n; ++i)                                     // P1, P4
      xc(i) = detail::gather_path_sum(Scalar(xc(i)), v, pattern, pattern.row_start(i) + 1, pattern.row_start(i + 1), xc);
  }
}

}  // namespace treedyn
