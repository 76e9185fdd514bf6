// Block LDLᵀ factorization and solve of a symmetric positive-definite block-tridiagonal matrix.
//
// Source: A. Fijany, "Schur Complement Factorization and Parallel O(Log N) Algorithms for Computation of
// Operational Space Mass Matrix and Its Inverse", ICRA 1994 (docs/references.md),
// §IV.D–V.B: "the solution of a SPD block tridiagonal system ... by using the block LDLᵀ algorithm [19]
// can be obtained in O(N) steps"; notation: docs/notation.md (the recursion
// Δ_i = 𝒜_ii − 𝒜_{i,i−1} Δ_{i−1}⁻¹ 𝒜_{i−1,i}). The parallel alternative is block_cyclic_reduction.hpp.
//
// The matrix type BlockTridiagonal<Scalar, MaxBlock> stores the diagonal blocks A_ii (n_i×n_i) and the
// sub-diagonal blocks A_{i,i−1} (n_i×n_{i−1}), each inline with at most MaxBlock rows and columns (no
// heap); A_{i−1,i} = A_{i,i−1}ᵀ is implied. Block sizes may be 0 (an empty block decouples its neighbours).
// Only the constructor and to_dense() allocate.
//
// Contract of block_tridiagonal_factor(A)
//   A       SPD block-tridiagonal; overwritten in place by its block LDLᵀ factors A = L D Lᵀ, L unit block
//           lower bidiagonal, D = blockdiag(Δ_i): lower(i) ← L_{i,i−1} = A_{i,i−1} Δ_{i−1}⁻¹ and
//           diag(i) ← the lower Cholesky factor C_i of Δ_i = C_i C_iᵀ (strict upper triangle left as is).
//   Returns FactorStatus::non_positive_pivot(offset(i)) — the first scalar row of block i — when Δ_i is
//   not positive definite; blocks below i are then untouched and A is no factorization.
//   Cost: per block one n_i×n_i Cholesky, one n_{i−1}×n_{i−1} solve with n_i right-hand sides and one
//   n_i×n_{i−1}×n_i product: O(Σ n_i³) = O(N) for bounded blocks. noexcept; never allocates.
// Contract of block_tridiagonal_solve(factored, X)
//   X       dim()×k, any k: overwritten by A⁻¹ X. Cost O(k Σ n_i²). noexcept; never allocates.
//
// Indexing: the pseudo-code's block i = 1..N ↔ code block i−1; "no block 0" ↔ "i > 0".
//
// Pseudo-code (labels are repeated on the code lines that implement them):
//   F1  Δ_1 = A_11;  Δ_1 = C_1 C_1ᵀ                               (Cholesky; fail if a pivot ≤ 0)
//   F2  for i = 2..N:
//   F3     T   = Δ_{i−1}⁻¹ A_{i,i−1}ᵀ                                (two triangular solves with C_{i−1})
//   F4     Δ_i = A_ii − A_{i,i−1} T
//   F5     L_{i,i−1} = Tᵀ;   Δ_i = C_i C_iᵀ                         (Cholesky; fail if a pivot ≤ 0)
//   S1  for i = 1..N:    y_i = x_i − L_{i,i−1} y_{i−1}                  (L y = x)
//   S2  for i = 1..N:    z_i = Δ_i⁻¹ y_i                                (D z = y)
//   S3  for i = N..1:    x_i = z_i − L_{i+1,i}ᵀ x_{i+1}                 (Lᵀ x = z)
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/status.hpp"

namespace treedyn {
namespace detail {

/// One block of a block-structured matrix, n×m with n, m ≤ MaxBlock, stored inline (no heap).
template <class Scalar, int MaxBlock>
using InlineBlock = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, MaxBlock, MaxBlock>;
/// A block-sized column, for per-block scratch.
template <class Scalar, int MaxBlock>
using InlineBlockVector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, Eigen::ColMajor, MaxBlock, 1>;

/// The block-size rule of BlockTridiagonal and SiblingBlockMatrix: block i's size n lies in [0, max_block],
/// else std::invalid_argument naming the block (set-up only).
inline void check_block_size(const char* matrix, int i, int n, int max_block) {
  if (n < 0 || n > max_block)
    throw std::invalid_argument(std::string(matrix) + ": block " + std::to_string(i) + " has size " +
                                std::to_string(n) + ", outside [0, " + std::to_string(max_block) + "]");
}

}  // namespace detail

template <class Scalar, int MaxBlock = 6>
class BlockTridiagonal {
 public:
  using Block = detail::InlineBlock<Scalar, MaxBlock>;
  using BlockVector = detail::InlineBlockVector<Scalar, MaxBlock>;

  BlockTridiagonal() = default;

  /// Zero blocks of the given sizes (each in [0, MaxBlock], else std::invalid_argument naming the block).
  /// Allocates.
  explicit BlockTridiagonal(const std::vector<int>& sizes) {
    int offset = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const int n = sizes[i];
      detail::check_block_size("BlockTridiagonal", static_cast<int>(i), n, MaxBlock);
      const int n_prev = (i == 0) ? 0 : sizes[i - 1];
      size_.push_back(n);
      offset_.push_back(offset);
      diag_.push_back(Block::Zero(n, n));
      lower_.push_back(Block::Zero(n, n_prev));
      offset += n;
    }
    dim_ = offset;
  }

  [[nodiscard]] int blocks() const noexcept { return static_cast<int>(size_.size()); }
  [[nodiscard]] int size(int i) const noexcept { return size_[static_cast<std::size_t>(i)]; }
  [[nodiscard]] int offset(int i) const noexcept { return offset_[static_cast<std::size_t>(i)]; }
  [[nodiscard]] int dim() const noexcept { return dim_; }
  /// The block sizes, as given to the constructor.
  [[nodiscard]] const std::vector<int>& sizes() const noexcept { return size_; }

  /// A_ii (n_i×n_i); after block_tridiagonal_factor, the Cholesky factor C_i of Δ_i in its lower triangle.
  Block& diag(int i) noexcept { return diag_[static_cast<std::size_t>(i)]; }
  const Block& diag(int i) const noexcept { return diag_[static_cast<std::size_t>(i)]; }
  /// A_{i,i−1} (n_i×n_{i−1}), i ≥ 1; after block_tridiagonal_factor, L_{i,i−1}. lower(0) is 0×0.
  Block& lower(int i) noexcept { return lower_[static_cast<std::size_t>(i)]; }
  const Block& lower(int i) const noexcept { return lower_[static_cast<std::size_t>(i)]; }

  /// The dense symmetric dim()×dim() matrix (before factoring). Allocates; for printing and tests.
  [[nodiscard]] Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> to_dense() const {
    Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> A =
        Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>::Zero(dim_, dim_);
    for (int i = 0; i < blocks(); ++i) {
      A.block(offset(i), offset(i), size(i), size(i)) = diag(i);
      if (i == 0) continue;
      A.block(offset(i), offset(i - 1), size(i), size(i - 1)) = lower(i);
      A.block(offset(i - 1), offset(i), size(i - 1), size(i)) = lower(i).transpose();
    }
    return A;
  }

 private:
  std::vector<int> size_, offset_;
  std::vector<Block> diag_, lower_;
  int dim_ = 0;
};

namespace detail {

/// X_i: the rows of block i of column c.
template <class Scalar, int B, class Derived>
auto block_rows(const BlockTridiagonal<Scalar, B>& A, Eigen::MatrixBase<Derived>& X, int i, Eigen::Index c) noexcept {
  return X.col(c).segment(A.offset(i), A.size(i));
}

/// x ← C⁻ᵀ C⁻¹ x for a Cholesky factor C (lower triangle of `chol`), x any block-sized segment.
template <class Scalar, int B, class Segment>
void solve_block_pivot(const typename BlockTridiagonal<Scalar, B>::Block& chol, Segment&& x) noexcept {
  typename BlockTridiagonal<Scalar, B>::BlockVector t = x;
  solve_joint_pivot(chol, t);
  x = t;
}

/// target −= coupling · D⁻¹ couplingᵀ where D = C Cᵀ is factored in `chol`: the Schur-complement update of
/// one eliminated neighbour. Returns T = D⁻¹ couplingᵀ (neighbour rows × target columns).
template <class Block>
Block eliminate_neighbour(const Block& chol, const Block& coupling, Block& target) noexcept {
  Block T = coupling.transpose();
  solve_joint_pivot(chol, T);
  target.noalias() -= coupling.lazyProduct(T);
  return T;
}

}  // namespace detail

template <class Scalar, int B>
FactorStatus block_tridiagonal_factor(BlockTridiagonal<Scalar, B>& A) noexcept {
  for (int i = 0; i < A.blocks(); ++i) {
    if (i > 0) {                                                                  // F2
      const typename BlockTridiagonal<Scalar, B>::Block T =
          detail::eliminate_neighbour(A.diag(i - 1), A.lower(i), A.diag(i));     // F3, F4
      A.lower(i) = T.transpose();                                                 // F5
    }
    if (!detail::factor_joint_pivot(A.diag(i)))                                   // F1, F5
      return FactorStatus::non_positive_pivot(A.offset(i), "block_tridiagonal_factor");
  }
  return FactorStatus::success();
}

template <class Scalar, int B, class Derived>
void block_tridiagonal_solve(const BlockTridiagonal<Scalar, B>& factored, Eigen::MatrixBase<Derived>& X) noexcept {
  const BlockTridiagonal<Scalar, B>& A = factored;
  TREEDYN_CHECK(X.rows() == A.dim(), "block_tridiagonal_solve", "X", "X.rows() = A.dim()", A.dim(), X.rows(), return);
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (int i = 1; i < A.blocks(); ++i)                                          // S1
      detail::block_rows(A, X, i, c).noalias() -= A.lower(i).lazyProduct(detail::block_rows(A, X, i - 1, c));
    for (int i = 0; i < A.blocks(); ++i)                                          // S2
      detail::solve_block_pivot<Scalar, B>(A.diag(i), detail::block_rows(A, X, i, c));
    for (int i = A.blocks() - 2; i >= 0; --i)                                     // S3
      detail::block_rows(A, X, i, c).noalias() -=
          A.lower(i + 1).transpose().lazyProduct(detail::block_rows(A, X, i + 1, c));
  }
}

/// Overload for temporaries (an Eigen::Ref, a block expression such as X.leftCols(k)).
template <class Scalar, int B, class Derived>
void block_tridiagonal_solve(const BlockTridiagonal<Scalar, B>& factored, Eigen::MatrixBase<Derived>&& X) noexcept {
  block_tridiagonal_solve(factored, X);
}

}  // namespace treedyn
