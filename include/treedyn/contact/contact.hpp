// Contact: one unilateral frictional contact between two bodies (or a body and the world), as Jain (n.d.),
// eqs. 4–16, describes it for the operational-space contact LCP (docs/references.md), with the polyhedral
// friction cone of Stewart and Trinkle (1996). D̄ below is Jain's D(i) of eq. 7.
//
// A contact is a pair of points — point_a on body A, point_b on body B or on the world (body_b = world),
// each in its body's frame — with a unit normal n̂ from B to A in world coordinates, a friction
// coefficient μ ≥ 0, a restitution ε ∈ [0, 1] (used by the collision phases) and n_f tangent directions
// d̂_1 … d̂_{n_f} closed under negation (n_f even, ≥ 2; default 4), which span the friction polyhedron
// { Σ β_k d̂_k : β ≥ 0, Σ β_k ≤ μ F_n } inscribed in the Coulomb cone. The directions are
//   d̂_k = cos(2πk / n_f) t̂₁ + sin(2πk / n_f) t̂₂,   k = 0 … n_f/2 − 1,   d̂_{k + n_f/2} = −d̂_k (exactly),
// (t̂₁, t̂₂, n̂) right-handed and orthonormal; t̂₁ is the given `tangent` projected onto the plane ⟂ n̂
// (so a user can align a direction with an expected sliding direction), or, when none is given, the
// unit vector ⟂ n̂ built from the coordinate axis least aligned with n̂.
//
// validate_contacts(model, contacts) is the setup check: it throws std::invalid_argument naming the
// contact (its index) and the problem for μ < 0 or not finite, ε outside [0, 1], a normal that is zero or
// not finite, a point that is not finite, n_f odd or < 2, or a body that does not exist in the model. A
// normal that is not unit is normalised by friction_directions and by the LCP assembly.
#pragma once

#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/spatial/types.hpp"

namespace treedyn {

/// body_b of a contact against the environment.
inline constexpr int world = -1;

template <class Scalar>
struct Contact {
  int body_a = 0;                                      ///< body A (the normal points towards it)
  Vector3<Scalar> point_a = Vector3<Scalar>::Zero();  ///< on A, in A's frame
  int body_b = world;                                  ///< body B, or `world`
  Vector3<Scalar> point_b = Vector3<Scalar>::Zero();  ///< on B, in B's frame (in world coordinates for `world`)
  Vector3<Scalar> normal = Vector3<Scalar>::UnitZ();  ///< from B to A, world coordinates
  Scalar mu = Scalar(0.5);                             ///< friction coefficient μ ≥ 0
  Scalar restitution = Scalar(0);                      ///< ε ∈ [0, 1]
  int friction_directions = 4;                         ///< n_f: even, ≥ 2
  Vector3<Scalar> tangent = Vector3<Scalar>::Zero();  ///< optional first friction direction (zero: automatic)
  /// Signed separation of the two points along n̂ (negative: penetration), as a collision detector reports
  /// it; a time step may let a separated contact (distance > 0) close its gap within the step.
  Scalar distance = Scalar(0);
  /// An identity the caller keeps for the same contact from one step to the next (detect_contacts: its shape
  /// pair and feature), so that contact_step can warm-start the exact cone from its last impulse
  /// (docs/contact.md#warm-start); −1: none (the contact starts cold).
  std::int64_t id = -1;
};

/// A bilateral (equality) constraint: the loop closure of Jain (n.d.) eq. 53, rows Q_b. Frame F_a is fixed
/// on body A at placement ^{F_a}X_A = frame_a, frame F_b on body B (or on the world: body_b = world, then
/// frame_b is ^{F_b}X_0); the selected rows of the relative spatial velocity of F_a with respect to F_b,
/// in F_a's coordinates (angular x, y, z, linear x, y, z, as FrameRows), are held at zero. A hinge about
/// F_a's z axis selects FrameRows{0x3B} (angular x, y and the three linear rows): 5 rows. F_b is where F_a
/// belongs: contact_step's drift correction moves the selected rows of F_a's placement relative to F_b
/// back towards zero (docs/contact.md#drift-correction), so frame_b must match frame_a in the initial state.
template <class Scalar>
struct BilateralConstraint {
  int body_a = 0;
  Transform<Scalar> frame_a = Transform<Scalar>::identity();
  int body_b = world;
  Transform<Scalar> frame_b = Transform<Scalar>::identity();
  std::uint8_t rows = 0x3F;                            ///< bit k selects row k (0–2 angular, 3–5 linear)
};

/// The 3×(n_f + 1) matrix D̄ = [n̂, d̂_1 … d̂_{n_f}] of a contact (file comment), into D (3 × (n_f + 1)).
template <class Scalar, class Derived>
void friction_directions(const Contact<Scalar>& c, Eigen::MatrixBase<Derived>& D) noexcept {
  using std::cos;
  using std::sin;
  using std::abs;
  const Vector3<Scalar> n = c.normal.normalized();
  Vector3<Scalar> t1 = c.tangent - n * n.dot(c.tangent);
  if (!(t1.norm() > Scalar(1e-6) * c.tangent.norm()) || c.tangent.isZero()) {
    Vector3<Scalar> axis = Vector3<Scalar>::Zero();
    int k = 0;                                           // the axis least aligned with n̂
    for (int a = 1; a < 3; ++a)
      if (abs(n(a)) < abs(n(k))) k = a;
    axis(k) = Scalar(1);
    t1 = axis - n * n(k);
  }
  t1.normalize();
  const Vector3<Scalar> t2 = n.cross(t1);
  // the columns are written as fixed-size 3-vectors: a dynamic-size column would let Eigen's packet loop
  // read 3-vectors 4 lanes at a time on a path GCC cannot rule out (its -Warray-bounds, an error here)
  D.col(0).template head<3>() = n;
  const int nf = c.friction_directions, half = nf / 2;
  const Scalar step = Scalar(2) * Scalar(EIGEN_PI) / Scalar(nf);
  for (int k = 0; k < half; ++k) {                     // the second half: exact negatives of the first
    D.col(1 + k).template head<3>() = cos(step * Scalar(k)) * t1 + sin(step * Scalar(k)) * t2;
    D.col(1 + k + half).template head<3>() = -D.col(1 + k).template head<3>();
  }
  D.col(1).template head<3>() = t1;                                       // k = 0 exactly
}

/// Throws std::invalid_argument naming the first bad contact and its problem (file comment).
template <class Scalar, int N>
void validate_contacts(const Model<Scalar, N>& model, const std::vector<Contact<Scalar>>& contacts) {
  using std::isfinite;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact<Scalar>& c = contacts[i];
    const auto fail = [&](const std::string& what) {
      throw std::invalid_argument("contact " + std::to_string(i) + ": " + what);
    };
    const auto value = [](const Scalar& x) {  // the value, as the message gives it
      std::ostringstream out;
      out.precision(17);
      out << x;
      return out.str();
    };
    const auto vector = [&value](const Vector3<Scalar>& x) {
      return "(" + value(x(0)) + ", " + value(x(1)) + ", " + value(x(2)) + ")";
    };
    if (c.body_a < 0 || c.body_a >= model.nbodies())
      fail("body_a = " + std::to_string(c.body_a) + " is not a body of the model (it has " +
           std::to_string(model.nbodies()) + ")");
    if (c.body_b != world && (c.body_b < 0 || c.body_b >= model.nbodies()))
      fail("body_b = " + std::to_string(c.body_b) + " is neither `world` nor a body of the model");
    if (c.body_b == c.body_a) fail("body_a and body_b are the same body");
    if (!(c.mu >= Scalar(0)) || !isfinite(c.mu)) fail("friction coefficient mu must be finite and >= 0 (given mu = " + value(c.mu) + ")");
    if (!(c.restitution >= Scalar(0) && c.restitution <= Scalar(1))) fail("restitution must lie in [0, 1] (given restitution = " + value(c.restitution) + ")");
    if (!c.normal.allFinite() || !(c.normal.norm() > Scalar(0))) fail("the normal is zero or not finite (given a normal of length " + value(c.normal.norm()) + ")");
    if (!c.point_a.allFinite() || !c.point_b.allFinite() || !c.tangent.allFinite()) fail("a point is not finite (given point_a = " + vector(c.point_a) + ", point_b = " + vector(c.point_b) +
           ", tangent = " + vector(c.tangent) + ")");
    if (!isfinite(c.distance)) fail("the distance is not finite (given distance = " + value(c.distance) + ")");
    if (c.friction_directions < 2 || c.friction_directions % 2 != 0)
      fail("friction_directions = " + std::to_string(c.friction_directions) +
           " must be even and >= 2 (the directions are closed under negation)");
  }
}

}  // namespace treedyn
