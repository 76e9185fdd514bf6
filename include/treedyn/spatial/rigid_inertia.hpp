// treedyn RigidInertia: a rigid-body spatial inertia stored as 10 numbers (m, h = m c, Ī about the origin).
//
// Reference: docs/notation.md (RigidInertia); Featherstone, Rigid Body Dynamics Algorithms, Springer
// 2008, eqs. 2.62-2.63 and Table 2.8 (the (m, h, Ī) operations).
//
//   dense I = [Ī h×; -h× m 1],  I [w; v] = [Ī w + h × v; m v - h × w]
//   Ī = Ī_C - m c×c× (parallel-axis theorem), c = h / m the centre of mass.
// For X = ^B X_A = (E, r) (see transform.hpp):
//   apply_inertia(X, I_A)            = ^B X*_A I_A ^A X_B  (I_A expressed in B coordinates):
//       m' = m,  h' = E (h - m r),  Ī' = E (Ī + r×h× + (h - m r)× r×) E^T
//   apply_transpose_inertia(X, I_B)  = (^B X_A)^T I_B ^B X_A (I_B expressed in A coordinates).
//   rotate_inertia(E, I)             = the same inertia about the same origin in axes rotated by E.
// Both shift the origin with k = h - (m/2) d:  Ī + r×h× + (h - m r)× r× = Ī + k dᵀ + d kᵀ - 2 (k·d) 1
// with d = r (a symmetric rank-2 update plus a diagonal), then rotate with a symmetric congruence.
// Costs: apply 24 multiplications per column; apply_inertia / apply_transpose_inertia about 75
// multiplications (O(1) 3x3 work, no 6x6 product). Fixed-size, inline; nothing allocates unless the caller
// passes a block with a run-time column count to apply().
// Numerical caveat: in single precision, Ī far from the centre of mass loses digits (-m c×c× dominates).
#pragma once

#include <treedyn/spatial/symmetric3.hpp>
#include <treedyn/spatial/transform.hpp>

namespace treedyn {

template <class Scalar>
struct RigidInertia {
  Scalar m;              ///< mass
  Vector3<Scalar> h;     ///< first moment of mass m c
  Symmetric3<Scalar> I;  ///< rotational inertia about the frame origin

  static RigidInertia zero() noexcept {
    return RigidInertia{Scalar(0), Vector3<Scalar>::Zero(), Symmetric3<Scalar>::zero()};
  }

  /// From mass, centre of mass c and rotational inertia about the centre of mass (parallel-axis theorem:
  /// Ī = Ī_C - m c×c× = Ī_C + m (|c|^2 1 - c c^T)).
  static RigidInertia from_mass_com_inertia(const Scalar& mass, const Vector3<Scalar>& c,
                                            const Symmetric3<Scalar>& inertia_com) noexcept {
    const Vector3<Scalar> mc = mass * c;
    // m (|c|^2 1 - c c^T) = -(1/2) (mc c^T + c mc^T) + (mc·c) 1
    const Symmetric3<Scalar> shift =
        (Symmetric3<Scalar>::outer_sum(mc, c) * Scalar(-0.5)).plus_diagonal(mc.dot(c));
    return RigidInertia{mass, mc, inertia_com + shift};
  }

  /// As above with Ī_C given as a 3x3 matrix (its symmetric part is used).
  template <class Derived>
  static RigidInertia from_mass_com_inertia(const Scalar& mass, const Vector3<Scalar>& c,
                                            const Eigen::MatrixBase<Derived>& inertia_com) noexcept {
    return from_mass_com_inertia(mass, c, Symmetric3<Scalar>::from_matrix(inertia_com));
  }

  /// I v: a motion vector (or 6×k block) to the momentum / force I v.
  template <class Derived>
  detail::SpatialBlock<Scalar, Derived> apply(const Eigen::MatrixBase<Derived>& v) const
      noexcept(detail::fixed_columns<Derived>) {
    return detail::map_spatial_columns<Scalar>(v, [this](const auto& w, const auto& lin, auto& top, auto& bottom) {
      top = I * w + detail::cross(h, lin);                     // Ī w + h × v
      bottom = m * lin - detail::cross(h, w);                  // m v − h × w
    });
  }

  /// Sum of two inertias in the same coordinates (a composite body).
  RigidInertia operator+(const RigidInertia& other) const noexcept {
    return RigidInertia{m + other.m, h + other.h, I + other.I};
  }
  RigidInertia& operator+=(const RigidInertia& other) noexcept {
    m += other.m;
    h += other.h;
    I += other.I;
    return *this;
  }

  /// Dense [Ī h×; -h× m 1] (for tests, diagnostics and the articulated inertia).
  Matrix6<Scalar> matrix() const noexcept {
    Matrix6<Scalar> M;
    // h× and −h× entry by entry: a 3×3 temporary written by scalars and read back as wide vectors (to
    // negate it) stalls on the store buffer
    const Scalar x = h(0), y = h(1), z = h(2), o(0);
    M.template topLeftCorner<3, 3>() = I.matrix();
    M.template topRightCorner<3, 3>() << o, -z, y, z, o, -x, -y, x, o;
    M.template bottomLeftCorner<3, 3>() << o, z, -y, -z, o, x, y, -x, o;
    M.template bottomRightCorner<3, 3>() = m * Matrix3<Scalar>::Identity();
    return M;
  }

  /// Centre of mass h / m (requires m != 0).
  Vector3<Scalar> com() const noexcept { return h / m; }

  /// ½ v^T I v = ½ (w^T Ī w + m |v_O|^2) + w · (h × v_O), for a spatial motion 6-vector v.
  template <class Derived>
  Scalar kinetic_energy(const Eigen::MatrixBase<Derived>& v) const noexcept {
    EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Derived, 6)
    const Vector3<Scalar> w = v.template head<3>();
    const Vector3<Scalar> lin = v.template tail<3>();
    const Vector3<Scalar> Iw = I * w;
    const Scalar quadratic = w.dot(Iw) + m * lin.squaredNorm();
    return Scalar(0.5) * quadratic + w.dot(h.cross(lin));
  }

  template <class NewScalar>
  RigidInertia<NewScalar> cast() const noexcept {
    return RigidInertia<NewScalar>{NewScalar(m), h.template cast<NewScalar>(), I.template cast<NewScalar>()};
  }
};

namespace detail {

/// The same inertia about a new origin at d (current coordinates, axes unchanged):
/// h' = h - m d, Ī' = Ī + k d^T + d k^T - 2 (k·d) 1 with k = h - (m/2) d.
template <class Scalar>
inline RigidInertia<Scalar> shift_origin(const Scalar& m, const Vector3<Scalar>& h, const Symmetric3<Scalar>& I,
                                         const Vector3<Scalar>& d) noexcept {
  const Vector3<Scalar> md = m * d;
  const Vector3<Scalar> k = h - Scalar(0.5) * md;
  // entry by entry, in scalars: Symmetric3's whole-vector arithmetic would reload these six entries as
  // SIMD packets straight after writing them one by one (a store-forwarding stall on x86)
  const Scalar kd2 = Scalar(2) * k.dot(d);
  const Symmetric3<Scalar> Ishift = Symmetric3<Scalar>::from_entries(
      I.data(0) + Scalar(2) * k(0) * d(0) - kd2, I.data(1) + k(1) * d(0) + d(1) * k(0),
      I.data(2) + Scalar(2) * k(1) * d(1) - kd2, I.data(3) + k(2) * d(0) + d(2) * k(0),
      I.data(4) + k(2) * d(1) + d(2) * k(1), I.data(5) + Scalar(2) * k(2) * d(2) - kd2);
  return RigidInertia<Scalar>{m, h - md, Ishift};
}

}  // namespace detail

/// The same inertia in rotated axes, origin kept: E = ^B R_A gives (m, E h, E Ī Eᵀ) (no origin shift).
template <class Scalar, class DE>
inline RigidInertia<Scalar> rotate_inertia(const Eigen::MatrixBase<DE>& E, const RigidInertia<Scalar>& IA) noexcept {
  return RigidInertia<Scalar>{IA.m, E * IA.h, IA.I.congruence(E)};
}

namespace detail {
/// (m, E h, E Ī Eᵀ) (Transposed = false) or (m, Eᵀ h, Eᵀ Ī E) (Transposed = true), reading E in place.
template <bool Transposed, class Scalar>
inline RigidInertia<Scalar> rotated_inertia(const Matrix3<Scalar>& E, const RigidInertia<Scalar>& I) noexcept {
  return RigidInertia<Scalar>{I.m, rotate<Transposed>(E, I.h), I.I.template rotated<Transposed>(E)};
}

/// rotated_inertia written into `out` field by field (out must not be I): per-body loops (crba, ccrba) assign
/// it to a Data member, where copying the returned temporary stalled on store forwarding (perf).
template <bool Transposed, class Scalar>
inline void rotated_inertia_into(const Matrix3<Scalar>& E, const RigidInertia<Scalar>& I, RigidInertia<Scalar>& out) noexcept {
  out.m = I.m;
  out.h = rotate<Transposed>(E, I.h);
  I.I.template rotated_into<Transposed>(E, out.I);
}
}  // namespace detail

/// ^B X*_A I_A ^A X_B: a rigid inertia from A coordinates to B coordinates, X = ^B X_A = (E, r).
template <class Scalar>
inline RigidInertia<Scalar> apply_inertia(const Transform<Scalar>& X, const RigidInertia<Scalar>& IA) noexcept {
  return detail::rotated_inertia<false>(X.E, detail::shift_origin(IA.m, IA.h, IA.I, X.r));  // about B's origin, then B's axes
}

/// (^B X_A)^T I_B ^B X_A = ^A X*_B I_B ^B X_A: a rigid inertia from B coordinates back to A.
template <class Scalar>
inline RigidInertia<Scalar> apply_transpose_inertia(const Transform<Scalar>& X,
                                                    const RigidInertia<Scalar>& IB) noexcept {
  const Vector3<Scalar> h_rot = detail::rotate<true>(X.E, IB.h);      // A axes, about B's origin
  const Symmetric3<Scalar> I_rot = IB.I.template rotated<true>(X.E);
  const Vector3<Scalar> minus_r = -X.r;                                // A's origin seen from B's origin
  return detail::shift_origin(IB.m, h_rot, I_rot, minus_r);
}

}  // namespace treedyn
