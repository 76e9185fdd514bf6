// URDF files as they exist in the wild, under the three inertia policies: placeholder inertias, a
// triangle-inequality violation, a non-PSD link (tests/urdf/robots/*.urdf; mimic joints and gravity:
// test_urdf_mimic.cpp). The repair's
// numbers are checked against closed forms worked out by hand from each file, and against the same file
// with those hand-repaired numbers written in; the projection itself against Moreau's characterisation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>

#include "support/crba_dense.hpp"
#include "support/random.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "urdf/urdf_test_support.hpp"

using namespace urdf_test;
using Catch::Matchers::Contains;
using treedyn::Model;
using treedyn::urdf::Diagnostic;
using treedyn::urdf::InertiaFault;
using treedyn::urdf::InertiaPolicy;
using treedyn::urdf::Options;
using V3 = treedyn::Vector3<double>;
using M3 = treedyn::Matrix3<double>;
using Kind = Diagnostic::Kind;

namespace {

const double eps = std::numeric_limits<double>::epsilon();

M3 rpy_matrix(double r, double p, double y) {
  return (Eigen::AngleAxisd(y, V3::UnitZ()) * Eigen::AngleAxisd(p, V3::UnitY()) * Eigen::AngleAxisd(r, V3::UnitX()))
      .toRotationMatrix();
}

/// Ī_C of body `i` (its rotational inertia about its centre of mass).
M3 inertia_about_com(const treedyn::RigidInertia<double>& I) {
  const M3 hx = treedyn::skew(I.h);
  return I.I.matrix() + hx * hx / I.m;
}

/// Every inertia diagnostic of the report as (element, fault).
std::vector<std::pair<std::string, InertiaFault>> inertia_findings(const treedyn::urdf::LoadReport& report) {
  std::vector<std::pair<std::string, InertiaFault>> out;
  for (const Diagnostic& d : report.diagnostics)
    if (d.kind == Kind::inertia_repaired || d.kind == Kind::inertia_kept) out.emplace_back(d.element, d.fault);
  return out;
}

/// Expect the loaded model's inertias to equal the reference model's (same bodies) to 1e-15 relative.
void check_same_inertias(const Model<double>& model, const Model<double>& reference) {
  REQUIRE(model.nbodies() == reference.nbodies());
  for (int i = 0; i < model.nbodies(); ++i) {
    INFO(model.name(i));
    CHECK(model.inertia(i).m == reference.inertia(i).m);
    CHECK(max_abs(model.inertia(i).matrix() - reference.inertia(i).matrix()) <=
          1e-15 * (1.0 + max_abs(reference.inertia(i).matrix())));
  }
}

}  // namespace

TEST_CASE("urdf repair: the projection of principal moments satisfies Moreau's characterisation", "[urdf][repair]") {
  // p = P_K(λ) iff p ∈ K, (λ − p)·p = 0 and (λ − p)·g ≤ 0 for the generators g of K; plus: no random valid
  // matrix is nearer (Frobenius) to Ī_C than its repair, whatever its principal axes
  treedyn::test::Rng rng(7);
  const V3 generators[3] = {V3(0, 1, 1), V3(1, 0, 1), V3(1, 1, 0)};
  int cases[3] = {0, 0, 0};  // (a), (b), (c) of the derivation all met
  for (int k = 0; k < 2000; ++k) {
    V3 lambda = 2.0 * treedyn::test::random_vec3<double>(rng);
    std::sort(lambda.data(), lambda.data() + 3);
    const V3 p = treedyn::urdf::project_principal_moments<double>(lambda);
    const V3 r = lambda - p;
    const double tol = 1e-14;
    CHECK(p(0) <= p(1));
    CHECK(p(1) <= p(2));
    CHECK(p(0) >= -tol);
    CHECK(p(0) + p(1) >= p(2) - tol);
    CHECK(std::abs(r.dot(p)) <= tol);
    for (const V3& g : generators) CHECK(r.dot(g) <= tol);
    if (r.norm() == 0.0) ++cases[0];
    else if (p(0) > 0.0) ++cases[1];
    else ++cases[2];
  }
  CHECK(cases[0] > 100);
  CHECK(cases[1] > 100);
  CHECK(cases[2] > 100);
  for (int k = 0; k < 200; ++k) {
    const M3 R = treedyn::test::random_rotation<double>(rng);
    const V3 lambda = 2.0 * treedyn::test::random_vec3<double>(rng);
    const M3 A = R * lambda.asDiagonal() * R.transpose();
    const auto fixed = treedyn::urdf::repair_inertia<double>(1.0, V3::Zero(), A, 0.0);
    const double distance = (fixed.inertia_com - A).norm();
    for (int t = 0; t < 20; ++t) {
      const M3 Q = treedyn::test::random_rotation<double>(rng);
      const V3 x = 2.0 * treedyn::test::random_vec3<double>(rng).cwiseAbs();
      const V3 valid(x(1) + x(2), x(0) + x(2), x(0) + x(1));  // Σ x_k g_k ∈ K
      const M3 B = Q * valid.asDiagonal() * Q.transpose();
      // the floor (√ε s) may add up to √3 f to the projection's distance
      CHECK(distance <= (B - A).norm() + 2.0 * std::sqrt(eps) * (std::abs(lambda.maxCoeff()) + 1.0));
    }
  }
}

TEST_CASE("urdf repair: a placeholder 1e-6 rank-1 inertia on a dummy base and a sensor link", "[urdf][repair]") {
  const std::string path = test_file("placeholder_base");
  SECTION("strict rejects, naming the link and the rule") {
    CHECK_THROWS_WITH(build_model(path, with(InertiaPolicy::strict, true)),
                      Contains(path + ": link 'base': ") && Contains("triangle inequality"));
  }
  SECTION("repair loads, reports exactly the two links, and gives the hand-computed inertia") {
    const auto loaded = treedyn::urdf::load<double>(path, with(InertiaPolicy::repair, true));
    const auto findings = inertia_findings(loaded.report);
    REQUIRE(findings.size() == 2);
    CHECK(findings[0] == std::make_pair(std::string("link 'base'"), InertiaFault::triangle));
    CHECK(findings[1] == std::make_pair(std::string("link 'imu_link'"), InertiaFault::triangle));
    CHECK(loaded.report.count(Kind::inertia_repaired) == 2);
    CHECK(loaded.report.count(Kind::fixed_link_merged) == 2);  // trunk and imu_link
    CHECK(loaded.report.count(Kind::mimic_independent) == 0);
    CHECK(loaded.report.diagnostics.size() == 4);
    // 1e-6 · 11ᵀ has moments (0, 0, 3e-6) about the axes ⟂ (1,1,1) and along it; the projection moves each
    // by d = 1e-6: (1, 1, 2)·1e-6, i.e. Ī_C' = 1e-6 (1 + 11ᵀ/3); the change is √3·1e-6 of |Ī_C| = 3e-6
    for (const Diagnostic& d : loaded.report.diagnostics)
      if (d.kind == Kind::inertia_repaired) CHECK(std::abs(d.relative_change - 1.0 / std::sqrt(3.0)) <= 1e-12);
    const std::string repaired_text =
        "ixx=\"1.3333333333333333e-6\" ixy=\"3.3333333333333333e-7\" ixz=\"3.3333333333333333e-7\" "
        "iyy=\"1.3333333333333333e-6\" iyz=\"3.3333333333333333e-7\" izz=\"1.3333333333333333e-6\"";
    const std::string placeholder = "ixx=\"1e-6\" ixy=\"1e-6\" ixz=\"1e-6\" iyy=\"1e-6\" iyz=\"1e-6\" izz=\"1e-6\"";
    const std::string hand = replaced(replaced(read_text(path), placeholder, repaired_text), placeholder, repaired_text);
    const Model<double> reference = build_model(hand, with(InertiaPolicy::strict, true));
    check_same_inertias(loaded.model, reference);
    // the merged floating body and the leg: the usual identities
    REQUIRE(loaded.model.nv() == 9);
    check_dynamics(loaded.model);
    // the repaired inertia alone is full rank and valid
    const auto alone = treedyn::urdf::repair_inertia<double>(0.001, V3::Zero(), M3::Constant(1e-6), 0.0);
    const V3 moments = Eigen::SelfAdjointEigenSolver<M3>(alone.inertia_com).eigenvalues();
    CHECK(std::abs(moments(0) - 1e-6) <= 1e-20);
    CHECK(std::abs(moments(1) - 1e-6) <= 1e-20);
    CHECK(std::abs(moments(2) - 2e-6) <= 1e-20);
  }
  SECTION("as_is keeps the numbers and reports them") {
    const auto loaded = treedyn::urdf::load<double>(path, with(InertiaPolicy::as_is, true));
    CHECK(loaded.report.count(Kind::inertia_kept) == 2);
    CHECK(loaded.report.count(Kind::inertia_repaired) == 0);
    // against the repaired model: only the merged base body differs, by the two links' rotational changes
    // (both axis-aligned with the base frame, masses unchanged): 2 (1e-6 · 11ᵀ − 1e-6 (1 + 11ᵀ/3))
    const Model<double> repaired = build_model(path, with(InertiaPolicy::repair, true));
    REQUIRE(loaded.model.nbodies() == repaired.nbodies());
    Eigen::Matrix<double, 6, 6> expected = Eigen::Matrix<double, 6, 6>::Zero();
    expected.topLeftCorner<3, 3>() = 2e-6 * (M3::Constant(2.0 / 3.0) - M3::Identity());
    CHECK(max_abs(loaded.model.inertia(0).matrix() - repaired.inertia(0).matrix() - expected) <= 1e-16);
    for (int i = 1; i < repaired.nbodies(); ++i)
      CHECK(loaded.model.inertia(i).matrix() == repaired.inertia(i).matrix());
    // the trunk's inertia, merged into the base body, still makes the floating body's pivot positive
    check_dynamics(loaded.model);
  }
}

TEST_CASE("urdf repair: a gripper link 16 % over the triangle inequality", "[urdf][repair]") {
  const std::string path = test_file("gripper_triangle");
  SECTION("strict rejects") {
    CHECK_THROWS_WITH(build_model(path, with(InertiaPolicy::strict)),
                      Contains(path + ": joint 'wrist' (child link 'gripper'): ") && Contains("triangle inequality"));
  }
  SECTION("repair: moments (1, 1, 2.32)·1e-4 become (1 + d, 1 + d, 2.32 − d)·1e-4, d = 0.32/3, axes kept") {
    const auto loaded = treedyn::urdf::load<double>(path);  // the default policy
    REQUIRE(loaded.report.diagnostics.size() == 1);
    const Diagnostic& d = loaded.report.diagnostics[0];
    CHECK(d.kind == Kind::inertia_repaired);
    CHECK(d.element == "link 'gripper'");
    CHECK(d.fault == InertiaFault::triangle);
    const double dd = 0.32 / 3;
    const double expected_relative = std::sqrt(3.0) * dd / std::sqrt(1.0 + 1.0 + 2.32 * 2.32);
    CHECK(std::abs(d.relative_change - expected_relative) <= 1e-9);
    CHECK(std::abs(expected_relative - 0.0680) <= 1e-4);
    CHECK_THAT(loaded.report.to_string(), Contains(path + ": link 'gripper': principal moments") &&
                                              Contains("change of 0.068 of |I_C|"));
    // independent reference: Ī_C' = R diag(…) Rᵀ in link axes, R from the inertial's rpy, at c
    const M3 R = rpy_matrix(0.3, 0.2, -0.4);
    const M3 expected = R * V3(1e-4 + dd * 1e-4, 1e-4 + dd * 1e-4, 2.32e-4 - dd * 1e-4).asDiagonal() * R.transpose();
    const treedyn::RigidInertia<double>& I = loaded.model.inertia(loaded.model.body_index("gripper"));
    CHECK(max_abs(I.h / I.m - V3(0.04, 0.01, -0.005)) <= 1e-15);
    CHECK(max_abs(inertia_about_com(I) - expected) <= 1e-17);
    const V3 moments = Eigen::SelfAdjointEigenSolver<M3>(inertia_about_com(I)).eigenvalues();
    CHECK(moments(0) + moments(1) >= moments(2) - 1e-18);
    check_dynamics(loaded.model);
  }
  SECTION("as_is keeps the numbers: same model as the file with a valid inertia written in, but for the gripper") {
    const auto loaded = treedyn::urdf::load<double>(path, with(InertiaPolicy::as_is));
    REQUIRE(loaded.report.diagnostics.size() == 1);
    CHECK(loaded.report.diagnostics[0].kind == Kind::inertia_kept);
    const M3 R = rpy_matrix(0.3, 0.2, -0.4);
    const M3 as_written = R * V3(1e-4, 1e-4, 2.32e-4).asDiagonal() * R.transpose();
    const treedyn::RigidInertia<double>& I = loaded.model.inertia(loaded.model.body_index("gripper"));
    CHECK(max_abs(inertia_about_com(I) - as_written) <= 1e-17);
    check_dynamics(loaded.model);  // unphysical but positive definite: the algorithms run
  }
}

TEST_CASE("urdf repair: an antenna whose inertia is not positive semidefinite", "[urdf][repair]") {
  const std::string path = test_file("antenna_not_psd");
  SECTION("strict rejects") {
    CHECK_THROWS_WITH(build_model(path, with(InertiaPolicy::strict, true)),
                      Contains("joint 'antenna_joint' (child link 'antenna'): ") && Contains("not positive semidefinite"));
  }
  SECTION("repair: moments (−0.001, 0.02, 0.02) become (f, 0.02, 0.02), f = √ε (0.02 + m |c|²)") {
    const auto loaded = treedyn::urdf::load<double>(path, with(InertiaPolicy::repair, true));
    REQUIRE(loaded.report.diagnostics.size() == 1);
    const Diagnostic& d = loaded.report.diagnostics[0];
    CHECK(d.element == "link 'antenna'");
    CHECK(d.fault == InertiaFault::not_psd);
    const double f = std::sqrt(eps) * (0.02 + 0.2 * 0.1 * 0.1);
    CHECK(std::abs(d.relative_change - (0.001 + f) / std::sqrt(2 * 0.02 * 0.02 + 0.001 * 0.001)) <= 1e-12);
    const treedyn::RigidInertia<double>& I = loaded.model.inertia(loaded.model.body_index("antenna"));
    CHECK(max_abs(inertia_about_com(I) - V3(0.02, 0.02, f).asDiagonal().toDenseMatrix()) <= 1e-17);
    // the antenna turns about its own axis through its centre of mass: its pivot is the floor, positive
    check_dynamics(loaded.model);
  }
  SECTION("as_is keeps izz = −0.001: RNEA and the CRBA run, the ABA reports the pivot that is not > 0") {
    const auto loaded = treedyn::urdf::load<double>(path, with(InertiaPolicy::as_is));
    REQUIRE(loaded.report.diagnostics.size() == 1);
    CHECK(loaded.report.diagnostics[0].kind == Kind::inertia_kept);
    const Model<double>& model = loaded.model;
    const treedyn::RigidInertia<double>& I = model.inertia(model.body_index("antenna"));
    CHECK(max_abs(inertia_about_com(I) - V3(0.02, 0.02, -0.001).asDiagonal().toDenseMatrix()) <= 1e-17);
    treedyn::Data<double> data(model);
    const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq()), qd = Eigen::VectorXd::Zero(model.nv());
    const Eigen::MatrixXd H = treedyn::test::crba_dense(model, data, q);
    const int k = model.v_offset(model.joint_index("antenna_joint"));
    CHECK(std::abs(H(k, k) - (-0.001)) <= 1e-15);  // the antenna's own moment about its axis
    const Eigen::VectorXd tau = treedyn::rnea(model, data, q, qd, Eigen::VectorXd::Ones(model.nv()));
    CHECK(tau.allFinite());
    (void)treedyn::aba(model, data, q, qd, tau);
    CHECK_FALSE(data.aba_status.ok());
  }
}

TEST_CASE("urdf repair: massless links, point masses and rank-deficient links", "[urdf][repair]") {
  SECTION("a massless link keeps a valid rotational inertia, and gets an invalid one projected, without floor") {
    const std::string rotor = "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"";
    const auto chain = [](const std::string& inertia) {
      return robot(link("a") + link("b", "0", "0 0 0", "0 0 0", inertia) + link("c") + joint("j1", "continuous", "a", "b") +
                   joint("j2", "continuous", "b", "c"));
    };
    const auto kept = treedyn::urdf::load<double>(chain(rotor));
    CHECK(kept.report.diagnostics.empty());
    CHECK(max_abs(kept.model.inertia(kept.model.body_index("b")).I.matrix() - 0.1 * M3::Identity()) == 0.0);
    // moments (0.1, 0.1, 0.3): d = 0.1/3, (0.1 + d, 0.1 + d, 0.3 − d), no floor on a massless link
    const auto fixed = treedyn::urdf::load<double>(chain(replaced(rotor, "izz=\"0.1\"", "izz=\"0.3\"")));
    REQUIRE(fixed.report.diagnostics.size() == 1);
    CHECK(fixed.report.diagnostics[0].fault == InertiaFault::triangle);
    const double d = 0.1 / 3;
    CHECK(max_abs(fixed.model.inertia(fixed.model.body_index("b")).I.matrix() -
                  V3(0.1 + d, 0.1 + d, 0.3 - d).asDiagonal().toDenseMatrix()) <= 1e-16);
  }
  SECTION("a point mass at its joint gets the floor from the robot's other links") {
    // link b: m = 2, Ī_C = 0, c = 0; the other links (link()'s default) have m = 1.5 and a largest moment
    // λ3: the median of λ3 / m is theirs, so f = √ε · 2 · λ3 / 1.5 on every principal axis
    const std::string zero = "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"";
    const std::string xml = robot(link("a") + link("b", "2", "0 0 0", "0 0 0", zero) + link("c") +
                                  joint("j1", "continuous", "a", "b", "0 0 0.3", "0 0 0", "<axis xyz=\"0 0 1\"/>") +
                                  joint("j2", "continuous", "b", "c", "0 0 0.3", "0 0 0", "<axis xyz=\"0 0 1\"/>"));
    const auto loaded = treedyn::urdf::load<double>(xml);
    REQUIRE(loaded.report.diagnostics.size() == 1);
    CHECK(loaded.report.diagnostics[0].fault == InertiaFault::rank_deficient);
    CHECK(std::isinf(loaded.report.diagnostics[0].relative_change));
    M3 Ic;
    Ic << 0.04, 0.001, -0.002, 0.001, 0.05, 0.003, -0.002, 0.003, 0.03;
    const double lambda3 = Eigen::SelfAdjointEigenSolver<M3>(Ic).eigenvalues()(2);
    const double f = std::sqrt(eps) * 2.0 * lambda3 / 1.5;
    const treedyn::RigidInertia<double>& I = loaded.model.inertia(loaded.model.body_index("b"));
    CHECK(max_abs(I.I.matrix() - f * M3::Identity()) <= 1e-12 * f);
    check_dynamics(loaded.model);
  }
  SECTION("a valid link is never touched; every test robot's inertias load unchanged") {
    for (const char* name : {"humanoid30", "chain30", "arm7", "puma560"}) {
      const auto loaded = treedyn::urdf::load<double>(std::string(TREEDYN_ROBOTS_DIR) + "/" + name + ".urdf");
      INFO(name);
      CHECK(loaded.report.count(Kind::inertia_repaired) == 0);
      CHECK(loaded.report.count(Kind::inertia_kept) == 0);
    }
  }
}
