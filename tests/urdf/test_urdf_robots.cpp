// URDF against independent references: the shipped robot files give the programmatic robots' H, C and
// ABA accelerations (1e-12); fixed joints give the dynamics of the same robot with those joints locked
// at 0 (rows and columns of the bigger H); a planar joint about a general axis moves like the chain
// prismatic–prismatic–revolute it stands for (kinematics, H = Tᵀ H_chain T, ABA at rest).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "support/crba_dense.hpp"
#include "support/random.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"
#include "urdf/urdf_test_support.hpp"

using namespace urdf_test;
using treedyn::Model;
using V3 = treedyn::Vector3<double>;

namespace {

double rel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return max_abs(a - b) / (1.0 + max_abs(b)); }

/// The world placement ^frame X_0 of a named frame at configuration q.
treedyn::Transform<double> frame_world(const Model<double>& model, treedyn::Data<double>& data, const Eigen::VectorXd& q,
                                       const std::string& name) {
  treedyn::forward_kinematics(model, data, q);
  const treedyn::Frame<double>& f = model.frame(name);
  return f.body == treedyn::no_parent ? f.placement : f.placement * data.X_world[f.body];
}

}  // namespace

TEST_CASE("urdf robots: examples/robots/*.urdf give the programmatic robots' H, C and ABA to 1e-12", "[urdf][robots]") {
  struct Case {
    std::string name;
    Model<double> reference;
    bool floating;
  };
  const std::vector<Case> cases = {{"humanoid30", treedyn::robots::humanoid30<double>(), true},
                                   {"chain30", treedyn::robots::chain30<double>(), true},
                                   {"arm7", treedyn::robots::arm7<double>(), false},
                                   {"puma560", treedyn::robots::puma560<double>(), false}};
  for (const Case& c : cases) {
    INFO(c.name);
    treedyn::urdf::Options options;
    options.floating_base = c.floating;
    const Model<double> model = build_model(std::string(TREEDYN_ROBOTS_DIR) + "/" + c.name + ".urdf", options);
    const Model<double>& ref = c.reference;
    REQUIRE(model.nq() == ref.nq());
    REQUIRE(model.nv() == ref.nv());
    REQUIRE(model.nbodies() == ref.nbodies());
    for (int i = 0; i < ref.nbodies(); ++i) {
      CHECK(model.name(i) == ref.name(i));
      CHECK(model.parent(i) == ref.parent(i));
      CHECK(model.joint(i).type == ref.joint(i).type);
      CHECK(model.joint_index(ref.joint_name(i)) == i);
    }
    treedyn::Data<double> data(model), data_ref(ref);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      treedyn::test::Rng rng(seed);
      const Eigen::VectorXd q = treedyn::random_configuration(ref, seed);
      const Eigen::VectorXd qd = rng.matrix<double>(ref.nv(), 1);
      const Eigen::VectorXd tau = rng.matrix<double>(ref.nv(), 1);
      const Eigen::MatrixXd H = treedyn::test::crba_dense(model, data, q), H_ref = treedyn::test::crba_dense(ref, data_ref, q);
      CHECK(rel(H, H_ref) <= 1e-12);
      const Eigen::VectorXd C = treedyn::bias(model, data, q, qd), C_ref = treedyn::bias(ref, data_ref, q, qd);
      CHECK(rel(C, C_ref) <= 1e-12);
      const Eigen::VectorXd qdd = treedyn::aba(model, data, q, qd, tau), qdd_ref = treedyn::aba(ref, data_ref, q, qd, tau);
      REQUIRE(data.aba_status.ok());
      CHECK(rel(qdd, qdd_ref) <= 1e-12);
    }
    // the named frames of merged fixed bodies (arm7's flange) sit where the programmatic ones do
    for (const treedyn::Frame<double>& f : ref.frames()) {
      if (f.body == treedyn::no_parent) continue;
      const treedyn::Frame<double>& g = model.frame(f.name);
      CHECK(g.body == f.body);
      CHECK(max_abs(g.placement.motion_matrix() - f.placement.motion_matrix()) <= 1e-14);
    }
  }
}

TEST_CASE("urdf: fixed joints give the dynamics of the same robot with those joints locked at 0", "[urdf][fixed]") {
  // the same tree twice: with two welded links ("weld", "sensor"), and with those joints free to turn
  const auto tree = [](const std::string& weld_type, const std::string& weld_axis) {
    return robot(bare_link("base") + link("l1") + link("l2", "0.8", "0.05 0.1 -0.02", "0.4 0.1 -0.3") + link("l3") +
                 link("l4", "0.3", "0.02 0 0.01", "0 0.2 0") + link("l5") +
                 joint("j1", "continuous", "base", "l1", "0 0 0.3", "0.1 0.2 0.3", "<axis xyz=\"0 0 1\"/>") +
                 joint("weld", weld_type, "l1", "l2", "0.2 0.1 0", "0.5 -0.4 0.3", weld_axis) +
                 joint("j3", "continuous", "l2", "l3", "0 0.3 0", "-0.2 0.1 0.4", "<axis xyz=\"0.6 0 0.8\"/>") +
                 joint("sensor", weld_type, "l3", "l4", "0.1 0 0.1", "0 0 1.2", weld_axis) +
                 joint("j5", "continuous", "l1", "l5", "0 -0.2 0.1", "0.3 0 0", "<axis xyz=\"0 1 0\"/>"));
  };
  const Model<double> welded = build_model(tree("fixed", ""));
  const Model<double> free = build_model(tree("continuous", "<axis xyz=\"0.2 0.3 0.9\"/>"));
  REQUIRE(welded.nv() == 3);
  REQUIRE(free.nv() == 5);
  std::vector<int> keep;  // the free model's DoF of each welded-model DoF
  for (const char* j : {"j1", "j3", "j5"}) keep.push_back(free.v_offset(free.joint_index(j)));
  CHECK(welded.frame("l2").body == welded.body_index("l1"));
  CHECK(welded.frame("l4").body == welded.body_index("l3"));

  treedyn::Data<double> dw(welded), df(free);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    treedyn::test::Rng rng(seed);
    const Eigen::VectorXd q = rng.matrix<double>(3, 1) * 3.0, qd = rng.matrix<double>(3, 1), tau = rng.matrix<double>(3, 1);
    Eigen::VectorXd qf = Eigen::VectorXd::Zero(5), qdf = Eigen::VectorXd::Zero(5);
    for (int k = 0; k < 3; ++k) {
      qf(keep[static_cast<std::size_t>(k)]) = q(k);
      qdf(keep[static_cast<std::size_t>(k)]) = qd(k);
    }
    const Eigen::MatrixXd Hf = treedyn::test::crba_dense(free, df, qf);
    const Eigen::VectorXd Cf = treedyn::bias(free, df, qf, qdf);
    Eigen::MatrixXd H_locked(3, 3);
    Eigen::VectorXd C_locked(3);
    for (int a = 0; a < 3; ++a) {
      C_locked(a) = Cf(keep[static_cast<std::size_t>(a)]);
      for (int b = 0; b < 3; ++b) H_locked(a, b) = Hf(keep[static_cast<std::size_t>(a)], keep[static_cast<std::size_t>(b)]);
    }
    CHECK(rel(treedyn::test::crba_dense(welded, dw, q), H_locked) <= 1e-13);
    CHECK(rel(treedyn::bias(welded, dw, q, qd), C_locked) <= 1e-13);
    const Eigen::VectorXd qdd_locked = H_locked.llt().solve(tau - C_locked);
    CHECK(rel(treedyn::aba(welded, dw, q, qd, tau), qdd_locked) <= 1e-12);
    // the welded link frames sit where the locked links are
    for (const char* link_name : {"l2", "l4"}) {
      const treedyn::Transform<double> a = frame_world(welded, dw, q, link_name), b = frame_world(free, df, qf, link_name);
      CHECK(max_abs(a.motion_matrix() - b.motion_matrix()) <= 1e-13);
    }
  }
}

TEST_CASE("urdf: a planar joint about a general axis is the chain prismatic, prismatic, revolute", "[urdf][planar]") {
  const std::string n = "1 2 2";  // |n| = 3
  const std::string rest = link("carriage", "2.0", "0.1 0.05 -0.1", "0.2 0.3 -0.1") + link("arm") + bare_link("marker") +
                           joint("elbow", "continuous", "carriage", "arm", "0.3 -0.1 0.2", "0.2 -0.5 0.4", "<axis xyz=\"0 1 0\"/>") +
                           joint("mark", "fixed", "carriage", "marker", "0.1 0.2 0.3", "0.4 0.5 0.6");
  const Model<double> planar =
      build_model(robot(bare_link("base") + rest + joint("plane", "planar", "base", "carriage", "0.5 0.2 0.1", "0.3 -0.6 0.2",
                                                         "<axis xyz=\"" + n + "\"/>")));
  REQUIRE(planar.nv() == 4);
  const int carriage = planar.body_index("carriage");
  CHECK(planar.joint(carriage).type == treedyn::JointType::planar);
  // the link frame is kept as the body's named frame: ^L X_B = (Q, 0) with Q a rotation taking e_z to n
  const treedyn::Matrix3<double> Q = planar.frame("carriage").placement.E;
  CHECK(planar.frame("carriage").body == carriage);
  CHECK(max_abs(planar.frame("carriage").placement.r) == 0.0);
  CHECK(max_abs(Q * Q.transpose() - treedyn::Matrix3<double>::Identity()) <= 1e-15);
  CHECK(Q.determinant() > 0.0);
  CHECK(max_abs(Q.col(2) - V3(1, 2, 2) / 3.0) <= 1e-15);

  // the reference chain uses the planar joint's in-plane axes u = Q e_x, w = Q e_y (in the joint frame)
  const auto axis = [](const V3& a) {
    std::ostringstream s;
    s.precision(17);
    s << "<axis xyz=\"" << a.x() << ' ' << a.y() << ' ' << a.z() << "\"/>";
    return s.str();
  };
  const Model<double> chain = build_model(robot(
      bare_link("base") + bare_link("px") + bare_link("py") + rest +
      joint("jx", "prismatic", "base", "px", "0.5 0.2 0.1", "0.3 -0.6 0.2", axis(Q.col(0)) + "<limit lower=\"-9\" upper=\"9\" velocity=\"1\" effort=\"1\"/>") +
      joint("jy", "prismatic", "px", "py", "0 0 0", "0 0 0", axis(Q.col(1)) + "<limit lower=\"-9\" upper=\"9\" velocity=\"1\" effort=\"1\"/>") +
      joint("jt", "continuous", "py", "carriage", "0 0 0", "0 0 0", "<axis xyz=\"" + n + "\"/>")));
  REQUIRE(chain.nv() == 4);
  const int cx = chain.v_offset(chain.joint_index("jx")), ce = chain.v_offset(chain.joint_index("elbow"));
  const int px = planar.v_offset(carriage), pe = planar.v_offset(planar.joint_index("elbow"));

  treedyn::Data<double> dp(planar), dc(chain);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    treedyn::test::Rng rng(seed);
    const Eigen::VectorXd qp = rng.matrix<double>(4, 1) * 2.0;  // (x, y, θ) and the elbow angle
    Eigen::VectorXd qc(4);
    qc.segment<3>(cx) = qp.segment<3>(px);
    qc(ce) = qp(pe);
    // kinematics: the link frames and the arm are where the chain puts them
    for (const char* name : {"carriage", "arm", "marker"}) {
      const treedyn::Transform<double> a = frame_world(planar, dp, qp, name), b = frame_world(chain, dc, qc, name);
      CHECK(max_abs(a.motion_matrix() - b.motion_matrix()) <= 1e-13);
    }
    // velocities: the planar joint's (v_x, v_y) are in the rotated body frame, the chain's (ẋ, ẏ) are not
    const double c = std::cos(qp(px + 2)), s = std::sin(qp(px + 2));
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(4, 4);  // q̇_chain = T v_planar
    T(cx, px) = c;
    T(cx, px + 1) = -s;
    T(cx + 1, px) = s;
    T(cx + 1, px + 1) = c;
    T(cx + 2, px + 2) = 1.0;
    T(ce, pe) = 1.0;
    const Eigen::MatrixXd Hp = treedyn::test::crba_dense(planar, dp, qp), Hc = treedyn::test::crba_dense(chain, dc, qc);
    CHECK(rel(Hp, T.transpose() * Hc * T) <= 1e-13);
    // at rest (Ṫ v = 0): v̇_planar = Tᵀ q̈_chain under the matching forces τ_chain = T τ_planar
    const Eigen::VectorXd tau = rng.matrix<double>(4, 1), zero = Eigen::VectorXd::Zero(4);
    const Eigen::VectorXd ap = treedyn::aba(planar, dp, qp, zero, tau);
    const Eigen::VectorXd ac = treedyn::aba(chain, dc, qc, zero, Eigen::VectorXd(T * tau));
    CHECK(rel(ap, T.transpose() * ac) <= 1e-12);
  }
}
