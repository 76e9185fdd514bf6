// treedyn::mjcf::load's equality constraints (docs/mjcf.md#equality-constraints): the records of
// tests/mjcf/fixtures/equality.xml (connect, weld, joint; default classes; a merged jointless body and a
// two-joint body as constraint bodies) against the literals of the file and against MuJoCo 2.2.2's own
// eq_type, eq_obj1id / eq_obj2id, eq_active, eq_solref, eq_solimp and eq_data; the parts MuJoCo computes at
// qpos0 (a connect's anchor in body2, a weld's relative pose without relpose) against treedyn's frame
// placements at the same configuration; and every refused equality with its message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include <Eigen/Geometry>

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_placements.hpp"
#include "mjcf/mjcf_test_support.hpp"
#include "treedyn/mjcf.hpp"

#if TREEDYN_WITH_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

using treedyn::mjcf::Equality;
using treedyn::mjcf::Loaded;

using treedyn::test::mjcf_error_of;
using treedyn::test::mjcf_fixture;

/// A model with two hinged bodies and a ball, for the refused equalities.
std::string with_equality(const std::string& inside) {
  return "<mujoco>\n<worldbody>\n<body name=\"a\"><joint name=\"ja\"/><geom size=\"0.1\"/>\n"
         "<body name=\"b\"><joint name=\"jb\" type=\"ball\"/><geom size=\"0.1\"/></body></body>\n"
         "<site name=\"s\"/>\n</worldbody>\n<equality>\n" + inside + "\n</equality>\n</mujoco>";
}

}  // namespace

TEST_CASE("mjcf: equality constraints are read as records with their bodies, joints, numbers and defaults",
          "[mjcf][equality]") {
  const Loaded<double> l = treedyn::mjcf::load<double>(mjcf_fixture("equality.xml"));
  REQUIRE(l.equalities.size() == 6);
  const Equality<double>& c1 = l.equalities[0];
  CHECK(c1.type == "connect");
  CHECK(c1.name == "c1");
  CHECK(c1.active);
  CHECK(c1.solref == std::array<double, 2>{0.05, 0.8});  // the main class's <equality>
  CHECK(c1.solimp == std::array<double, 5>{0.9, 0.95, 0.001, 0.5, 2});  // MuJoCo's default
  CHECK(c1.body1.name == "arm2");
  CHECK(c1.body1.body == l.model.body_index("arm2"));
  CHECK(c1.body2.name == "arm3");
  CHECK(c1.body2.body == l.model.body_index("arm3"));  // the last of its two joints' bodies
  CHECK(c1.anchor == Eigen::Vector3d(0.01, 0.02, 0.03));
  const Equality<double>& c2 = l.equalities[1];
  CHECK(c2.name.empty());
  CHECK_FALSE(c2.active);  // class "stiff"
  CHECK(c2.solref == std::array<double, 2>{-1000, -10});
  CHECK(c2.solimp == std::array<double, 5>{0.8, 0.9, 0.002, 0.4, 3});
  CHECK(c2.body2.name == "world");
  CHECK(c2.body2.body == treedyn::no_parent);
  const Equality<double>& w1 = l.equalities[2];
  CHECK(w1.type == "weld");
  CHECK(w1.body1.name == "tip");
  CHECK(w1.body1.body == l.model.body_index("arm3"));  // jointless: merged into arm3
  CHECK(w1.body2.body == treedyn::no_parent);           // "post" is welded to the world
  CHECK(w1.relpose_given);
  CHECK(w1.relpose_position == Eigen::Vector3d(0.1, 0.2, 0.3));
  const Eigen::Vector4d xyzw = Eigen::Vector4d(0.2, 0.3, 0.4, 1.0).normalized();
  CHECK((w1.relpose_quaternion - xyzw).cwiseAbs().maxCoeff() <= 1e-15);
  CHECK(w1.anchor == Eigen::Vector3d(0.01, 0, 0));
  CHECK(w1.torquescale == 2.5);
  const Equality<double>& w2 = l.equalities[3];
  CHECK_FALSE(w2.relpose_given);  // MuJoCo's default relpose: the pose at qpos0
  CHECK(w2.torquescale == 1.0);
  CHECK(w2.solimp == std::array<double, 5>{0.7, 0.8, 0.01, 0.6, 4});
  const Equality<double>& j1 = l.equalities[4];
  CHECK(j1.type == "joint");
  CHECK(l.joints[static_cast<std::size_t>(j1.joint1)].name == "a2");
  CHECK(l.joints[static_cast<std::size_t>(j1.joint2)].name == "a1");
  CHECK(j1.polycoef == std::array<double, 5>{0.01, 0.5, 0.2, 0, 0});
  const Equality<double>& j2 = l.equalities[5];
  CHECK(l.joints[static_cast<std::size_t>(j2.joint1)].name == "a3");
  CHECK(j2.joint2 == -1);
  CHECK(j2.polycoef == std::array<double, 5>{0, 1, 0, 0, 0});
  CHECK_FALSE(j2.active);
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::ignored) == 0);
}

TEST_CASE("mjcf: bad equality constraints are refused naming the element; tendon ones are reported",
          "[mjcf][equality]") {
  std::string e = mjcf_error_of(with_equality("<connect body1=\"a\" body2=\"nope\" anchor=\"0 0 0\"/>"));
  CHECK(e.find("<string>:8: <connect>: attribute body2: unknown body 'nope'") != std::string::npos);
  e = mjcf_error_of(with_equality("<weld name=\"w\" body1=\"s\"/>"));  // a site is not a body
  CHECK(e.find("<string>:8: <weld> 'w': attribute body1: unknown body 's'") != std::string::npos);
  e = mjcf_error_of(with_equality("<weld body2=\"a\"/>"));
  CHECK(e.find("<weld>: attribute body1 is missing") != std::string::npos);
  e = mjcf_error_of(with_equality("<connect body1=\"a\"/>"));
  CHECK(e.find("<connect>: attribute anchor is missing") != std::string::npos);
  e = mjcf_error_of(with_equality("<joint joint1=\"ja\" joint2=\"nope\"/>"));
  CHECK(e.find("<joint>: attribute joint2: unknown joint 'nope'") != std::string::npos);
  e = mjcf_error_of(with_equality("<joint joint1=\"jb\"/>"));
  CHECK(e.find("joint 'jb' is a ball joint (a joint equality couples hinges and slides)") != std::string::npos);
  e = mjcf_error_of(with_equality("<joint joint1=\"ja\" class=\"nope\"/>"));
  CHECK(e.find("<joint>: unknown default class 'nope'") != std::string::npos);
  e = mjcf_error_of(with_equality("<joint joint1=\"ja\" polycoef=\"0 1 0\"/>"));
  CHECK(e.find("attribute polycoef=\"0 1 0\": 3 numbers, expected 5") != std::string::npos);
  e = mjcf_error_of(with_equality("<distance body1=\"a\"/>"));
  CHECK(e.find("<distance>: not an equality constraint") != std::string::npos);
  const Loaded<double> l = treedyn::mjcf::load<double>(with_equality("<tendon tendon1=\"t\"/>"));
  CHECK(l.equalities.empty());
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::ignored) == 1);
}

#if TREEDYN_WITH_MUJOCO
TEST_CASE("mjcf: equality records equal MuJoCo's eq_* arrays, and its qpos0 data equal treedyn's frames",
          "[mjcf][equality][mujoco]") {
  const std::string path = mjcf_fixture("equality.xml");
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  INFO(error);
  REQUIRE(m != nullptr);
  const Loaded<double> l = treedyn::mjcf::load<double>(path);
  REQUIRE(m->neq == static_cast<int>(l.equalities.size()));
  // qpos0 in treedyn's layout: MuJoCo's with each quaternion (w, x, y, z) stored (x, y, z, w)
  Eigen::VectorXd q0(l.model.nq());
  for (int i = 0; i < m->nq; ++i) q0(i) = m->qpos0[i];
  for (const treedyn::mjcf::JointInfo<double>& j : l.joints) {
    if (j.type != "free" && j.type != "ball") continue;
    const int a = j.q_index + (j.type == "free" ? 3 : 0);
    q0.segment<4>(a) << m->qpos0[a + 1], m->qpos0[a + 2], m->qpos0[a + 3], m->qpos0[a];
  }
  treedyn::Data<double> data(l.model);
  treedyn::forward_kinematics(l.model, data, q0);
  const auto placement = [&](const treedyn::Frame<double>& f) {  // ^f X_0: the world for no_parent
    return f.body == treedyn::no_parent ? f.placement : treedyn::frame_placement(l.model, data, f);
  };
  double worst_qpos0 = 0.0;
  for (int i = 0; i < m->neq; ++i) {
    const Equality<double>& q = l.equalities[static_cast<std::size_t>(i)];
    INFO("equality " << i << " (" << q.type << " '" << q.name << "')");
    const mjtNum* d = m->eq_data + mjNEQDATA * i;
    CHECK(m->eq_active[i] == (q.active ? 1 : 0));
    for (int k = 0; k < mjNREF; ++k) CHECK(m->eq_solref[mjNREF * i + k] == q.solref[static_cast<std::size_t>(k)]);
    for (int k = 0; k < mjNIMP; ++k) CHECK(m->eq_solimp[mjNIMP * i + k] == q.solimp[static_cast<std::size_t>(k)]);
    if (q.type == "joint") {
      CHECK(m->eq_type[i] == mjEQ_JOINT);
      CHECK(m->eq_obj1id[i] == q.joint1);
      CHECK(m->eq_obj2id[i] == q.joint2);
      for (int k = 0; k < 5; ++k) CHECK(d[k] == q.polycoef[static_cast<std::size_t>(k)]);
      continue;
    }
    CHECK(m->eq_type[i] == (q.type == "connect" ? mjEQ_CONNECT : mjEQ_WELD));
    CHECK(mj_id2name(m, mjOBJ_BODY, m->eq_obj1id[i]) == q.body1.name);
    CHECK(mj_id2name(m, mjOBJ_BODY, m->eq_obj2id[i]) == q.body2.name);
    const treedyn::Transform<double> X1 = placement(q.body1), X2 = placement(q.body2);  // ^body X_0
    if (q.type == "connect") {
      for (int k = 0; k < 3; ++k) CHECK(d[k] == q.anchor(k));
      // MuJoCo's d[3..5]: the anchor in body2's frame at qpos0
      const Eigen::Vector3d world = X1.r + X1.E.transpose() * q.anchor;
      const Eigen::Vector3d in2 = X2.E * (world - X2.r);
      worst_qpos0 = std::max(worst_qpos0, (in2 - Eigen::Vector3d(d[3], d[4], d[5])).cwiseAbs().maxCoeff());
      continue;
    }
    for (int k = 0; k < 3; ++k) CHECK(d[k] == q.anchor(k));
    CHECK(d[10] == q.torquescale);
    const Eigen::Matrix3d R_mj = Eigen::Quaterniond(d[6], d[7], d[8], d[9]).toRotationMatrix();
    Eigen::Vector3d p;
    Eigen::Matrix3d R;
    if (q.relpose_given) {
      p = q.relpose_position;
      R = Eigen::Quaterniond(q.relpose_quaternion(3), q.relpose_quaternion(0), q.relpose_quaternion(1),
                             q.relpose_quaternion(2)).toRotationMatrix();
    } else {  // at qpos0: body2's anchor in body1's frame, body2's axes in body1's
      p = X1.E * (X2.r + X2.E.transpose() * q.anchor - X1.r);
      R = X1.E * X2.E.transpose();
    }
    const double gap = std::max((p - Eigen::Vector3d(d[3], d[4], d[5])).cwiseAbs().maxCoeff(),
                                (R - R_mj).cwiseAbs().maxCoeff());
    if (q.relpose_given) CHECK(gap <= 1e-15);
    else worst_qpos0 = std::max(worst_qpos0, gap);
  }
  std::printf("mjcf equalities vs MuJoCo: the data MuJoCo computes at qpos0 differ from treedyn's frames by %.2g\n",
              worst_qpos0);
  CHECK(worst_qpos0 <= 1e-14);
  mj_deleteModel(m);
}
#endif
