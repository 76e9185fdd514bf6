// Leaves-first block LDLᵀ of a symmetric block matrix on a tree whose blocks couple parent–child and siblings.
//
// Source: Fijany's operators carried from chains to trees: with (𝒫a)_i = a_i − ^iX_λ(i) a_λ(i), Fijany's
// 𝒜 = 𝒲ᵀ𝒫𝓘⁻¹𝒫ᵀ𝒲 (Fijany (1994), §IV.B, Eqs. (27)–(31); docs/references.md) couples block i with λ(i), with
// its children and with its siblings. Eliminating bodies leaves-first (i = N..1) is a perfect elimination
// order (a leaf's neighbours — parent and siblings — are already mutually coupled), so block LDLᵀ is
// fill-free and costs O(Σ_k children(k)²). For a chain it is the block LDLᵀ of block_tridiagonal.hpp
// run from the last block up.
//
// SiblingBlockMatrix<Scalar, MaxBlock>(parents, sizes): the pattern, built once (allocates). parents is a
// regular parent array over the blocks (λ(i) < i, no_parent = −1); blocks with no_parent are NOT siblings
// of each other (the fixed base couples nothing). Stored blocks, each inline (≤ MaxBlock × MaxBlock):
//   diag(i)          A_ii          n_i × n_i
//   parent_block(i)  A_{i,λ(i)}    n_i × n_λ(i)           (λ(i) ≠ no_parent)
//   sibling(i, r)    A_{i,s}       n_i × n_s, s = earlier_sibling(i, r), the r-th sibling of i below i
// Contract of sibling_block_ldlt(A) -> FactorStatus: in place, leaves first; diag(i) ← the Cholesky factor
//   of the pivot Δ_i, parent_block(i) and sibling(i, r) ← L_{a,i} = A_{a,i} Δ_i⁻¹ (stored transposed, in
//   the shape of A_{i,a}). A pivot that is not positive definite stops the factorization and is reported
//   by the first scalar row offset(i) of its block. Cost O(Σ_i (1 + s_i)² n³), s_i = earlier siblings
//   of i. noexcept; never allocates.
// Contract of sibling_block_ldlt_solve(A_factored, X): X (dim()×k) ← A⁻¹ X. noexcept; never allocates.
//
// Indexing: the pseudo-code's body i = 1..N ↔ block i−1. R_i = {λ(i)} ∪ {earlier siblings of i}: the
// neighbours of i still present when i is eliminated (all have smaller indices).
// Pseudo-code:
//   E1  for i = N..1:
//   E2     Δ_i = A_ii = C_i C_iᵀ                                              (Cholesky; fail if ≤ 0)
//   E3     for a ∈ R_i:  T_a = Δ_i⁻¹ A_{i,a}
//   E4     for a, b ∈ R_i, b ≤ a:  A_ab −= A_{a,i} T_b                          (no fill: a, b coupled)
//   E5     for a ∈ R_i:  L_{a,i} = T_aᵀ
//   Solve:
//   V1  for i = N..1:  for a ∈ R_i:  x_a −= L_{a,i} x_i                          (forward, leaves first)
//   V2  for i = 1..N:  x_i = Δ_i⁻¹ x_i
//   V3  for i = 1..N:  for a ∈ R_i:  x_i −= L_{a,i}ᵀ x_a                          (backward, root first)
#pragma once

#include "treedyn/fwd.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"  // InlineBlock, factor_joint_pivot, FactorStatus

namespace treedyn {

template <class Scalar, int MaxBlock = 6>
class SiblingBlockMatrix {
 public:
  using Block = detail::InlineBlock<Scalar, MaxBlock>;
  using BlockVector = detail::InlineBlockVector<Scalar, MaxBlock>;

  SiblingBlockMatrix() = default;

  /// Zero blocks on the pattern of `parents` (regular: -1 <= parent(i) < i) with block sizes `sizes` (each in
  /// [0, MaxBlock]); anything else throws std::invalid_argument naming the block. Allocates.
  SiblingBlockMatrix(const std::vector<int>& parents, const std::vector<int>& sizes)
      : parent_(parents), size_(sizes) {
    if (parents.size() != sizes.size())
      throw std::invalid_argument("SiblingBlockMatrix: " + std::to_string(parents.size()) + " parents but " +
                                  std::to_string(sizes.size()) + " block sizes (one size per block)");
    const int m = static_cast<int>(parents.size());
    int offset = 0;
    std::vector<std::vector<int>> children(parents.size());
    for (int i = 0; i < m; ++i) {
      const int p = parents[static_cast<std::size_t>(i)];
      if (p < no_parent || p >= i)
        throw std::invalid_argument("SiblingBlockMatrix: block " + std::to_string(i) + " has parent " + std::to_string(p) +
                                    "; parents must be regular (-1 <= parent(i) < i)");
      detail::check_block_size("SiblingBlockMatrix", i, size(i), MaxBlock);
      offset_.push_back(offset);
      offset += size(i);
      diag_.push_back(Block::Zero(size(i), size(i)));
      parent_block_.push_back(Block::Zero(size(i), p == no_parent ? 0 : size(p)));
      sibling_start_.push_back(static_cast<int>(sibling_id_.size()));
      if (p != no_parent) {
        std::vector<int>& brothers = children[static_cast<std::size_t>(p)];
        for (const int s : brothers) {
          sibling_id_.push_back(s);
          sibling_.push_back(Block::Zero(size(i), size(s)));
        }
        brothers.push_back(i);
      }
    }
    sibling_start_.push_back(static_cast<int>(sibling_id_.size()));
    dim_ = offset;
  }

  [[nodiscard]] int blocks() const noexcept { return static_cast<int>(size_.size()); }
  [[nodiscard]] int parent(int i) const noexcept { return parent_[static_cast<std::size_t>(i)]; }
  [[nodiscard]] int size(int i) const noexcept { return size_[static_cast<std::size_t>(i)]; }
  [[nodiscard]] int offset(int i) const noexcept { return offset_[static_cast<std::size_t>(i)]; }
  [[nodiscard]] int dim() const noexcept { return dim_; }
  /// Number of siblings of i with smaller indices, and the r-th of them (increasing).
  [[nodiscard]] int earlier_siblings(int i) const noexcept {
    return sibling_start_[static_cast<std::size_t>(i) + 1] - sibling_start_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] int earlier_sibling(int i, int r) const noexcept { return sibling_id_[index(i, r)]; }

  Block& diag(int i) noexcept { return diag_[static_cast<std::size_t>(i)]; }
  const Block& diag(int i) const noexcept { return diag_[static_cast<std::size_t>(i)]; }
  Block& parent_block(int i) noexcept { return parent_block_[static_cast<std::size_t>(i)]; }
  const Block& parent_block(int i) const noexcept { return parent_block_[static_cast<std::size_t>(i)]; }
  Block& sibling(int i, int r) noexcept { return sibling_[index(i, r)]; }
  const Block& sibling(int i, int r) const noexcept { return sibling_[index(i, r)]; }

  /// Neighbour a = R_i[k] of i (k = 0: the parent, k ≥ 1: earlier sibling k − 1) and the block A_{i,a}.
  /// R_i has 1 + earlier_siblings(i) members when i has a parent, none otherwise.
  [[nodiscard]] int neighbours(int i) const noexcept {
    return parent(i) == no_parent ? 0 : 1 + earlier_siblings(i);
  }
  [[nodiscard]] int neighbour(int i, int k) const noexcept {
    return k == 0 ? parent(i) : earlier_sibling(i, k - 1);
  }
  Block& coupling(int i, int k) noexcept { return k == 0 ? parent_block(i) : sibling(i, k - 1); }
  const Block& coupling(int i, int k) const noexcept { return k == 0 ? parent_block(i) : sibling(i, k - 1); }

  /// The dense symmetric matrix (before factoring). Allocates; for printing and tests.
  [[nodiscard]] Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> to_dense() const {
    Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> A =
        Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>::Zero(dim_, dim_);
    for (int i = 0; i < blocks(); ++i) {
      A.block(offset(i), offset(i), size(i), size(i)) = diag(i);
      for (int k = 0; k < neighbours(i); ++k) {
        const int a = neighbour(i, k);
        A.block(offset(i), offset(a), size(i), size(a)) = coupling(i, k);
        A.block(offset(a), offset(i), size(a), size(i)) = coupling(i, k).transpose();
      }
    }
    return A;
  }

 private:
  [[nodiscard]] std::size_t index(int i, int r) const noexcept {
    return static_cast<std::size_t>(sibling_start_[static_cast<std::size_t>(i)] + r);
  }

  std::vector<int> parent_, size_, offset_, sibling_start_, sibling_id_;
  std::vector<Block> diag_, parent_block_, sibling_;
  int dim_ = 0;
};

namespace detail {

/// A_{a,b} for two members R_i[ka], R_i[kb] of i's neighbour set with ka ≥ kb (so a ≥ b): the diagonal
/// when equal, b's parent block when a is the parent (ka = 0 is never > kb), else a sibling block.
template <class Scalar, int B>
typename SiblingBlockMatrix<Scalar, B>::Block& neighbour_pair(SiblingBlockMatrix<Scalar, B>& A, int i, int ka,
                                                               int kb) noexcept {
  const int a = A.neighbour(i, ka);
  if (ka == kb) return A.diag(a);
  if (kb == 0) return A.parent_block(a);          // a a sibling of i, b = λ(i) = λ(a): A_{a,λ(a)}
  return A.sibling(a, kb - 1);                    // siblings: b is a's (kb−1)-th earlier sibling
}

}  // namespace detail

template <class Scalar, int B>
FactorStatus sibling_block_ldlt(SiblingBlockMatrix<Scalar, B>& A) noexcept {
  using Block = typename SiblingBlockMatrix<Scalar, B>::Block;
  for (int i = A.blocks() - 1; i >= 0; --i) {                                     // E1
    if (!detail::factor_joint_pivot(A.diag(i))) return FactorStatus::non_positive_pivot(A.offset(i), "sibling_block_ldlt");  // E2
    const int r = A.neighbours(i);
    for (int kb = 0; kb < r; ++kb) {
      Block T = A.coupling(i, kb);                                                // E3: T_b = Δ_i⁻¹ A_{i,b}
      detail::solve_joint_pivot(A.diag(i), T);
      for (int ka = kb; ka < r; ++ka)                                             // E4 (a ≥ b)
        detail::neighbour_pair(A, i, ka, kb).noalias() -= A.coupling(i, ka).transpose().lazyProduct(T);
      A.coupling(i, kb) = T;                                                      // E5 (L_{b,i}ᵀ)
    }
  }
  return FactorStatus::success();
}

template <class Scalar, int B, class Derived>
void sibling_block_ldlt_solve(const SiblingBlockMatrix<Scalar, B>& A, Eigen::MatrixBase<Derived>& X) noexcept {
  TREEDYN_CHECK(X.rows() == A.dim(), "sibling_block_ldlt_solve", "X", "X.rows() = A.dim()", A.dim(), X.rows(), return);
  const auto rows = [&](int i, Eigen::Index c) { return X.col(c).segment(A.offset(i), A.size(i)); };
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (int i = A.blocks() - 1; i >= 0; --i)                                     // V1
      for (int k = 0; k < A.neighbours(i); ++k)
        rows(A.neighbour(i, k), c).noalias() -= A.coupling(i, k).transpose().lazyProduct(rows(i, c));
    for (int i = 0; i < A.blocks(); ++i) {
      typename SiblingBlockMatrix<Scalar, B>::BlockVector x = rows(i, c);           // V2
      detail::solve_joint_pivot(A.diag(i), x);
      for (int k = 0; k < A.neighbours(i); ++k)                                   // V3
        x.noalias() -= A.coupling(i, k).lazyProduct(rows(A.neighbour(i, k), c));
      rows(i, c) = x;
    }
  }
}

/// Overload for temporaries (an Eigen::Ref, a block expression).
template <class Scalar, int B, class Derived>
void sibling_block_ldlt_solve(const SiblingBlockMatrix<Scalar, B>& A, Eigen::MatrixBase<Derived>&& X) noexcept {
  sibling_block_ldlt_solve(A, X);
}

}  // namespace treedyn
