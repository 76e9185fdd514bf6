// treedyn::urdf::build_model from a path or from the text itself, and in float. The loader in float and in
// long double each have a unit of their own (this one and test_urdf_long_double.cpp): every scalar
// instantiates the loader and the model builder again, and with the error cases of test_urdf_input.cpp
// in one unit the compiler needed more than the test units' 2 GB.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "urdf/urdf_test_support.hpp"

using Catch::Matchers::Contains;
using namespace urdf_test;
using treedyn::Model;
using treedyn::urdf::build_model;  // build_model<float>; urdf_test::build_model is <double>

TEST_CASE("urdf: path or text, and the loader in float", "[urdf]") {
  const std::string xml = robot(link("a") + link("b") + joint("j", "continuous", "a", "b", "0 0 1", "0 0 0", "<axis xyz=\"0 0 1\"/>"));
  const std::string path = write_temp("path_or_text.urdf", xml);
  const Model<double> from_text = build_model(xml);
  const Model<double> from_path = build_model(path);
  std::remove(path.c_str());
  CHECK(from_path.nbodies() == 1);
  CHECK(from_path.inertia(0).matrix() == from_text.inertia(0).matrix());
  CHECK(from_path.tree_transform(0).motion_matrix() == from_text.tree_transform(0).motion_matrix());
  const Model<float> single = build_model<float>(xml);
  CHECK(single.inertia(0).m == 1.5f);
}

TEST_CASE("urdf: a number finite in double but not in float is rejected in float", "[urdf][errors]") {
  CHECK_NOTHROW(build_model(robot(link("a", "1e300") + link("b") + joint("j", "continuous", "a", "b"))));
  CHECK_THROWS_WITH(build_model<float>(robot(link("a", "1e300") + link("b") + joint("j", "continuous", "a", "b"))),
                    Contains("<string>: link 'a': a non-finite number in <inertial>"));
}
