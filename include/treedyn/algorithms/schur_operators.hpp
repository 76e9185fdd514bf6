// schur_operators: Fijany's operators 𝒜 = 𝒲ᵀK𝒲, ℬ = 𝒲ᵀK𝒮, 𝒢 = 𝒮ᵀK𝒮 (K = 𝒫𝓘⁻¹𝒫ᵀ) formed at q, inspectable.
//
// Source: A. Fijany, ICRA 1994 (docs/references.md), §IV.B, Eqs. (18)–(31): the force
// decomposition f = 𝒮τ + 𝒲μ, the constraint 𝒲ᵀ𝒫ᵀ... = 0 and M⁻¹ = 𝒢 − ℬᵀ𝒜⁻¹ℬ with 𝒜 block tridiagonal;
// in our notation (docs/notation.md), for chains and trees. Three choices beyond the paper,
// each exact (proofs in the comments where they are made):
//  * 𝒮 uses Ŝ_i = S_i (S_iᵀS_i)⁻¹ in place of an orthonormal S_i. It gives f_i = Ŝ_iτ_i + W_iμ_i with
//    S_iᵀf_i = τ_i and q̈_i = Ŝ_iᵀ(𝒫a)_i for ANY full-rank S_i (helical joints, S = [a; p a]); for an
//    orthonormal S_i, Ŝ_i = S_i. This is "normalise S and rescale τ" folded into one matrix.
//  * W_i: an orthonormal basis of S_i's orthogonal complement (W_iᵀS_i = 0, W_iᵀW_i = 1), from a QR of S_i.
//  * A body on the FIXED base whose inertia is singular (robots::puma560's massless link 1) gets
//    I'_i = I_i + γ W_iW_iᵀ, γ = m_i + tr Ī_i: (𝒲ᵀ𝒫a)_i = W_iᵀa_i = 0 for such a body, so the added
//    force γW_iW_iᵀa_i is zero and neither a, q̈ nor μ change, while I'_i is invertible whenever
//    S_iᵀI_iS_i is. A singular inertia elsewhere cannot be treated this way (it would couple bodies):
//    the workspace constructor rejects it with std::invalid_argument naming the body.
//
// Global operators (0-based bodies, X_i = ^iX_λ(i) = data.Xup[i], P_i = [Ŝ_i W_i] 6×6):
//   K_ii = I_i⁻¹ + X_i I_λ⁻¹ X_iᵀ,  K_{i,λ(i)} = −X_i I_λ⁻¹,  K_ij = X_i I_λ⁻¹ X_jᵀ for siblings λ(i) = λ(j)
//   (terms with λ = no_parent vanish: the fixed base has I⁻¹ = 0). The workspace stores K̃_ij = P_iᵀK_ijP_j
//   on the sibling pattern (kernels/sibling_block_ldlt.hpp); 𝒢, ℬ, 𝒜 are its S–S, W–S and W–W parts.
// Pseudo-code of schur_operators (labels on the code):
//   O1  X_i = XJ(q_i) X_T(i)                                       (every body)
//   O2  Z_i = P_iᵀ X_i;   V_i = Z_i I_λ⁻¹                              (λ(i) ≠ no_parent)
//   O3  K̃_ii = P_iᵀ I_i⁻¹ P_i + V_i Z_iᵀ                              (second term only with a parent)
//   O4  K̃_{i,λ} = −V_i P_λ
//   O5  K̃_ij = V_i Z_jᵀ for each earlier sibling j of i
//   O6  𝒜: the W–W parts of K̃ — a BlockTridiagonal for a chain (λ(i) = i − 1), a SiblingBlockMatrix else
// Contract: SchurWorkspace<Scalar> ws(model) is built once (allocates; throws std::invalid_argument for a
// model the method cannot handle). schur_operators(model, data, ws, q) writes data.Xup and ws's K̃ and 𝒜
// (unfactored). Cost O(N + Σ children²) 6×6 products. noexcept; never allocates.
// Printing: ws.A_dense(), ws.B_dense(), ws.G_dense() (allocate; for tests and diagnostics).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/status.hpp"
#include "treedyn/kernels/sibling_block_ldlt.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {

/// Which half of a joint's 6-dimensional force basis P_i = [Ŝ_i W_i] an operator reads or writes.
enum class SchurPart { joint, constraint };

template <class Scalar>
class SchurWorkspace {
 public:
  using MatrixX = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using VectorX = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  SchurWorkspace() = default;

  template <int N>
  explicit SchurWorkspace(const Model<Scalar, N>& model) : model_id(model.id()) {
    const int nb = model.nbodies();
    std::vector<int> parents, joint_sizes, constraint_sizes, six(static_cast<std::size_t>(nb), 6);
    chain_ = true;
    int w_offset = 0;
    for (int i = 0; i < nb; ++i) {
      const int ni = static_cast<int>(model.motion_subspaces()[i].cols());
      parents.push_back(model.parent(i));
      joint_sizes.push_back(ni);
      constraint_sizes.push_back(6 - ni);
      n_.push_back(ni);
      v_offset_.push_back(model.v_offset(i));
      w_offset_.push_back(w_offset);
      w_offset += 6 - ni;
      if (model.parent(i) != i - 1) chain_ = false;
      P_.push_back(joint_basis(model.motion_subspaces()[i]));
      Iinv_.push_back(inverse_inertia(model, i, P_.back().rightCols(6 - ni)));
      IinvP_.push_back(Iinv_.back() * P_.back());
      D0_.push_back(P_.back().transpose() * IinvP_.back());
    }
    nv_ = model.nv();
    nw_ = w_offset;
    Z_.assign(static_cast<std::size_t>(nb), Matrix6<Scalar>::Zero());
    K = SiblingBlockMatrix<Scalar, 6>(parents, six);
    if (chain_) A_chain = BlockTridiagonal<Scalar, 6>(constraint_sizes);
    else A_tree = SiblingBlockMatrix<Scalar, 6>(parents, constraint_sizes);
    Minv = MatrixX::Zero(nv_, nv_);
    Minv_b = VectorX::Zero(nv_);
    mu = VectorX::Zero(nw_);
    column = VectorX::Zero(nv_);
  }

  [[nodiscard]] int nbodies() const noexcept { return static_cast<int>(n_.size()); }
  [[nodiscard]] int nv() const noexcept { return nv_; }
  /// Number of constraint-force coordinates Σ (6 − n_i): the dimension of 𝒜.
  [[nodiscard]] int nw() const noexcept { return nw_; }
  /// True for a chain (λ(i) = i − 1): 𝒜 is then the BlockTridiagonal A_chain, else the SiblingBlockMatrix A_tree.
  [[nodiscard]] bool is_chain() const noexcept { return chain_; }
  /// Ŝ_i (6 × n_i): the joint part of P_i.
  [[nodiscard]] auto S_hat(int i) const noexcept { return P_[static_cast<std::size_t>(i)].leftCols(n(i)); }
  /// W_i (6 × (6 − n_i)), orthonormal, W_iᵀS_i = 0.
  [[nodiscard]] auto W(int i) const noexcept { return P_[static_cast<std::size_t>(i)].rightCols(6 - n(i)); }
  /// I_i⁻¹ as used (the regularised I'_i⁻¹ for a singular body on the fixed base).
  [[nodiscard]] const Matrix6<Scalar>& inertia_inverse(int i) const noexcept { return Iinv_[static_cast<std::size_t>(i)]; }
  [[nodiscard]] int n(int i) const noexcept { return n_[static_cast<std::size_t>(i)]; }

  /// Offset and size of body i's segment of a joint-space (τ, q̈) or constraint-space (μ) vector, and the
  /// first row of that part inside P_i.
  [[nodiscard]] int offset(SchurPart part, int i) const noexcept {
    return part == SchurPart::joint ? v_offset_[static_cast<std::size_t>(i)] : w_offset_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] int part_size(SchurPart part, int i) const noexcept { return part == SchurPart::joint ? n(i) : 6 - n(i); }
  [[nodiscard]] int part_row(SchurPart part, int i) const noexcept { return part == SchurPart::joint ? 0 : n(i); }

  /// Dense 𝒜 (nw×nw), ℬ (nw×nv), 𝒢 (nv×nv) of the last schur_operators call. Allocate.
  [[nodiscard]] MatrixX A_dense() const { return dense(SchurPart::constraint, SchurPart::constraint); }
  [[nodiscard]] MatrixX B_dense() const { return dense(SchurPart::joint, SchurPart::constraint); }
  [[nodiscard]] MatrixX G_dense() const { return dense(SchurPart::joint, SchurPart::joint); }

  // Formed at q by schur_operators (public: inspect them; algorithms write them).
  SiblingBlockMatrix<Scalar, 6> K;           ///< K̃_ij = P_iᵀ K_ij P_j on the sibling pattern, 6×6 blocks
  BlockTridiagonal<Scalar, 6> A_chain;       ///< 𝒜 of a chain (factored in place by the algorithms)
  SiblingBlockMatrix<Scalar, 6> A_tree;      ///< 𝒜 of a tree (factored in place by the algorithms)
  FactorStatus status;                       ///< factorization of 𝒜 by the last minverse_schur / minverse_apply_schur
  MatrixX Minv;                              ///< minverse_schur output (full, symmetric)
  VectorX Minv_b;                            ///< minverse_apply_schur output M⁻¹τ
  VectorX mu;                                ///< multipliers μ = −𝒜⁻¹ℬτ of the last call (constraint forces W_iᵀf_i)
  VectorX column;                            ///< scratch: one joint-space column

  // Constant in body coordinates, computed once.
  std::vector<Matrix6<Scalar>> P_, Iinv_, IinvP_, D0_, Z_;
  /// Model::id() of the model it was built for; the algorithms taking it check it (detail/check.hpp).
  std::uint64_t model_id = 0;

 private:
  static Matrix6<Scalar> joint_basis(const MotionSubspace<Scalar>& S) {
    const int ni = static_cast<int>(S.cols());
    const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> Sd = S;
    Eigen::HouseholderQR<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>> qr(Sd);
    const Matrix6<Scalar> Q = qr.householderQ() * Matrix6<Scalar>::Identity();
    Matrix6<Scalar> P;
    const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> StS = Sd.transpose() * Sd;
    P.leftCols(ni) = Sd * StS.llt().solve(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>::Identity(ni, ni));
    P.rightCols(6 - ni) = Q.rightCols(6 - ni);
    return P;
  }

  /// I_i⁻¹ in centre-of-mass form [Ī_C⁻¹, −Ī_C⁻¹c×; c×Ī_C⁻¹, 1/m − c×Ī_C⁻¹c×] (c = h/m), or the
  /// inverse of the regularised I_i + γW_iW_iᵀ for a singular body on the fixed base (see the header).
  template <int N, class DerivedW>
  static Matrix6<Scalar> inverse_inertia(const Model<Scalar, N>& model, int i, const Eigen::MatrixBase<DerivedW>& W) {
    const RigidInertia<Scalar>& I = model.inertia(i);
    const std::string who = "treedyn::SchurWorkspace: body " + std::to_string(i) + " ('" + model.name(i) + "'): ";
    if (I.m > Scalar(0)) {
      const Vector3<Scalar> c = I.h / I.m;
      const Matrix3<Scalar> cx = skew(c);
      const Matrix3<Scalar> Ic = I.I.matrix() + I.m * cx * cx;
      Eigen::LLT<Matrix3<Scalar>> llt(Ic);
      if (llt.info() == Eigen::Success) {
        const Matrix3<Scalar> Ic_inv = llt.solve(Matrix3<Scalar>::Identity());
        Matrix6<Scalar> out;
        out.template topLeftCorner<3, 3>() = Ic_inv;
        out.template topRightCorner<3, 3>() = -Ic_inv * cx;
        out.template bottomLeftCorner<3, 3>() = cx * Ic_inv;
        out.template bottomRightCorner<3, 3>() = Matrix3<Scalar>::Identity() / I.m - cx * Ic_inv * cx;
        return out;
      }
    }
    // The method needs each body's OWN inertia (I_i⁻¹, or S_iᵀI_iS_i > 0 on the fixed base), not the
    // subtree's: a massless link fails here though M, which sums the subtree, is regular.
    const std::string fix = "; use minverse_aba or minverse_ltdl, or give the link a small inertia";
    if (I.m == Scalar(0) && I.I.matrix().isZero(Scalar(0)))
      throw std::invalid_argument(who + "massless link (singular spatial inertia: zero mass and rotational "
                                        "inertia): massless links are unsupported by Fijany's Schur-complement "
                                        "method, which needs each body's own inertia (M itself may be regular)" + fix);
    if (model.parent(i) != no_parent)
      throw std::invalid_argument(who + "singular spatial inertia (massless or a rotational inertia that is not "
                                        "positive definite) on a body that is not on the fixed base: Fijany's "
                                        "Schur-complement method needs I_i⁻¹" + fix);
    const Scalar gamma = I.m + I.I.matrix().trace();
    const Matrix6<Scalar> regularised = I.matrix() + gamma * (W * W.transpose());
    Eigen::LLT<Matrix6<Scalar>> llt(regularised);
    if (!(gamma > Scalar(0)) || llt.info() != Eigen::Success)
      throw std::invalid_argument(who + "the body's own inertia is singular about its joint (S_iᵀ I_i S_i, of this "
                                        "body alone, not its subtree): Fijany's Schur-complement method needs it "
                                        "positive definite" + fix);
    return llt.solve(Matrix6<Scalar>::Identity());
  }

  MatrixX dense(SchurPart in, SchurPart out) const;

  std::vector<int> n_, v_offset_, w_offset_;
  int nv_ = 0, nw_ = 0;
  bool chain_ = true;
};

namespace detail {

/// y += Op x for Op = R_outᵀ K̃ R_in, R selecting the joint or constraint part of every body's basis P_i:
/// 𝒢 (joint → joint), ℬ (joint → constraint), ℬᵀ (constraint → joint), 𝒜 (constraint → constraint).
/// One pass over the stored pairs of K̃ (diagonal, parent, siblings), each used in both directions.
/// O(N + Σ children²); never allocates.
template <class Scalar, class Dx, class Dy>
void schur_apply(const SchurWorkspace<Scalar>& ws, SchurPart in, SchurPart out, const Eigen::MatrixBase<Dx>& x,
                 Eigen::MatrixBase<Dy>& y) noexcept {
  const auto seg_in = [&](int i) { return x.segment(ws.offset(in, i), ws.part_size(in, i)); };
  const auto seg_out = [&](int i) { return y.segment(ws.offset(out, i), ws.part_size(out, i)); };
  const auto part = [&](const auto& Kt, SchurPart rows, int i, SchurPart cols, int j) {
    return Kt.block(ws.part_row(rows, i), ws.part_row(cols, j), ws.part_size(rows, i), ws.part_size(cols, j));
  };
  for (int i = 0; i < ws.nbodies(); ++i) {
    seg_out(i).noalias() += part(ws.K.diag(i), out, i, in, i).lazyProduct(seg_in(i));
    for (int k = 0; k < ws.K.neighbours(i); ++k) {
      const int a = ws.K.neighbour(i, k);
      const auto& Kia = ws.K.coupling(i, k);                                      // K̃_{i,a}; K̃_{a,i} = K̃_{i,a}ᵀ
      seg_out(i).noalias() += part(Kia, out, i, in, a).lazyProduct(seg_in(a));
      seg_out(a).noalias() += part(Kia, in, i, out, a).transpose().lazyProduct(seg_in(i));
    }
  }
}

}  // namespace detail

template <class Scalar>
typename SchurWorkspace<Scalar>::MatrixX SchurWorkspace<Scalar>::dense(SchurPart in, SchurPart out) const {
  const int cols = in == SchurPart::joint ? nv_ : nw_, rows = out == SchurPart::joint ? nv_ : nw_;
  MatrixX D = MatrixX::Zero(rows, cols);
  VectorX e = VectorX::Zero(cols), y(rows);
  for (int j = 0; j < cols; ++j) {
    e.setZero();
    e(j) = Scalar(1);
    y.setZero();
    detail::schur_apply(*this, in, out, e, y);
    D.col(j) = y;
  }
  return D;
}

namespace detail {
/// The entry checks of the Schur routes: data and ws were built for model, q has nq entries.
template <class Scalar, int N, class Dq>
bool schur_arguments_ok(const char* function, const Model<Scalar, N>& model, const Data<Scalar, N>& data,
                        const SchurWorkspace<Scalar>& ws, const Eigen::MatrixBase<Dq>& q) noexcept {
  return model_data_q_ok(function, model, data, q) && same_model(function, "ws", ws.model_id, model.id());
}
}  // namespace detail

/// O1–O6: forms K̃ and 𝒜 at q (see the header). Writes data.Xup and ws.K, ws.A_chain or ws.A_tree.
/// False, with nothing formed, when an argument check fails (detail/check.hpp) or a quaternion of q is zero
/// or not finite (data.config_status names the body).
template <class Scalar, int N, class Dq>
bool schur_operators(const Model<Scalar, N>& model, Data<Scalar, N>& data, SchurWorkspace<Scalar>& ws,
                     const Eigen::MatrixBase<Dq>& q) noexcept {
  if (!detail::schur_arguments_ok("schur_operators", model, data, ws, q)) return false;
  if (!detail::joint_transforms(model, data, q, "schur_operators")) return false;  // O1
  Matrix6<Scalar> V;
  for (int i = 0; i < model.nbodies(); ++i) {
    const std::size_t si = static_cast<std::size_t>(i);
    const int p = model.parent(i);
    ws.K.diag(i) = ws.D0_[si];                                                    // O3 (first term)
    if (p == no_parent) continue;
    const std::size_t sp = static_cast<std::size_t>(p);
    ws.Z_[si].noalias() = ws.P_[si].transpose() * data.Xup[i].motion_matrix();    // O2
    V.noalias() = ws.Z_[si] * ws.Iinv_[sp];
    ws.K.diag(i).noalias() += V * ws.Z_[si].transpose();                          // O3
    ws.K.parent_block(i).noalias() = -V * ws.P_[sp];                              // O4
    for (int r = 0; r < ws.K.earlier_siblings(i); ++r)                            // O5
      ws.K.sibling(i, r).noalias() = V * ws.Z_[static_cast<std::size_t>(ws.K.earlier_sibling(i, r))].transpose();
  }
  for (int i = 0; i < model.nbodies(); ++i) {                                     // O6
    const int wi = 6 - ws.n(i);
    if (ws.is_chain()) {
      ws.A_chain.diag(i) = ws.K.diag(i).bottomRightCorner(wi, wi);
      if (i > 0) ws.A_chain.lower(i) = ws.K.parent_block(i).block(ws.n(i), ws.n(i - 1), wi, 6 - ws.n(i - 1));
      continue;
    }
    ws.A_tree.diag(i) = ws.K.diag(i).bottomRightCorner(wi, wi);
    for (int k = 0; k < ws.K.neighbours(i); ++k) {
      const int a = ws.K.neighbour(i, k);
      ws.A_tree.coupling(i, k) = ws.K.coupling(i, k).block(ws.n(i), ws.n(a), wi, 6 - ws.n(a));
    }
  }
  return true;
}

}  // namespace treedyn
