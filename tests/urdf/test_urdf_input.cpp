// treedyn::urdf::build_model's input: every bad input rejected with a message naming the file and the
// element (a path or the text itself, and the loader in float and long double: test_urdf_float.cpp and
// test_urdf_long_double.cpp).
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "urdf/urdf_test_support.hpp"

using Catch::Matchers::Contains;
using namespace urdf_test;
using treedyn::Model;
using treedyn::urdf::Options;

namespace {

/// The options under which the loader rejects what it did before it could repair inertias and load mimic
/// joints (test_urdf_repair.cpp covers the defaults).
Options strict(bool floating_base = false) {
  Options o;
  o.floating_base = floating_base;
  o.inertia = treedyn::urdf::InertiaPolicy::strict;
  o.mimic = treedyn::urdf::MimicPolicy::reject;
  return o;
}

}  // namespace

TEST_CASE("urdf: every bad input is rejected, naming the file and the element", "[urdf][errors]") {
  const std::string ab = link("a") + link("b");
  SECTION("no file name, a missing file, a directory: each says what is wrong") {
    CHECK_THROWS_WITH(build_model("/nonexistent/dir/robot.urdf"),
                      Contains("treedyn::urdf: /nonexistent/dir/robot.urdf: no such file"));
    CHECK_THROWS_WITH(build_model(""), Contains("treedyn::urdf: no file name given"));
    CHECK_THROWS_WITH(build_model("  \n"), Contains("treedyn::urdf: no file name given"));
    CHECK_THROWS_WITH(treedyn::urdf::load_from_file<double>(""), Contains("treedyn::urdf: no file name given"));
    const std::string directory = std::string(TREEDYN_URDF_TEST_DIR) + "/robots";
    CHECK_THROWS_WITH(build_model(directory), Contains("treedyn::urdf: " + directory + ": is a directory, not a URDF file"));
  }
  SECTION("malformed XML, from a string and from a file") {
    CHECK_THROWS_WITH(build_model("<robot name=\"x\"><link name=\"a\"></robot>"),
                      Contains("treedyn::urdf: <string>: malformed XML") && Contains("line 1"));
    const std::string path = write_temp("malformed.urdf", "<robot name=\"x\">\n<link name=\"a\">\n</robot");
    CHECK_THROWS_WITH(build_model(path), Contains(path + ": malformed XML"));
    std::remove(path.c_str());
    CHECK_THROWS_WITH(build_model("<notarobot/>"), Contains("<string>: no <robot> element"));
    CHECK_THROWS_WITH(build_model(robot("")), Contains("the robot has no <link>"));
  }
  SECTION("text that is not UTF-8 is refused before the XML parser sees it, naming the byte") {
    const std::string good = robot(link("a"));
    const std::string head = good.substr(0, good.rfind("</robot>"));
    // a multi-byte sequence cut off by the end of the text (the parser would read past it)
    CHECK_THROWS_WITH(build_model(good + "\xE5"), Contains("<string>: malformed XML: not UTF-8") &&
                                                    Contains("at byte " + std::to_string(good.size())));
    // a byte that never occurs in UTF-8, an overlong form, a surrogate, a stray continuation byte
    for (const char* bad : {"\xFF", "\xC0\xAF", "\xED\xA0\x80", "\x80"})
      CHECK_THROWS_WITH(build_model(head + bad + "</robot>"), Contains("at byte " + std::to_string(head.size())));
    // a NUL inside the text
    CHECK_THROWS_WITH(build_model(head + std::string(1, '\0') + "</robot>"), Contains("not UTF-8"));
    // well-formed multi-byte text (2, 3 and 4 bytes) is accepted
    const std::string name = "\xC3\xA9\xE2\x82\xAC\xF0\x9F\xA4\x96";
    CHECK(build_model(robot(link("a") + link(name) + joint("j", "continuous", "a", name))).nbodies() == 1);
  }
  SECTION("a '%' is refused outside file names: urdfdom would pass it to printf as a format") {
    // urdfdom would log "Unable to parse component [%n…]" with the text as the format
    const std::string bad_origin = "<link name=\"b\"><inertial><origin xyz=\"0 %n 0\"/><mass value=\"1\"/>"
                                   "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>"
                                   "</inertial></link>";
    CHECK_THROWS_WITH(build_model(robot(link("a") + bad_origin + joint("j", "continuous", "a", "b"))),
                      Contains("<string>: <origin> attribute 'xyz' = '0 %n 0': a '%' is not accepted"));
    CHECK_THROWS_WITH(build_model(robot(link("a") + link("b%s") + joint("j", "continuous", "a", "b%s"))),
                      Contains("<link> attribute 'name' = 'b%s'"));
    // a '%' where urdfdom never logs it (a mesh file name) loads as usual
    const std::string mesh = "<link name=\"b\"><inertial><origin xyz=\"0 0.1 0\"/><mass value=\"1\"/>"
                             "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>"
                             "<visual><geometry><mesh filename=\"package://r/my%20mesh.stl\"/></geometry></visual>"
                             "</link>";
    CHECK(build_model(robot(link("a") + mesh + joint("j", "continuous", "a", "b"))).nbodies() == 1);
  }
  SECTION("a joint whose parent or child link does not exist") {
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j1", "continuous", "nope", "b"))),
                      Contains("<string>: joint 'j1': parent link 'nope' does not exist"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j1", "continuous", "a", "ghost"))),
                      Contains("<string>: joint 'j1': child link 'ghost' does not exist"));
  }
  SECTION("kinematic loops") {
    const std::string abc = ab + link("c");
    // c is the child of two joints
    CHECK_THROWS_WITH(
        build_model(robot(abc + joint("j1", "continuous", "a", "b") + joint("j2", "continuous", "a", "c") +
                          joint("j3", "continuous", "b", "c"))),
        Contains("<string>: joint 'j3': closed kinematic loop: link 'c' is already the child of joint 'j2'"));
    // b → c → b, detached from the root a
    CHECK_THROWS_WITH(build_model(robot(abc + joint("j1", "continuous", "b", "c") + joint("j2", "continuous", "c", "b"))),
                      Contains("<string>: joint '") && Contains("closed kinematic loop through link"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("self", "continuous", "b", "b"))),
                      Contains("joint 'self': closed kinematic loop through link 'b'"));
  }
  SECTION("non-finite numbers") {
    CHECK_THROWS_WITH(build_model(robot(link("a", "nan") + link("b") + joint("j", "continuous", "a", "b"))),
                      Contains("<string>: urdfdom: Inertial: mass [nan] is not a float") && Contains("Link [a]"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j", "continuous", "a", "b", "0 inf 0"))),
                      Contains("<string>: urdfdom: Unable to parse component [inf]") && Contains("origin element for joint [j]"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j", "continuous", "a", "b", "0 0 0", "0 0 0", "<axis xyz=\"1e999 0 0\"/>"))),
                      Contains("<string>: urdfdom: Malformed axis element for joint [j]") && Contains("[1e999]"));
    // finite in double, infinite in float: test_urdf_float.cpp
  }
  SECTION("unsupported features are rejected, not dropped") {
    CHECK_THROWS_WITH(build_model(robot(ab + link("c") + joint("j1", "continuous", "a", "b") +
                                        joint("j2", "continuous", "a", "c", "0 0 0", "0 0 0", "<mimic joint=\"j1\"/>")),
                                  strict()),
                      Contains("<string>: joint 'j2': mimic joints are not supported"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j", "ball", "a", "b"))), Contains("<string>: urdfdom: Joint [j] has no known type [ball]"));
  }
  SECTION("physically impossible inertias name the link (negative mass under every policy)") {
    for (const auto policy : {treedyn::urdf::InertiaPolicy::repair, treedyn::urdf::InertiaPolicy::strict,
                              treedyn::urdf::InertiaPolicy::as_is}) {
      Options o;
      o.inertia = policy;
      CHECK_THROWS_WITH(build_model(robot(link("a") + link("b", "-1") + joint("j", "continuous", "a", "b")), o),
                        Contains("<string>: joint 'j' (child link 'b'): ") && Contains("negative mass"));
    }
    const std::string bad_tensor = "ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"-1\"";
    CHECK_THROWS_WITH(
        build_model(robot(link("a") + link("b", "1", "0 0 0", "0 0 0", bad_tensor) + joint("j", "continuous", "a", "b")),
                    strict()),
        Contains("<string>: joint 'j' (child link 'b'): ") && Contains("not positive semidefinite"));
    const std::string triangle = "ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"3\"";
    CHECK_THROWS_WITH(build_model(robot(link("a", "1", "0 0 0", "0 0 0", triangle)), strict(true)),
                      Contains("<string>: link 'a': ") && Contains("triangle inequality"));
  }
  SECTION("structural errors") {
    CHECK_THROWS_WITH(build_model(robot(ab + link("a"))), Contains("link 'a': duplicate link name"));
    CHECK_THROWS_WITH(build_model(robot(ab + link("c") + joint("j", "continuous", "a", "b") + joint("j", "continuous", "a", "c"))),
                      Contains("joint 'j': duplicate joint name"));
    CHECK_THROWS_WITH(build_model(robot(ab)), Contains("a second root link besides"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j", "continuous", "a", "b", "0 0 0", "0 0 0", "<axis xyz=\"0 0 0\"/>"))),
                      Contains("joint 'j' (child link 'b'): ") && Contains("joint axis is zero"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j", "planar", "a", "b", "0 0 0", "0 0 0", "<axis xyz=\"0 0 0\"/>"))),
                      Contains("joint 'j': the planar joint's axis is zero"));
    CHECK_THROWS_WITH(build_model(robot(ab + joint("j", "revolute", "a", "b", "0 0 0", "0 0 0",
                                                   "<limit lower=\"1\" upper=\"-1\" velocity=\"1\" effort=\"1\"/>"))),
                      Contains("joint 'j' (child link 'b'): ") && Contains("lower position limit above the upper one"));
    std::string deep;
    for (int k = 0; k < 100000; ++k) deep += "<a>";
    CHECK_THROWS_WITH(build_model("<robot>" + deep), Contains("<string>: malformed XML: elements nested deeper than"));
  }
}
