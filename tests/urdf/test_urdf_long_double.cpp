// treedyn::urdf::build_model in long double (its own unit: see test_urdf_float.cpp).
#include <catch2/catch.hpp>

#include <string>

#include "urdf/urdf_test_support.hpp"

using namespace urdf_test;
using treedyn::Model;
using treedyn::urdf::build_model;  // build_model<long double>; urdf_test::build_model is <double>

TEST_CASE("urdf: the loader in long double", "[urdf]") {
  const std::string xml = robot(link("a") + link("b") + joint("j", "continuous", "a", "b", "0 0 1", "0 0 0", "<axis xyz=\"0 0 1\"/>"));
  const Model<long double> wide = build_model<long double>(xml);
  CHECK(wide.inertia(0).m == 1.5L);
}
