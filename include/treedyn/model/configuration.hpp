// treedyn configuration space: neutral, integrate, difference and random configurations of a Model.
//
// Reference: the q̇(v) map of every joint (joint.hpp): integrate with the quaternion exponential,
// never q += v dt when nq ≠ nv; a semi-implicit Euler step of a contact time-stepping scheme,
// θ⁺ = θ + Δt θ̇⁺, uses integrate, except for free joints, whose body-frame velocity is not constant over a
// step in free flight (contact_step moves them as rigid motions: docs/contact.md#free-joints). Exponential and logarithm of SO(3) / SE(2) / SE(3): Featherstone,
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
// Parts: lie_group.hpp (quaternions, exp / log, the left Jacobian), sample_configurations.hpp (neutral,
// random_configuration), both included here.
// Every size is checked (detail/check.hpp): a wrong one fails a TREEDYN_CHECK before anything is written.
#pragma once

#include <cmath>
#include <type_traits>

#include <Eigen/Core>

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/lie_group.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/model/sample_configurations.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn {

namespace detail {

/// Calls step(type, iq, iv) for every joint in body order: its type and the offsets of its blocks of q
/// (nq entries) and of v (nv entries). The walk shared by integrate and difference.
template <class Scalar, int N, class Step>
void for_each_joint_block(const Model<Scalar, N>& model, Step&& step) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) step(model.joint(i).type, model.q_offset(i), model.v_offset(i));
}

/// One joint's block of integrate: q_out's entries iq… (the joint's nq) = the joint's q ⊕ v dt from q's and
/// v's blocks at iq and iv (see the header comment). contact_step calls it for every joint but the free ones.
template <class Scalar, class DerivedQ, class DerivedV, class Out>
void integrate_joint(JointType type, const Eigen::MatrixBase<DerivedQ>& q, const Eigen::MatrixBase<DerivedV>& v,
                     const Scalar& dt, Out& q_out, int iq, int iv) noexcept {
  using std::cos;
  using std::sin;
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
}

}  // namespace detail

/// q_out = q ⊕ v dt: moves every joint along its constant body velocity v for time dt (see the header
/// comment). q has nq entries, v has nv, q_out has nq and may be the same vector as q.
template <class Scalar, int N, class DerivedQ, class DerivedV>
void integrate(const Model<Scalar, N>& model, const Eigen::MatrixBase<DerivedQ>& q,
               const Eigen::MatrixBase<DerivedV>& v, const detail::non_deduced<Scalar>& dt,
               VectorRef<detail::non_deduced<Scalar>> q_out) noexcept {
  static_assert(std::is_same<typename DerivedQ::Scalar, Scalar>::value, "integrate: q must have the model's scalar");
  static_assert(std::is_same<typename DerivedV::Scalar, Scalar>::value, "integrate: v must have the model's scalar");
  if (!(detail::size_ok("integrate", "q", q, model.nq(), "model.nq()") &&
        detail::size_ok("integrate", "v", v, model.nv(), "model.nv()") &&
        detail::size_ok("integrate", "q_out", q_out, model.nq(), "model.nq()")))
    return;
  detail::for_each_joint_block(model, [&](JointType type, int iq, int iv) {
    detail::integrate_joint<Scalar>(type, q, v, dt, q_out, iq, iv);
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

}  // namespace treedyn
