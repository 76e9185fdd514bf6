// treedyn ArticulatedInertia: a symmetric 6x6 articulated-body inertia and its coordinate transforms.
//
// Reference: docs/notation.md (transforms stored as (E, r); the ABA's IA_i) and algorithms/aba.hpp;
// Featherstone, Rigid Body Dynamics Algorithms, Springer 2008, §7.2-7.3 and Table 2.8.
//
// Block form IA = [A B; B^T C] (A, C symmetric 3x3). For X = ^B X_A = (E, r), write
// X* = diag(E, E) T, X^-1 = T^T diag(E^T, E^T) with T = [1 -r×; 0 1]; then
//   T IA T^T = [A - Q - Q^T + r× W^T,  B - W;  (B - W)^T,  C],   W = r× C,  Q = r× B^T
// (r× M is one 3-vector cross product per column). So
//   apply_inertia(X, IA_A)           = ^B X*_A IA_A ^A X_B : shift by r, then rotate each block by E;
//   apply_transpose_inertia(X, IA_B) = (^B X_A)^T IA_B ^B X_A : rotate by E^T, then shift by -r
// (the ABA's step IA_λ += X^T (IA - U D^-1 U^T) X; add_transpose_inertia adds it in place). Both use
// only 3x3 block formulas: about 220 multiplications against 432 for the two dense 6x6 products, and the
// result is exactly symmetric.
// The input is read as its symmetric part ((M + M^T)/2), so rounding asymmetry in IA never propagates.
// apply(v) is a dense 6x6 times 6×k product. Fixed-size, inline; nothing allocates unless the caller passes
// a block with a run-time column count to apply().
#pragma once

#include <treedyn/spatial/rigid_inertia.hpp>

namespace treedyn {

template <class Scalar>
struct ArticulatedInertia {
  Matrix6<Scalar> M;  ///< symmetric 6x6, angular rows/columns first

  static ArticulatedInertia zero() noexcept { return ArticulatedInertia{Matrix6<Scalar>::Zero()}; }

  static ArticulatedInertia from(const RigidInertia<Scalar>& I) noexcept { return ArticulatedInertia{I.matrix()}; }

  /// IA v for a 6-vector or a 6×k block.
  template <class Derived>
  detail::SpatialBlock<Scalar, Derived> apply(const Eigen::MatrixBase<Derived>& v) const
      noexcept(detail::fixed_columns<Derived>) {
    static_assert(detail::is_spatial_block<Scalar, Derived>,
                  "ArticulatedInertia::apply: the argument must have 6 rows and the inertia's scalar");
    eigen_assert(v.rows() == 6 && "ArticulatedInertia::apply: the argument must have 6 rows");
    detail::SpatialBlock<Scalar, Derived> out;
    out.resize(6, v.cols());
    out.noalias() = M * v;
    return out;
  }

  ArticulatedInertia& operator+=(const ArticulatedInertia& other) noexcept {
    M += other.M;
    return *this;
  }

  /// Adds a rigid inertia (same coordinates) block by block, without forming its 6x6 matrix.
  ArticulatedInertia& operator+=(const RigidInertia<Scalar>& I) noexcept {
    const Matrix3<Scalar> hx = skew(I.h);
    M.template topLeftCorner<3, 3>() += I.I.matrix();
    M.template topRightCorner<3, 3>() += hx;
    M.template bottomLeftCorner<3, 3>() -= hx;
    for (Eigen::Index i = 3; i < 6; ++i) M(i, i) += I.m;
    return *this;
  }

  ArticulatedInertia operator+(const ArticulatedInertia& other) const noexcept {
    return ArticulatedInertia{M + other.M};
  }
  ArticulatedInertia operator-(const ArticulatedInertia& other) const noexcept {
    return ArticulatedInertia{M - other.M};
  }

  const Matrix6<Scalar>& matrix() const noexcept { return M; }

  template <class NewScalar>
  ArticulatedInertia<NewScalar> cast() const noexcept {
    return ArticulatedInertia<NewScalar>{M.template cast<NewScalar>()};
  }
};

namespace detail {

/// Blocks (A, B, C) of the symmetric part of a 6x6 matrix.
template <class Scalar>
struct SymmetricBlocks {
  Symmetric3<Scalar> A;
  Matrix3<Scalar> B;
  Symmetric3<Scalar> C;
};

// The block kernels below are written entry by entry on stored matrices (coefficient access, no Eigen
// expression templates): each is one function per scalar type, where composed Eigen expressions would
// instantiate a family of expression types at every call site (compile time;
// docs/design-notes.md#kernels-written-once-per-scalar-compile-time).

template <class Scalar>
inline SymmetricBlocks<Scalar> symmetric_blocks(const Matrix6<Scalar>& M) noexcept {
  SymmetricBlocks<Scalar> out{Symmetric3<Scalar>::symmetric_part(M, 0), Matrix3<Scalar>(),
                              Symmetric3<Scalar>::symmetric_part(M, 3)};
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) out.B(i, j) = Scalar(0.5) * (M(i, 3 + j) + M(3 + j, i));
  return out;
}

/// T [A B; B^T C] T^T with T = [1 -d×; 0 1]: the same force-side inertia about a new origin at d.
template <class Scalar>
inline SymmetricBlocks<Scalar> shift_blocks(const SymmetricBlocks<Scalar>& in, const Vector3<Scalar>& d) noexcept {
  const Matrix3<Scalar> W = cross_columns<false>(d, in.C.matrix());    // d× C
  const Matrix3<Scalar> Q = cross_columns<true>(d, in.B);              // d× B^T
  const Matrix3<Scalar> dWt = cross_columns<true>(d, W);               // d× W^T = -d× C d×
  Matrix3<Scalar> Anew;                                                // d× W^T - Q - Q^T
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) Anew(i, j) = dWt(i, j) - Q(i, j) - Q(j, i);
  const Symmetric3<Scalar> dA = Symmetric3<Scalar>::symmetric_part(Anew, 0);
  SymmetricBlocks<Scalar> out{in.A, in.B, in.C};
  for (int k = 0; k < 6; ++k) out.A.data(k) += dA.data(k);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) out.B(i, j) -= W(i, j);
  return out;
}

/// R [A B; B^T C] R^T blockwise, R = diag(E, E) (Transposed = false) or diag(E^T, E^T) (Transposed = true),
/// reading E in place.
template <bool Transposed, class Scalar>
inline SymmetricBlocks<Scalar> rotate_blocks(const SymmetricBlocks<Scalar>& in, const Matrix3<Scalar>& E) noexcept {
  const auto R = [&E](int i, int j) -> const Scalar& { return Transposed ? E(j, i) : E(i, j); };  // R(i, j)
  Matrix3<Scalar> RB, RBRt;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) RB(i, j) = R(i, 0) * in.B(0, j) + R(i, 1) * in.B(1, j) + R(i, 2) * in.B(2, j);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) RBRt(i, j) = RB(i, 0) * R(j, 0) + RB(i, 1) * R(j, 1) + RB(i, 2) * R(j, 2);
  return SymmetricBlocks<Scalar>{in.A.template rotated<Transposed>(E), RBRt, in.C.template rotated<Transposed>(E)};
}

/// M = [A B; Bᵀ C] (Add = false) or M += [A B; Bᵀ C] (Add = true), block by block. Adding in place keeps
/// the ABA's IA_λ += … from reloading a freshly assembled 6×6 as wide vectors over its narrow block
/// stores (a store-forwarding stall on every body).
template <bool Add, class Scalar>
inline void write_blocks(const SymmetricBlocks<Scalar>& in, Matrix6<Scalar>& M) noexcept {
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const Scalar a = in.A(i, j), b = in.B(i, j), bt = in.B(j, i), c = in.C(i, j);
      if constexpr (Add) {
        M(i, j) += a;
        M(i, 3 + j) += b;
        M(3 + i, j) += bt;
        M(3 + i, 3 + j) += c;
      } else {
        M(i, j) = a;
        M(i, 3 + j) = b;
        M(3 + i, j) = bt;
        M(3 + i, 3 + j) = c;
      }
    }
}

template <class Scalar>
inline ArticulatedInertia<Scalar> assemble(const SymmetricBlocks<Scalar>& in) noexcept {
  ArticulatedInertia<Scalar> out;
  write_blocks<false>(in, out.M);
  return out;
}

/// (^B X_A)ᵀ IB ^B X_A in 3×3 blocks: rotate by Eᵀ, then shift by −r.
template <class Scalar>
inline SymmetricBlocks<Scalar> transpose_inertia_blocks(const Transform<Scalar>& X, const Matrix6<Scalar>& IB) noexcept {
  const SymmetricBlocks<Scalar> rotated = rotate_blocks<true>(symmetric_blocks(IB), X.E);
  const Vector3<Scalar> minus_r = -X.r;
  return shift_blocks(rotated, minus_r);
}

}  // namespace detail

/// ^B X*_A IA_A ^A X_B: an articulated inertia from A coordinates to B coordinates, X = ^B X_A = (E, r).
template <class Scalar>
inline ArticulatedInertia<Scalar> apply_inertia(const Transform<Scalar>& X,
                                                const ArticulatedInertia<Scalar>& IA) noexcept {
  const detail::SymmetricBlocks<Scalar> shifted = detail::shift_blocks(detail::symmetric_blocks(IA.M), X.r);
  return detail::assemble(detail::rotate_blocks<false>(shifted, X.E));
}

/// (^B X_A)^T IA_B ^B X_A: an articulated inertia from B coordinates back to A (ABA: IA_λ += X^T IA^a X).
template <class Scalar>
inline ArticulatedInertia<Scalar> apply_transpose_inertia(const Transform<Scalar>& X,
                                                          const ArticulatedInertia<Scalar>& IB) noexcept {
  return detail::assemble(detail::transpose_inertia_blocks(X, IB.M));
}

/// IA += (^B X_A)^T IB ^B X_A (the ABA's IA_λ += X^T IA^a X) without forming the transformed 6×6 first.
template <class Scalar>
inline void add_transpose_inertia(const Transform<Scalar>& X, const ArticulatedInertia<Scalar>& IB,
                                  ArticulatedInertia<Scalar>& IA) noexcept {
  detail::write_blocks<true>(detail::transpose_inertia_blocks(X, IB.M), IA.M);
}

}  // namespace treedyn
