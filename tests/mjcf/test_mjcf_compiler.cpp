// treedyn::mjcf::load's `<compiler>` attributes that MuJoCo's own behaviour defines, checked against MuJoCo
// 2.2.2 itself (Debian libmujoco-dev, models passed as text through its in-memory file system) rather than
// against a reading of its documentation:
//  - autolimits and limited (docs/mjcf.md#limits): for each combination of autolimits (absent, false,
//    true), limited (absent, true, false), a range given on the joint, in a default class, or "0 0", and the
//    joint type, treedyn refuses exactly the models MuJoCo refuses, naming the same joint, and otherwise
//    marks exactly MuJoCo's jnt_limited joints limited, with MuJoCo's jnt_range.
//  - the principal moments' A + B >= C (docs/mjcf.md#principal-moments): treedyn refuses exactly the bodies
//    MuJoCo refuses, naming body b, and both keep the same moments otherwise (balanceinertia: their mean).
//  - boundmass and boundinertia (docs/mjcf.md#mass-bounds): the bodies of fixtures/bounds.xml against
//    their masses, centres of mass and inertias worked by hand; its H, bias and qacc against MuJoCo's are
//    in test_mjcf.cpp with the other fixtures.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

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
namespace {

/// MJCF text loaded in MuJoCo 2.2.2 without a file: mj_loadXML reads it from a virtual file system held in
/// memory, so copies of this test running at once share nothing (null and `error` set when it refuses).
mjModel* load_mujoco(const std::string& xml, char* error, int error_size) {
  const std::unique_ptr<mjVFS> vfs = std::make_unique<mjVFS>();  // 2 MB of file names: not on the stack
  mj_defaultVFS(vfs.get());
  mjModel* m = nullptr;
  if (mj_makeEmptyFileVFS(vfs.get(), "model.xml", static_cast<int>(xml.size())) == 0) {
    std::memcpy(vfs->filedata[vfs->nfile - 1], xml.data(), xml.size());
    m = mj_loadXML("model.xml", vfs.get(), error, error_size);
  } else {
    std::snprintf(error, static_cast<std::size_t>(error_size), "mj_makeEmptyFileVFS failed");
  }
  mj_deleteVFS(vfs.get());
  return m;
}

/// The model through MuJoCo and treedyn: checks that both refuse it or both load it, and that they do as
/// `refused` (a case table's entry: MuJoCo's behaviour) says. Returns MuJoCo's model (the caller deletes it;
/// nullptr: refused, MuJoCo's message in `error`).
mjModel* load_both(const std::string& xml, bool refused, char* error, int size) {
  mjModel* m = load_mujoco(xml, error, size);
  const std::string e = mjcf_error_of(xml);
  INFO("MuJoCo: " << error << "\ntreedyn: " << e);
  CHECK((m == nullptr) == refused);
  CHECK((m == nullptr) == !e.empty());
  return m;
}

}  // namespace

TEST_CASE("mjcf: limited, range and refusals equal MuJoCo 2.2.2's for every autolimits case", "[mjcf][limits][mujoco]") {
  int compared = 0;
  for (const LimitsCase& c : limits_cases()) {
    const std::string xml = limits_model(c.compiler, c.defaults, c.joint);
    INFO(xml);
    char error[1000] = "";
    mjModel* m = load_both(xml, c.refused, error, sizeof error);
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
  std::printf("mjcf autolimits: %zu cases, refusals and jnt_limited equal MuJoCo 2.2.2's (%d loaded by both)\n",
              limits_cases().size(), compared);
}
#endif

namespace {

/// Body `name`'s inertia about its centre of mass, and the centre of mass, in treedyn body `name`'s frame.
Eigen::Matrix3d inertia_about_com(const treedyn::RigidInertia<double>& I, Eigen::Vector3d& c) {
  c = I.h / I.m;
  return I.I.matrix() - I.m * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
}

/// Body b (jointed by `joint`, under a hinged body a) with `<inertial ... inertial>` on line 6; `compiler`
/// inside `<compiler>`.
std::string moments_model(const std::string& compiler, const std::string& inertial, const std::string& joint) {
  return "<mujoco>\n<compiler " + compiler + "/>\n<worldbody>\n<body name=\"a\"><joint name=\"j0\"/><geom size=\"0.1\"/>\n"
         "<body name=\"b\">" + joint + "\n<inertial pos=\"0 0 0\" mass=\"1\" " + inertial +
         "/>\n</body>\n</body>\n</worldbody>\n</mujoco>\n";
}

struct MomentsCase {
  std::string compiler, inertial, joint;
  bool refused;  ///< MuJoCo 2.2.2 refuses it (measured; the MuJoCo check below keeps this honest)
};

const std::vector<MomentsCase>& moments_cases() {
  const std::string hinge = "<joint name=\"j\"/>";
  static const std::vector<MomentsCase> cases = {
      {"", "diaginertia=\"1 2 3\"", hinge, false},                      // A + B = C: allowed
      {"", "diaginertia=\"1 2 3.0000000000000004\"", hinge, true},      // one ulp over
      {"", "diaginertia=\"0.1 0.2 0.30000000000000004\"", hinge, false},  // 0.1 + 0.2 rounds to C: allowed
      {"", "diaginertia=\"0.3 0.4 0.7000001\"", hinge, true},
      {"", "diaginertia=\"0.01 0.001 0.001\" quat=\"0.9 0.1 0.2 0.3\"", hinge, true},  // any order, rotated
      {"", "diaginertia=\"0.001 0.001 0.01\"", "", true},               // a jointless body too
      {"boundinertia=\"0.005\"", "diaginertia=\"0.001 0.001 0.01\"", hinge, false},  // checked after the bounds
      {"boundinertia=\"0.004\"", "diaginertia=\"0.001 0.001 0.01\"", hinge, true},
      {"balanceinertia=\"true\"", "diaginertia=\"0.001 0.001 0.01\"", hinge, false},  // averaged instead
      {"balanceinertia=\"false\"", "diaginertia=\"0.001 0.001 0.01\"", hinge, true},
      {"", "fullinertia=\"0.001 0.001 0.01 0 0 0\"", hinge, true},
      {"", "fullinertia=\"1 2 3 0 0 0\"", hinge, false},
      {"", "fullinertia=\"0.002 0.003 0.004 0.0005 0.0002 0.0001\"", hinge, false},
  };
  return cases;
}

}  // namespace

TEST_CASE("mjcf: principal moments violating A + B >= C are refused as MuJoCo 2.2.2 refuses them", "[mjcf][moments]") {
  for (const MomentsCase& c : moments_cases()) {
    const std::string xml = moments_model(c.compiler, c.inertial, c.joint);
    INFO(xml);
    const std::string e = mjcf_error_of(xml);
    CHECK(e.empty() == !c.refused);
    if (c.refused) {
      CHECK(e.find("treedyn::mjcf: <string>:6: <inertial>: body 'b': principal moments (") == 0);
      CHECK(e.find("violate A + B >= C") != std::string::npos);
    }
  }
  // balanceinertia: the mean of the three, about the same centre of mass, reported
  std::string xml = moments_model("balanceinertia=\"true\"", "diaginertia=\"0.001 0.001 0.01\"", "<joint/>");
  xml.replace(xml.find("pos=\"0 0 0\" mass"), 11, "pos=\"0.1 0 0\"");
  const Loaded<double> l = treedyn::mjcf::load<double>(xml);
  const treedyn::RigidInertia<double>& I = l.model.inertia(l.model.body_index("b"));
  Eigen::Vector3d c;
  const Eigen::Matrix3d I_c = inertia_about_com(I, c);
  CHECK((c - Eigen::Vector3d(0.1, 0, 0)).cwiseAbs().maxCoeff() <= 4 * std::numeric_limits<double>::epsilon());
  CHECK((I_c - 0.004 * Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() <= 16 * std::numeric_limits<double>::epsilon() * 0.004);
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::inertia_balanced) == 1);
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::ignored) == 0);
  // a body without <inertial> is named by its own element
  CHECK(mjcf_error_of("<mujoco>\n<compiler inertiafromgeom=\"true\"/>\n<worldbody>\n<body name=\"b\"><joint/>\n"
                      "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 3\"/><geom size=\"0.1\"/>\n</body>\n"
                      "</worldbody>\n</mujoco>").empty());  // inertiafromgeom="true": the sphere's, not the inertial's
}

#if TREEDYN_WITH_MUJOCO
TEST_CASE("mjcf: A + B >= C refusals and balanced moments equal MuJoCo 2.2.2's", "[mjcf][moments][mujoco]") {
  int compared = 0;
  for (const MomentsCase& c : moments_cases()) {
    const std::string xml = moments_model(c.compiler, c.inertial, c.joint);
    INFO(xml);
    char error[1000] = "";
    mjModel* m = load_both(xml, c.refused, error, sizeof error);
    if (m == nullptr) {
      CHECK(std::string(error).find("inertia must satisfy A + B >= C") != std::string::npos);
      CHECK(std::string(error).find("Object name = b,") != std::string::npos);  // both name body b
      continue;
    }
    // the moments both keep: MuJoCo's body_inertia against the eigenvalues of treedyn's Ī_C
    const Loaded<double> l = treedyn::mjcf::load<double>(xml);
    const treedyn::RigidInertia<double>& I = l.model.inertia(l.model.body_index("b"));
    Eigen::Vector3d com;
    const Eigen::Matrix3d I_c = inertia_about_com(I, com);
    Eigen::Vector3d mj(m->body_inertia[6], m->body_inertia[7], m->body_inertia[8]);
    std::sort(mj.data(), mj.data() + 3);
    const Eigen::Vector3d td = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I_c).eigenvalues();
    CHECK((mj - td).cwiseAbs().maxCoeff() <= 1e-6 * mj.maxCoeff());  // MuJoCo's fullinertia eigensolver: ~1e-7
    mj_deleteModel(m);
    ++compared;
  }
  std::printf("mjcf A + B >= C: %zu cases, refusals equal MuJoCo 2.2.2's (%d loaded by both)\n",
              moments_cases().size(), compared);
}
#endif

TEST_CASE("mjcf: boundmass and boundinertia raise masses and principal moments as MuJoCo 2.2.2 does",
          "[mjcf][bounds]") {
  const Loaded<double> l = treedyn::mjcf::load<double>(treedyn::test::mjcf_fixture("bounds.xml"));
  const treedyn::Model<double>& model = l.model;
  const double eps = std::numeric_limits<double>::epsilon();
  Eigen::Vector3d c;
  // torso: diaginertia (0.001, 0.03, 0.0295) about rotated axes; the smallest raised to 0.002, axes kept
  const Eigen::Quaterniond q(0.9, 0.1, 0.3, 0.2);
  const Eigen::Matrix3d R = q.normalized().toRotationMatrix();
  const Eigen::Matrix3d torso = R * Eigen::Vector3d(0.002, 0.03, 0.0295).asDiagonal() * R.transpose();
  const treedyn::RigidInertia<double>& I_torso = model.inertia(model.body_index("torso"));
  CHECK(I_torso.m == 3.0);
  CHECK((inertia_about_com(I_torso, c) - torso).cwiseAbs().maxCoeff() <= 16 * eps * 0.03);
  CHECK((c - Eigen::Vector3d(0.02, -0.01, 0.03)).cwiseAbs().maxCoeff() <= 16 * eps);
  // light: mass 0.001 and moments ~1e-6, both raised
  const treedyn::RigidInertia<double>& I_light = model.inertia(model.body_index("light"));
  CHECK(I_light.m == 0.05);
  CHECK((inertia_about_com(I_light, c) - 0.002 * Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() <= 16 * eps * 0.002);
  // empty: no inertia at all; the bounded mass at its own pos (0.12, -0.03, 0.07) read in its frame (MuJoCo
  // 2.2.2), which is the treedyn body's frame (its hinge has no pos)
  const treedyn::RigidInertia<double>& I_empty = model.inertia(model.body_index("empty"));
  CHECK(I_empty.m == 0.05);
  (void)inertia_about_com(I_empty, c);
  CHECK((c - Eigen::Vector3d(0.12, -0.03, 0.07)).cwiseAbs().maxCoeff() <= 16 * eps);
  // heavy: above both bounds, unchanged: a cylinder of radius 0.1, half-length 0.2, density 1000
  const double pi = 3.14159265358979323846;
  CHECK(model.inertia(model.body_index("heavy")).m == Approx(1000 * pi * 0.01 * 0.4).epsilon(1e-15));
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::mass_bounded) == 6);  // all but heavy
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::ignored) == 0);
  // a negative bound changes nothing (MuJoCo 2.2.2 accepts it too); a malformed one is refused
  const Loaded<double> negative = treedyn::mjcf::load<double>(
      "<mujoco><compiler boundmass=\"-1\" boundinertia=\"-1\"/><worldbody><body name=\"b\"><joint/>"
      "<geom size=\"0.1\"/></body></worldbody></mujoco>");
  CHECK(negative.model.inertia(0).m == Approx(1000 * 4.0 / 3.0 * pi * 1e-3).epsilon(1e-15));
  CHECK(negative.report.count(treedyn::mjcf::Diagnostic::Kind::mass_bounded) == 0);
  CHECK(mjcf_error_of("<mujoco>\n<compiler boundinertia=\"1e-3x\"/>\n</mujoco>")
            .find("<string>:2: <compiler>: attribute boundinertia=\"1e-3x\": malformed") != std::string::npos);
}
