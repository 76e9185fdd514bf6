// treedyn robots::SpherePendulum: the multi-link pendulum contact benchmark of Jain (n.d.) §8 in both of
// its formulations, with its collision geometry and initial state.
//
// Citation: A. Jain, "Minimal Coordinates Formulation of Contact Dynamics" (docs/references.md), §8 and
// Table 2: n touching 1 kg spheres of radius 12/(2n) m joined by pin hinges at their contact points, the
// first hinge at a height of 10 m, a floor and a wall 4 m from the base; g = 9.8 m/s².
// Frames, as robots::pendulum (pendulum.hpp), which is the minimal-coordinates model: x horizontal, y up,
// the floor y = 0, the wall x = 4, motion in the xy-plane, hinges about z. Body k (= sphere k) has its
// frame on its upper hinge, its centre at (0, −r, 0) in that frame, solid-sphere inertia (2/5) m r² (an
// assumption: the paper does not give it).
//   os          the minimal-coordinates (OS) model: a chain of n revolute joints, nq = nv = n.
//   nmc         the non-minimal one (NMC/OS): every sphere on its own free joint from the world (identity
//               tree transform, so a body's free-joint q is its placement: origin, then the quaternion
//               x, y, z, w of its axes; v = [ω; v_O] in body coordinates), nq = 7n, nv = 6n.
//   hinges      nmc's n hinges as bilateral constraints of 5 rows each (all but the rotation about z):
//               hinge k holds body k's frame (frame_a = identity) on body k − 1's point (0, −2r, 0), or,
//               for k = 0, on the world point (0, 10, 0); n_b = 5n = 6n − n.
//   os_geometry, nmc_geometry  (the same shapes, checked against either model) shapes 0 … n − 1: sphere k
//               on body k; shape n: the floor (point 0, normal +y); shape n + 1: the wall (point (4, 0, 0),
//               normal −x, facing the pendulum). Consecutive spheres touch at their hinge and are excluded
//               (both models), so only non-adjacent sphere pairs are tested.
//   os_q, os_v, nmc_q, nmc_v  the paper's initial state: straight, at π/4 from the downward vertical away
//               from the wall (os_q(0) = −π/4, the others 0), the base hinge turning at 1 rad/s towards
//               the wall (os_v(0) = 1, the others 0). nmc_q, nmc_v are the same physical state: every body
//               turned by −π/4 about z, origin (0, 10, 0) + 2rk (sin θ, −cos θ, 0), ω = (0, 0, 1) and the
//               origin's velocity (2rk, 0, 0) in body coordinates (the straight chain rotates rigidly
//               about the base hinge).
// Unspecified by the paper (the caller decides): simulated duration, collision tolerance, and whether a
// persisting contact is a contact or a collision. Costs and allocation: building allocates; once, outside
// hot loops.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "treedyn/contact/contact.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/robots/common.hpp"
#include "treedyn/robots/pendulum.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn::robots {

namespace detail {

/// nmc of SpherePendulum: n spheres, each on a free joint from the world.
template <class Scalar>
Model<Scalar> free_sphere_pendulum(int n) {
  const Model<Scalar> chain = pendulum<Scalar>(n);  // checks n; the same spheres and gravity
  ModelBuilder<Scalar> b;
  for (int k = 0; k < n; ++k)
    b.add_body(no_parent, Joint<Scalar>::free_flyer(), Transform<Scalar>::identity(), chain.inertia(k),
               "sphere" + std::to_string(k));
  b.set_gravity(chain.gravity());
  return b.build();
}

/// The shapes of SpherePendulum (spheres, floor, wall) with consecutive spheres excluded.
template <class Scalar, int N>
CollisionGeometry<Scalar> sphere_pendulum_geometry(const Model<Scalar, N>& model, int n, const Scalar& r) {
  std::vector<Shape<Scalar>> shapes;
  for (int k = 0; k < n; ++k)
    shapes.push_back(Shape<Scalar>::sphere(k, Vector3<Scalar>(Scalar(0), -r, Scalar(0)), r,
                                           "sphere" + std::to_string(k)));
  shapes.push_back(Shape<Scalar>::plane(world, Vector3<Scalar>::Zero(), Vector3<Scalar>::UnitY(), "floor"));
  shapes.push_back(Shape<Scalar>::plane(world, Vector3<Scalar>(Scalar(4), Scalar(0), Scalar(0)),
                                        Vector3<Scalar>(Scalar(-1), Scalar(0), Scalar(0)), "wall"));
  CollisionOptions options;
  for (int k = 0; k + 1 < n; ++k) options.exclude.emplace_back(k, k + 1);
  return CollisionGeometry<Scalar>(model, std::move(shapes), options);
}

}  // namespace detail

template <class Scalar>
struct SpherePendulum {
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  /// n ≥ 1 spheres (std::invalid_argument otherwise).
  explicit SpherePendulum(int n)
      : links(n),
        radius(Scalar(12) / Scalar(2 * n)),
        os(pendulum<Scalar>(n)),
        nmc(detail::free_sphere_pendulum<Scalar>(n)),
        os_geometry(detail::sphere_pendulum_geometry(os, n, radius)),
        nmc_geometry(detail::sphere_pendulum_geometry(nmc, n, radius)),
        os_q(Vector::Zero(n)),
        os_v(Vector::Zero(n)),
        nmc_q(Vector::Zero(7 * n)),
        nmc_v(Vector::Zero(6 * n)) {
    using std::cos;
    using std::sin;
    const Scalar theta = -detail::pi<Scalar>() / Scalar(4), rate = Scalar(1);
    os_q(0) = theta;
    os_v(0) = rate;
    const Vector3<Scalar> base(Scalar(0), Scalar(10), Scalar(0)), down(sin(theta), -cos(theta), Scalar(0));
    for (int k = 0; k < n; ++k) {
      const Scalar along = Scalar(2) * radius * Scalar(k);
      nmc_q.template segment<3>(7 * k) = base + along * down;
      nmc_q.template segment<4>(7 * k + 3) << Scalar(0), Scalar(0), sin(theta / Scalar(2)), cos(theta / Scalar(2));
      nmc_v.template segment<6>(6 * k) << Scalar(0), Scalar(0), rate, along * rate, Scalar(0), Scalar(0);
      BilateralConstraint<Scalar> h;
      h.body_a = k;
      h.body_b = k == 0 ? world : k - 1;
      h.frame_b = xlt(k == 0 ? base : Vector3<Scalar>(Scalar(0), Scalar(-2) * radius, Scalar(0)));
      h.rows = 0x3B;  // angular x, y and the three linear rows: free about z
      hinges.push_back(h);
    }
  }

  /// n_b: the number of bilateral rows of `hinges` (5n).
  [[nodiscard]] int hinge_rows() const noexcept {
    int rows = 0;
    for (const BilateralConstraint<Scalar>& h : hinges)
      for (int bit = 0; bit < 6; ++bit) rows += (h.rows >> bit) & 1;
    return rows;
  }

  int links;
  Scalar radius;
  Model<Scalar> os;
  Model<Scalar> nmc;
  std::vector<BilateralConstraint<Scalar>> hinges;
  CollisionGeometry<Scalar> os_geometry;
  CollisionGeometry<Scalar> nmc_geometry;
  Vector os_q, os_v, nmc_q, nmc_v;
};

}  // namespace treedyn::robots
