// Collision geometry (collision/geometry.hpp): signed distances, contact points and normals of placed
// primitives computed by hand, margin filtering, pair exclusion, the setup checks, and shapes on a moving
// body compared with the body placement composed by hand from the joint transforms.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"

namespace {

using namespace treedyn;
using Catch::Matchers::Contains;

/// Two free bodies: body 0 at (0, 0, 2) unrotated, body 1 at (0, 0, 0.5) turned 90° about x
/// (its z axis along world −y).
template <class T>
struct TwoBodies {
  Model<T> model;
  Data<T> data;
  explicit TwoBodies(Model<T> m) : model(std::move(m)), data(model) {
    Eigen::Matrix<T, Eigen::Dynamic, 1> q(14);
    const T h = std::sqrt(T(0.5));
    q << T(0), T(0), T(2), T(0), T(0), T(0), T(1), T(0), T(0), T(0.5), h, T(0), T(0), h;
    forward_kinematics(model, data, q);
  }
};

template <class T>
Model<T> two_free_bodies() {
  ModelBuilder<T> b;
  const auto I = RigidInertia<T>::from_mass_com_inertia(T(1), Vector3<T>::Zero(), Symmetric3<T>::identity());
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), I, "a");
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), I, "b");
  return b.build();
}

template <class T>
Vector3<T> world_point(const Data<T>& data, int body, const Vector3<T>& p) {
  return body == world ? p : Vector3<T>(data.X_world[body].r + data.X_world[body].E.transpose() * p);
}

/// Every contact: a unit normal, body_a a body, and distance = n̂·(point_a − point_b) in world coordinates.
template <class T>
void require_consistent(const Data<T>& data, const std::vector<Contact<T>>& contacts, T tol) {
  for (const Contact<T>& c : contacts) {
    REQUIRE(c.body_a >= 0);
    CHECK(std::abs(c.normal.norm() - T(1)) <= tol);
    const Vector3<T> xa = world_point(data, c.body_a, c.point_a), xb = world_point(data, c.body_b, c.point_b);
    CHECK(std::abs(c.normal.dot(xa - xb) - c.distance) <= tol * (T(1) + std::abs(c.distance)));
    CHECK((xa - xb).cross(c.normal).norm() <= tol * (T(1) + (xa - xb).norm()));  // the points lie along n̂
  }
}

template <class T>
const Contact<T>& find(const std::vector<Contact<T>>& contacts, int body_a, int body_b, int nth = 0) {
  for (const Contact<T>& c : contacts)
    if (c.body_a == body_a && c.body_b == body_b && nth-- == 0) return c;
  FAIL("no contact between bodies " << body_a << " and " << body_b);
  return contacts.front();
}

template <class T>
void require_vec(const Vector3<T>& got, const Vector3<T>& want, T tol) {
  INFO("got " << got.transpose() << ", want " << want.transpose());
  CHECK((got - want).cwiseAbs().maxCoeff() <= tol);
}

}  // namespace

TEMPLATE_TEST_CASE("detect_contacts: spheres against a plane and each other, exact points", "[contact][geometry]",
                   float, double) {
  using T = TestType;
  const T tol = T(16) * std::numeric_limits<T>::epsilon();
  TwoBodies<T> s(two_free_bodies<T>());
  const CollisionGeometry<T> g(s.model, {Shape<T>::sphere(0, Vector3<T>(T(0), T(0), T(0.25)), T(0.5), "upper"),
                                         Shape<T>::plane(world, Vector3<T>::Zero(), Vector3<T>(T(0), T(0), T(2)), "floor"),
                                         Shape<T>::sphere(1, Vector3<T>::Zero(), T(0.25), "lower")});
  REQUIRE(g.max_contacts() == 3);
  std::vector<Contact<T>> contacts;
  contacts.reserve(static_cast<std::size_t>(g.max_contacts()));
  ContactProperties<T> props;
  props.mu = T(0.3);
  props.restitution = T(0.7);
  props.friction_directions = 6;
  REQUIRE(detect_contacts(s.model, s.data, g, contacts, T(10), props) == 3);
  REQUIRE(contacts.size() == 3);
  require_consistent(s.data, contacts, tol);
  const Contact<T>& upper_floor = find(contacts, 0, world);  // centre (0, 0, 2.25)
  CHECK(std::abs(upper_floor.distance - T(1.75)) <= tol);
  require_vec(upper_floor.normal, Vector3<T>::UnitZ().eval(), tol);
  require_vec(upper_floor.point_a, Vector3<T>(T(0), T(0), T(-0.25)), tol);
  require_vec(upper_floor.point_b, Vector3<T>::Zero().eval(), tol);
  CHECK(upper_floor.mu == T(0.3));
  CHECK(upper_floor.restitution == T(0.7));
  CHECK(upper_floor.friction_directions == 6);
  const Contact<T>& pair = find(contacts, 0, 1);  // centres (0, 0, 2.25) and (0, 0, 0.5)
  CHECK(std::abs(pair.distance - T(1)) <= tol);
  require_vec(pair.normal, Vector3<T>::UnitZ().eval(), tol);
  require_vec(pair.point_a, Vector3<T>(T(0), T(0), T(-0.25)), tol);
  require_vec(pair.point_b, Vector3<T>(T(0), T(0.25), T(0)), tol);  // world (0, 0, 0.75) in body 1's turned frame
  const Contact<T>& lower_floor = find(contacts, 1, world);
  CHECK(std::abs(lower_floor.distance - T(0.25)) <= tol);
  require_vec(lower_floor.point_a, Vector3<T>(T(0), T(-0.25), T(0)), tol);

  // margin filtering and the count of contacts found
  CHECK(detect_contacts(s.model, s.data, g, contacts, T(0.5), props) == 1);
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].body_a == 1);
  CHECK(detect_contacts(s.model, s.data, g, contacts, T(1.2), props) == 2);
  CHECK(detect_contacts(s.model, s.data, g, contacts, T(0.2), props) == 0);
  CHECK(contacts.empty());
  // short capacity: contacts are dropped, and the return value says so
  std::vector<Contact<T>> small;
  small.reserve(1);
  const std::size_t cap = small.capacity();
  CHECK(detect_contacts(s.model, s.data, g, small, T(10), props) == 3);
  CHECK(small.size() == cap);
  CHECK(small.capacity() == cap);

  // exclusion: the sphere pair by shape indices (either order)
  CollisionOptions options;
  options.exclude = {{2, 0}};
  const CollisionGeometry<T> g2(s.model, g.shapes(), options);
  CHECK(g2.max_contacts() == 2);
  CHECK(detect_contacts(s.model, s.data, g2, contacts, T(10), props) == 2);
  for (const Contact<T>& c : contacts) CHECK(c.body_b == world);
}

TEMPLATE_TEST_CASE("detect_contacts: capsules, box corners and a plane fixed on a body", "[contact][geometry]", float,
                   double) {
  using T = TestType;
  const T tol = T(16) * std::numeric_limits<T>::epsilon();
  TwoBodies<T> s(two_free_bodies<T>());
  const Vector3<T> floor_n = Vector3<T>::UnitZ();
  std::vector<Contact<T>> contacts;
  contacts.reserve(16);

  SECTION("a level capsule touches with both end caps, a tilted one with its lower end") {
    const CollisionGeometry<T> level(s.model, {Shape<T>::capsule(0, Vector3<T>(T(-1), T(0), T(0)),
                                                                 Vector3<T>(T(1), T(0), T(0)), T(0.125)),
                                               Shape<T>::plane(world, Vector3<T>::Zero(), floor_n)});
    CHECK(level.max_contacts() == 2);
    REQUIRE(detect_contacts(s.model, s.data, level, contacts, T(3)) == 2);
    require_consistent(s.data, contacts, tol);
    for (int k = 0; k < 2; ++k) {
      const Contact<T>& c = contacts[static_cast<std::size_t>(k)];
      CHECK(std::abs(c.distance - T(1.875)) <= tol);
      CHECK(std::abs(std::abs(c.point_a.x()) - T(1)) <= tol);
      CHECK(std::abs(c.point_a.z() + T(0.125)) <= tol);
      require_vec(c.point_b, Vector3<T>(c.point_a.x(), T(0), T(0)), tol);
    }
    CHECK(contacts[0].point_a.x() * contacts[1].point_a.x() < T(0));
    const CollisionGeometry<T> tilted(s.model, {Shape<T>::capsule(0, Vector3<T>(T(-1), T(0), T(0)),
                                                                  Vector3<T>(T(1), T(0), T(1)), T(0.125)),
                                                Shape<T>::plane(world, Vector3<T>::Zero(), floor_n)});
    REQUIRE(detect_contacts(s.model, s.data, tilted, contacts, T(2.5)) == 1);
    require_vec(contacts[0].point_a, Vector3<T>(T(-1), T(0), T(-0.125)), tol);
    CHECK(detect_contacts(s.model, s.data, tilted, contacts, T(3)) == 2);
  }

  SECTION("capsule against a sphere: the closest point of the segment, normal from the sphere to the capsule") {
    // the sphere of body 1 sits at world (0.5, 0, 0.5): (0.5, 0, 0) in its turned frame
    const CollisionGeometry<T> g(s.model, {Shape<T>::sphere(1, Vector3<T>(T(0.5), T(0), T(0)), T(0.25)),
                                           Shape<T>::capsule(0, Vector3<T>(T(-1), T(0), T(0)),
                                                             Vector3<T>(T(1), T(0), T(0)), T(0.125))});
    REQUIRE(detect_contacts(s.model, s.data, g, contacts, T(2)) == 1);
    require_consistent(s.data, contacts, tol);
    const Contact<T>& c = contacts[0];
    CHECK(c.body_a == 0);
    CHECK(c.body_b == 1);
    CHECK(std::abs(c.distance - T(1.125)) <= tol);
    require_vec(c.normal, Vector3<T>::UnitZ().eval(), tol);
    require_vec(c.point_a, Vector3<T>(T(0.5), T(0), T(-0.125)), tol);
    require_vec(c.point_b, Vector3<T>(T(0.5), T(0.25), T(0)), tol);
  }

  SECTION("box corners against the floor") {
    const T h = std::sqrt(T(0.5));
    Matrix3<T> axes;  // 45° about z
    axes << h, -h, T(0), h, h, T(0), T(0), T(0), T(1);
    const CollisionGeometry<T> g(s.model, {Shape<T>::box(0, Vector3<T>::Zero(), axes, Vector3<T>(T(1), T(1), T(0.5))),
                                           Shape<T>::plane(world, Vector3<T>::Zero(), floor_n)});
    CHECK(g.max_contacts() == 8);
    REQUIRE(detect_contacts(s.model, s.data, g, contacts, T(1.6)) == 4);  // the lower four at z = 1.5
    require_consistent(s.data, contacts, tol);
    Vector3<T> sum = Vector3<T>::Zero();
    for (const Contact<T>& c : contacts) {
      CHECK(std::abs(c.distance - T(1.5)) <= tol);
      CHECK(std::abs(c.point_a.z() + T(0.5)) <= tol);
      CHECK(std::abs(c.point_a.template head<2>().norm() - std::sqrt(T(2))) <= tol);
      CHECK(std::abs(c.point_b.z()) <= tol);
      sum += c.point_a;
    }
    require_vec(sum, Vector3<T>(T(0), T(0), T(-2)), tol);
    CHECK(detect_contacts(s.model, s.data, g, contacts, T(3)) == 8);
  }

  SECTION("a plane fixed on a body against a world-fixed sphere: roles swapped so body_a is the body") {
    // body 1's plane through its origin (0, 0, 0.5) with body normal −y: world normal −z
    const CollisionGeometry<T> g(s.model, {Shape<T>::sphere(world, Vector3<T>(T(0), T(0), T(-1)), T(0.5)),
                                           Shape<T>::plane(1, Vector3<T>::Zero(), Vector3<T>(T(0), T(-1), T(0)))});
    REQUIRE(detect_contacts(s.model, s.data, g, contacts, T(2)) == 1);
    require_consistent(s.data, contacts, tol);
    const Contact<T>& c = contacts[0];
    CHECK(c.body_a == 1);
    CHECK(c.body_b == world);
    CHECK(std::abs(c.distance - T(1)) <= tol);
    require_vec(c.normal, Vector3<T>::UnitZ().eval(), tol);  // from the world sphere to the plane's body
    require_vec(c.point_a, Vector3<T>::Zero().eval(), tol);
    require_vec(c.point_b, Vector3<T>(T(0), T(0), T(-0.5)), tol);
  }
}

TEST_CASE("detect_contacts follows a shape on a moving body (forward kinematics at a random configuration)",
          "[contact][geometry]") {
  const Model<double> model = robots::arm7<double>();
  Data<double> data(model);
  const int last = model.nbodies() - 1;
  const Eigen::Vector3d centre(0.1, -0.2, 0.3), n = Eigen::Vector3d(1, 2, 3).normalized(), p(0.3, -0.1, -5);
  const CollisionGeometry<double> g(model, {Shape<double>::sphere(last, centre, 0.05, "tool"),
                                            Shape<double>::plane(world, p, Eigen::Vector3d(2, 4, 6), "slope")});
  std::vector<Contact<double>> contacts;
  contacts.reserve(static_cast<std::size_t>(g.max_contacts()));
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Eigen::VectorXd q = random_configuration(model, seed);
    forward_kinematics(model, data, q);
    Transform<double> X = Transform<double>::identity();  // ^last X_0 = Π (XJ X_T) composed by hand, root to tip
    std::vector<int> path;
    for (int i = last; i != no_parent; i = model.parent(i)) path.insert(path.begin(), i);
    for (const int i : path)
      X = model.joint(i).transform(q.segment(model.q_offset(i), model.joint(i).nq())) * model.tree_transform(i) * X;
    const Eigen::Vector3d c_world = X.r + X.E.transpose() * centre;
    REQUIRE(detect_contacts(model, data, g, contacts, 100.0) == 1);
    const Contact<double>& c = contacts[0];
    CHECK(c.body_a == last);
    CHECK(c.body_b == world);
    CHECK((c.normal - n).norm() <= 1e-15);
    const double d = n.dot(c_world - p) - 0.05;
    CHECK(std::abs(c.distance - d) <= 1e-13);
    CHECK((c.point_a - (centre - 0.05 * (X.E * n))).norm() <= 1e-13);  // in the body's frame
    CHECK((c.point_b - (c_world - (d + 0.05) * n)).norm() <= 1e-13);  // on the plane, world coordinates
    require_consistent(data, contacts, 1e-13);
  }
}

TEST_CASE("CollisionGeometry filters pairs and rejects bad shapes, naming them", "[contact][geometry]") {
  const Model<double> chain = robots::pendulum<double>(3);
  std::vector<Shape<double>> spheres;
  for (int k = 0; k < 3; ++k) spheres.push_back(Shape<double>::sphere(k, Eigen::Vector3d(0, -2, 0), 2.0));
  spheres.push_back(Shape<double>::sphere(1, Eigen::Vector3d(0, 0, 0), 0.1));  // a second shape on body 1
  CHECK(CollisionGeometry<double>(chain, spheres).pairs().size() == 5);         // never two on one body
  CollisionOptions options;
  options.exclude_parent_child = true;
  const CollisionGeometry<double> g(chain, spheres, options);  // only bodies 0 and 2
  REQUIRE(g.pairs().size() == 1);
  CHECK(g.shapes()[static_cast<std::size_t>(g.pairs()[0].first)].body + g.shapes()[static_cast<std::size_t>(g.pairs()[0].second)].body == 2);
  // unsupported combinations and two world shapes give no pairs
  const CollisionGeometry<double> none(chain, {Shape<double>::plane(world, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY()),
                                               Shape<double>::sphere(world, Eigen::Vector3d::Zero(), 1.0),
                                               Shape<double>::box(0, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity(),
                                                                  Eigen::Vector3d::Ones()),
                                               Shape<double>::plane(1, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY())});
  CHECK(none.pairs().size() == 3);  // the box against both planes, the world sphere against body 1's plane
  CHECK(none.max_contacts() == 17);

  using S = Shape<double>;
  const Eigen::Vector3d o = Eigen::Vector3d::Zero();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, {S::sphere(0, o, 0.0, "ball")}),
                    Contains("shape 0 'ball' (sphere)") && Contains("radius"));
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, {S::sphere(0, o, 1.0), S::capsule(1, o, o, nan, "rod")}),
                    Contains("shape 1 'rod' (capsule)") && Contains("radius"));
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, {S::plane(world, o, o, "floor")}),
                    Contains("'floor' (plane)") && Contains("normal"));
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, {S::sphere(7, o, 1.0, "lost")}),
                    Contains("'lost'") && Contains("body = 7"));
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, {S::sphere(0, Eigen::Vector3d(nan, 0, 0), 1.0, "far")}),
                    Contains("'far'") && Contains("not finite"));
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, {S::box(0, o, Eigen::Matrix3d::Identity(), Eigen::Vector3d(1, -1, 1), "crate")}),
                    Contains("'crate' (box)") && Contains("half extents"));
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, {S::box(0, o, 2 * Eigen::Matrix3d::Identity(), Eigen::Vector3d::Ones(), "skew")}),
                    Contains("'skew' (box)") && Contains("orthonormal"));
  options.exclude = {{0, 9}};
  CHECK_THROWS_WITH(CollisionGeometry<double>(chain, spheres, options), Contains("(0, 9)"));
}
