// treedyn Lie-group maps of the configuration space: quaternion algebra, the SO(3) exponential and
// logarithm and the SE(3) left Jacobian V, with their small-angle series (Featherstone, Rigid Body
// Dynamics Algorithms, 2008, §4.4–4.5; docs/references.md), for integrate and difference
// (configuration.hpp, whose header comment states the formulas and the series threshold √ε).
// Every function is noexcept and allocation-free; a symbolic Scalar takes both branches (select_branch,
// detail/scalar.hpp).
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "treedyn/detail/scalar.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn {

/// A writable view of a contiguous vector (the output of integrate / difference).
template <class Scalar>
using VectorRef = Eigen::Ref<Eigen::Matrix<Scalar, Eigen::Dynamic, 1>>;

namespace detail {

template <class T>
struct type_identity {
  using type = T;
};
/// Excludes a parameter from template argument deduction (so dt = 0.1 or a VectorXd converts).
template <class T>
using non_deduced = typename type_identity<T>::type;

template <class Scalar>
using Quaternion4 = Eigen::Matrix<Scalar, 4, 1>;  ///< (x, y, z, w)

/// Two coefficients computed together, so that one select_branch chooses both (detail/scalar.hpp).
template <class Scalar>
using Coefficients2 = Eigen::Matrix<Scalar, 2, 1>;

/// Below this value of t² (t an angle), series replace the closed forms: √ε, with ε the epsilon of the
/// arithmetic the numbers are computed in (evaluation_epsilon: positive for a symbolic Scalar too, whose
/// expressions must also take the series at t = 0).
template <class Scalar>
Scalar small_angle_squared() noexcept {
  using std::sqrt;
  return sqrt(Scalar(detail::evaluation_epsilon<Scalar>()));
}

/// a ⊗ b (Hamilton product), both stored (x, y, z, w).
template <class Scalar>
Quaternion4<Scalar> quaternion_multiply(const Quaternion4<Scalar>& a, const Quaternion4<Scalar>& b) noexcept {
  const Vector3<Scalar> av = a.template head<3>();
  const Vector3<Scalar> bv = b.template head<3>();
  Quaternion4<Scalar> out;
  out.template head<3>() = a(3) * bv + b(3) * av + av.cross(bv);
  out(3) = a(3) * b(3) - av.dot(bv);
  return out;
}

template <class Scalar>
Quaternion4<Scalar> quaternion_conjugate(const Quaternion4<Scalar>& a) noexcept {
  Quaternion4<Scalar> out;
  out << -a(0), -a(1), -a(2), a(3);
  return out;
}

template <class Scalar>
Quaternion4<Scalar> quaternion_normalized(const Quaternion4<Scalar>& a) noexcept {
  using std::sqrt;
  return a / sqrt(a.squaredNorm());
}

/// R(quat) p = p + 2 w (u × p) + 2 u × (u × p) for a unit quaternion (u, w).
template <class Scalar>
Vector3<Scalar> quaternion_rotate(const Quaternion4<Scalar>& a, const Vector3<Scalar>& p) noexcept {
  const Vector3<Scalar> u = a.template head<3>();
  const Vector3<Scalar> uxp = u.cross(p);
  return p + Scalar(2) * (a(3) * uxp + u.cross(uxp));
}

/// exp of the rotation vector θ: the unit quaternion (sin(t/2) θ/t, cos(t/2)), t = |θ|.
template <class Scalar>
Quaternion4<Scalar> quaternion_exp(const Vector3<Scalar>& theta) noexcept {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const Scalar t2 = theta.squaredNorm();
  const Coefficients2<Scalar> sc = detail::select_branch(  // sin(t/2)/t and cos(t/2)
      t2 < small_angle_squared<Scalar>(),
      [&] {
        return Coefficients2<Scalar>(Scalar(0.5) - t2 / Scalar(48) + t2 * t2 / Scalar(3840),
                                     Scalar(1) - t2 / Scalar(8) + t2 * t2 / Scalar(384));
      },
      [&] {
        const Scalar t = sqrt(t2);
        return Coefficients2<Scalar>(sin(t / Scalar(2)) / t, cos(t / Scalar(2)));
      });
  Quaternion4<Scalar> out;
  out.template head<3>() = sc(0) * theta;
  out(3) = sc(1);
  return out;
}

/// Result of quaternion_log: the rotation vector θ (|θ| ≤ π) and, for the SE(3) logarithm,
/// D = (1 − (t/2) cot(t/2)) / t², the θ×² coefficient of V⁻¹.
template <class Scalar>
struct RotationLog {
  Vector3<Scalar> theta;
  Scalar D;
};

/// Logarithm of a unit quaternion along the shortest rotation (the sign of the quaternion is chosen
/// so that w ≥ 0).
template <class Scalar>
RotationLog<Scalar> quaternion_log(const Quaternion4<Scalar>& a_in) noexcept {
  using std::atan2;
  using std::sqrt;
  const Quaternion4<Scalar> a =
      detail::select_branch(a_in(3) < Scalar(0), [&] { return Quaternion4<Scalar>(-a_in); }, [&] { return a_in; });
  const Vector3<Scalar> u = a.template head<3>();
  const Scalar w = a(3);
  const Scalar s2 = u.squaredNorm();
  const Eigen::Matrix<Scalar, 4, 1> theta_D = detail::select_branch(  // θ and D, packed
      s2 < small_angle_squared<Scalar>() * w * w,
      [&] {
        // t / sin(t/2) with x = tan(t/2) = s / w: 2 atan(x) / s = (2 / w)(1 − x²/3 + x⁴/5)
        const Scalar x2 = s2 / (w * w);
        const Vector3<Scalar> theta = (Scalar(2) / w) * (Scalar(1) - x2 / Scalar(3) + x2 * x2 / Scalar(5)) * u;
        const Scalar t2 = theta.squaredNorm();
        Eigen::Matrix<Scalar, 4, 1> packed;
        packed << theta, Scalar(1) / Scalar(12) + t2 / Scalar(720) + t2 * t2 / Scalar(30240);
        return packed;
      },
      [&] {
        const Scalar s = sqrt(s2);
        const Scalar half = atan2(s, w);  // t / 2 in [0, π/2]
        Eigen::Matrix<Scalar, 4, 1> packed;
        packed << (Scalar(2) * half / s) * u, (Scalar(1) - half * w / s) / (Scalar(4) * half * half);
        return packed;
      });
  RotationLog<Scalar> out;
  out.theta = theta_D.template head<3>();
  out.D = theta_D(3);
  return out;
}

/// V(θ) ρ = ρ + B θ × ρ + C θ × (θ × ρ): the translation of the SE(3) exponential of [θ; ρ].
template <class Scalar>
Vector3<Scalar> se3_left_jacobian_apply(const Vector3<Scalar>& theta, const Vector3<Scalar>& rho) noexcept {
  using std::sin;
  using std::sqrt;
  const Scalar t2 = theta.squaredNorm();
  const Coefficients2<Scalar> BC = detail::select_branch(
      t2 < small_angle_squared<Scalar>(),
      [&] {
        return Coefficients2<Scalar>(Scalar(0.5) - t2 / Scalar(24) + t2 * t2 / Scalar(720),
                                     Scalar(1) / Scalar(6) - t2 / Scalar(120) + t2 * t2 / Scalar(5040));
      },
      [&] {
        const Scalar t = sqrt(t2);
        const Scalar sh = sin(t / Scalar(2));
        return Coefficients2<Scalar>(Scalar(2) * sh * sh / t2,  // (1 − cos t) / t², without cancellation
                                     (t - sin(t)) / (t2 * t));  // harmless cancellation: C is multiplied by t²
      });
  const Vector3<Scalar> txr = theta.cross(rho);
  return rho + BC(0) * txr + BC(1) * theta.cross(txr);
}

}  // namespace detail
}  // namespace treedyn
