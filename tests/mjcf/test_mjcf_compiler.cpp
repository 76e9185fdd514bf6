// treedyn::mjcf::load's `<compiler>` attributes that MuJoCo's own behaviour defines, checked against MuJoCo
// 2.2.2 itself (Debian libmujoco-dev) rather than against a reading of its documentation:
//  - autolimits and limited (docs/mjcf.md#limits): for each combination of autolimits (absent, false,
//    true), limited (absent, true, false), a range given on the joint, in a default class, or "0 0", and the
//    joint type, treedyn refuses exactly the models MuJoCo refuses, naming the same joint, and otherwise
//    marks exactly MuJoCo's jnt_limited joints limited, with MuJoCo's jnt_range.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mjcf/mjcf_test_support.hpp"
#include "treedyn/mjcf.hpp"

#if TREEDYN_WITH_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

using treedyn::mjcf::Loaded;
using treedyn::test::mjcf_error_of;

/// A one-joint model: `compiler` and `defaults` inside `<mujoco>`, the joint's attributes `joint`.
std::string limits_model(const std::string& compiler, const std::string& defaults, const std::string& joint) {
  return "<mujoco>\n" + compiler + defaults + "\n<worldbody>\n<body name=\"b\">\n<joint name=\"j\" " + joint +
         "/>\n<geom size=\"0.1\"/>\n</body>\n</worldbody>\n</mujoco>\n";
}

struct LimitsCase {
  std::string compiler, defaults, joint;
  bool refused;   ///< MuJoCo 2.2.2 refuses it (measured; the MuJoCo check below keeps this honest)
  bool limited;   ///< otherwise: jnt_limited
};

const std::vector<LimitsCase>& limits_cases() {
  const std::string none, off = "<compiler autolimits=\"false\"/>", on = "<compiler autolimits=\"true\"/>";
  const std::string range_default = "<default><joint range=\"-1 1\"/></default>";
  static const std::vector<LimitsCase> cases = {
      {none, none, "range=\"-1 1\"", true, false},  // MuJoCo 2.2.2's default is autolimits="false"
      {off, none, "range=\"-1 1\"", true, false},
      {off, none, "limited=\"auto\" range=\"-1 1\"", true, false},
      {off, range_default, "", true, false},
      {off, none, "type=\"slide\" range=\"-0.1 0.2\"", true, false},
      {off, none, "range=\"0 0\"", false, false},  // "0 0" is no range
      {none, none, "", false, false},
      {off, none, "limited=\"true\" range=\"-1 1\"", false, true},
      {off, none, "limited=\"false\" range=\"-1 1\"", false, false},
      {on, none, "range=\"-1 1\"", false, true},
      {on, range_default, "", false, true},
      {on, none, "range=\"0 0\"", false, false},
      {on, none, "limited=\"false\" range=\"-1 1\"", false, false},
      {on, none, "type=\"ball\" range=\"0 40\"", false, true},
      {on, none, "type=\"slide\" range=\"-0.1 0.2\"", false, true},
      {on, none, "range=\"1 -1\"", true, false},  // limited with lower above upper
      {on, none, "limited=\"false\" range=\"1 -1\"", false, false},
  };
  return cases;
}

}  // namespace

TEST_CASE("mjcf: limited follows autolimits as in MuJoCo 2.2.2 (default false; a range alone is refused)",
          "[mjcf][limits]") {
  for (const LimitsCase& c : limits_cases()) {
    const std::string xml = limits_model(c.compiler, c.defaults, c.joint);
    INFO(xml);
    const std::string e = mjcf_error_of(xml);
    CHECK(e.empty() == !c.refused);
    if (c.refused) {
      CHECK(e.find("<string>:5: <joint> 'j'") != std::string::npos);
      continue;
    }
    const Loaded<double> l = treedyn::mjcf::load<double>(xml);
    REQUIRE(l.joints.size() == 1);
    CHECK(l.joints[0].limited == c.limited);
  }
  // the message says what to do
  CHECK(mjcf_error_of(limits_model("", "", "range=\"-1 1\"")).find("has a range but no limited") != std::string::npos);
}

#if TREEDYN_WITH_MUJOCO
TEST_CASE("mjcf: limited, range and refusals equal MuJoCo 2.2.2's for every autolimits case", "[mjcf][limits][mujoco]") {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "treedyn_test_mjcf_limits.xml";
  int compared = 0;
  for (const LimitsCase& c : limits_cases()) {
    const std::string xml = limits_model(c.compiler, c.defaults, c.joint);
    INFO(xml);
    {
      std::ofstream out(file);
      out << xml;
    }
    char error[1000] = "";
    mjModel* m = mj_loadXML(file.c_str(), nullptr, error, sizeof error);
    const std::string e = mjcf_error_of(xml);
    INFO("MuJoCo: " << error << "\ntreedyn: " << e);
    CHECK((m == nullptr) == c.refused);  // the table above is MuJoCo's behaviour
    CHECK((m == nullptr) == !e.empty());
    if (m == nullptr) {
      CHECK(std::string(error).find("Object name = j,") != std::string::npos);  // both name the joint
      continue;
    }
    const Loaded<double> l = treedyn::mjcf::load<double>(xml);
    REQUIRE(m->njnt == 1);
    CHECK(l.joints[0].limited == (m->jnt_limited[0] != 0));
    if (l.joints[0].limited) {
      CHECK(l.joints[0].range_lower == m->jnt_range[0]);
      CHECK(l.joints[0].range_upper == m->jnt_range[1]);
    }
    mj_deleteModel(m);
    ++compared;
  }
  std::filesystem::remove(file);
  std::printf("mjcf autolimits: %zu cases, refusals and jnt_limited equal MuJoCo 2.2.2's (%d loaded by both)\n",
              limits_cases().size(), compared);
}
#endif
