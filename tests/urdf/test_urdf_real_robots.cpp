// What real robot descriptions need (issue 39): massless links on moving joints given an inertia that keeps
// their pivot positive (urdf/detail/massless_links.hpp), <mimic> tags that name a missing or fixed joint
// reported and skipped, the report's order and its one line for merged fixed links, the unambiguous
// treedyn::load_urdf, and every URDF at hand loaded and run through the ABA at its neutral configuration.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "treedyn/algorithms/aba.hpp"
#include "support/crba_dense.hpp"
#include "treedyn/model/configuration.hpp"
#include "urdf/urdf_test_support.hpp"

using namespace urdf_test;
using Catch::Matchers::Contains;
using treedyn::urdf::InertiaPolicy;
using Kind = treedyn::urdf::Diagnostic::Kind;

namespace {

/// H at q, dense.
Eigen::MatrixXd mass_matrix(const treedyn::Model<double>& model, const Eigen::VectorXd& q) {
  treedyn::Data<double> data(model);
  return treedyn::test::crba_dense(model, data, q);
}

/// q̈ = ABA(q, 0, 0) at the neutral configuration.
Eigen::VectorXd neutral_aba(const treedyn::Model<double>& model) {
  treedyn::Data<double> data(model);
  Eigen::VectorXd q(model.nq());
  treedyn::neutral(model, q);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
  return treedyn::aba(model, data, q, zero, zero);
}

}  // namespace

TEST_CASE("urdf: massless links on moving joints", "[urdf][massless]") {
  const std::string path = test_file("massless_gripper");
  const double eps = std::numeric_limits<double>::epsilon();
  // M2 on this robot: m̄ = median(4, 2, 0.5) = 2 kg, ρ² = median(0.06/4, 0.02/2, 0.001/0.5) = 0.01 m²
  const double m_star = std::sqrt(eps) * 2.0, rho2 = 0.01;
  SECTION("repair (the default): the four pivotless links get the point mass, named first in the report") {
    const auto loaded = treedyn::urdf::load<double>(path);
    const treedyn::Model<double>& model = loaded.model;
    REQUIRE(model.nv() == 7);
    REQUIRE(loaded.report.count(Kind::massless_repaired) == 4);
    const std::vector<std::string> lines = loaded.report.lines();
    CHECK_THAT(lines.at(0), Contains(path + ": link 'jaw_left' (joint 'jaw_left_joint'): massless link on a moving joint"));
    CHECK_THAT(lines.at(1), Contains("link 'jaw_right' (joint 'jaw_right_joint')"));
    CHECK_THAT(lines.at(2), Contains("link 'thumb_base'"));
    CHECK_THAT(lines.at(3), Contains("link 'thumb_tip'") && Contains("given a point mass of 2.98e-08 kg"));
    CHECK(lines.back() == path + ": 1 fixed link merged into its parent, kept as named frames (link 'jaw_left_tip')");
    for (const char* name : {"jaw_left", "jaw_right", "thumb_base", "thumb_tip"}) {
      const treedyn::RigidInertia<double>& I = model.inertia(model.body_index(name));
      CHECK(I.m == m_star);
      CHECK(I.h.norm() == 0.0);
      CHECK(std::abs(I.I.matrix()(0, 0) - m_star * rho2) <= 1e-15 * m_star * rho2);
    }
    // the massless virtual link keeps its zero inertia: the hand below it keeps its pivot positive
    CHECK(model.inertia(model.body_index("virtual")).m == 0.0);
    CHECK(neutral_aba(model).allFinite());
    check_dynamics(model);
    // H's entry of a repaired revolute joint is the added m* ρ² (about an axis through the link origin),
    // of a repaired prismatic one m*; every entry moves by at most m* (ρ² + d_j d_k) per repaired link,
    // d ≤ 0.25 m here (the distance from the arm's axis to the jaws), d = 1 for the prismatic jaw
    Eigen::VectorXd q(model.nq());  // the neutral configuration, where the distances d are the file's
    treedyn::neutral(model, q);
    const Eigen::MatrixXd H = mass_matrix(model, q);
    const Eigen::MatrixXd H_kept = mass_matrix(treedyn::urdf::build_model<double>(path, with(InertiaPolicy::as_is)), q);
    const Eigen::Index jaw = model.v_offset(model.body_index("jaw_left"));
    const Eigen::Index slide = model.v_offset(model.body_index("jaw_right"));
    CHECK(H_kept(jaw, jaw) == 0.0);
    CHECK(std::abs(H(jaw, jaw) - m_star * rho2) <= 1e-12 * m_star * rho2);
    CHECK(std::abs(H(slide, slide) - m_star) <= 1e-12 * m_star);
    CHECK(max_abs(H - H_kept) <= 4 * m_star * (rho2 + 1.0));
    CHECK(max_abs(H - H_kept) >= m_star);  // the prismatic jaw's own entry
    const Eigen::Index arm = model.v_offset(model.body_index("arm"));
    CHECK(std::abs(H(arm, arm) - H_kept(arm, arm)) <= 4 * m_star * (rho2 + 0.25 * 0.25));
    CHECK(std::abs(H(arm, arm) - H_kept(arm, arm)) <= 1.3e-7 * H_kept(arm, arm));  // 5.2e-9 of 0.0455
  }
  SECTION("float: the same links, m* = √ε_float m̄") {
    const auto loaded = treedyn::urdf::load<float>(path);
    CHECK(loaded.report.count(Kind::massless_repaired) == 4);
    CHECK(loaded.model.inertia(loaded.model.body_index("jaw_left")).m ==
          std::sqrt(std::numeric_limits<float>::epsilon()) * 2.0f);
  }
  SECTION("as_is: reported and kept, so the ABA meets the zero pivot") {
    const auto loaded = treedyn::urdf::load<double>(path, with(InertiaPolicy::as_is));
    CHECK(loaded.report.count(Kind::massless_kept) == 4);
    CHECK_THAT(loaded.report.lines().at(0), Contains("link 'jaw_left'") && Contains("loaded as is (InertiaPolicy::as_is)"));
    CHECK_FALSE(neutral_aba(loaded.model).allFinite());
  }
  SECTION("strict: refused, naming the first link") {
    CHECK_THROWS_WITH(build_model(path, with(InertiaPolicy::strict)),
                      Contains(path + ": link 'jaw_left' (joint 'jaw_left_joint'): massless link on a moving joint") &&
                          Contains("(4 such link(s); give each an <inertial>, or load with InertiaPolicy::repair)"));
  }
}

TEST_CASE("urdf: mimic tags on fixed or missing joints are reported and skipped", "[urdf][mimic]") {
  const std::string path = test_file("mimic_faults");
  const auto loaded = treedyn::urdf::load<double>(path);
  REQUIRE(loaded.model.nv() == 3);
  REQUIRE(loaded.mimics.size() == 1);
  CHECK(loaded.mimics[0].joint == "middle_joint");
  CHECK(loaded.mimics[0].mimicked_index == loaded.model.joint_index("index_joint"));
  CHECK(loaded.mimics[0].multiplier == 0.9);
  REQUIRE(loaded.report.count(Kind::mimic_skipped) == 3);
  const std::vector<std::string> lines = loaded.report.lines();
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == path + ": joint 'index_joint': <mimic> names joint 'index_motor_joint', which does not exist; "
                           "the <mimic> is skipped");
  CHECK(lines[1] == path + ": joint 'index_cover_joint': <mimic> on a joint without one coordinate (it is not "
                           "revolute, continuous or prismatic); the <mimic> is skipped");
  CHECK(lines[2] == path + ": joint 'index_tip_joint': <mimic> names joint 'index_cover_joint', which is not "
                           "revolute, continuous or prismatic; the <mimic> is skipped");
  CHECK_THAT(lines[3], Contains("joint 'middle_joint': mimics joint 'index_joint'; loaded as an independent joint"));
  CHECK(lines[4] == path + ": 1 fixed link merged into its parent, kept as named frames (link 'index_cover')");
  CHECK(neutral_aba(loaded.model).allFinite());
}

TEST_CASE("urdf: the report puts repairs first and merged fixed links on one line", "[urdf][report]") {
  std::string body = link("trunk");
  for (int k = 0; k < 34; ++k) {
    const std::string name = "sensor" + std::to_string(k);
    body += bare_link(name) + joint(name + "_joint", "fixed", "trunk", name);
  }
  body += link("leg", "1.0", "0 0 0", "0 0 0", "ixx=\"1e-6\" ixy=\"1e-6\" ixz=\"1e-6\" iyy=\"1e-6\" iyz=\"1e-6\" izz=\"1e-6\"") +
          joint("leg_joint", "revolute", "trunk", "leg");
  const auto loaded = treedyn::urdf::load<double>(robot(body));
  CHECK(loaded.report.count(Kind::fixed_link_merged) == 34);
  const std::vector<std::string> lines = loaded.report.lines();
  REQUIRE(lines.size() == 2);
  CHECK_THAT(lines[0], Contains("<string>: link 'leg': principal moments of inertia break the triangle inequality"));
  CHECK(lines[1] == "<string>: 34 fixed links merged into their parents, kept as named frames (link 'sensor0', "
                    "link 'sensor1', link 'sensor2', link 'sensor3', link 'sensor4', and 29 more)");
}

TEST_CASE("urdf: a massless root given a floating base, with one revolute child, is repaired (M3)", "[urdf][massless]") {
  const std::string path = std::string(TREEDYN_ROBOTS_DIR) + "/arm7.urdf";
  const treedyn::Model<double> fixed = treedyn::urdf::load<double>(path).model;
  std::vector<double> masses;  // M2's m̄ over the links with mass (link1 … link7; 'world' has none)
  for (int i = 0; i < fixed.nbodies(); ++i) masses.push_back(fixed.inertia(i).m);
  const double m_star = std::sqrt(std::numeric_limits<double>::epsilon()) * treedyn::urdf::detail::median_mass(masses);
  SECTION("repair: the root 'world' gets the point mass, and the ABA runs at neutral and at random states") {
    const auto loaded = treedyn::urdf::load<double>(path, with(InertiaPolicy::repair, true));
    REQUIRE(loaded.report.count(Kind::massless_repaired) == 1);
    CHECK_THAT(loaded.report.lines().at(0),
               Contains("link 'world'") && Contains("singular at the neutral configuration") &&
                   Contains("floating base with one revolute child"));
    const treedyn::Model<double>& model = loaded.model;
    REQUIRE(model.joint(0).type == treedyn::JointType::free_flyer);
    CHECK(model.inertia(0).m == Approx(m_star).epsilon(1e-12));
    CHECK(neutral_aba(model).allFinite());
    treedyn::Data<double> data(model);
    for (int k = 0; k < 5; ++k) {
      const Eigen::VectorXd q = treedyn::random_configuration(model, 100u + static_cast<unsigned>(k));
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
      CHECK(treedyn::aba(model, data, q, zero, zero).allFinite());
      CHECK(data.aba_status.ok());
    }
  }
  SECTION("strict refuses the file naming the link; as_is reports it and keeps the singular pivot") {
    CHECK_THROWS_WITH(treedyn::urdf::load<double>(path, with(InertiaPolicy::strict, true)),
                      Contains("link 'world'") && Contains("singular at the neutral configuration"));
    const auto kept = treedyn::urdf::load<double>(path, with(InertiaPolicy::as_is, true));
    CHECK(kept.report.count(Kind::massless_kept) == 1);
    CHECK(kept.model.inertia(0).m == 0.0);
    CHECK(neutral_aba(kept.model).array().isNaN().all());
  }
  SECTION("with a fixed base the root is the world: nothing to repair") {
    CHECK(treedyn::urdf::load<double>(path).report.count(Kind::massless_repaired) == 0);
  }
}

TEST_CASE("urdf: treedyn::load_urdf is unambiguous beside urdfdom's ::urdf", "[urdf]") {
  using namespace treedyn;  // with it, urdf::load would be ambiguous (urdfdom declares ::urdf)
  const UrdfOptions options;
  const auto loaded = load_urdf<double>(test_file("mimic_gripper"), options);
  CHECK(loaded.model.nv() == 2);
  CHECK(loaded.mimics.size() == 1);
}

TEST_CASE("urdf: every URDF at hand loads and runs the ABA at its neutral configuration", "[urdf][robots]") {
  namespace fs = std::filesystem;
  std::vector<fs::path> folders = {TREEDYN_ROBOTS_DIR, std::string(TREEDYN_URDF_TEST_DIR) + "/robots"};
  // the peers' robot descriptions, beside the repository when they are there (never copied into it)
  const char* peers = std::getenv("TREEDYN_PEERS_DIR");
  const fs::path peer_root = peers ? fs::path(peers) : fs::path(TREEDYN_PEERS_DIR);
  for (const char* sub : {"pinocchio/models", "rbdl/addons/urdfreader"})
    if (fs::is_directory(peer_root / sub)) folders.push_back(peer_root / sub);
  // the fuzzer's seeds hold inputs that are wrong on purpose: those may be rejected (with the loader's error)
  const fs::path corpus = fs::path(TREEDYN_URDF_TEST_DIR) / ".." / "fuzz" / "corpus";
  folders.push_back(corpus);
  int loaded_count = 0, rejected_seeds = 0;
  for (const fs::path& folder : folders)
    for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() != ".urdf") continue;
      for (const bool floating : {false, true}) {
        INFO(entry.path().string() << (floating ? " (floating base)" : ""));
        treedyn::urdf::Loaded<double> loaded;
        try {
          loaded = treedyn::urdf::load<double>(entry.path().string(), with(InertiaPolicy::repair, floating));
        } catch (const std::invalid_argument& error) {
          REQUIRE(folder == corpus);
          CHECK_THAT(error.what(), Contains("treedyn::urdf: " + entry.path().string() + ": "));
          rejected_seeds += floating ? 0 : 1;
          continue;
        }
        // a free flyer on a massless root link (arm7's and the PUMA's 'world') is repaired too (M3)
        CHECK(neutral_aba(loaded.model).allFinite());
        loaded_count += floating ? 0 : 1;
      }
    }
  CHECK(loaded_count >= 14);  // examples/robots (5), tests/urdf/robots (6) and the valid fuzzer seeds
  CHECK(rejected_seeds >= 4);
}
