// treedyn model metadata records: named frames fixed on bodies and joint limits, kept by Model and
// ModelBuilder (docs/notation.md; URDF <limit> for JointLimits, see docs/references.md).
//
// Frame: a name, the moving body it is fixed on and ^frame X_body (bodies on fixed joints become frames of
// the body they merge into). JointLimits: position / velocity / effort limits, read by no algorithm.
#pragma once

#include <limits>
#include <string>

#include "treedyn/fwd.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

/// A named frame fixed on a body (bodies on fixed joints become frames of the body they merge into).
template <class Scalar>
struct Frame {
  std::string name;
  int body = no_parent;           ///< the moving body it is fixed on (no_parent: the base)
  Transform<Scalar> placement;    ///< ^frame X_body
};

/// Limits of a joint, read-only metadata (URDF `<limit>`): no algorithm reads them. Position limits apply to
/// each of the joint's coordinates; infinite when not given.
template <class Scalar>
struct JointLimits {
  Scalar lower = -std::numeric_limits<Scalar>::infinity();     ///< position lower limit (rad or m)
  Scalar upper = std::numeric_limits<Scalar>::infinity();      ///< position upper limit
  Scalar velocity = std::numeric_limits<Scalar>::infinity();   ///< largest |q̇|
  Scalar effort = std::numeric_limits<Scalar>::infinity();     ///< largest |τ|

  template <class NewScalar>
  [[nodiscard]] JointLimits<NewScalar> cast() const {
    return JointLimits<NewScalar>{NewScalar(lower), NewScalar(upper), NewScalar(velocity), NewScalar(effort)};
  }
};

}  // namespace treedyn
