// treedyn Symmetric3: a symmetric 3x3 matrix (rotational inertia) stored as its 6 distinct entries.
//
// Reference: docs/notation.md (RigidInertia: Ī is stored symmetric, 6 numbers); Featherstone, Rigid
// Body Dynamics Algorithms, Springer 2008, Table 2.8 (the Ī part of the (m, h, Ī) operations).
//
// Storage order: data = (xx, yx, yy, zx, zy, zz), the lower triangle row by row.
// Costs: S*v 9 multiplications; congruence E S E^T 45 multiplications (dense: 54); +, -, scalar * are
// 6 operations. Fixed-size, inline, never allocates.
#pragma once

#include <treedyn/spatial/types.hpp>

namespace treedyn {

template <class Scalar>
struct Symmetric3 {
  /// (xx, yx, yy, zx, zy, zz).
  Eigen::Matrix<Scalar, 6, 1> data;

  static Symmetric3 zero() noexcept { return Symmetric3{Eigen::Matrix<Scalar, 6, 1>::Zero()}; }

  static Symmetric3 identity() noexcept {
    return from_entries(Scalar(1), Scalar(0), Scalar(1), Scalar(0), Scalar(0), Scalar(1));
  }

  static Symmetric3 from_entries(const Scalar& xx, const Scalar& yx, const Scalar& yy, const Scalar& zx,
                                 const Scalar& zy, const Scalar& zz) noexcept {
    Symmetric3 s;
    s.data(0) = xx;
    s.data(1) = yx;
    s.data(2) = yy;
    s.data(3) = zx;
    s.data(4) = zy;
    s.data(5) = zz;
    return s;
  }

  /// The symmetric part (M + M^T) / 2 of any 3x3 matrix.
  template <class Derived>
  static Symmetric3 from_matrix(const Eigen::MatrixBase<Derived>& M) noexcept {
    EIGEN_STATIC_ASSERT_MATRIX_SPECIFIC_SIZE(Derived, 3, 3)
    return symmetric_part(M, 0);
  }

  /// The symmetric part of the 3x3 block of M at (r, r) (a 3x3 M, or a diagonal block of a 6x6), read
  /// entry by entry.
  template <class Derived>
  static Symmetric3 symmetric_part(const Eigen::MatrixBase<Derived>& M, int r) noexcept {
    const Scalar half(Scalar(0.5));
    return from_entries(M(r, r), half * (M(r + 1, r) + M(r, r + 1)), M(r + 1, r + 1), half * (M(r + 2, r) + M(r, r + 2)),
                        half * (M(r + 2, r + 1) + M(r + 1, r + 2)), M(r + 2, r + 2));
  }

  /// a b^T + b a^T (12 multiplications).
  static Symmetric3 outer_sum(const Vector3<Scalar>& a, const Vector3<Scalar>& b) noexcept {
    const Scalar two(2);
    return from_entries(two * a(0) * b(0), a(1) * b(0) + b(1) * a(0), two * a(1) * b(1),
                        a(2) * b(0) + b(2) * a(0), a(2) * b(1) + b(2) * a(1), two * a(2) * b(2));
  }

  Scalar operator()(Eigen::Index i, Eigen::Index j) const noexcept {
    // Index of (max(i,j), min(i,j)) in the lower triangle, row by row.
    const Eigen::Index hi = i > j ? i : j;
    const Eigen::Index lo = i > j ? j : i;
    return data(hi * (hi + 1) / 2 + lo);
  }

  Matrix3<Scalar> matrix() const noexcept {
    Matrix3<Scalar> M;
    M(0, 0) = data(0);
    M(1, 0) = data(1);
    M(0, 1) = data(1);
    M(1, 1) = data(2);
    M(2, 0) = data(3);
    M(0, 2) = data(3);
    M(2, 1) = data(4);
    M(1, 2) = data(4);
    M(2, 2) = data(5);
    return M;
  }

  template <class Derived>
  Vector3<Scalar> operator*(const Eigen::MatrixBase<Derived>& v) const noexcept {
    EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 3)
    Vector3<Scalar> out;
    out(0) = data(0) * v(0) + data(1) * v(1) + data(3) * v(2);
    out(1) = data(1) * v(0) + data(2) * v(1) + data(4) * v(2);
    out(2) = data(3) * v(0) + data(4) * v(1) + data(5) * v(2);
    return out;
  }

  /// Adds s to the three diagonal entries (S + s 1).
  Symmetric3 plus_diagonal(const Scalar& s) const noexcept {
    Symmetric3 out = *this;
    out.data(0) += s;
    out.data(2) += s;
    out.data(5) += s;
    return out;
  }

  /// E S E^T, computed as F = E S (27 multiplications) then the lower triangle of F E^T (18).
  template <class Derived>
  Symmetric3 congruence(const Eigen::MatrixBase<Derived>& E) const noexcept {
    EIGEN_STATIC_ASSERT_MATRIX_SPECIFIC_SIZE(Derived, 3, 3)
    return congruence_by([&E](int i, int j) { return E(i, j); });
  }

  /// E S Eᵀ (Transposed = false) or Eᵀ S E (Transposed = true), reading E in place.
  template <bool Transposed>
  Symmetric3 rotated(const Matrix3<Scalar>& E) const noexcept {
    Symmetric3 out;
    rotated_into<Transposed>(E, out);
    return out;
  }

  /// rotated, written into `out` entry by entry (out must not be *this): a per-body loop that assigns a
  /// returned Symmetric3 to a member copies it with wide loads of a stack object just written in narrow
  /// pieces, a store-forwarding stall (docs/design-notes.md#rotations-written-out-except-in-double).
  template <bool Transposed>
  void rotated_into(const Matrix3<Scalar>& E, Symmetric3& out) const noexcept {
    congruence_into([&E](int i, int j) -> const Scalar& { return Transposed ? E(j, i) : E(i, j); }, out);
  }

  /// The same for E given entry by entry: E(i, j) returns entry (i, j) (e.g. a rotation read transposed in place).
  template <class Entries>
  Symmetric3 congruence_by(const Entries& E) const noexcept {
    Symmetric3 out;
    congruence_into(E, out);
    return out;
  }

  /// congruence_by into `out` (out must not be *this).
  template <class Entries>
  void congruence_into(const Entries& E, Symmetric3& out) const noexcept {
    const Symmetric3& S = *this;
    Scalar F[3][3];  // F = E S: F(i, k) = Σ_j S(k, j) E(i, j), S symmetric
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) F[i][k] = S(k, 0) * E(i, 0) + S(k, 1) * E(i, 1) + S(k, 2) * E(i, 2);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j <= i; ++j)
        out.data(i * (i + 1) / 2 + j) = F[i][0] * E(j, 0) + F[i][1] * E(j, 1) + F[i][2] * E(j, 2);
  }

  Symmetric3 operator+(const Symmetric3& other) const noexcept { return Symmetric3{data + other.data}; }
  Symmetric3 operator-(const Symmetric3& other) const noexcept { return Symmetric3{data - other.data}; }
  Symmetric3 operator-() const noexcept { return Symmetric3{-data}; }
  Symmetric3& operator+=(const Symmetric3& other) noexcept {
    data += other.data;
    return *this;
  }
  Symmetric3& operator-=(const Symmetric3& other) noexcept {
    data -= other.data;
    return *this;
  }
  Symmetric3 operator*(const Scalar& s) const noexcept { return Symmetric3{data * s}; }
  friend Symmetric3 operator*(const Scalar& s, const Symmetric3& S) noexcept { return Symmetric3{S.data * s}; }

  template <class NewScalar>
  Symmetric3<NewScalar> cast() const noexcept {
    return Symmetric3<NewScalar>{data.template cast<NewScalar>()};
  }
};

}  // namespace treedyn
