// ModelBuilder: every bad input is rejected with a message naming the body and
// the rule; massless bodies are accepted; fixed joints merge into their parent's inertia (checked
// against an explicit dense Xᵀ I X sum) and stay named frames; cast<float>() and build<N>().
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "model_test_support.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/topology/parent_array.hpp"

using namespace model_test;
using Catch::Matchers::Contains;
using treedyn::Joint;
using treedyn::JointType;
using treedyn::ModelBuilder;
using treedyn::RigidInertia;
using treedyn::Transform;

namespace {

template <class T>
Joint<T> z_revolute() {
  return Joint<T>::revolute(V3<T>::UnitZ());
}

/// A builder holding one valid body "root" (index 0).
template <class T>
ModelBuilder<T> builder_with_root() {
  ModelBuilder<T> b;
  b.add_body(treedyn::no_parent, z_revolute<T>(), Transform<T>::identity(), simple_inertia<T>(), "root");
  return b;
}

template <class T>
RigidInertia<T> inertia_with_moments(const T& a, const T& b, const T& c) {
  treedyn::Matrix3<T> Ic = treedyn::Matrix3<T>::Zero();
  Ic.diagonal() << a, b, c;
  return RigidInertia<T>::from_mass_com_inertia(T(2), V3<T>(T(0.1), T(0), T(0)), Ic);
}

}  // namespace

TEMPLATE_TEST_CASE("ModelBuilder rejects bad input, naming the body and the rule", "[model][builder]", float,
                   double) {
  using T = TestType;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T inf = std::numeric_limits<T>::infinity();
  ModelBuilder<T> b = builder_with_root<T>();
  const Transform<T> I = Transform<T>::identity();

  SECTION("parent not yet defined") {
    REQUIRE_THROWS_WITH(b.add_body(1, z_revolute<T>(), I, simple_inertia<T>(), "early"),
                        Contains("'early'") && Contains("is not yet defined"));
    REQUIRE_THROWS_WITH(b.add_body(-2, z_revolute<T>(), I, simple_inertia<T>(), "below_base"),
                        Contains("'below_base'") && Contains("is not yet defined"));
  }
  SECTION("negative mass") {
    RigidInertia<T> bad = simple_inertia<T>();
    bad.m = T(-1);
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), I, bad, "heavy"),
                        Contains("'heavy'") && Contains("negative mass"));
  }
  SECTION("inertia not positive semidefinite") {
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), I, inertia_with_moments(T(-0.1), T(1), T(1)), "npsd"),
                        Contains("'npsd'") && Contains("not positive semidefinite"));
  }
  SECTION("triangle inequality") {
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), I, inertia_with_moments(T(0.1), T(0.1), T(0.5)), "thin"),
                        Contains("'thin'") && Contains("triangle inequality"));
  }
  SECTION("zero axis") {
    REQUIRE_THROWS_WITH(b.add_body(0, Joint<T>::revolute(V3<T>::Zero()), I, simple_inertia<T>(), "axisless"),
                        Contains("'axisless'") && Contains("axis is zero"));
    REQUIRE_THROWS_WITH(b.add_body(0, Joint<T>::helical(V3<T>::Zero(), T(0.1)), I, simple_inertia<T>(), "screwless"),
                        Contains("'screwless'") && Contains("axis is zero"));
  }
  SECTION("non-finite axis") {
    REQUIRE_THROWS_WITH(b.add_body(0, Joint<T>::prismatic(V3<T>(nan, T(0), T(1))), I, simple_inertia<T>(), "nan_axis"),
                        Contains("'nan_axis'") && Contains("axis is not finite"));
    REQUIRE_THROWS_WITH(b.add_body(0, Joint<T>::revolute(V3<T>(T(0), inf, T(1))), I, simple_inertia<T>(), "inf_axis"),
                        Contains("'inf_axis'") && Contains("axis is not finite"));
  }
  SECTION("non-finite transform") {
    Transform<T> X = I;
    X.r(1) = inf;
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), X, simple_inertia<T>(), "far"),
                        Contains("'far'") && Contains("tree transform is not finite"));
    X = I;
    X.E(2, 2) = nan;
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), X, simple_inertia<T>(), "nan_rot"),
                        Contains("'nan_rot'") && Contains("tree transform is not finite"));
  }
  SECTION("non-orthonormal rotation") {
    Transform<T> X = I;
    X.E(0, 1) = T(0.01);
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), X, simple_inertia<T>(), "sheared"),
                        Contains("'sheared'") && Contains("not orthonormal"));
    X = I;
    X.E(2, 2) = T(-1);  // a reflection: orthogonal, determinant −1
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), X, simple_inertia<T>(), "mirror"),
                        Contains("'mirror'") && Contains("not orthonormal"));
  }
  SECTION("duplicate name") {
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), I, simple_inertia<T>(), "root"),
                        Contains("'root'") && Contains("duplicate name"));
  }
  SECTION("massless body with a first moment") {
    const RigidInertia<T> ghost{T(0), V3<T>(T(0), T(0.1), T(0)), treedyn::Symmetric3<T>::zero()};
    REQUIRE_THROWS_WITH(b.add_body(0, z_revolute<T>(), I, ghost, "ghost"),
                        Contains("'ghost'") && Contains("massless body cannot have a first moment"));
  }
  SECTION("a rejected body leaves the builder unchanged") {
    RigidInertia<T> bad = simple_inertia<T>();
    bad.m = T(-1);
    REQUIRE_THROWS_AS(b.add_body(0, z_revolute<T>(), I, bad, "heavy"), std::invalid_argument);
    CHECK(b.size() == 1);
    CHECK(b.add_body(0, z_revolute<T>(), I, simple_inertia<T>(), "heavy") == 1);
  }
  SECTION("massless bodies are accepted") {
    CHECK_NOTHROW(b.add_body(0, z_revolute<T>(), I, RigidInertia<T>::zero(), "massless"));
    // massless, with rotational inertia (a rotor)
    const RigidInertia<T> rotor{T(0), V3<T>::Zero(), treedyn::Symmetric3<T>::from_entries(T(1), T(0), T(1), T(0), T(0), T(2))};
    CHECK_NOTHROW(b.add_body(1, z_revolute<T>(), I, rotor, "rotor"));
    const treedyn::Model<T> model = b.build();
    CHECK(model.nbodies() == 3);
    CHECK(model.inertia(1).m == T(0));
  }
}

TEST_CASE("fixed joints merge into the parent's inertia and stay named frames", "[model][builder]") {
  using T = double;
  treedyn::test::Rng rng(8);
  const auto random_X = [&rng]() {
    const V3<T> rv = random_vector<T>(rng, 3);
    const treedyn::Matrix3<T> R = treedyn::detail::axis_rotation(V3<T>(rv.normalized()), rv.norm());
    return treedyn::transform_from(R, V3<T>(random_vector<T>(rng, 3)));
  };
  const auto random_I = [&rng]() {
    const V3<T> c = 0.2 * random_vector<T>(rng, 3);
    const V3<T> d(0.3, 0.4, 0.5);
    return RigidInertia<T>::from_mass_com_inertia(1.0 + 0.5 * rng.uniform(), c, treedyn::Matrix3<T>(d.asDiagonal()));
  };
  const Transform<T> X_A = random_X(), X_F1 = random_X(), X_F2 = random_X(), X_C = random_X(), X_B = random_X(),
                     X_D = random_X();
  const RigidInertia<T> I_A = random_I(), I_F1 = random_I(), I_F2 = random_I(), I_C = random_I(), I_B = random_I(),
                        I_D = random_I();
  ModelBuilder<T> b;
  const int A = b.add_body(treedyn::no_parent, z_revolute<T>(), X_A, I_A, "A");
  const int F1 = b.add_body(A, Joint<T>::fixed(), X_F1, I_F1, "sensor");
  const int F2 = b.add_body(F1, Joint<T>::fixed(), X_F2, I_F2, "tool");
  b.add_body(F2, Joint<T>::spherical(), X_C, I_C, "C");
  const int B = b.add_body(treedyn::no_parent, Joint<T>::fixed(), X_B, I_B, "base_plate");
  b.add_body(B, Joint<T>::prismatic(V3<T>(1, 2, 3)), X_D, I_D, "D");
  const treedyn::Model<T> model = b.build();

  REQUIRE(model.nbodies() == 3);
  CHECK(to_vector(model.parents()) == std::vector<int>{-1, 0, -1});
  CHECK(model.name(0) == "A");
  CHECK(model.name(1) == "C");
  CHECK(model.name(2) == "D");
  CHECK_FALSE(model.find_body("sensor"));
  CHECK_THROWS_AS(model.body_index("sensor"), std::invalid_argument);
  CHECK(model.nq() == 6);
  CHECK(model.nv() == 5);
  CHECK(to_vector(model.dof_parents()) == std::vector<int>{-1, 0, 1, 2, -1});

  const double tol = 64 * eps<T>();
  // ^F1 X_A and ^F2 X_A = ^F2 X_F1 ^F1 X_A, dense
  const M6<T> D_F1 = X_F1.motion_matrix();
  const M6<T> D_F2 = X_F2.motion_matrix() * D_F1;
  const M6<T> expected_IA =
      I_A.matrix() + D_F1.transpose() * I_F1.matrix() * D_F1 + D_F2.transpose() * I_F2.matrix() * D_F2;
  CHECK(close_entrywise(model.inertia(0).matrix(), expected_IA, tol * expected_IA.cwiseAbs().maxCoeff()));
  CHECK(model.inertia(1).matrix() == I_C.matrix());
  CHECK(model.inertia(2).matrix() == I_D.matrix());  // B merged into the base: its inertia is gone
  // tree transforms continue through the merged bodies
  const M6<T> expected_XC = X_C.motion_matrix() * D_F2;
  CHECK(close_entrywise(model.tree_transform(1).motion_matrix(), expected_XC, tol));
  const M6<T> expected_XD = X_D.motion_matrix() * X_B.motion_matrix();
  CHECK(close_entrywise(model.tree_transform(2).motion_matrix(), expected_XD, tol));
  CHECK(model.tree_transform(0).motion_matrix() == X_A.motion_matrix());
  // frames
  const treedyn::Frame<T>& sensor = model.frame("sensor");
  CHECK(sensor.body == 0);
  CHECK(close_entrywise(sensor.placement.motion_matrix(), D_F1, tol));
  const treedyn::Frame<T>& tool = model.frame("tool");
  CHECK(tool.body == 0);
  CHECK(close_entrywise(tool.placement.motion_matrix(), D_F2, tol));
  const treedyn::Frame<T>& plate = model.frame("base_plate");
  CHECK(plate.body == treedyn::no_parent);
  CHECK(close_entrywise(plate.placement.motion_matrix(), X_B.motion_matrix(), tol));
  {  // a frame fixed on the base does not move with q: its Jacobian is zero, in either reference
    treedyn::Data<T> data(model);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> q = Eigen::Matrix<T, Eigen::Dynamic, 1>::Constant(model.nq(), T(0.3));
    treedyn::forward_kinematics(model, data, q);
    data.J.setOnes();
    CHECK(treedyn::frame_jacobian(model, data, "base_plate").isZero(0));
    data.J.setOnes();
    CHECK(treedyn::frame_jacobian(model, data, "base_plate", treedyn::ReferenceFrame::world_aligned).isZero(0));
    CHECK(treedyn::frame_jacobian(model, data, "tool").cwiseAbs().maxCoeff() > T(0));  // a moving frame's is not
  }
  CHECK(model.frame("C").body == 1);
  CHECK_THROWS_WITH(model.frame("nowhere"), Contains("nowhere"));
  // the prismatic axis was normalised
  CHECK(std::abs(model.joint(2).axis.norm() - 1.0) <= 4 * eps<T>());
}

TEST_CASE("Model::cast<float>() rounds the double model once", "[model][builder]") {
  ModelBuilder<double> b;
  const int a = b.add_body(treedyn::no_parent, Joint<double>::free_flyer(), Transform<double>::identity(),
                           simple_inertia<double>(), "trunk");
  const int h = b.add_body(a, Joint<double>::helical(V3<double>(0.3, 0.1, -0.7), 0.013),
                           treedyn::transform_from(treedyn::detail::axis_rotation(V3<double>(0, 0.6, 0.8), 0.3),
                                                   V3<double>(0.1, 0.2, 0.3)),
                           simple_inertia<double>(), "screw");
  b.add_body(h, Joint<double>::fixed(), treedyn::xlt(V3<double>(0.0, 0.0, 0.1)), simple_inertia<double>(), "tip");
  b.set_gravity(V3<double>(0.1, -9.7, 0.2));
  const treedyn::Model<double> md = b.build();
  const treedyn::Model<float> mf = md.cast<float>();
  REQUIRE(mf.nbodies() == md.nbodies());
  CHECK(mf.nq() == md.nq());
  CHECK(mf.nv() == md.nv());
  CHECK(to_vector(mf.parents()) == to_vector(md.parents()));
  CHECK(to_vector(mf.dof_parents()) == to_vector(md.dof_parents()));
  CHECK(mf.gravity() == md.gravity().cast<float>());
  for (int i = 0; i < md.nbodies(); ++i) {
    CHECK(mf.name(i) == md.name(i));
    CHECK(mf.joint(i).type == md.joint(i).type);
    CHECK(mf.joint(i).axis == md.joint(i).axis.cast<float>());
    CHECK(mf.joint(i).pitch == static_cast<float>(md.joint(i).pitch));
    CHECK(mf.tree_transform(i).E == md.tree_transform(i).E.cast<float>());
    CHECK(mf.tree_transform(i).r == md.tree_transform(i).r.cast<float>());
    CHECK(mf.inertia(i).m == static_cast<float>(md.inertia(i).m));
    CHECK(mf.inertia(i).h == md.inertia(i).h.cast<float>());
    CHECK(mf.inertia(i).I.data == md.inertia(i).I.data.cast<float>());
    CHECK(mf.q_offset(i) == md.q_offset(i));
    CHECK(mf.v_offset(i) == md.v_offset(i));
  }
  REQUIRE(mf.frames().size() == md.frames().size());
  CHECK(mf.frame("tip").body == 1);
  CHECK(mf.frame("tip").placement.r == md.frame("tip").placement.r.cast<float>());
}

TEST_CASE("build<N>() with a fixed number of DoFs", "[model][builder]") {
  ModelBuilder<double> b;
  const int a = b.add_body(treedyn::no_parent, z_revolute<double>(), Transform<double>::identity(),
                           simple_inertia<double>(), "a");
  const int s = b.add_body(a, Joint<double>::spherical(), treedyn::xlt(V3<double>(0.0, 0.0, 0.5)),
                           simple_inertia<double>(), "s");
  b.add_body(s, Joint<double>::fixed(), treedyn::xlt(V3<double>(0.0, 0.0, 0.5)), simple_inertia<double>(), "f");
  b.add_body(a, Joint<double>::prismatic(V3<double>::UnitX()), Transform<double>::identity(), simple_inertia<double>(),
             "p");
  const treedyn::Model<double> dynamic = b.build();
  const treedyn::Model<double, 5> fixed = b.build<5>();
  REQUIRE(fixed.nv() == 5);
  CHECK(fixed.nq() == 6);
  CHECK(fixed.nbodies() == 3);
  CHECK(to_vector(fixed.parents()) == to_vector(dynamic.parents()));
  CHECK(to_vector(fixed.dof_parents()) == to_vector(dynamic.dof_parents()));
  for (int i = 0; i < 3; ++i) CHECK(fixed.inertia(i).matrix() == dynamic.inertia(i).matrix());
  // the configuration functions work on fixed-size models too (ConfigVector with a fixed maximum size)
  const treedyn::ConfigVector<double, 5> q0 = treedyn::random_configuration(fixed, 3);
  treedyn::ConfigVector<double, 5> q1(fixed.nq());
  treedyn::VectorN<double, 5> v;
  v << 0.1, -0.2, 0.3, 0.4, -0.5;
  treedyn::integrate(fixed, q0, v, 0.5, q1);
  VecX<double> q1_dynamic(dynamic.nq());
  treedyn::integrate(dynamic, VecX<double>(q0), VecX<double>(v), 0.5, q1_dynamic);
  CHECK(VecX<double>(q1) == q1_dynamic);
  // the wrong N throws: too many DoFs for N (the bodies fit), and too many bodies for N
  CHECK_THROWS_AS(b.build<6>(), std::invalid_argument);
  CHECK_THROWS_WITH(b.build<6>(), Contains("5 degrees of freedom"));
  CHECK_THROWS_AS(b.build<4>(), std::invalid_argument);
  CHECK_THROWS_AS(b.build<2>(), std::invalid_argument);  // more bodies than N: checked before anything is built
  CHECK_THROWS_WITH(b.build<2>(), Contains("5 degrees of freedom"));
}
