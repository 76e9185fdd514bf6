// Model metadata: body and joint look-ups by name, joint limits and frame placements, kept through the
// merging of fixed joints (indices shift) and through cast<>(); the setters reject bad input naming the body.
#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>

#include "model_test_support.hpp"

using namespace model_test;
using Catch::Matchers::Contains;
using treedyn::Joint;
using treedyn::JointLimits;
using treedyn::ModelBuilder;
using treedyn::RigidInertia;
using treedyn::Transform;

namespace {

/// base (revolute "hip") → sensor (fixed "mount") → thigh (prismatic "slide") → foot (revolute, default name)
ModelBuilder<double> metadata_builder() {
  ModelBuilder<double> b;
  const RigidInertia<double> I = RigidInertia<double>::from_mass_com_inertia(
      1.5, V3<double>(0.1, 0.0, -0.2), treedyn::Matrix3<double>(V3<double>(0.2, 0.3, 0.4).asDiagonal()));
  const int base = b.add_body(treedyn::no_parent, Joint<double>::revolute(V3<double>::UnitZ()),
                              Transform<double>::identity(), I, "base");
  const int sensor = b.add_body(base, Joint<double>::fixed(), treedyn::xlt(V3<double>(0, 0, 0.1)), I, "sensor");
  const int thigh = b.add_body(sensor, Joint<double>::prismatic(V3<double>::UnitX()), treedyn::xlt(V3<double>(0.3, 0, 0)),
                               I, "thigh");
  b.add_body(thigh, Joint<double>::revolute(V3<double>::UnitY()), treedyn::xlt(V3<double>(0, 0, -0.4)), I, "foot");
  b.set_joint_name(base, "hip");
  b.set_joint_name(sensor, "mount");
  b.set_joint_name(thigh, "slide");
  b.set_joint_limits(base, JointLimits<double>{-1.5, 2.0, 3.0, 40.0});
  b.set_joint_limits(thigh, JointLimits<double>{-0.1, 0.25, 0.5, 100.0});
  return b;
}

}  // namespace

TEST_CASE("Model: body and joint look-ups by name, limits kept through merging and cast", "[model][metadata]") {
  const treedyn::Model<double> model = metadata_builder().build();
  REQUIRE(model.nbodies() == 3);
  // bodies: the fixed "sensor" merged into "base", so "thigh" is body 1 and "foot" body 2
  CHECK(model.body_index("base") == 0);
  CHECK(model.body_index("thigh") == 1);
  CHECK(model.body_index("foot") == 2);
  CHECK_FALSE(model.find_body("sensor"));
  CHECK_THROWS_AS(model.body_index("sensor"), std::invalid_argument);
  CHECK_FALSE(model.find_body("hip"));
  CHECK_THROWS_AS(model.body_index("hip"), std::invalid_argument);
  // joints: named explicitly or after their body; the fixed joint has no index
  CHECK(model.joint_index("hip") == 0);
  CHECK(model.joint_index("slide") == 1);
  CHECK(model.joint_index("foot") == 2);
  CHECK_FALSE(model.find_joint("mount"));
  CHECK_THROWS_AS(model.joint_index("mount"), std::invalid_argument);
  CHECK_FALSE(model.find_joint("base"));
  CHECK_THROWS_AS(model.joint_index("base"), std::invalid_argument);
  CHECK(model.joint_name(1) == "slide");
  // limits follow their joint to its new index; unset limits are unbounded
  CHECK(model.limits(0).lower == -1.5);
  CHECK(model.limits(0).upper == 2.0);
  CHECK(model.limits(0).velocity == 3.0);
  CHECK(model.limits(0).effort == 40.0);
  CHECK(model.limits(1).lower == -0.1);
  CHECK(model.limits(1).upper == 0.25);
  CHECK(model.limits(1).velocity == 0.5);
  CHECK(model.limits(1).effort == 100.0);
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(model.limits(2).lower == -inf);
  CHECK(model.limits(2).upper == inf);
  CHECK(model.limits(2).velocity == inf);
  CHECK(model.limits(2).effort == inf);

  const treedyn::Model<float> single = model.cast<float>();
  CHECK(single.joint_index("slide") == 1);
  CHECK(single.joint_name(0) == "hip");
  CHECK(single.limits(1).upper == 0.25f);
  CHECK(single.limits(0).lower == -1.5f);
  CHECK(single.limits(2).effort == std::numeric_limits<float>::infinity());
  const treedyn::Model<long double> wide = model.cast<long double>();
  CHECK(wide.limits(1).lower == static_cast<long double>(-0.1));
}

TEST_CASE("ModelBuilder::set_frame_placement moves a body's named frame, and the frames of its fixed children",
          "[model][metadata]") {
  ModelBuilder<double> b = metadata_builder();
  const Transform<double> P = treedyn::rotx(0.3) * treedyn::xlt(V3<double>(0.01, 0.02, 0.03));
  b.set_frame_placement(1, P);  // the fixed "sensor": frame = P · ^sensor X_base
  b.set_frame_placement(2, P);  // the moving "thigh": frame = P
  const treedyn::Model<double> model = b.build();
  const double tol = 16 * eps<double>();
  const M6<double> sensor_expected = P.motion_matrix() * treedyn::xlt(V3<double>(0, 0, 0.1)).motion_matrix();
  CHECK(model.frame("sensor").body == 0);
  CHECK(close_entrywise(model.frame("sensor").placement.motion_matrix(), sensor_expected, tol));
  CHECK(model.frame("thigh").body == 1);
  CHECK(model.frame("thigh").placement.motion_matrix() == P.motion_matrix());
  CHECK(model.frame("foot").placement.motion_matrix() == M6<double>::Identity());
}

TEST_CASE("ModelBuilder metadata setters reject bad input, naming the body", "[model][metadata]") {
  ModelBuilder<double> b = metadata_builder();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(b.set_joint_name(3, ""), Contains("'foot'") && Contains("empty joint name"));
  CHECK_THROWS_WITH(b.set_joint_name(7, "x"), Contains("no body 7"));
  CHECK_THROWS_WITH(b.set_joint_limits(-1, JointLimits<double>{}), Contains("no body -1"));
  CHECK_THROWS_WITH(b.set_joint_limits(3, JointLimits<double>{1.0, -1.0, 1.0, 1.0}),
                    Contains("'foot'") && Contains("lower position limit above the upper one"));
  CHECK_THROWS_WITH(b.set_joint_limits(3, JointLimits<double>{nan, 1.0, 1.0, 1.0}),
                    Contains("'foot'") && Contains("NaN"));
  CHECK_THROWS_WITH(b.set_joint_limits(3, JointLimits<double>{-1.0, 1.0, -2.0, 1.0}),
                    Contains("'foot'") && Contains("negative velocity or effort limit"));
  Transform<double> bad = Transform<double>::identity();
  bad.E(0, 0) = 2.0;
  CHECK_THROWS_WITH(b.set_frame_placement(2, bad), Contains("'thigh'") && Contains("orthonormal"));
  // two joints with one name: build() names both bodies (here "slide" is also a new body's default joint name)
  b.add_body(0, Joint<double>::spherical(), Transform<double>::identity(), RigidInertia<double>::zero(), "slide");
  CHECK_THROWS_WITH(b.build(), Contains("bodies 'thigh' and 'slide'") && Contains("one name, 'slide'"));
  b.set_joint_name(4, "ball");
  CHECK(b.build().joint_index("ball") == 3);
}
