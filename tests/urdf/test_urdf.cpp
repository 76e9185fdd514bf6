// treedyn::urdf::build_model: the direction of <origin>, rotated inertials, massless links, every joint
// type, names, limits and frames (its input and its errors: test_urdf_input.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>

#include "support/crba_dense.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/model/configuration.hpp"
#include "urdf/urdf_test_support.hpp"

using namespace urdf_test;
using treedyn::Model;
using treedyn::urdf::build_model;  // build_model<float>, build_model<long double>; urdf_test::build_model is <double>
using treedyn::urdf::Options;
using V3 = treedyn::Vector3<double>;
using M3 = treedyn::Matrix3<double>;

namespace {

constexpr double tight = 1e-14;

M3 rpy_matrix(double r, double p, double y) {
  return (Eigen::AngleAxisd(y, V3::UnitZ()) * Eigen::AngleAxisd(p, V3::UnitY()) * Eigen::AngleAxisd(r, V3::UnitX()))
      .toRotationMatrix();
}

Options floating() {
  Options o;
  o.floating_base = true;
  return o;
}

}  // namespace

TEST_CASE("urdf: <origin> is the pose of the joint frame in the parent link frame", "[urdf]") {
  const std::string xml = robot(bare_link("base") + link("a") +
                                joint("j", "continuous", "base", "a", "1 2 3", "0 0 1.5707963267948966", "<axis xyz=\"0 0 1\"/>"));
  const Model<double> model = build_model(xml);
  REQUIRE(model.nbodies() == 1);
  const treedyn::Transform<double>& X = model.tree_transform(0);  // ^a X_base
  // the child origin sits at xyz in parent coordinates; its x axis is the parent's y axis, its y axis −x
  CHECK(max_abs(X.r - V3(1, 2, 3)) <= tight);
  CHECK(max_abs(X.E.row(0).transpose() - V3(0, 1, 0)) <= tight);
  CHECK(max_abs(X.E.row(1).transpose() - V3(-1, 0, 0)) <= tight);
  // a point p_a fixed in the child is at xyz + R p_a in the parent: with p_a = e_x, (1, 3, 3)
  treedyn::Data<double> data(model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(1);
  const auto& X0 = treedyn::forward_kinematics(model, data, q);
  CHECK(max_abs(X0[0].r + X0[0].E.transpose() * V3::UnitX() - V3(1, 3, 3)) <= tight);
  // turning the joint by +π/2 about the child's z turns its x axis to the parent's −x
  q(0) = std::acos(-1.0) / 2;
  treedyn::forward_kinematics(model, data, q);
  CHECK(max_abs(data.X_world[0].E.transpose() * V3::UnitX() - V3(-1, 0, 0)) <= tight);
}

TEST_CASE("urdf: inertial with a rotated <origin rpy>, massless links and links without <inertial>", "[urdf]") {
  const std::string inertia = "ixx=\"0.04\" ixy=\"0.001\" ixz=\"-0.002\" iyy=\"0.05\" iyz=\"0.003\" izz=\"0.03\"";
  const std::string xml =
      robot(link("body", "2.5", "0.1 -0.2 0.3", "0.3 -0.2 0.5", inertia) + bare_link("no_inertial") +
            link("massless", "0", "0 0 0", "0 0 0", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"") +
            link("tip") + joint("j1", "continuous", "body", "no_inertial", "0 0 0.4", "0 0 0", "<axis xyz=\"1 0 0\"/>") +
            joint("j2", "continuous", "no_inertial", "massless", "0 0 0.4", "0 0 0", "<axis xyz=\"0 1 0\"/>") +
            joint("j3", "continuous", "massless", "tip", "0 0 0.4", "0 0 0", "<axis xyz=\"0 0 1\"/>"));
  const Model<double> model = build_model(xml, floating());
  REQUIRE(model.nbodies() == 4);
  REQUIRE(model.nv() == 9);
  // expected: Ī_C in link axes = R Ī R^T, then the parallel-axis theorem at c
  M3 Ic;
  Ic << 0.04, 0.001, -0.002, 0.001, 0.05, 0.003, -0.002, 0.003, 0.03;
  const M3 R = rpy_matrix(0.3, -0.2, 0.5);
  const V3 c(0.1, -0.2, 0.3);
  const double m = 2.5;
  const M3 Io = R * Ic * R.transpose() + m * (c.squaredNorm() * M3::Identity() - c * c.transpose());
  const treedyn::RigidInertia<double>& I = model.inertia(model.body_index("body"));
  CHECK(I.m == m);
  CHECK(max_abs(I.h - m * c) <= tight);
  CHECK(max_abs(I.I.matrix() - Io) <= tight);
  for (const char* name : {"no_inertial", "massless"}) {
    const treedyn::RigidInertia<double>& Z = model.inertia(model.body_index(name));
    CHECK(Z.m == 0.0);
    CHECK(max_abs(Z.h) == 0.0);
    CHECK(max_abs(Z.I.matrix()) == 0.0);
  }
  // the chain is still solvable: the tip carries mass on every axis
  treedyn::Data<double> data(model);
  const Eigen::VectorXd q = treedyn::random_configuration(model, 5u);
  const Eigen::VectorXd qd = Eigen::VectorXd::Constant(9, 0.3);
  const Eigen::VectorXd tau = Eigen::VectorXd::LinSpaced(9, -1.0, 1.0);
  const Eigen::VectorXd qdd = treedyn::aba(model, data, q, qd, tau);
  REQUIRE(data.aba_status.ok());
  const Eigen::VectorXd tau_back = treedyn::rnea(model, data, q, qd, qdd);
  CHECK(max_abs(tau_back - tau) <= 1e-10);
}

TEST_CASE("urdf: joint types, axes, names, limits and frames", "[urdf]") {
  const std::string xml = robot(
      link("base") + link("upper") + link("slider") + link("wheel") + bare_link("camera") + link("hand") +
      joint("shoulder", "revolute", "base", "upper", "0.1 0.2 0.3", "0.3 -0.2 0.1",
            "<axis xyz=\"0 0.6 0.8\"/><limit lower=\"-1.25\" upper=\"2.5\" velocity=\"3.5\" effort=\"87\"/>") +
      joint("rail", "prismatic", "upper", "slider", "0 0 0.5", "0 0 0",
            "<axis xyz=\"0.3 -0.5 0.8\"/><limit lower=\"-0.1\" upper=\"0.4\" velocity=\"0.5\" effort=\"200\"/>") +
      joint("spin", "continuous", "upper", "wheel", "0 0.2 0", "0 0 0", "<axis xyz=\"1 0 0\"/><limit velocity=\"9\" effort=\"4\"/>") +
      joint("camera_mount", "fixed", "slider", "camera", "0.05 0 0.02", "0 1.5707963267948966 0") +
      joint("wrist", "continuous", "camera", "hand", "0 0 0.1", "0 0 0", "<axis xyz=\"0 0 1\"/>"));
  const Model<double> model = build_model(xml);
  REQUIRE(model.nbodies() == 4);  // base and camera are merged away (base into the world)
  CHECK(model.body_index("upper") == 0);
  CHECK(model.body_index("slider") == 1);
  CHECK(model.body_index("wheel") == 2);
  CHECK(model.body_index("hand") == 3);
  CHECK_FALSE(model.find_body("camera"));
  CHECK_THROWS_AS(model.body_index("camera"), std::invalid_argument);
  CHECK(model.joint_index("shoulder") == 0);
  CHECK(model.joint_index("rail") == 1);
  CHECK(model.joint_index("spin") == 2);
  CHECK(model.joint_index("wrist") == 3);
  CHECK_FALSE(model.find_joint("camera_mount"));
  CHECK_THROWS_AS(model.joint_index("camera_mount"), std::invalid_argument);
  CHECK(model.joint(0).type == treedyn::JointType::revolute);
  CHECK(max_abs(model.joint(0).axis - V3(0, 0.6, 0.8)) <= tight);
  CHECK(model.joint(1).type == treedyn::JointType::prismatic);
  CHECK(max_abs(model.joint(1).axis - V3(0.3, -0.5, 0.8).normalized()) <= tight);
  CHECK(model.joint(2).type == treedyn::JointType::revolute);
  // limits
  CHECK(model.limits(0).lower == -1.25);
  CHECK(model.limits(0).upper == 2.5);
  CHECK(model.limits(0).velocity == 3.5);
  CHECK(model.limits(0).effort == 87.0);
  CHECK(model.limits(1).upper == 0.4);
  CHECK(model.limits(2).lower == -std::numeric_limits<double>::infinity());  // continuous: no position limits
  CHECK(model.limits(2).upper == std::numeric_limits<double>::infinity());
  CHECK(model.limits(2).velocity == 9.0);
  CHECK(model.limits(2).effort == 4.0);
  CHECK(model.limits(3).velocity == std::numeric_limits<double>::infinity());  // no <limit>
  // frames: the fixed camera is a frame on "slider"; the base link a frame on the world
  const treedyn::Frame<double>& camera = model.frame("camera");
  CHECK(camera.body == 1);
  CHECK(max_abs(camera.placement.r - V3(0.05, 0, 0.02)) <= tight);
  CHECK(max_abs(camera.placement.E.transpose() - rpy_matrix(0, std::acos(-1.0) / 2, 0)) <= tight);
  CHECK(model.frame("base").body == treedyn::no_parent);
  // the hand hangs from the slider through the camera: X_T = ^hand X_camera · ^camera X_slider
  CHECK(model.parent(3) == 1);
  const treedyn::Transform<double> expected = treedyn::xlt(V3(0, 0, 0.1)) * camera.placement;
  CHECK(max_abs(model.tree_transform(3).E - expected.E) <= tight);
  CHECK(max_abs(model.tree_transform(3).r - expected.r) <= tight);
}

TEST_CASE("urdf: a floating joint and options.floating_base give the same free flyer", "[urdf]") {
  const std::string arm = link("torso") + link("arm") +
                          joint("elbow", "continuous", "torso", "arm", "0.1 0.2 0.3", "0.3 -0.2 0.1", "<axis xyz=\"0 1 0\"/>");
  const Model<double> a = build_model(robot(bare_link("world") + arm + joint("float", "floating", "world", "torso", "0 0 0", "0 0 0")));
  const Model<double> b = build_model(robot(arm), floating());
  REQUIRE(a.nq() == 8);
  REQUIRE(b.nq() == 8);
  CHECK(a.joint(0).type == treedyn::JointType::free_flyer);
  CHECK(b.joint(0).type == treedyn::JointType::free_flyer);
  CHECK(a.joint_index("float") == 0);
  CHECK(b.joint_index("torso") == 0);  // the added free flyer is named after the root link
  treedyn::Data<double> da(a), db(b);
  const Eigen::VectorXd q = treedyn::random_configuration(a, 3u);
  const Eigen::MatrixXd Ha = treedyn::test::crba_dense(a, da, q), Hb = treedyn::test::crba_dense(b, db, q);
  CHECK(max_abs(Ha - Hb) == 0.0);
  // without the option the root is welded to the world
  CHECK(build_model(robot(arm)).nv() == 1);
}
