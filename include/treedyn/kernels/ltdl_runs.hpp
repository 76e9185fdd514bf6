// Optimised sparse LTDL: the seed 000 Appendix A factorization and solve, walking ancestors as contiguous runs.
//
// Source: the same algorithm as kernels/ltdl.hpp (R. Featherstone, IJRR 24(6), 2005, Appendix A;
// ../shared/seeds/000_7f543bc10ea1056d.txt) and tree_products.hpp, reorganised for speed; it is tested
// against the faithful kernels (tests/kernels). The idea is MuJoCo-like contiguity without a packed
// format: along a chain segment λ(t) = t − 1, so the path from a node to the base is a short list of
// index runs [s, e] (one run for an unbranched chain, two for a humanoid limb). Each inner loop of
// the paper (T6–T8 of ltdl.hpp: "j = i; while j ≠ 0: A_ij −= A_kj a; j = λ(j)") becomes one
// contiguous vector operation per run, with no parent-pointer chase:
//     A(i, s..e) −= a · A(k, s..e)
// With a row-major matrix those row segments are contiguous in memory and vectorise; a column-major
// matrix gives the same results (same operations in the same order per entry) with strided access.
//
// Contract
//   AncestorRuns is built once from a regular parent array (it allocates, and validates the array,
//   throwing std::invalid_argument naming the bad entry); the kernels then never allocate.
//   ltdl_runs(A, runs): as ltdl(A, lambda) — same inputs, same in-place output (D on the diagonal,
//   L below it in ancestor columns), same FactorStatus, same set of entries read and written; each
//   entry sees the same operations in the same order, so results agree to rounding (the compiler may
//   fuse multiply-subtracts differently in vector and scalar code); cost D1 divisions + D2
//   multiply-subtracts.
//   ltdl_solve_runs(A, runs, x): as ltdl_solve(A, lambda, x), x an n-vector or n×m matrix; the
//   L⁻ᵀ pass is a scaled add per run and the L⁻¹ pass a dot product per run.
//   noexcept; never allocates.
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

/// The path from every node to the base as runs of consecutive indices.
class AncestorRuns {
 public:
  AncestorRuns() = default;

  template <class Parents>
  explicit AncestorRuns(const Parents& lambda) {
    const int n = detail::parent_count(lambda);
    start_.resize(static_cast<std::size_t>(n));
    up_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const int p = detail::parent(lambda, i);
      if (p < no_parent || p >= i) {
        throw std::invalid_argument("AncestorRuns: parent array entry " + std::to_string(i) + " has parent " +
                                    std::to_string(p) + ", but regular numbering requires -1 <= lambda[" +
                                    std::to_string(i) + "] < " + std::to_string(i));
      }
      const bool continues_run = (p == i - 1 && p != no_parent);
      start_[idx(i)] = continues_run ? start_[idx(p)] : i;
      up_[idx(i)] = continues_run ? up_[idx(p)] : p;
    }
  }

  [[nodiscard]] int size() const noexcept { return static_cast<int>(start_.size()); }
  /// First index s of the run [s, i] of consecutive ancestors that ends at i (λ(t) = t − 1 on (s, i]).
  [[nodiscard]] int start(int i) const noexcept { return start_[idx(i)]; }
  /// The node above i's run: λ(start(i)), or no_parent.
  [[nodiscard]] int up(int i) const noexcept { return up_[idx(i)]; }

  /// Calls f(s, e) for each run [s, e] of the path i, λ(i), … to the base (i included), from i upward.
  template <class F>
  void for_each_path_run(int i, F&& f) const noexcept {
    for (int e = i; e != no_parent; e = up(e)) f(start(e), e);
  }
  /// Calls f(s, e) for each run [s, e] of the strict ancestors λ(i), λ(λ(i)), …, from λ(i) upward.
  template <class F>
  void for_each_ancestor_run(int i, F&& f) const noexcept {
    if (start(i) < i) f(start(i), i - 1);
    for (int e = up(i); e != no_parent; e = up(e)) f(start(e), e);
  }

 private:
  static std::size_t idx(int i) noexcept { return static_cast<std::size_t>(i); }
  std::vector<int> start_;
  std::vector<int> up_;
};

/// A = Lᵀ D L in place, as ltdl(A, lambda) (kernels/ltdl.hpp), with each inner ancestor loop done per run.
template <class Derived>
FactorStatus ltdl_runs(Eigen::MatrixBase<Derived>& A, const AncestorRuns& runs) noexcept {
  using Scalar = typename Derived::Scalar;
  const int n = runs.size();
  TREEDYN_ASSERT(A.rows() == n && A.cols() == n, "ltdl_runs: A must be n×n with n = runs.size()");
  for (int k = n - 1; k >= 0; --k) {                                           // T1
    const Scalar dk = A(k, k);
    if (!(dk > Scalar(0))) return FactorStatus::non_positive_pivot(k);
    runs.for_each_ancestor_run(k, [&](int s, int e) {                          // T2, T3, T11
      for (int i = e; i >= s; --i) {
        const Scalar a = A(k, i) / dk;                                         // T4
        runs.for_each_path_run(i, [&](int s2, int e2) {                        // T5, T6, T8
          A.row(i).segment(s2, e2 - s2 + 1) -= a * A.row(k).segment(s2, e2 - s2 + 1);  // T7
        });
        A(k, i) = a;                                                           // T10
      }
    });
  }
  return FactorStatus::success();
}

template <class Derived>
FactorStatus ltdl_runs(Eigen::MatrixBase<Derived>&& A, const AncestorRuns& runs) noexcept {
  return ltdl_runs(A, runs);
}

/// x ← A⁻¹ x for A factorized by ltdl or ltdl_runs, walking ancestors per run.
template <class DA, class X>
void ltdl_solve_runs(const Eigen::MatrixBase<DA>& A, const AncestorRuns& runs, X&& x) noexcept {
  const int n = runs.size();
  TREEDYN_ASSERT(A.rows() == n && A.cols() == n && x.rows() == n, "ltdl_solve_runs: size mismatch");
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    auto xc = x.col(c);
    for (int i = n - 1; i >= 0; --i) {  // x ← L⁻ᵀ x  (tree_products.hpp Q1–Q8, unit diagonal)
      const auto xi = xc(i);
      runs.for_each_ancestor_run(i, [&](int s, int e) {
        xc.segment(s, e - s + 1) -= xi * A.row(i).segment(s, e - s + 1).transpose();  // Q5
      });
    }
    for (int i = 0; i < n; ++i) xc(i) /= A(i, i);  // x ← D⁻¹ x
    for (int i = 0; i < n; ++i) {  // x ← L⁻¹ x  (tree_products.hpp P1–P8, unit diagonal)
      auto xi = xc(i);
      runs.for_each_ancestor_run(i, [&](int s, int e) {
        xi -= A.row(i).segment(s, e - s + 1).dot(xc.segment(s, e - s + 1).transpose());  // P4
      });
      xc(i) = xi;
    }
  }
}

}  // namespace treedyn
