// What Λ = J M⁻¹ Jᵀ from oscm means and how it fails (its agreement with the references: test_oscm.cpp):
// it reproduces ABA with frame forces; it has exactly zero blocks between two subtrees of a fixed base and
// root-only coupling on a floating base; osim·oscm = I for full-rank J; singular cases give statuses.
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

TEMPLATE_TEST_CASE("oscm: frame forces through ABA with f_ext give frame accelerations Λ⁻¹·F (§5.1 check b)", "[oscm]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  int index = 0;
  for (const RobotCase<T>& c : robot_cases<T>(12)) {
    const Model<T>& model = c.model;
    Data<T> data(model);
    const State<T> s = random_state(model, 6500u + static_cast<unsigned>(index));
    OperationalFrames<T> frames = random_frames(model, 1 + index % 6, 6600u + static_cast<unsigned>(index));
    Rng rng(6700u + static_cast<unsigned>(index++));
    INFO(c.name << ", " << frames.size() << " frames");
    const Eigen::VectorX<T> F = rng.matrix<T>(frames.rows(), 1);
    const Eigen::VectorX<T> LF = oscm(model, data, frames, s.q) * F;
    REQUIRE(frames.status.ok());
    // F_a (frame coordinates, selected rows) acts on body b(a) as (^aX_b)ᵀ Q_aᵀ F_a.
    std::vector<Force<T>> f_ext(static_cast<std::size_t>(model.nbodies()), Force<T>::Zero());
    for (int a = 0; a < frames.size(); ++a) {
      Force<T> fa = Force<T>::Zero();
      for (int k = 0; k < frames.row_count(a); ++k) fa(frames.row_index(a, k)) = F(frames.row_offset(a) + k);
      f_ext[static_cast<std::size_t>(frames.body(a))] += frames.placement(a).apply_inverse_force(fa);
    }
    // q̇ = 0, τ = 0: the response to F is a_b(F) − a_b(0) (gravity's share cancels, ABA is affine in f_ext);
    // the frame's acceleration is ^aX_b a_b on the selected rows.
    const Eigen::VectorX<T> zero = Eigen::VectorX<T>::Zero(model.nv());
    aba(model, data, s.q, zero, zero);
    REQUIRE(data.aba_status.ok());
    const std::vector<Motion<T>> a_without(data.a.begin(), data.a.end());
    aba(model, data, s.q, zero, zero, f_ext);
    REQUIRE(data.aba_status.ok());
    Eigen::VectorX<T> accel(frames.rows());
    for (int a = 0; a < frames.size(); ++a) {
      const int b = frames.body(a);
      const Motion<T> acc = frames.placement(a).apply_motion(data.a[b] - a_without[static_cast<std::size_t>(b)]);
      for (int k = 0; k < frames.row_count(a); ++k) accel(frames.row_offset(a) + k) = acc(frames.row_index(a, k));
    }
    const double kappa = spd_condition(crba_dense(model, data, s.q));
    const double tol = lambda_tolerance<T>(model.nv(), kappa, static_cast<double>(LF.norm()) + 1.0);
    CHECK(static_cast<double>((accel - LF).norm()) <= tol);
  }
}

TEMPLATE_TEST_CASE("oscm: two subtrees of a fixed base decouple exactly; a floating base couples through the root",
                   "[oscm]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  {  // fixed base: two copies of a random tree, frames on both
    const Model<T> model = side_by_side(robots::random_tree<double>(9, 77).template cast<T>());
    Data<T> data(model);
    const State<T> s = random_state(model, 6800);
    Rng rng(6801);
    OperationalFrames<T> frames(model);
    const int half = model.nbodies() / 2;
    for (int k = 0; k < 6; ++k)
      frames.add((k % 2) * half + rng.below(half), random_placement<T>(rng), mixed_rows(k, rng));
    const Eigen::MatrixX<T> compliance = oscm(model, data, frames, s.q);
    REQUIRE(frames.status.ok());
    // A free joint's subtree moves independently of the rest (its projected inertia is 0 and P = 0), so
    // a frame inside it and one outside decouple exactly as well (the tree has free joints below others).
    auto in_subtree = [&](int body, int top) {
      for (int k = body; k != no_parent; k = model.parent(k))
        if (k == top) return true;
      return false;
    };
    auto split_by_free_joint = [&](int x, int y) {
      for (int f = 0; f < model.nbodies(); ++f)
        if (model.joint(f).type == JointType::free_flyer && in_subtree(x, f) != in_subtree(y, f)) return true;
      return false;
    };
    for (int a = 0; a < frames.size(); ++a)
      for (int b = 0; b < frames.size(); ++b) {
        const auto block = compliance.block(frames.row_offset(a), frames.row_offset(b), frames.row_count(a), frames.row_count(b));
        INFO("frames " << a << ", " << b);
        if (a % 2 != b % 2 || split_by_free_joint(frames.body(a), frames.body(b)))
          CHECK((block.array() == T(0)).all());  // exactly zero, not merely small
        else CHECK(block.norm() > T(0));
      }
    const Eigen::MatrixX<T> reference = dense_lambda(model, data, s.q, frames);
    const double kappa = spd_condition(crba_dense(model, data, s.q));
    CHECK(static_cast<double>((compliance - reference).norm()) <=
          lambda_tolerance<T>(model.nv(), kappa, static_cast<double>(reference.norm())));
  }
  {  // floating base: the humanoid's feet and hands couple only through the torso (body 0)
    const Model<T> model = robots::humanoid30<T>();
    Data<T> data(model);
    const State<T> s = random_state(model, 6900);
    OperationalFrames<T> frames = humanoid_end_frames(model);
    const Eigen::MatrixX<T> compliance = oscm(model, data, frames, s.q);
    REQUIRE(frames.status.ok());
    const Eigen::MatrixX<T> reference = dense_lambda(model, data, s.q, frames);
    const double kappa = spd_condition(crba_dense(model, data, s.q));
    const double tol = lambda_tolerance<T>(model.nv(), kappa, static_cast<double>(reference.norm()));
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        if (a == b) continue;
        INFO("limbs " << a << ", " << b);
        // the root-only term K_{0←a}ᵀ Ω_0 K_{0←b}, from the kernel's own propagators at the torso
        const Matrix6<T>& Ka = frames.K[static_cast<std::size_t>(frames.K_offset[static_cast<std::size_t>(a)] + 6)];
        const Matrix6<T>& Kb = frames.K[static_cast<std::size_t>(frames.K_offset[static_cast<std::size_t>(b)] + 6)];
        const Matrix6<T> root_only = Ka.transpose() * frames.Omega[0] * Kb;
        const Eigen::MatrixX<T> block = compliance.block(6 * a, 6 * b, 6, 6);
        CHECK(static_cast<double>(block.norm()) > 1e-5 * static_cast<double>(reference.norm()));  // clearly nonzero
        CHECK(static_cast<double>((block - root_only).norm()) <= tol);
        CHECK(static_cast<double>((block - reference.block(6 * a, 6 * b, 6, 6)).norm()) <= tol);
      }
  }
}

TEMPLATE_TEST_CASE("osim: Λ⁻¹ · Λ = I when J has full row rank", "[oscm][osim]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  struct Case {
    std::string name;
    Model<T> model;
    OperationalFrames<T> frames;
  };
  std::vector<Case> cases;
  {
    const Model<T> h = robots::humanoid30<T>();
    cases.push_back({"humanoid30, 4 feet/hands", h, humanoid_end_frames(h)});
    cases.push_back({"humanoid30, 4 contact points", h, humanoid_end_frames(h, FrameRows::linear())});
    const Model<T> arm = robots::arm7<T>();
    OperationalFrames<T> tip(arm);
    tip.add(arm.nbodies() - 1, xlt(Vector3<T>(T(0.1), T(0), T(0))));
    cases.push_back({"arm7, tip", arm, tip});
    const Model<T> chain = robots::chain30<T>();
    OperationalFrames<T> two(chain);
    two.add(chain.nbodies() - 1, Transform<T>::identity());
    two.add(12, Transform<T>::identity(), FrameRows::linear());
    cases.push_back({"chain30, tip + middle", chain, two});
  }
  int index = 0;
  for (Case& c : cases) {
    INFO(c.name);
    Data<T> data(c.model);
    const State<T> s = random_state(c.model, 7000u + static_cast<unsigned>(index++));
    const Eigen::MatrixX<T> inertia = osim(c.model, data, c.frames, s.q);
    REQUIRE(c.frames.status.ok());
    const Eigen::MatrixX<T>& compliance = c.frames.compliance;
    const double kappa = spd_condition(compliance);
    const int m = c.frames.rows();
    INFO("κ(Λ⁻¹) = " << kappa);
    const Eigen::MatrixX<T> I = Eigen::MatrixX<T>::Identity(m, m);
    CHECK(static_cast<double>((inertia * compliance - I).norm()) <= 8.0 * (m + 1) * eps<T>() * kappa);
    CHECK(inertia == inertia.transpose());
  }
}

TEMPLATE_TEST_CASE("oscm and osim report failures: singular Λ⁻¹ and a non-positive joint pivot", "[oscm][osim]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const Model<T> arm = robots::arm7<T>();
  Data<T> data(arm);
  const State<T> s = random_state(arm, 7100);
  {  // 6 rows on body 1: only 2 DoFs below it, so J has rank 2 and Λ⁻¹ (6×6) is singular
    OperationalFrames<T> frames(arm);
    frames.add(1, xlt(Vector3<T>(T(0.1), T(0.05), T(0))));
    const Eigen::MatrixX<T> inertia = osim(arm, data, frames, s.q);
    CHECK(oscm(arm, data, frames, s.q).allFinite());  // oscm itself succeeds: Λ⁻¹ exists, it is singular
    CHECK(frames.status.ok());
    CHECK_FALSE(osim(arm, data, frames, s.q).allFinite());
    CHECK_FALSE(frames.status.ok());
    CHECK_FALSE(frames.status.names_body());  // a row of Λ⁻¹, not a joint pivot
    CHECK(frames.status.row >= 0);
    CHECK(frames.status.row < 6);
    CHECK(inertia.array().isNaN().all());
  }
  {  // a NaN joint angle at body k is reported as the input it is (it used to surface as the NaN pivot
     // of k's parent): non_finite_input naming q and the coordinate, before any pivot is formed
    OperationalFrames<T> frames(arm);
    frames.add(arm.nbodies() - 1, Transform<T>::identity());
    Eigen::VectorX<T> q = s.q;
    const int k = 4;
    q(arm.q_offset(k)) = std::numeric_limits<T>::quiet_NaN();
    const Eigen::MatrixX<T> compliance = oscm(arm, data, frames, q);
    CHECK(frames.status.code == Status::Code::non_finite_input);
    CHECK_FALSE(frames.status.names_body());
    CHECK(frames.status.row == arm.q_offset(k));
    CHECK(std::string(frames.status.argument) == "q");
    CHECK(compliance.array().isNaN().all());
    CHECK(osim(arm, data, frames, q).array().isNaN().all());
    CHECK(frames.status.code == Status::Code::non_finite_input);
    CHECK(frames.status.row == arm.q_offset(k));
  }
}
