// Collision geometry: primitive shapes fixed on bodies or on the world, and the narrow phase that turns
// them into the Contact records of the operational-space contact LCP (Jain (n.d.) §8 ran its collision
// detection in Bullet; this is the small set of primitives that benchmark and simple scenes need;
// docs/references.md). Closest points and signed distances are elementary (Ericson, Real-Time Collision
// Detection, 2005, §5.1: point–plane distance, closest point on a segment).
//
// Shapes (each in the frame of its body, or in world coordinates when body = world):
//   sphere   centre c, radius R > 0
//   capsule  segment p0–p1, radius R > 0 (p0 = p1 is a sphere)
//   box      centre c, axes R_box (columns = the box axes in the body frame, orthonormal), half extents
//            h > 0; only its 8 corners collide (box–plane)
//   plane    a point p and an outward normal n̂ (nonzero; normalised): the half-space n̂·(x − p) ≤ 0 is solid
// CollisionGeometry(model, shapes, options) validates once (std::invalid_argument naming the shape by index
// and name: a radius or half extent that is not > 0 or not finite, a non-finite point, a zero normal, a box
// axis matrix that is not orthonormal, a body that is not `world` or a body of the model, an exclusion
// naming a shape that does not exist) and lists the shape pairs to test: shapes on different bodies (never
// two on the same body, never two on the world), of a supported kind — sphere–plane, sphere–sphere,
// capsule–plane, capsule–sphere, box–plane (other combinations produce no contacts) — minus the pairs
// whose bodies are parent and child when options.exclude_parent_child, minus options.exclude (pairs of
// shape indices, either order).
//
// detect_contacts(model, data, geometry, contacts, margin, properties) reads the body placements
// data.X_world (forward_kinematics, or any algorithm that runs it, must have been called for the current
// q), clears `contacts` and appends one Contact per feature pair whose signed distance is ≤ margin:
//   sphere–plane    the sphere's lowest point along n̂ and its projection on the plane
//   sphere–sphere   the two surface points on the line of centres
//   capsule–plane   each end cap whose distance is ≤ margin (both when the capsule lies parallel)
//   capsule–sphere  the closest point of the segment to the sphere's centre, then as sphere–sphere
//   box–plane       each corner (a point, radius 0) whose distance is ≤ margin
// Contact conventions (contact/contact.hpp): body_a / point_a is the first shape of the pair and body_b /
// point_b the second, the normal points from B to A (for a plane pair, B is the plane: n̂ in world coordinates);
// when the first shape is on the world the roles are swapped (body_a is always a body). point_a and point_b
// lie on the two surfaces, in their bodies' frames (point_b in world coordinates when body_b = world), and
// distance = n̂·(world point_a − world point_b), negative when the shapes overlap. Coincident sphere
// centres get the normal +z of the world. Each contact takes the friction coefficient, restitution and
// number of friction directions of `properties`.
// Cost: O(number of pairs). detect_contacts is noexcept and never allocates: it stores at most
// contacts.capacity() contacts (reserve geometry.max_contacts() once) and returns how many it found, so a
// return value greater than contacts.size() reports the ones dropped for want of capacity; a Data built for
// another model, or properties whose μ is negative or not finite, whose restitution is outside [0, 1] or
// not a number, or whose friction_directions is odd or < 2, or a margin that is not finite, is reported
// through TREEDYN_CHECK (naming the field: "properties.mu", …) and gives no contacts
// (docs/contact.md#checked-contact-values).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "treedyn/contact/contact.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

enum class ShapeType : unsigned char { sphere, capsule, box, plane };

template <class Scalar>
struct Shape {
  ShapeType type = ShapeType::sphere;
  int body = world;                                       ///< a body of the model, or `world`
  Vector3<Scalar> p0 = Vector3<Scalar>::Zero();           ///< sphere / box centre, capsule end, plane point
  Vector3<Scalar> p1 = Vector3<Scalar>::Zero();           ///< capsule's other end
  Vector3<Scalar> normal = Vector3<Scalar>::UnitZ();      ///< plane's outward normal
  Scalar radius = Scalar(0);                              ///< sphere / capsule
  Matrix3<Scalar> axes = Matrix3<Scalar>::Identity();     ///< box axes (columns) in the body frame
  Vector3<Scalar> half_extents = Vector3<Scalar>::Zero(); ///< box
  std::string name;                                       ///< for error messages

  static Shape sphere(int body, const Vector3<Scalar>& centre, const Scalar& radius, std::string name = "") {
    Shape s = make(ShapeType::sphere, body, centre, std::move(name));
    s.radius = radius;
    return s;
  }
  static Shape capsule(int body, const Vector3<Scalar>& end0, const Vector3<Scalar>& end1, const Scalar& radius,
                       std::string name = "") {
    Shape s = sphere(body, end0, radius, std::move(name));
    s.type = ShapeType::capsule;
    s.p1 = end1;
    return s;
  }
  static Shape box(int body, const Vector3<Scalar>& centre, const Matrix3<Scalar>& axes,
                   const Vector3<Scalar>& half_extents, std::string name = "") {
    Shape s = make(ShapeType::box, body, centre, std::move(name));
    s.axes = axes;
    s.half_extents = half_extents;
    return s;
  }
  static Shape plane(int body, const Vector3<Scalar>& point, const Vector3<Scalar>& normal, std::string name = "") {
    Shape s = make(ShapeType::plane, body, point, std::move(name));
    s.normal = normal;
    return s;
  }

 private:
  static Shape make(ShapeType type, int body, const Vector3<Scalar>& p0, std::string name) {
    Shape s;
    s.type = type;
    s.body = body;
    s.p0 = p0;
    s.name = std::move(name);
    return s;
  }
};

struct CollisionOptions {
  bool exclude_parent_child = false;                 ///< no pairs between a body and its parent
  std::vector<std::pair<int, int>> exclude;          ///< shape-index pairs never tested (either order)
};

template <class Scalar>
struct ContactProperties {
  Scalar mu = Scalar(0.5);
  Scalar restitution = Scalar(0);
  int friction_directions = 4;
};

template <class Scalar>
class CollisionGeometry {
 public:
  struct Pair {
    int first;   ///< shape index: the A side unless it lies on the world
    int second;  ///< shape index: the B side (the plane of a plane pair)
  };

  template <int N>
  CollisionGeometry(const Model<Scalar, N>& model, std::vector<Shape<Scalar>> shapes, const CollisionOptions& options = {})
      : shapes_(std::move(shapes)) {
    for (std::size_t i = 0; i < shapes_.size(); ++i) validate(model, i);
    const int ns = static_cast<int>(shapes_.size());
    for (const std::pair<int, int>& e : options.exclude)
      if (e.first < 0 || e.first >= ns || e.second < 0 || e.second >= ns)
        throw std::invalid_argument("CollisionGeometry: the exclusion (" + std::to_string(e.first) + ", " +
                                    std::to_string(e.second) + ") names a shape that does not exist (there are " +
                                    std::to_string(ns) + ")");
    for (int i = 0; i < ns; ++i)
      for (int j = i + 1; j < ns; ++j) {
        const Shape<Scalar>& a = shapes_[i];
        const Shape<Scalar>& b = shapes_[j];
        if (a.body == b.body) continue;                       // same body, or both on the world
        if (options.exclude_parent_child &&
            ((a.body != world && model.parent(a.body) == b.body && b.body != world) ||
             (b.body != world && model.parent(b.body) == a.body && a.body != world)))
          continue;
        bool excluded = false;
        for (const std::pair<int, int>& e : options.exclude)
          excluded = excluded || (e.first == i && e.second == j) || (e.first == j && e.second == i);
        if (excluded) continue;
        // order: the plane second; of sphere and capsule the sphere second; otherwise by index
        Pair p{i, j};
        if (a.type == ShapeType::plane || (a.type == ShapeType::sphere && b.type == ShapeType::capsule))
          p = Pair{j, i};
        const ShapeType t1 = shapes_[p.first].type, t2 = shapes_[p.second].type;
        const int per_pair = pair_capacity(t1, t2);
        if (per_pair == 0) continue;
        pairs_.push_back(p);
        max_contacts_ += per_pair;
      }
  }

  [[nodiscard]] const std::vector<Shape<Scalar>>& shapes() const noexcept { return shapes_; }
  [[nodiscard]] const std::vector<Pair>& pairs() const noexcept { return pairs_; }
  /// The most contacts detect_contacts can report (reserve this much once).
  [[nodiscard]] int max_contacts() const noexcept { return max_contacts_; }

 private:
  static int pair_capacity(ShapeType first, ShapeType second) noexcept {
    if (second == ShapeType::plane) {
      switch (first) {
        case ShapeType::sphere: return 1;
        case ShapeType::capsule: return 2;
        case ShapeType::box: return 8;
        case ShapeType::plane: return 0;
      }
    }
    if (second == ShapeType::sphere && (first == ShapeType::sphere || first == ShapeType::capsule)) return 1;
    return 0;
  }

  template <int N>
  void validate(const Model<Scalar, N>& model, std::size_t i) const {
    using std::abs;
    using std::isfinite;
    const Shape<Scalar>& s = shapes_[i];
    const char* kinds[] = {"sphere", "capsule", "box", "plane"};
    const auto fail = [&](const std::string& what) {
      throw std::invalid_argument("CollisionGeometry: shape " + std::to_string(i) +
                                  (s.name.empty() ? std::string() : " '" + s.name + "'") + " (" +
                                  kinds[static_cast<int>(s.type)] + "): " + what);
    };
    if (s.body != world && (s.body < 0 || s.body >= model.nbodies()))
      fail("body = " + std::to_string(s.body) + " is neither `world` nor a body of the model (it has " +
           std::to_string(model.nbodies()) + ")");
    if (!s.p0.allFinite() || !s.p1.allFinite()) fail("a point is not finite");
    switch (s.type) {
      case ShapeType::sphere:
      case ShapeType::capsule:
        if (!(s.radius > Scalar(0)) || !isfinite(s.radius)) fail("the radius must be finite and > 0");
        break;
      case ShapeType::box: {
        if (!s.half_extents.allFinite() || !(s.half_extents.minCoeff() > Scalar(0)))
          fail("the half extents must be finite and > 0");
        const Scalar tol = Scalar(64) * Eigen::NumTraits<Scalar>::epsilon();
        if (!s.axes.allFinite() ||
            !((s.axes.transpose() * s.axes - Matrix3<Scalar>::Identity()).cwiseAbs().maxCoeff() <= tol))
          fail("the axes are not orthonormal");
        break;
      }
      case ShapeType::plane:
        if (!s.normal.allFinite() || !(s.normal.norm() > Scalar(0))) fail("the normal is zero or not finite");
        break;
    }
  }

  std::vector<Shape<Scalar>> shapes_;
  std::vector<Pair> pairs_;
  int max_contacts_ = 0;
};

namespace detail {

/// A point in `body`'s frame → world coordinates (X_world = ^i X_0 = (E, r): x = r + Eᵀ p).
template <class Scalar, int N>
Vector3<Scalar> to_world(const Data<Scalar, N>& data, int body, const Vector3<Scalar>& p) noexcept {
  if (body == world) return p;
  return data.X_world[body].r + data.X_world[body].E.transpose() * p;
}

/// A world point → `body`'s frame (p = E (x − r)); unchanged for the world.
template <class Scalar, int N>
Vector3<Scalar> to_body(const Data<Scalar, N>& data, int body, const Vector3<Scalar>& x) noexcept {
  if (body == world) return x;
  return data.X_world[body].E * (x - data.X_world[body].r);
}

/// Appends the contact between world points xa (on shape `sa`'s body) and xb (on `sb`'s), normal from B
/// to A, if their separation along it is ≤ margin; swaps the roles when A is the world. Counts in `found`.
template <class Scalar, int N>
void push_contact(const Data<Scalar, N>& data, int body_a, int body_b, const Vector3<Scalar>& xa,
                  const Vector3<Scalar>& xb, const Vector3<Scalar>& n, const Scalar& margin,
                  const ContactProperties<Scalar>& props, std::vector<Contact<Scalar>>& contacts, int& found) noexcept {
  const Scalar d = n.dot(xa - xb);
  if (!(d <= margin)) return;
  ++found;
  if (contacts.size() >= contacts.capacity()) return;
  Contact<Scalar> c;
  if (body_a == world) {
    c.body_a = body_b;
    c.point_a = to_body(data, body_b, xb);
    c.body_b = world;
    c.point_b = xa;
    c.normal = -n;
  } else {
    c.body_a = body_a;
    c.point_a = to_body(data, body_a, xa);
    c.body_b = body_b;
    c.point_b = to_body(data, body_b, xb);
    c.normal = n;
  }
  c.distance = d;
  c.mu = props.mu;
  c.restitution = props.restitution;
  c.friction_directions = props.friction_directions;
  contacts.push_back(c);  // within capacity: no allocation
}

/// The sphere (centre ca, radius ra) on body_a against the sphere (cb, rb) on body_b.
template <class Scalar, int N>
void sphere_sphere(const Data<Scalar, N>& data, int body_a, const Vector3<Scalar>& ca, const Scalar& ra, int body_b,
                   const Vector3<Scalar>& cb, const Scalar& rb, const Scalar& margin,
                   const ContactProperties<Scalar>& props, std::vector<Contact<Scalar>>& contacts, int& found) noexcept {
  const Vector3<Scalar> delta = ca - cb;
  const Scalar len = delta.norm();
  const Vector3<Scalar> n = len > Scalar(0) ? Vector3<Scalar>(delta / len) : Vector3<Scalar>::UnitZ();
  push_contact(data, body_a, body_b, Vector3<Scalar>(ca - ra * n), Vector3<Scalar>(cb + rb * n), n, margin, props,
               contacts, found);
}

/// The point x (on body_a, inflated by radius ra) against the plane (point p, unit normal n) on body_b.
template <class Scalar, int N>
void point_plane(const Data<Scalar, N>& data, int body_a, const Vector3<Scalar>& x, const Scalar& ra, int body_b,
                 const Vector3<Scalar>& p, const Vector3<Scalar>& n, const Scalar& margin,
                 const ContactProperties<Scalar>& props, std::vector<Contact<Scalar>>& contacts, int& found) noexcept {
  const Vector3<Scalar> xa = x - ra * n;
  const Vector3<Scalar> xb = xa - n * n.dot(xa - p);
  push_contact(data, body_a, body_b, xa, xb, n, margin, props, contacts, found);
}

}  // namespace detail

/// The contacts of `geometry` at the placements in data.X_world whose signed distance is ≤ margin, into
/// `contacts` (cleared first); returns how many were found (file comment). noexcept, allocation-free.
template <class Scalar, int N>
int detect_contacts(const Model<Scalar, N>& model, const Data<Scalar, N>& data, const CollisionGeometry<Scalar>& geometry,
                    std::vector<Contact<Scalar>>& contacts, const Scalar& margin,
                    const ContactProperties<Scalar>& properties = {}) noexcept {
  using std::isfinite;
  contacts.clear();
  if (!detail::same_model("detect_contacts", "data", data.model_id, model.id())) return 0;
  TREEDYN_CHECK(properties.mu >= Scalar(0) && isfinite(properties.mu), "detect_contacts", "properties.mu",
                "a finite friction coefficient >= 0", -1, -1, return 0);
  TREEDYN_CHECK(properties.restitution >= Scalar(0) && properties.restitution <= Scalar(1), "detect_contacts",
                "properties.restitution", "a restitution in [0, 1]", -1, -1, return 0);
  TREEDYN_CHECK(properties.friction_directions >= 2 && properties.friction_directions % 2 == 0, "detect_contacts",
                "properties.friction_directions", "even and >= 2", -1, properties.friction_directions, return 0);
  TREEDYN_CHECK(isfinite(margin), "detect_contacts", "margin", "a finite margin", -1, -1, return 0);
  int found = 0;
  const std::vector<Shape<Scalar>>& shapes = geometry.shapes();
  std::int64_t pair_index = -1;
  const auto identify = [&contacts, &pair_index](std::size_t before, int feature) {  // Contact::id: pair, feature
    if (contacts.size() > before) contacts.back().id = 8 * pair_index + feature;
  };
  for (const typename CollisionGeometry<Scalar>::Pair& pair : geometry.pairs()) {
    ++pair_index;
    const std::size_t before = contacts.size();
    const Shape<Scalar>& a = shapes[static_cast<std::size_t>(pair.first)];
    const Shape<Scalar>& b = shapes[static_cast<std::size_t>(pair.second)];
    const Vector3<Scalar> b0 = detail::to_world(data, b.body, b.p0);
    if (b.type == ShapeType::plane) {
      Vector3<Scalar> n = b.body == world ? b.normal : Vector3<Scalar>(data.X_world[b.body].E.transpose() * b.normal);
      n.normalize();
      if (a.type == ShapeType::box) {
        for (int k = 0; k < 8; ++k) {
          const Vector3<Scalar> corner((k & 1) ? a.half_extents(0) : -a.half_extents(0),
                                       (k & 2) ? a.half_extents(1) : -a.half_extents(1),
                                       (k & 4) ? a.half_extents(2) : -a.half_extents(2));
          const Vector3<Scalar> x = detail::to_world(data, a.body, Vector3<Scalar>(a.p0 + a.axes * corner));
          const std::size_t before_corner = contacts.size();
          detail::point_plane(data, a.body, x, Scalar(0), b.body, b0, n, margin, properties, contacts, found);
          identify(before_corner, k);
        }
        continue;
      }
      detail::point_plane(data, a.body, detail::to_world(data, a.body, a.p0), a.radius, b.body, b0, n, margin,
                          properties, contacts, found);
      identify(before, 0);
      if (a.type == ShapeType::capsule) {
        const std::size_t before_end = contacts.size();
        detail::point_plane(data, a.body, detail::to_world(data, a.body, a.p1), a.radius, b.body, b0, n, margin,
                            properties, contacts, found);
        identify(before_end, 1);
      }
      continue;
    }
    // b is a sphere; a a sphere or a capsule (its closest segment point to b's centre)
    Vector3<Scalar> ca = detail::to_world(data, a.body, a.p0);
    if (a.type == ShapeType::capsule) {
      const Vector3<Scalar> e = detail::to_world(data, a.body, a.p1) - ca;
      const Scalar ee = e.squaredNorm();
      if (ee > Scalar(0)) {
        Scalar t = e.dot(b0 - ca) / ee;
        t = t < Scalar(0) ? Scalar(0) : (t > Scalar(1) ? Scalar(1) : t);
        ca += t * e;
      }
    }
    detail::sphere_sphere(data, a.body, ca, a.radius, b.body, b0, b.radius, margin, properties, contacts, found);
    identify(before, 0);
  }
  return found;
}

}  // namespace treedyn
