// treedyn::mjcf::load (treedyn/mjcf.hpp): every fixture of tests/mjcf/fixtures against MuJoCo 2.2.2 itself
// (Debian libmujoco-dev) at random states, the arm7 fixture against robots::arm7 built in C++ and against
// examples/robots/arm7.urdf, the float and long double loads, the joint metadata and report, and every
// refused input with its message.
//
// Coordinates (docs/mjcf.md#coordinates): treedyn's q is MuJoCo's qpos with each quaternion (w, x, y, z)
// stored (x, y, z, w); v is qvel except for a free joint, whose MuJoCo velocity is [ṗ_world; ω_body] and
// treedyn's [ω_body; v_body], v_body = Rᵀ ṗ. So v_td = T v_mj with the free block T = [[0, 1], [Rᵀ, 0]]
// (identity elsewhere), and differentiating, v̇_td = T v̇_mj − k with k = [0; ω × v_body] on the free block
// (d/dt Rᵀ = −ω× Rᵀ). Substituting into H v̇_td + c = τ_td and multiplying by Tᵀ (power: τ_mj = Tᵀ τ_td):
//   M_mj = Tᵀ H T,   bias_mj = Tᵀ (c − H k),   qacc_mj = T⁻¹ (q̈_td + k).
// MuJoCo's M also holds the armature on its diagonal and its passive force −damping · qvel; both are added
// to the treedyn side here (the loader returns them in Loaded::joints). Constraints are disabled in every
// fixture (`<flag constraint="disable"/>`), so qacc = M⁻¹ (passive − bias).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "support/crba_dense.hpp"
#include "support/random.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "mjcf/mjcf_test_support.hpp"
#include "treedyn/mjcf.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"

#if TREEDYN_WITH_MUJOCO
#include <mujoco/mujoco.h>
#endif
#if TREEDYN_MJCF_WITH_URDF
#include "treedyn/urdf/build_model.hpp"
#endif

namespace {

using treedyn::mjcf::JointInfo;
using treedyn::mjcf::Loaded;

using treedyn::test::mjcf_error_of;
using treedyn::test::mjcf_fixture;

double max_abs(const Eigen::MatrixXd& m) { return m.size() == 0 ? 0.0 : m.cwiseAbs().maxCoeff(); }

/// The path of a built-in robot's generated file, examples/robots/`name`.
std::string robot_file(const std::string& name) { return std::string(TREEDYN_MJCF_ROBOTS_DIR) + "/" + name; }

}  // namespace

TEST_CASE("mjcf: the joint order, names, addresses and metadata of a multi-joint fixture", "[mjcf]") {
  const Loaded<double> l = treedyn::mjcf::load<double>(mjcf_fixture("joints.xml"));
  const treedyn::Model<double>& model = l.model;
  const std::vector<std::string> names = {"base", "h1", "h2", "s3", "h4", "ball", "sl", "root_hinge"};
  REQUIRE(l.joints.size() == names.size());
  CHECK(model.nq() == 7 + 3 + 4 + 1 + 1 + 1);
  CHECK(model.nv() == 6 + 3 + 3 + 1 + 1 + 1);
  for (std::size_t k = 0; k < names.size(); ++k) {
    CHECK(l.joints[k].name == names[k]);
    const int j = model.joint_index(names[k]);
    CHECK(model.q_offset(j) == l.joints[k].q_index);
    CHECK(model.v_offset(j) == l.joints[k].v_index);
  }
  CHECK(l.joints[0].type == "free");
  CHECK(l.joints[5].type == "ball");
  CHECK(l.joints[2].ref == Approx(15.0 * 3.14159265358979323846 / 180.0).epsilon(1e-15));
  CHECK(model.find_frame("hand") != nullptr);
  CHECK(model.find_frame("two_hinges") != nullptr);
}

TEST_CASE("mjcf: defaults, limits, armature and the report", "[mjcf]") {
  const Loaded<double> l = treedyn::mjcf::load<double>(mjcf_fixture("defaults.xml"));
  REQUIRE(l.joints.size() == 3);
  CHECK(l.joints[1].name == "hip");
  CHECK(l.joints[1].armature == 0.01);
  CHECK(l.joints[1].limited);
  CHECK(l.model.limits(l.model.joint_index("hip")).upper == 1.0);
  CHECK(l.joints[2].armature == 0.0);  // class="main" overrides the childclass
  CHECK_FALSE(l.joints[2].limited);
  CHECK(l.model.joint(l.model.joint_index("t")).axis == Eigen::Vector3d::UnitY());
  CHECK(l.model.joint(l.model.joint_index("hip")).axis == Eigen::Vector3d::UnitX());
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::inertia_from_geoms) == 3);
  CHECK(l.report.lines().front().rfind(mjcf_fixture("defaults.xml"), 0) == 0);
  // the foot: a sphere of density 1200 and radius 0.06 at the origin: m = 1200 · 4/3 π r³
  const double m = 1200.0 * 4.0 / 3.0 * 3.14159265358979323846 * 0.06 * 0.06 * 0.06;
  CHECK(l.model.inertia(l.model.body_index("foot")).m == Approx(m).epsilon(1e-14));
}

namespace {

/// The largest differences of one fixture against MuJoCo, each relative to the largest entry of MuJoCo's.
struct Differences {
  double H = 0.0, bias = 0.0, qacc = 0.0;
  double inertia = 0.0;  ///< MuJoCo's body inertia about the centre of mass (R(iquat) diag(inertia) Rᵀ) vs treedyn's
};

/// The map of the header comment for the model's free joints at q (treedyn layout): T and k(q, v).
void free_blocks(const Loaded<double>& l, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::MatrixXd& T,
                 Eigen::VectorXd& k) {
  const int n = l.model.nv();
  T = Eigen::MatrixXd::Identity(n, n);
  k = Eigen::VectorXd::Zero(n);
  for (const JointInfo<double>& j : l.joints) {
    if (j.type != "free") continue;
    const Eigen::Matrix3d R = treedyn::detail::quaternion_rotation(q.segment<4>(j.q_index + 3));
    const int i = j.v_index;
    T.block(i, i, 6, 6).setZero();
    T.block(i, i + 3, 3, 3).setIdentity();   // ω = ω
    T.block(i + 3, i, 3, 3) = R.transpose();  // v_body = Rᵀ ṗ
    k.segment<3>(i + 3) = v.segment<3>(i).cross(v.segment<3>(i + 3));
  }
}

#if TREEDYN_WITH_MUJOCO
/// MuJoCo's qpos from treedyn's q (quaternions (x, y, z, w) → (w, x, y, z)), checking the joint addresses.
void set_qpos(const Loaded<double>& l, const mjModel* m, mjData* d, const Eigen::VectorXd& q) {
  for (std::size_t jj = 0; jj < l.joints.size(); ++jj) {
    const JointInfo<double>& j = l.joints[jj];
    CHECK(m->jnt_qposadr[jj] == j.q_index);
    CHECK(m->jnt_dofadr[jj] == j.v_index);
    const int a = j.q_index;
    if (j.type == "free" || j.type == "ball") {
      const int o = j.type == "free" ? 3 : 0;
      for (int i = 0; i < o; ++i) d->qpos[a + i] = q(a + i);
      d->qpos[a + o] = q(a + o + 3);  // w
      for (int i = 0; i < 3; ++i) d->qpos[a + o + 1 + i] = q(a + o + i);
    } else {
      d->qpos[a] = q(a);
    }
  }
}

/// Loads `path` in MuJoCo and treedyn, and compares M, qfrc_bias and qacc at `states` random states.
Differences compare_with_mujoco(const std::string& path, int states) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  INFO(path << ": " << error);
  REQUIRE(m != nullptr);
  mjData* d = mj_makeData(m);
  const Loaded<double> l = treedyn::mjcf::load<double>(path);
  treedyn::Data<double> data(l.model);
  const int n = l.model.nv();
  REQUIRE(m->nv == n);
  REQUIRE(m->nq == l.model.nq());
  REQUIRE(m->njnt == static_cast<int>(l.joints.size()));
  Differences worst;
  for (int b = 1; b < m->nbody; ++b) {  // the inertias each side holds, in the body frame about the centre of mass
    const std::optional<int> found = l.model.find_body(mj_id2name(m, mjOBJ_BODY, b));
    if (!found) continue;  // a jointless body, welded to its parent: its inertia is in the parent's
    bool welded_child = false;  // and that parent's treedyn inertia is no longer MuJoCo's body's (H compares it)
    for (int c = b + 1; c < m->nbody; ++c) welded_child |= m->body_parentid[c] == b && m->body_jntnum[c] == 0;
    if (welded_child) continue;
    const int i = *found;
    const treedyn::RigidInertia<double>& I = l.model.inertia(i);
    const Eigen::Vector3d c = I.h / I.m;
    const Eigen::Matrix3d I_c = I.I.matrix() - I.m * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
    const double* w = m->body_iquat + 4 * b;
    const Eigen::Matrix3d R = Eigen::Quaterniond(w[0], w[1], w[2], w[3]).toRotationMatrix();
    const Eigen::Matrix3d I_mj = R * Eigen::Vector3d(m->body_inertia[3 * b], m->body_inertia[3 * b + 1],
                                                     m->body_inertia[3 * b + 2]).asDiagonal() * R.transpose();
    worst.inertia = std::max(worst.inertia, max_abs(I_mj - I_c) / max_abs(I_c));
  }
  treedyn::test::Rng rng(20261127);
  for (int s = 0; s < states; ++s) {
    // a random state in treedyn's layout, then MuJoCo's qpos / qvel from it
    const Eigen::VectorXd q = treedyn::random_configuration(l.model, static_cast<std::uint64_t>(s + 1));
    const Eigen::VectorXd v = rng.matrix<double>(n, 1);
    Eigen::MatrixXd T;
    Eigen::VectorXd k;
    free_blocks(l, q, v, T, k);
    const Eigen::VectorXd v_mj = T.inverse() * v;  // T is a permutation-and-rotation: exact enough
    set_qpos(l, m, d, q);
    for (int i = 0; i < n; ++i) d->qvel[i] = v_mj(i);
    mj_forward(m, d);
    Eigen::MatrixXd M(n, n);
    mj_fullM(m, M.data(), d->qM);  // symmetric: row or column major alike
    const Eigen::VectorXd bias = Eigen::Map<const Eigen::VectorXd>(d->qfrc_bias, n);
    const Eigen::VectorXd qacc = Eigen::Map<const Eigen::VectorXd>(d->qacc, n);
    // treedyn, with MuJoCo's armature and damping added
    Eigen::VectorXd armature(n), damping(n);
    for (const JointInfo<double>& j : l.joints) {
      const int nvj = j.type == "free" ? 6 : j.type == "ball" ? 3 : 1;
      armature.segment(j.v_index, nvj).setConstant(j.armature);
      damping.segment(j.v_index, nvj).setConstant(j.damping);
    }
    const Eigen::MatrixXd H = treedyn::test::crba_dense(l.model, data, q);
    const Eigen::VectorXd c = treedyn::bias(l.model, data, q, v);
    const Eigen::MatrixXd M_td = T.transpose() * H * T + Eigen::MatrixXd(armature.asDiagonal());
    const Eigen::VectorXd bias_td = T.transpose() * (c - H * k);
    Eigen::VectorXd qacc_td;
    if (armature.isZero() && damping.isZero()) {
      const Eigen::VectorXd qdd = treedyn::aba(l.model, data, q, v, Eigen::VectorXd::Zero(n));
      REQUIRE(data.aba_status.ok());
      qacc_td = T.inverse() * (qdd + k);
    } else {
      qacc_td = M_td.ldlt().solve(-bias_td - damping.cwiseProduct(v_mj));
    }
    worst.H = std::max(worst.H, max_abs(M_td - M) / max_abs(M));
    worst.bias = std::max(worst.bias, max_abs(bias_td - bias) / max_abs(bias));
    worst.qacc = std::max(worst.qacc, max_abs(qacc_td - qacc) / max_abs(qacc));
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return worst;
}
#endif

}  // namespace

#if TREEDYN_WITH_MUJOCO
TEST_CASE("mjcf: H, bias and qacc equal MuJoCo's at random states", "[mjcf][mujoco]") {
  // fixtures whose inertias MuJoCo stores exactly (given diagonal, or one aligned geom per body), the
  // Menagerie-style humanoid, whose several geoms per body MuJoCo diagonalises to rounding (measured 8e-16),
  // and the built-in floating-base robots generated with principal-axis inertials (examples/robots/*.xml)
  std::vector<std::string> paths = {robot_file("humanoid30.xml"), robot_file("chain30.xml"),
                                    robot_file("quadruped12.xml")};
  for (const char* name : {"orientations.xml", "euler_seq.xml", "joints.xml", "geoms.xml", "defaults.xml",
                           "quadruped.xml", "include_main.xml", "bounds.xml", "humanoid.xml", "sites.xml"})
    paths.push_back(mjcf_fixture(name));
  for (const std::string& path : paths) {
    const std::string name = path.substr(path.rfind('/') + 1);
    const Differences diff = compare_with_mujoco(path, 5);
    INFO(name << ": H " << diff.H << ", bias " << diff.bias << ", qacc " << diff.qacc);
    std::printf("mjcf vs MuJoCo, %s: max relative difference H %.2g, bias %.2g, qacc %.2g\n", name.c_str(), diff.H,
                diff.bias, diff.qacc);
    CHECK(diff.inertia <= 1e-12);
    CHECK(diff.H <= 1e-12);
    CHECK(diff.bias <= 1e-12);
    CHECK(diff.qacc <= 1e-12);
  }
}

TEST_CASE("mjcf: MuJoCo refuses puma560.xml's massless first link, which treedyn loads", "[mjcf][mujoco]") {
  // robots::puma560's link 1 has no mass and I = diag(0.175, 0.175, 0.35) (see puma560.hpp): MuJoCo 2.2.2 wants
  // mass and inertia above mjMINVAL in every moving body, so this robot is compared with C++ and URDF only
  char error[1000] = "";
  mjModel* m = mj_loadXML(robot_file("puma560.xml").c_str(), nullptr, error, sizeof error);
  CHECK(m == nullptr);
  CHECK(std::string(error).find("mass and inertia of moving bodies") != std::string::npos);
  CHECK(std::string(error).find("link1") != std::string::npos);
  if (m) mj_deleteModel(m);
  CHECK(treedyn::mjcf::load<double>(robot_file("puma560.xml")).model.inertia(0).m == 0.0);
}

TEST_CASE("mjcf: sites named like bodies load; each site and body found by its MJCF name is where MuJoCo puts it",
          "[mjcf][mujoco][sites]") {
  // sites.xml: 5 of its 10 sites are named like bodies; hand.xml: its 4 fingertip sites, as Menagerie's hands
  for (const auto& [name, renamed] : {std::pair<const char*, std::size_t>{"sites.xml", 5}, {"hand.xml", 4}}) {
  const std::string path = mjcf_fixture(name);
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  INFO(error);
  REQUIRE(m != nullptr);
  mjData* d = mj_makeData(m);
  const Loaded<double> l = treedyn::mjcf::load<double>(path);
  treedyn::Data<double> data(l.model);
  // every named site, in MuJoCo's site order (site ids), with its MJCF body
  REQUIRE(static_cast<int>(l.sites.size()) == m->nsite);
  for (int s = 0; s < m->nsite; ++s) {
    CHECK(l.sites[static_cast<std::size_t>(s)].name == mj_id2name(m, mjOBJ_SITE, s));
    const int b = m->site_bodyid[s];
    CHECK(l.sites[static_cast<std::size_t>(s)].body == (b == 0 ? "world" : mj_id2name(m, mjOBJ_BODY, b)));
  }
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::site_renamed) == renamed);
  if (name == std::string("sites.xml")) {  // side, base, lower, tip, upper renamed
    CHECK(l.site("tip").name == "site:tip");
    CHECK(l.site("tip_point").name == "tip_point");
    CHECK(l.model.frame("tip").name == "tip");  // the body keeps its name
  }
  double worst_site = 0.0, worst_body = 0.0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Eigen::VectorXd q = treedyn::random_configuration(l.model, seed);
    set_qpos(l, m, d, q);
    mj_kinematics(m, d);
    treedyn::forward_kinematics(l.model, data, q);
    const auto difference = [](const treedyn::Transform<double>& X, const double* xpos, const double* xmat) {
      // MuJoCo's xmat (row major) has the frame's axes as columns: X.E = xmatᵀ; xpos = X.r
      const Eigen::Matrix3d R = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(xmat);
      return std::max(max_abs(X.E - R.transpose()), max_abs(X.r - Eigen::Map<const Eigen::Vector3d>(xpos)));
    };
    for (int s = 0; s < m->nsite; ++s) {
      const treedyn::Transform<double> X = treedyn::frame_placement(l.model, data, l.site(mj_id2name(m, mjOBJ_SITE, s)));
      worst_site = std::max(worst_site, difference(X, d->site_xpos + 3 * s, d->site_xmat + 9 * s));
    }
    for (int b = 1; b < m->nbody; ++b) {
      const treedyn::Transform<double> X = treedyn::frame_placement(l.model, data, l.model.frame(mj_id2name(m, mjOBJ_BODY, b)));
      worst_body = std::max(worst_body, difference(X, d->xpos + 3 * b, d->xmat + 9 * b));
    }
  }
  std::printf("mjcf sites vs MuJoCo, %s (%d sites, %d of whose names are bodies'): worst site placement %.2g, "
              "body placement %.2g (absolute, lengths under 0.6 m)\n", name, m->nsite, static_cast<int>(renamed), worst_site, worst_body);
  CHECK(worst_site <= 1e-14);
  CHECK(worst_body <= 1e-14);
  mj_deleteData(d);
  mj_deleteModel(m);
  }
}

TEST_CASE("mjcf: fixtures MuJoCo diagonalises (fullinertia, rotated geoms) equal it to its eigensolver's accuracy",
          "[mjcf][mujoco]") {
  // hand.xml: a Menagerie-style hand with fullinertia on its middle links
  for (const char* name : {"arm7.xml", "geoms_combined.xml", "hand.xml"}) {
    const Differences diff = compare_with_mujoco(mjcf_fixture(name), 5);
    std::printf("mjcf vs MuJoCo, %s: max relative difference H %.2g, bias %.2g, qacc %.2g; MuJoCo's diagonalised "
                "inertias differ from the file's by %.2g\n", name, diff.H, diff.bias, diff.qacc, diff.inertia);
    // MuJoCo's inertias are off by diff.inertia (its iterative 3×3 eigensolver: 6.5e-7 relative on arm7's
    // link inertias, whose principal moments span two decades); H and the bias move by as much, q̈ by that
    // times the conditioning of this small arm (measured: below diff.inertia)
    CHECK(diff.inertia <= 1e-6);
    CHECK(diff.H <= diff.inertia);
    CHECK(diff.bias <= diff.inertia);
    CHECK(diff.qacc <= 10 * diff.inertia);
  }
}
#endif

/// Every body's inertia and tree transform of the `Scalar` load against the double load's, to a few ε of the
/// coarser of the two.
template <class Scalar>
void check_scalar_load(const std::string& path) {
  const Loaded<double> d = treedyn::mjcf::load<double>(path);
  const Loaded<Scalar> s = treedyn::mjcf::load<Scalar>(path);
  REQUIRE(s.model.nbodies() == d.model.nbodies());
  const double eps = std::max(static_cast<double>(std::numeric_limits<Scalar>::epsilon()),
                              std::numeric_limits<double>::epsilon());
  for (int i = 0; i < d.model.nbodies(); ++i) {
    const Eigen::Matrix<double, 6, 6> I = d.model.inertia(i).matrix();
    const Eigen::Matrix<double, 6, 6> I_s = s.model.inertia(i).matrix().template cast<double>();
    CHECK(max_abs(I_s - I) <= 64 * eps * max_abs(I));
    const treedyn::Transform<double>& X = d.model.tree_transform(i);
    const treedyn::Transform<Scalar>& X_s = s.model.tree_transform(i);
    CHECK(max_abs(X_s.E.template cast<double>() - X.E) <= 64 * eps);
    CHECK(max_abs(X_s.r.template cast<double>() - X.r) <= 64 * eps * (1.0 + max_abs(X.r)));
  }
}

TEST_CASE("mjcf: float and long double loads agree with the double load to their precision", "[mjcf]") {
  for (const char* name : {"orientations.xml", "euler_seq.xml", "joints.xml", "geoms_combined.xml", "quadruped.xml",
                           "hand.xml"}) {
    INFO(name);
    check_scalar_load<float>(mjcf_fixture(name));
    check_scalar_load<long double>(mjcf_fixture(name));
  }
}

namespace {

/// The largest differences of H, the bias and ABA's q̈ of `model` against `ref`'s over 5 random states, each
/// relative to the largest entry of `ref`'s.
struct SameRobot {
  double H = 0.0, bias = 0.0, qdd = 0.0;
};

SameRobot same_robot(const treedyn::Model<double>& model, const treedyn::Model<double>& ref) {
  REQUIRE(model.nq() == ref.nq());
  REQUIRE(model.nv() == ref.nv());
  REQUIRE(model.nbodies() == ref.nbodies());
  for (int i = 0; i < ref.nbodies(); ++i) {  // the same bodies in the same order: q and v mean the same
    CHECK(model.name(i) == ref.name(i));
    CHECK(model.parent(i) == ref.parent(i));
    CHECK(model.joint(i).type == ref.joint(i).type);
    CHECK(model.joint_name(i) == ref.joint_name(i));
  }
  treedyn::Data<double> data(model), data_ref(ref);
  SameRobot worst;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    treedyn::test::Rng rng(seed);
    const Eigen::VectorXd q = treedyn::random_configuration(ref, seed);
    const Eigen::VectorXd v = rng.matrix<double>(ref.nv(), 1);
    const Eigen::VectorXd tau = rng.matrix<double>(ref.nv(), 1);
    const Eigen::MatrixXd H = treedyn::test::crba_dense(model, data, q);
    const Eigen::MatrixXd H_ref = treedyn::test::crba_dense(ref, data_ref, q);
    worst.H = std::max(worst.H, max_abs(H - H_ref) / max_abs(H_ref));
    const Eigen::VectorXd c = treedyn::bias(model, data, q, v), c_ref = treedyn::bias(ref, data_ref, q, v);
    worst.bias = std::max(worst.bias, max_abs(c - c_ref) / max_abs(c_ref));
    const Eigen::VectorXd qdd = treedyn::aba(model, data, q, v, tau);
    REQUIRE(data.aba_status.ok());
    const Eigen::VectorXd qdd_ref = treedyn::aba(ref, data_ref, q, v, tau);
    REQUIRE(data_ref.aba_status.ok());
    worst.qdd = std::max(worst.qdd, max_abs(qdd - qdd_ref) / max_abs(qdd_ref));
  }
  return worst;
}

}  // namespace

TEST_CASE("mjcf: the same robot from MJCF, built in C++ and from URDF has the same H, bias and q̈", "[mjcf]") {
  // arm7.xml is written by hand from the paper's table (fullinertia); the others are generated from the C++
  // robots by examples/robots/generate_robots.cpp (principal-axis inertials, 17 digits); quadruped12, which has
  // no C++ version, from its hand-written URDF as treedyn loads it
  struct Case {
    const char* name;
    std::string mjcf;
    std::optional<treedyn::Model<double>> cpp;
    bool floating;
  };
  const std::vector<Case> cases = {
      {"arm7", mjcf_fixture("arm7.xml"), treedyn::robots::arm7<double>(), false},
      {"humanoid30", robot_file("humanoid30.xml"), treedyn::robots::humanoid30<double>(), true},
      {"chain30", robot_file("chain30.xml"), treedyn::robots::chain30<double>(), true},
      {"puma560", robot_file("puma560.xml"), treedyn::robots::puma560<double>(), false},
      {"quadruped12", robot_file("quadruped12.xml"), std::nullopt, true}};
  for (const Case& c : cases) {
    INFO(c.name);
    const Loaded<double> l = treedyn::mjcf::load<double>(c.mjcf);
#if TREEDYN_MJCF_WITH_URDF
    treedyn::urdf::Options options;
    options.floating_base = c.floating;
    const treedyn::Model<double> from_urdf =
        treedyn::urdf::load<double>(robot_file(std::string(c.name) + ".urdf"), options).model;
    for (const treedyn::Frame<double>& f : from_urdf.frames()) {  // bodies, and merged links as sites (the feet)
      if (f.body == treedyn::no_parent) continue;                   // arm7.urdf's root link "world"
      const treedyn::Frame<double>* g = l.model.find_frame(f.name);
      REQUIRE(g != nullptr);
      CHECK(g->body == f.body);
      CHECK(max_abs(g->placement.E - f.placement.E) <= 1e-15);
      CHECK(max_abs(g->placement.r - f.placement.r) <= 1e-15);
    }
    const SameRobot urdf = same_robot(from_urdf, l.model);
    std::printf("mjcf %s vs %s.urdf: max relative difference H %.2g, bias %.2g, qdd %.2g\n", c.name, c.name, urdf.H,
                urdf.bias, urdf.qdd);
    CHECK(urdf.H <= 1e-14);
    CHECK(urdf.bias <= 1e-14);
    CHECK(urdf.qdd <= 1e-13);
#endif
    if (!c.cpp) continue;
    for (const treedyn::Frame<double>& f : c.cpp->frames()) CHECK(l.model.find_frame(f.name) != nullptr);  // arm7's flange
    const SameRobot cpp = same_robot(l.model, *c.cpp);
    std::printf("mjcf %s vs robots::%s: max relative difference H %.2g, bias %.2g, qdd %.2g\n", c.name, c.name, cpp.H,
                cpp.bias, cpp.qdd);
    // round-off: the files' 17-digit numbers, the principal axes' eigendecomposition and the quaternions
    CHECK(cpp.H <= 1e-14);
    CHECK(cpp.bias <= 1e-14);
    CHECK(cpp.qdd <= 1e-13);
  }
}

TEST_CASE("mjcf: bad input is refused naming the file, the element and the line", "[mjcf]") {
  const auto body = [](const std::string& inside) {
    return "<mujoco>\n<worldbody>\n<body name=\"b\">\n" + inside + "\n</body>\n</worldbody>\n</mujoco>";
  };
  const std::string inertial = "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>";
  std::string e = mjcf_error_of(body("<joint name=\"j\" type=\"screw\"/>" + inertial));
  CHECK(e.find("<string>:4: <joint> 'j'") != std::string::npos);
  CHECK(e.find("screw") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\" axis=\"0 1x 0\"/>" + inertial));
  CHECK(e.find("<string>:4: <joint> 'j': attribute axis=\"0 1x 0\": malformed") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\" axis=\"0 1\"/>" + inertial));
  CHECK(e.find("2 numbers, expected 3") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\" axis=\"0 0 0\"/>" + inertial));
  CHECK(e.find("axis: zero vector") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\"/>"));
  CHECK(e.find("<string>:3: <body> 'b'") != std::string::npos);
  CHECK(e.find("no mass where treedyn needs one") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\"/><geom type=\"mesh\" mesh=\"m\"/>"));
  CHECK(e.find("no mass where treedyn needs one") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\"/><inertial pos=\"0 0 0\" mass=\"1\"/>"));  // found by fuzz_mjcf
  CHECK(e.find("<string>:4: <inertial>: attribute diaginertia is missing") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\"/><inertial pos=\"0 0 0\" diaginertia=\"1 1 1\"/>"));
  CHECK(e.find("<string>:4: <inertial>: attribute mass is missing") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\" class=\"nope\"/>" + inertial));
  CHECK(e.find("unknown default class 'nope'") != std::string::npos);
  e = mjcf_error_of("<mujoco><worldbody><body name=\"a\"><body name=\"b\"><freejoint/>" + inertial +
               "</body></body></worldbody></mujoco>");
  CHECK(e.find("a free joint must be the only joint of a top-level body") != std::string::npos);
  e = mjcf_error_of("<mujoco><worldbody><include file=\"no_such_file.xml\"/></worldbody></mujoco>");
  CHECK(e.find("<string>:1: <include>: included file 'no_such_file.xml' cannot be opened") != std::string::npos);
  e = mjcf_error_of(mjcf_fixture("include_cycle_a.xml"));
  CHECK(e.find("include_cycle_b.xml:2: <include>: include cycle") != std::string::npos);
  CHECK(e.find("include_cycle_a.xml' is already being read") != std::string::npos);
  e = mjcf_error_of(mjcf_fixture("no_such_model.xml"));
  CHECK(e.find("cannot open file") != std::string::npos);
  e = mjcf_error_of("/dev/null");
  CHECK(e.find("cannot open file '/dev/null' (not a regular file)") != std::string::npos);
  e = mjcf_error_of("<mujoco><include file=\"" + std::string(TREEDYN_MJCF_TEST_DIR) + "\"/></mujoco>");
  CHECK(e.find("<string>:1: <include>: included file") != std::string::npos);
  e = mjcf_error_of("<mujoco><worldbody><body></worldbody></mujoco>");
  CHECK(e.find("treedyn::mjcf: <string>: malformed XML at line 1") == 0);
  e = mjcf_error_of("<robot/>");
  CHECK(e.find("no <mujoco> root element") != std::string::npos);
  e = mjcf_error_of("<mujoco><compiler angle=\"grad\"/></mujoco>");
  CHECK(e.find("<compiler>: attribute angle=\"grad\": not one of degree, radian") != std::string::npos);
  e = mjcf_error_of(body("<joint name=\"j\" quat=\"1 0 0 0\" euler=\"0 0 0\"/>" + inertial));
  CHECK(e.empty());  // joints have no orientation: not read
  e = mjcf_error_of(body(inertial + "<site name=\"s\" quat=\"1 0 0 0\" euler=\"0 0 0\"/>"));
  CHECK(e.find("more than one of quat") != std::string::npos);
}

TEST_CASE("mjcf: mesh geoms are reported, never guessed; ignored elements are reported", "[mjcf]") {
  const Loaded<double> l = treedyn::mjcf::load<double>(
      "<mujoco><worldbody><body name=\"b\"><joint name=\"j\"/><geom type=\"mesh\" mesh=\"m\"/>"
      "<geom type=\"sphere\" size=\"0.1\"/></body></worldbody><sensor/><actuator/></mujoco>");
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::mesh_mass_skipped) == 1);
  CHECK(l.report.count(treedyn::mjcf::Diagnostic::Kind::ignored) == 2);
  CHECK(l.model.inertia(0).m == Approx(1000.0 * 4.0 / 3.0 * 3.14159265358979323846 * 1e-3).epsilon(1e-14));
}
