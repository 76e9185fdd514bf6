// Mimic joints (loaded as independent joints, the relation returned beside the model) and gravity
// (Options::gravity, Model::with_gravity) on URDF files written for the suite (tests/urdf/robots).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/model/configuration.hpp"
#include "urdf/urdf_test_support.hpp"

using namespace urdf_test;
using Catch::Matchers::Contains;
using treedyn::Model;
using treedyn::urdf::InertiaPolicy;
using treedyn::urdf::MimicPolicy;
using treedyn::urdf::Options;
using V3 = treedyn::Vector3<double>;
using Kind = treedyn::urdf::Diagnostic::Kind;

TEST_CASE("urdf: a two-finger gripper with a mimic joint", "[urdf][mimic]") {
  const std::string path = test_file("mimic_gripper");
  SECTION("loaded as two independent joints under every inertia policy; the relation round-trips") {
    for (const InertiaPolicy policy : {InertiaPolicy::repair, InertiaPolicy::strict, InertiaPolicy::as_is}) {
      const auto loaded = treedyn::urdf::load<double>(path, with(policy));
      REQUIRE(loaded.model.nv() == 2);
      REQUIRE(loaded.mimics.size() == 1);
      const treedyn::urdf::MimicJoint<double>& m = loaded.mimics[0];
      CHECK(m.joint == "finger_right_joint");
      CHECK(m.mimicked == "finger_left_joint");
      CHECK(m.multiplier == -1.0);
      CHECK(m.offset == 0.005);
      CHECK(m.index == loaded.model.joint_index("finger_right_joint"));
      CHECK(m.mimicked_index == loaded.model.joint_index("finger_left_joint"));
      CHECK(m.index != m.mimicked_index);
      REQUIRE(loaded.report.diagnostics.size() == 1);
      CHECK(loaded.report.diagnostics[0].kind == Kind::mimic_independent);
      CHECK(loaded.report.diagnostics[0].element == "joint 'finger_right_joint'");
      check_dynamics(loaded.model);
      // enforced by the user: q_right = −q_left + 0.005 closes the fingers symmetrically about y = 0.0025
      // (finger origins at y = ±0.01, both moving along +y)
      Eigen::VectorXd q(2);
      q(m.mimicked_index) = 0.012;
      q(m.index) = m.multiplier * q(m.mimicked_index) + m.offset;
      treedyn::Data<double> data(loaded.model);
      treedyn::forward_kinematics(loaded.model, data, q);
      const double y_left = data.X_world[m.mimicked_index].r(1), y_right = data.X_world[m.index].r(1);
      CHECK(std::abs(y_left - 0.022) <= 1e-15);
      CHECK(std::abs(y_right - (-0.017)) <= 1e-15);
    }
  }
  SECTION("floats and long doubles carry the relation too") {
    const auto single = treedyn::urdf::load<float>(path);
    REQUIRE(single.mimics.size() == 1);
    CHECK(single.mimics[0].offset == 0.005f);
  }
  SECTION("MimicPolicy::reject refuses the file, naming the joint") {
    Options o;
    o.mimic = MimicPolicy::reject;
    CHECK_THROWS_WITH(build_model(path, o), Contains(path + ": joint 'finger_right_joint': mimic joints are not supported"));
  }
  SECTION("a mimic naming a missing joint or a fixed one is reported and skipped; naming itself is an error") {
    const std::string text = read_text(path);
    const std::string mimic = "<mimic joint=\"finger_left_joint\"";
    const auto ghost = treedyn::urdf::load<double>(replaced(text, mimic, "<mimic joint=\"ghost\""));
    CHECK(ghost.model.nv() == 2);
    CHECK(ghost.mimics.empty());
    REQUIRE(ghost.report.count(Kind::mimic_skipped) == 1);
    CHECK(ghost.report.lines().at(0) == "<string>: joint 'finger_right_joint': <mimic> names joint 'ghost', which "
                                        "does not exist; the <mimic> is skipped");
    CHECK_THROWS_WITH(build_model(replaced(text, mimic, "<mimic joint=\"finger_right_joint\"")),
                      Contains("joint 'finger_right_joint': <mimic> names the joint itself"));
    const std::string fixed_left = replaced(text, "name=\"finger_left_joint\" type=\"prismatic\"",
                                            "name=\"finger_left_joint\" type=\"fixed\"");
    const auto fixed = treedyn::urdf::load<double>(fixed_left, with(InertiaPolicy::as_is));
    CHECK(fixed.model.nv() == 1);
    CHECK(fixed.mimics.empty());
    REQUIRE(fixed.report.count(Kind::mimic_skipped) == 1);
    CHECK_THAT(fixed.report.to_string(), Contains("joint 'finger_right_joint': <mimic> names joint 'finger_left_joint', "
                                                  "which is not revolute, continuous or prismatic"));
  }
}

TEST_CASE("urdf: gravity set by Options or on a built model", "[urdf][gravity]") {
  const std::string path = test_file("gripper_triangle");
  Options moon;
  moon.gravity = {0.0, 0.0, -1.62};
  const Model<double> on_moon = build_model(path, moon);
  const Model<double> on_earth = build_model(path);
  CHECK(on_earth.gravity() == V3(0, 0, -9.81));
  CHECK(on_moon.gravity() == V3(0, 0, -1.62));
  const Model<double> moved = on_earth.with_gravity(V3(0, 0, -1.62));
  CHECK(moved.gravity() == on_moon.gravity());
  CHECK(on_earth.gravity() == V3(0, 0, -9.81));  // the original is unchanged
  // at rest the joint torques are linear in g: τ_moon = (1.62 / 9.81) τ_earth
  treedyn::Data<double> data(on_earth);
  const Eigen::VectorXd q = treedyn::random_configuration(on_earth, 3u), zero = Eigen::VectorXd::Zero(on_earth.nv());
  const Eigen::VectorXd tau_earth = treedyn::rnea(on_earth, data, q, zero, zero);
  treedyn::Data<double> moon_data(on_moon);  // a model built separately needs its own Data (model identity)
  const Eigen::VectorXd tau_moon = treedyn::rnea(on_moon, moon_data, q, zero, zero);
  const Eigen::VectorXd tau_moved = treedyn::rnea(moved, data, q, zero, zero);
  CHECK(max_abs(tau_earth) > 0.1);
  CHECK(max_abs(tau_moon - (1.62 / 9.81) * tau_earth) <= 1e-14 * max_abs(tau_earth));
  CHECK(max_abs(tau_moved - tau_moon) == 0.0);
  Options bad;
  bad.gravity = {0.0, std::numeric_limits<double>::quiet_NaN(), 0.0};
  CHECK_THROWS_WITH(build_model(path, bad), Contains(path + ": Options::gravity is not finite"));
  CHECK_THROWS_WITH(on_earth.with_gravity(V3(0, 0, std::numeric_limits<double>::infinity())),
                    Contains("treedyn::Model::with_gravity: gravity is not finite"));
}

