// oscm, oscm_faithful and oscm_dense: Λ = J M⁻¹ Jᵀ by the Υ recursion of Jain (n.d.) (≡ EFPA) equals
// the LTDL reference path and an independent dense J·H⁻¹·Jᵀ on every robot and on seeded random trees with
// 1–8 frames on mixed branches and mixed row selections; is symmetric PSD; bad frames throw. (ABA with
// frame forces, the block structure, osim and the failure statuses: test_oscm_properties.cpp.)
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "algorithms/oscm/oscm_cases.hpp"
#include "support/crba_dense.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/random.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEMPLATE_TEST_CASE("oscm equals oscm_dense and J·H⁻¹·Jᵀ; Λ⁻¹ is symmetric PSD", "[oscm]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  int index = 0;
  for (const RobotCase<T>& c : robot_cases<T>(30)) {
    const Model<T>& model = c.model;
    const int n = model.nv();
    Data<T> data(model);
    const State<T> s = random_state(model, 6100u + static_cast<unsigned>(index));
    const int nc = 1 + index % 8;
    OperationalFrames<T> frames = random_frames(model, nc, 6200u + static_cast<unsigned>(index));
    ++index;
    INFO(c.name << ", " << nc << " frames, " << frames.rows() << " rows");
    const Eigen::MatrixX<T> compliance = oscm(model, data, frames, s.q);
    REQUIRE(frames.status.ok());
    const Eigen::MatrixX<T> compliance_faithful = oscm_faithful(model, data, frames, s.q);
    REQUIRE(frames.status.ok());
    // O6 reads Ω_w column by column as its rows (Ω_wᵀ for Ω_w): every Ω formed must be exactly symmetric
    for (int i = 0; i < model.nbodies(); ++i)
      if (frames.on_path[static_cast<std::size_t>(i)]) {
        const Matrix6<T>& Omega = frames.Omega[static_cast<std::size_t>(i)];
        INFO("Ω of body " << i);
        CHECK(Omega == Omega.transpose());
      }
    const Eigen::MatrixX<T> compliance_dense = oscm_dense(model, data, frames, s.q);
    REQUIRE(frames.status.ok());
    const Eigen::MatrixX<T> reference = dense_lambda(model, data, s.q, frames);
    const double kappa = spd_condition(crba_dense(model, data, s.q));
    const double scale = static_cast<double>(reference.norm()) + static_cast<double>(eps<T>());
    const double tol = lambda_tolerance<T>(n, kappa, scale);
    INFO("κ(H) = " << kappa << ", ‖Λ⁻¹‖ = " << scale);
    CHECK(static_cast<double>((compliance - reference).norm()) <= tol);
    CHECK(static_cast<double>((compliance_dense - reference).norm()) <= tol);
    CHECK(static_cast<double>((compliance - compliance_dense).norm()) <= tol);
    CHECK(static_cast<double>((compliance_faithful - reference).norm()) <= tol);
    CHECK(static_cast<double>((compliance - compliance_faithful).norm()) <= tol);
    CHECK(compliance == compliance.transpose());  // both triangles written from one value
    CHECK(compliance_faithful == compliance_faithful.transpose());
    CHECK(compliance_dense == compliance_dense.transpose());
    const Eigen::VectorXd ev =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(compliance.template cast<double>(), Eigen::EigenvaluesOnly).eigenvalues();
    CHECK(ev.minCoeff() >= -tol);
  }
}

TEMPLATE_TEST_CASE("oscm on multi-DoF random trees and chains (spherical, planar, free-flyer joints)", "[oscm]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (int k = 0; k < 16; ++k) {
    const Model<double> md =
        (k % 2 == 0) ? robots::random_tree<double>(5 + 3 * k, 900u + static_cast<unsigned>(k))
                     : robots::random_chain<double>(2 + k, 950u + static_cast<unsigned>(k),
                                                    {JointType::revolute, JointType::prismatic, JointType::helical,
                                                     JointType::spherical, JointType::planar, JointType::free_flyer});
    const Model<T> model = md.template cast<T>();
    Data<T> data(model);
    const State<T> s = random_state(model, 6300u + static_cast<unsigned>(k));
    OperationalFrames<T> frames = random_frames(model, 1 + k % 8, 6400u + static_cast<unsigned>(k));
    INFO("case " << k << ": " << model.nbodies() << " bodies, " << frames.size() << " frames");
    const Eigen::MatrixX<T> compliance = oscm(model, data, frames, s.q);
    REQUIRE(frames.status.ok());
    const Eigen::MatrixX<T> reference = dense_lambda(model, data, s.q, frames);
    const double kappa = spd_condition(crba_dense(model, data, s.q));
    const double tol = lambda_tolerance<T>(model.nv(), kappa, static_cast<double>(reference.norm()));
    CHECK(static_cast<double>((compliance - reference).norm()) <= tol);
    CHECK(static_cast<double>((oscm_dense(model, data, frames, s.q) - reference).norm()) <= tol);
    CHECK(static_cast<double>((oscm_faithful(model, data, frames, s.q) - reference).norm()) <= tol);
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("OperationalFrames rejects bad frames with a message naming the frame and the reason", "[oscm]") {
  const Model<double> model = robots::arm7<double>();
  OperationalFrames<double> frames(model);
  frames.add(2, Transform<double>::identity(), FrameRows::all(), "wrist");
  const auto message = [&](auto&& call) -> std::string {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(message([&] { frames.add(7, Transform<double>::identity()); }), Contains("frame 1") && Contains("body 7"));
  CHECK_THAT(message([&] { frames.add(-1, Transform<double>::identity()); }), Contains("not a moving body"));
  CHECK_THAT(message([&] { frames.add(1, Transform<double>::identity(), FrameRows{0}); }), Contains("row selection"));
  CHECK_THAT(message([&] { frames.add(1, Transform<double>::identity(), FrameRows{0x40}); }), Contains("row selection"));
  Transform<double> bad = Transform<double>::identity();
  bad.r(1) = std::numeric_limits<double>::infinity();
  CHECK_THAT(message([&] { frames.add(1, bad); }), Contains("not finite"));
  bad = Transform<double>::identity();
  bad.E(0, 1) = 0.1;
  CHECK_THAT(message([&] { frames.add(1, bad); }), Contains("orthonormal"));
  CHECK_THAT(message([&] { frames.add(3, Transform<double>::identity(), FrameRows::all(), "wrist"); }),
             Contains("'wrist'") && Contains("duplicate name"));
  CHECK(frames.size() == 1);  // nothing was added by the failed calls
  CHECK(frames.rows() == 6);
}
#endif
