// Block cyclic reduction (odd-even reduction) for a symmetric positive-definite block-tridiagonal system.
//
// Source: A. Fijany, ICRA 1994 (docs/references.md), §V.B "O(Log N) Parallel
// Computation": "the Block Cyclic Reduction (BCR) algorithm [20], while less competitive for serial
// computation, can be efficiently parallelized ... the system in Eq. (46) can be solved in O(Log N) steps
// with O(N) processors". The paper cites BCR without printing it; the steps below are the textbook odd-even
// reduction written in the notation of block_tridiagonal.hpp (A_ii = D_i, A_{i,i−1} = L_i).
//
// Contract
//   BlockCyclicReduction<Scalar, MaxBlock> ws(sizes)   the workspace, built once (allocates): one copy of the
//           matrix per reduction level, ⌈log₂ N⌉ + 1 levels, about twice the storage of A in total.
//   block_cyclic_reduction_factor(A, ws) -> FactorStatus   reads A (not modified), factors into ws. A
//           failed (non-positive-definite) eliminated block is reported by the first scalar row of that
//           block in A; ws is then no factorization.
//   block_cyclic_reduction_solve(ws, X)   X (dim()×k, any k) ← A⁻¹ X, in place.
//   block_cyclic_reduction(A, ws, X) -> FactorStatus   both.
//   Serial cost O(Σ n_i³) to factor, O(k Σ n_i²) to solve (about twice block LDLᵀ); every level's loops
//   are independent per block, hence O(log N) parallel depth with O(N) processors. noexcept; never
//   allocates after the workspace is built.
//
// Indexing: level ℓ holds the blocks i = 0, s, 2s, … of A with stride s = 2^ℓ, locally numbered k = 0, 1, ….
// Odd k are eliminated at level ℓ, even k survive as block k/2 of level ℓ + 1; the last level has one block.
//
// Pseudo-code (level ℓ, local indices; a neighbour that does not exist contributes nothing):
//   R1  for odd k:   D_k = C_k C_kᵀ                                              (Cholesky)
//   R2  for even k:  D'_{k/2} = D_k − L_k D_{k−1}⁻¹ L_kᵀ − L_{k+1}ᵀ D_{k+1}⁻¹ L_{k+1}
//   R3               L'_{k/2} = −L_k D_{k−1}⁻¹ L_{k−1}                            (couples k and k−2)
//   R4  last level:  D_0 = C_0 C_0ᵀ
//   Solve, forward over levels:
//   B1  for odd k:   y_k = D_k⁻¹ b_k                                                (in place)
//   B2  for even k:  b_k = b_k − L_k y_{k−1} − L_{k+1}ᵀ y_{k+1}
//   B3  last level:  x_0 = D_0⁻¹ b_0
//   then backward over levels:
//   B4  for odd k:   x_k = y_k − D_k⁻¹ (L_k x_{k−1} + L_{k+1}ᵀ x_{k+1})
#pragma once

#include <vector>

#include <Eigen/Core>

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/status.hpp"

namespace treedyn {

template <class Scalar, int MaxBlock = 6>
class BlockCyclicReduction {
 public:
  using Matrix = BlockTridiagonal<Scalar, MaxBlock>;

  BlockCyclicReduction() = default;

  /// The workspace for block sizes `sizes` (those of the matrices it will factor). Allocates.
  explicit BlockCyclicReduction(const std::vector<int>& sizes) : dim_(0) {
    for (const int n : sizes) dim_ += n;
    std::vector<int> level_sizes = sizes;
    while (true) {
      levels_.emplace_back(level_sizes);
      if (level_sizes.size() <= 1) break;
      std::vector<int> kept;
      for (std::size_t k = 0; k < level_sizes.size(); k += 2) kept.push_back(level_sizes[k]);
      level_sizes = kept;
    }
  }

  [[nodiscard]] int levels() const noexcept { return static_cast<int>(levels_.size()); }
  [[nodiscard]] int dim() const noexcept { return dim_; }
  /// Level ℓ (blocks of A with stride 2^ℓ); after factoring, odd blocks hold their Cholesky factors.
  Matrix& level(int l) noexcept { return levels_[static_cast<std::size_t>(l)]; }
  const Matrix& level(int l) const noexcept { return levels_[static_cast<std::size_t>(l)]; }

 private:
  std::vector<Matrix> levels_;
  int dim_ = 0;
};

namespace detail {

/// Row offset in A of local block k of level l (stride 2^l).
template <class Scalar, int B>
int cyclic_offset(const BlockCyclicReduction<Scalar, B>& ws, int l, int k) noexcept {
  return ws.level(0).offset(k << l);
}

/// Segment of column c of X holding local block k of level l.
template <class Scalar, int B, class Derived>
auto cyclic_rows(const BlockCyclicReduction<Scalar, B>& ws, Eigen::MatrixBase<Derived>& X, int l, int k,
                 Eigen::Index c) noexcept {
  return X.col(c).segment(cyclic_offset(ws, l, k), ws.level(l).size(k));
}

}  // namespace detail

template <class Scalar, int B>
FactorStatus block_cyclic_reduction_factor(const BlockTridiagonal<Scalar, B>& A,
                                           BlockCyclicReduction<Scalar, B>& ws) noexcept {
  using Block = typename BlockTridiagonal<Scalar, B>::Block;
  TREEDYN_CHECK(A.sizes() == ws.level(0).sizes(), "block_cyclic_reduction_factor", "ws",
                "a workspace built for A's block sizes", -1, -1, return FactorStatus::invalid_argument("block_cyclic_reduction_factor"));
  for (int i = 0; i < A.blocks(); ++i) {                                          // level 0 = A
    ws.level(0).diag(i) = A.diag(i);
    ws.level(0).lower(i) = A.lower(i);
  }
  for (int l = 0; l + 1 < ws.levels(); ++l) {
    BlockTridiagonal<Scalar, B>& M = ws.level(l);
    BlockTridiagonal<Scalar, B>& next = ws.level(l + 1);
    const int m = M.blocks();
    for (int k = 1; k < m; k += 2)                                                // R1
      if (!detail::factor_joint_pivot(M.diag(k)))
        return FactorStatus::non_positive_pivot(detail::cyclic_offset(ws, l, k), "block_cyclic_reduction_factor");
    for (int k = 0; k < m; k += 2) {
      Block& D = next.diag(k / 2);
      D = M.diag(k);
      if (k + 1 < m)                                                              // R2, right neighbour
        detail::eliminate_neighbour(M.diag(k + 1), Block(M.lower(k + 1).transpose()), D);
      if (k >= 1) {                                                               // R2, left neighbour
        const Block T = detail::eliminate_neighbour(M.diag(k - 1), M.lower(k), D);
        if (k >= 2) next.lower(k / 2).noalias() = -T.transpose().lazyProduct(M.lower(k - 1));  // R3
      }
    }
  }
  BlockTridiagonal<Scalar, B>& last = ws.level(ws.levels() - 1);
  if (last.blocks() == 1 && !detail::factor_joint_pivot(last.diag(0)))           // R4
    return FactorStatus::non_positive_pivot(0, "block_cyclic_reduction_factor");
  return FactorStatus::success();
}

template <class Scalar, int B, class Derived>
void block_cyclic_reduction_solve(const BlockCyclicReduction<Scalar, B>& ws, Eigen::MatrixBase<Derived>& X) noexcept {
  using Vec = typename BlockTridiagonal<Scalar, B>::BlockVector;
  TREEDYN_CHECK(X.rows() == ws.dim(), "block_cyclic_reduction_solve", "X", "X.rows() = ws.dim()", ws.dim(), X.rows(),
                return);
  const int top = ws.levels() - 1;
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (int l = 0; l < top; ++l) {
      const BlockTridiagonal<Scalar, B>& M = ws.level(l);
      const int m = M.blocks();
      for (int k = 1; k < m; k += 2)                                              // B1
        detail::solve_block_pivot<Scalar, B>(M.diag(k), detail::cyclic_rows(ws, X, l, k, c));
      for (int k = 0; k < m; k += 2) {                                            // B2
        if (k >= 1) detail::cyclic_rows(ws, X, l, k, c).noalias() -= M.lower(k).lazyProduct(detail::cyclic_rows(ws, X, l, k - 1, c));
        if (k + 1 < m)
          detail::cyclic_rows(ws, X, l, k, c).noalias() -=
              M.lower(k + 1).transpose().lazyProduct(detail::cyclic_rows(ws, X, l, k + 1, c));
      }
    }
    if (ws.level(top).blocks() == 1)                                              // B3
      detail::solve_block_pivot<Scalar, B>(ws.level(top).diag(0), detail::cyclic_rows(ws, X, top, 0, c));
    for (int l = top - 1; l >= 0; --l) {                                          // B4
      const BlockTridiagonal<Scalar, B>& M = ws.level(l);
      const int m = M.blocks();
      for (int k = 1; k < m; k += 2) {
        Vec t = M.lower(k).lazyProduct(detail::cyclic_rows(ws, X, l, k - 1, c));
        if (k + 1 < m) t.noalias() += M.lower(k + 1).transpose().lazyProduct(detail::cyclic_rows(ws, X, l, k + 1, c));
        detail::solve_joint_pivot(M.diag(k), t);
        detail::cyclic_rows(ws, X, l, k, c) -= t;
      }
    }
  }
}

/// Overload for temporaries (an Eigen::Ref, a block expression).
template <class Scalar, int B, class Derived>
void block_cyclic_reduction_solve(const BlockCyclicReduction<Scalar, B>& ws, Eigen::MatrixBase<Derived>&& X) noexcept {
  block_cyclic_reduction_solve(ws, X);
}

/// Factor A into ws and solve A X = X in place. Returns the factorization status (X untouched on failure).
template <class Scalar, int B, class Derived>
FactorStatus block_cyclic_reduction(const BlockTridiagonal<Scalar, B>& A, BlockCyclicReduction<Scalar, B>& ws,
                                    Eigen::MatrixBase<Derived>& X) noexcept {
  const FactorStatus status = block_cyclic_reduction_factor(A, ws);
  if (status.ok()) block_cyclic_reduction_solve(ws, X);
  return status;
}

}  // namespace treedyn
