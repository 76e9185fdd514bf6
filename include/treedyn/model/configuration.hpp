// treedyn configuration space: neutral, integrate, difference and random configurations of a Model.
//
// Reference: the q̇(v) map of every joint (joint.hpp): integrate with the quaternion exponential,
// never q += v dt when nq ≠ nv; a semi-implicit Euler step of a contact time-stepping scheme,
// θ⁺ = θ + Δt θ̇⁺, uses integrate. Exponential and logarithm of SO(3) / SE(2) / SE(3): Featherstone,
// Rigid Body Dynamics Algorithms, Springer 2008, §4.4–4.5 (quaternions, q̇ from v); the closed forms
// below are the standard Rodrigues-type series, written out here.
//
// Per joint (velocities are body-frame quantities, as everywhere in treedyn; see joint.hpp):
//   revolute, prismatic, helical  q ← q + v dt
//   planar   q = (x, y, θ), v = (v_x, v_y, ω) in the BODY frame: the exact SE(2) exponential of the
//            constant body twist, (x, y) ← (x, y) + Rz(θ) V(ω dt) (v_x, v_y) dt, θ ← θ + ω dt
//   spherical  quat ← quat ⊗ exp(ω dt), renormalised (ω in body coordinates)
//   free flyer q = (p, quat), v = [ω; v_O] body coordinates: the SE(3) exponential of the body twist,
//            p ← p + R(quat) V(ω dt) v_O dt, quat ← quat ⊗ exp(ω dt), renormalised
// where V is the left Jacobian of the exponential (V = 1 + B θ× + C θ×², B = (1 − cos t)/t²,
// C = (t − sin t)/t³, t = |θ|). Below t² < √ε every coefficient is evaluated from its Taylor series
// (no sqrt of 0, no 0/0), so float, double, long double and Eigen::AutoDiffScalar give finite values
// and derivatives at zero angle. For these numeric scalars the choice is a plain `if`; a symbolic Scalar
// forms both the series and the closed form and chooses between them with its if_else (detail/scalar.hpp,
// select_branch), its threshold √ε taken from its Eigen::NumTraits epsilon.
// difference(q0, q1) is the inverse: the velocity v such that integrate(q0, v, 1) = q1. For spherical
// and free-flyer joints it takes the shortest rotation (|ω| ≤ π), so the round trip returns q1 up to
// the sign of each quaternion (the same rotation); for the planar joint it uses θ1 − θ0 as it is
// (no wrapping, so the round trip is exact) and is singular as |θ1 − θ0| → 2π.
// random_configuration(model, seed) draws from SplitMix64 (the same numbers on every platform): angles
// in [−π, π], prismatic and planar/free-flyer translations in [−1, 1], uniform unit quaternions.
//
// Costs: O(nq) for every function; a free-flyer step is about 80 multiplications and one sqrt, sin,
// cos. Allocation: integrate and difference never allocate (they write into caller-provided outputs
// of the right size, passed as Eigen::Ref); neutral(model) and random_configuration return a
// ConfigVector, which allocates only when N is Dynamic. Aliasing: integrate's q_out may be the very
// same vector as q (each joint's segment is read completely before it is written); partial overlaps
// are not allowed. difference's v_out must not overlap q0 or q1.
// Every size is checked (detail/check.hpp): a wrong one fails a TREEDYN_CHECK before anything is written.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include <Eigen/Core>

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/detail/storage.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/types.hpp"
#include "treedyn/topology/generators.hpp"

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

/// Uniform number in [lo, hi] from 24 random bits (exact in float, identical on every platform).
template <class Scalar>
Scalar uniform_real(SplitMix64& rng, const Scalar& lo, const Scalar& hi) noexcept {
  const int k = static_cast<int>(rng.next() >> 40);  // 0 .. 2^24 − 1
  return lo + (hi - lo) * (Scalar(k) / Scalar(16777215));
}

/// Uniformly distributed unit quaternion (x, y, z, w) (Shoemake, Graphics Gems III, 1992).
template <class Scalar>
Quaternion4<Scalar> random_quaternion(SplitMix64& rng) noexcept {
  using std::atan;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const Scalar two_pi = Scalar(8) * atan(Scalar(1));
  const Scalar u1 = uniform_real(rng, Scalar(0), Scalar(1));
  const Scalar u2 = uniform_real(rng, Scalar(0), two_pi);
  const Scalar u3 = uniform_real(rng, Scalar(0), two_pi);
  const Scalar a = sqrt(Scalar(1) - u1), b = sqrt(u1);
  Quaternion4<Scalar> out;
  out << a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3);
  return quaternion_normalized(out);
}

/// Calls step(type, iq, iv) for every joint in body order: its type and the offsets of its blocks of q
/// (nq entries) and of v (nv entries). The walk shared by integrate and difference.
template <class Scalar, int N, class Step>
void for_each_joint_block(const Model<Scalar, N>& model, Step&& step) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) step(model.joint(i).type, model.q_offset(i), model.v_offset(i));
}

}  // namespace detail

/// The neutral configuration: zeros, identity quaternions (0, 0, 0, 1). Writes into q_out (size nq).
template <class Scalar, int N>
void neutral(const Model<Scalar, N>& model, VectorRef<detail::non_deduced<Scalar>> q_out) noexcept {
  if (!detail::size_ok("neutral", "q_out", q_out, model.nq(), "model.nq()")) return;
  q_out.setZero();
  for (int i = 0; i < model.nbodies(); ++i) {
    const Joint<Scalar>& joint = model.joint(i);
    const int iq = model.q_offset(i);
    if (joint.type == JointType::spherical) q_out(iq + 3) = Scalar(1);
    if (joint.type == JointType::free_flyer) q_out(iq + 6) = Scalar(1);
  }
}

/// The neutral configuration as a new vector (allocates only when N is Dynamic).
template <class Scalar, int N>
[[nodiscard]] ConfigVector<Scalar, N> neutral(const Model<Scalar, N>& model) {
  ConfigVector<Scalar, N> q(model.nq());
  neutral(model, q);
  return q;
}

/// q_out = q ⊕ v dt: moves every joint along its constant body velocity v for time dt (see the header
/// comment). q has nq entries, v has nv, q_out has nq and may be the same vector as q.
template <class Scalar, int N, class DerivedQ, class DerivedV>
void integrate(const Model<Scalar, N>& model, const Eigen::MatrixBase<DerivedQ>& q,
               const Eigen::MatrixBase<DerivedV>& v, const detail::non_deduced<Scalar>& dt,
               VectorRef<detail::non_deduced<Scalar>> q_out) noexcept {
  using std::cos;
  using std::sin;
  static_assert(std::is_same<typename DerivedQ::Scalar, Scalar>::value, "integrate: q must have the model's scalar");
  static_assert(std::is_same<typename DerivedV::Scalar, Scalar>::value, "integrate: v must have the model's scalar");
  if (!(detail::size_ok("integrate", "q", q, model.nq(), "model.nq()") &&
        detail::size_ok("integrate", "v", v, model.nv(), "model.nv()") &&
        detail::size_ok("integrate", "q_out", q_out, model.nq(), "model.nq()")))
    return;
  detail::for_each_joint_block(model, [&](JointType type, int iq, int iv) {
    switch (type) {
      case JointType::revolute:
      case JointType::prismatic:
      case JointType::helical: {
        const Scalar qi = q(iq) + v(iv) * dt;
        q_out(iq) = qi;
        break;
      }
      case JointType::planar: {
        const Scalar x = q(iq), y = q(iq + 1), theta = q(iq + 2);
        const Scalar ux = v(iv) * dt, uy = v(iv + 1) * dt, phi = v(iv + 2) * dt;
        const Scalar phi2 = phi * phi;
        const detail::Coefficients2<Scalar> ab = detail::select_branch(  // sin(φ)/φ and (1 − cos φ)/φ
            phi2 < detail::small_angle_squared<Scalar>(),
            [&] {
              return detail::Coefficients2<Scalar>(Scalar(1) - phi2 / Scalar(6) + phi2 * phi2 / Scalar(120),
                                                   phi * (Scalar(0.5) - phi2 / Scalar(24) + phi2 * phi2 / Scalar(720)));
            },
            [&] {
              const Scalar sh = sin(phi / Scalar(2));
              return detail::Coefficients2<Scalar>(sin(phi) / phi, Scalar(2) * sh * sh / phi);
            });
        const Scalar a = ab(0), b = ab(1);  // V(φ) = [a −b; b a]
        const Scalar dx = a * ux - b * uy, dy = b * ux + a * uy;  // body-frame displacement
        const Scalar c = cos(theta), s = sin(theta);
        q_out(iq) = x + c * dx - s * dy;
        q_out(iq + 1) = y + s * dx + c * dy;
        q_out(iq + 2) = theta + phi;
        break;
      }
      case JointType::spherical: {
        const detail::Quaternion4<Scalar> quat = q.template segment<4>(iq);
        const Vector3<Scalar> theta = v.template segment<3>(iv) * dt;
        q_out.template segment<4>(iq) =
            detail::quaternion_normalized(detail::quaternion_multiply(quat, detail::quaternion_exp(theta)));
        break;
      }
      case JointType::free_flyer: {
        const Vector3<Scalar> p = q.template segment<3>(iq);
        const detail::Quaternion4<Scalar> quat = q.template segment<4>(iq + 3);
        const Vector3<Scalar> theta = v.template segment<3>(iv) * dt;
        const Vector3<Scalar> rho = v.template segment<3>(iv + 3) * dt;
        const Vector3<Scalar> d = detail::se3_left_jacobian_apply(theta, rho);  // body-frame displacement
        q_out.template segment<3>(iq) = p + detail::quaternion_rotate(quat, d);
        q_out.template segment<4>(iq + 3) =
            detail::quaternion_normalized(detail::quaternion_multiply(quat, detail::quaternion_exp(theta)));
        break;
      }
      case JointType::fixed: break;
    }
  });
}

/// v_out = q1 ⊖ q0: the velocity with integrate(q0, v_out, 1) = q1 (up to quaternion signs; see the
/// header comment). q0, q1 have nq entries, v_out has nv and must not overlap them.
template <class Scalar, int N, class Derived0, class Derived1>
void difference(const Model<Scalar, N>& model, const Eigen::MatrixBase<Derived0>& q0,
                const Eigen::MatrixBase<Derived1>& q1, VectorRef<detail::non_deduced<Scalar>> v_out) noexcept {
  using std::cos;
  using std::sin;
  static_assert(std::is_same<typename Derived0::Scalar, Scalar>::value, "difference: q0 must have the model's scalar");
  static_assert(std::is_same<typename Derived1::Scalar, Scalar>::value, "difference: q1 must have the model's scalar");
  if (!(detail::size_ok("difference", "q0", q0, model.nq(), "model.nq()") &&
        detail::size_ok("difference", "q1", q1, model.nq(), "model.nq()") &&
        detail::size_ok("difference", "v_out", v_out, model.nv(), "model.nv()")))
    return;
  detail::for_each_joint_block(model, [&](JointType type, int iq, int iv) {
    switch (type) {
      case JointType::revolute:
      case JointType::prismatic:
      case JointType::helical: v_out(iv) = q1(iq) - q0(iq); break;
      case JointType::planar: {
        const Scalar theta0 = q0(iq + 2);
        const Scalar phi = q1(iq + 2) - theta0;
        const Scalar ex = q1(iq) - q0(iq), ey = q1(iq + 1) - q0(iq + 1);
        const Scalar c = cos(theta0), s = sin(theta0);
        const Scalar dx = c * ex + s * ey, dy = -s * ex + c * ey;  // Rz(θ0)ᵀ (p1 − p0)
        const Scalar phi2 = phi * phi;
        const Scalar alpha = detail::select_branch(  // (φ/2) cot(φ/2): V(φ)⁻¹ = [α β; −β α] with β = φ/2
            phi2 < detail::small_angle_squared<Scalar>(),
            [&] { return Scalar(Scalar(1) - phi2 / Scalar(12) - phi2 * phi2 / Scalar(720)); },
            [&] {
              const Scalar half = phi / Scalar(2);
              return Scalar(half * cos(half) / sin(half));
            });
        const Scalar beta = phi / Scalar(2);
        v_out(iv) = alpha * dx + beta * dy;
        v_out(iv + 1) = -beta * dx + alpha * dy;
        v_out(iv + 2) = phi;
        break;
      }
      case JointType::spherical: {
        const detail::Quaternion4<Scalar> a = q0.template segment<4>(iq);
        const detail::Quaternion4<Scalar> b = q1.template segment<4>(iq);
        const detail::Quaternion4<Scalar> rel =
            detail::quaternion_normalized(detail::quaternion_multiply(detail::quaternion_conjugate(a), b));
        v_out.template segment<3>(iv) = detail::quaternion_log(rel).theta;
        break;
      }
      case JointType::free_flyer: {
        const detail::Quaternion4<Scalar> a = q0.template segment<4>(iq + 3);
        const detail::Quaternion4<Scalar> b = q1.template segment<4>(iq + 3);
        const detail::Quaternion4<Scalar> rel =
            detail::quaternion_normalized(detail::quaternion_multiply(detail::quaternion_conjugate(a), b));
        const detail::RotationLog<Scalar> log = detail::quaternion_log(rel);
        const Vector3<Scalar> dp = q1.template segment<3>(iq) - q0.template segment<3>(iq);
        const Vector3<Scalar> d = detail::quaternion_rotate(detail::quaternion_conjugate(a), dp);  // R0ᵀ (p1 − p0)
        // ρ = V(θ)⁻¹ d = d − ½ θ × d + D θ × (θ × d)
        const Vector3<Scalar> txd = log.theta.cross(d);
        v_out.template segment<3>(iv) = log.theta;
        v_out.template segment<3>(iv + 3) = d - Scalar(0.5) * txd + log.D * log.theta.cross(txd);
        break;
      }
      case JointType::fixed: break;
    }
  });
}

/// A random configuration, a pure function of (model, seed): angles in [−π, π], translations in
/// [−1, 1], uniform unit quaternions. For tests (allocates only when N is Dynamic).
template <class Scalar, int N>
[[nodiscard]] ConfigVector<Scalar, N> random_configuration(const Model<Scalar, N>& model, std::uint64_t seed) {
  using std::atan;
  const Scalar pi = Scalar(4) * atan(Scalar(1));
  SplitMix64 rng(seed);
  ConfigVector<Scalar, N> q(model.nq());
  for (int i = 0; i < model.nbodies(); ++i) {
    const int iq = model.q_offset(i);
    switch (model.joint(i).type) {
      case JointType::revolute:
      case JointType::helical: q(iq) = detail::uniform_real(rng, -pi, pi); break;
      case JointType::prismatic: q(iq) = detail::uniform_real(rng, Scalar(-1), Scalar(1)); break;
      case JointType::planar:
        q(iq) = detail::uniform_real(rng, Scalar(-1), Scalar(1));
        q(iq + 1) = detail::uniform_real(rng, Scalar(-1), Scalar(1));
        q(iq + 2) = detail::uniform_real(rng, -pi, pi);
        break;
      case JointType::spherical: q.template segment<4>(iq) = detail::random_quaternion<Scalar>(rng); break;
      case JointType::free_flyer:
        for (int k = 0; k < 3; ++k) q(iq + k) = detail::uniform_real(rng, Scalar(-1), Scalar(1));
        q.template segment<4>(iq + 3) = detail::random_quaternion<Scalar>(rng);
        break;
      case JointType::fixed: break;
    }
  }
  return q;
}

}  // namespace treedyn
