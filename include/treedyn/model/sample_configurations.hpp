// treedyn reference configurations: the neutral configuration (zeros, identity quaternions) and random
// configurations drawn from SplitMix64 (topology/generators.hpp), uniform unit quaternions by Shoemake,
// Graphics Gems III, 1992 (docs/references.md). Included by configuration.hpp, whose header comment
// gives the ranges, costs and allocation rules.
#pragma once

#include <cmath>
#include <cstdint>

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/storage.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/lie_group.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/topology/generators.hpp"

namespace treedyn {

namespace detail {

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
