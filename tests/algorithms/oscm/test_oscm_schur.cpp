// Fijany's Schur forms of the OSCM for one frame on a chain (Fijany (1994) §III.C–D, Eqs. 39 and 43):
//  (a) oscm_schur = 𝒟 − ℰᵀ𝒜⁻¹ℰ equals an independent dense J·H⁻¹·Jᵀ (frame_jacobian local, CRBA's H, Eigen,
//      in double) on random chains N = 1 … 50 of revolute, prismatic, helical and multi-DoF joints, within
//      c·n·ε·κ(H); osim_schur = 𝒮 + ℛᵀ𝒴⁻¹ℛ equals its inverse whenever J has full row rank, and
//      osim_schur · oscm_schur = I;
//  (b) N = 1: Λ⁻¹ is the single-joint compliance X_E S (SᵀIS)⁻¹ Sᵀ X_Eᵀ;
//  (the sign of Λ = 𝒮 ± ℛᵀ𝒴⁻¹ℛ, a J without full row rank and the workspace's rejections:
//  test_osim_schur.cpp; the Schur forms against the recursive oscm: test_oscm_schur_recursive.cpp).
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "algorithms/oscm/schur_chain_cases.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/oscm_schur.hpp"
#include "treedyn/algorithms/osim_schur.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEMPLATE_TEST_CASE("oscm_schur is J·H⁻¹·Jᵀ, osim_schur its inverse, on random chains N = 1 … 50",
                   "[oscm][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  int full_rank = 0, deficient = 0;
  for (const ChainCase<T>& c : chain_cases<T>()) {
    INFO(c.name);
    Setup<T> setup(c, 6500u);
    auto& [frames, data, ws, q, ref] = setup;
    const int n = c.model.nv();
    const double scale_inv = ref.Lambda_inv.norm();
    const double tol_inv = 64.0 * (n + 1) * eps<T>() * ref.kappa_H * scale_inv;
    INFO("κ(H) = " << ref.kappa_H << ", rank J = " << ref.rank_J);

    const Matrix6<T> Lambda_inv = oscm_schur(c.model, data, ws, q);
    REQUIRE(ws.status.ok());
    CHECK((Lambda_inv.template cast<double>() - ref.Lambda_inv).norm() <= tol_inv);
    CHECK((Lambda_inv - Lambda_inv.transpose()).norm() == T(0));

    const Matrix6<T> Lambda = osim_schur(c.model, data, ws, q);
    if (ref.rank_J < 6) {  // fewer than 6 DoFs: Λ does not exist, 𝒴 is singular
      ++deficient;
      CHECK_FALSE(ws.status.ok());
      CHECK(all_nan(Lambda));
      continue;
    }
    ++full_rank;
    REQUIRE(ws.status.ok());
    const double kappa_L = spd_condition(ref.Lambda_inv);
    const Matrix6d Lambda_ref = ref.Lambda_inv.inverse();
    INFO("κ(Λ⁻¹) = " << kappa_L);
    const double tol = 64.0 * (n + 1) * eps<T>() * ref.kappa_H * kappa_L;
    CHECK((Lambda.template cast<double>() - Lambda_ref).norm() <= tol * Lambda_ref.norm());
    CHECK((Lambda.template cast<double>() * Lambda_inv.template cast<double>() - Matrix6d::Identity()).norm() <= tol);
  }
  CHECK(full_rank > 200);  // the loop really exercised both branches
  CHECK(deficient >= 10);
}

TEMPLATE_TEST_CASE("N = 1: Λ⁻¹ is the single-joint compliance X_E S (SᵀIS)⁻¹ Sᵀ X_Eᵀ", "[oscm][schur]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const JointType types[] = {JointType::revolute,  JointType::prismatic, JointType::helical,
                             JointType::spherical, JointType::planar,    JointType::free_flyer};
  unsigned seed = 6600u;
  for (const JointType type : types) {
    for (const bool offset : {false, true}) {
      const ChainCase<T> c = chain_case<T>("single joint", 1, seed++, {type}, offset);
      INFO(c.name << ", joint type " << static_cast<int>(type) << ", offset " << offset);
      const OperationalFrames<T> frames = tip_frame(c.model, c.placement);
      const Eigen::VectorXd q = random_state(c.model_d, seed).q;
      // the closed forms, in double (schur_chain_cases.cpp)
      const SingleJointReference ref = single_joint_reference(c.model_d, c.placement);
      const Matrix6d& compliance = ref.compliance;
      Data<T> data(c.model);
      OscmSchurWorkspace<T> ws(c.model, frames);
      const Matrix6<T> Lambda_inv = oscm_schur(c.model, data, ws, q.template cast<T>());
      REQUIRE(ws.status.ok());
      const double tol = 64.0 * 7 * eps<T>() * ref.kappa_StIS * compliance.norm();
      CHECK((Lambda_inv.template cast<double>() - compliance).norm() <= tol);
      const Matrix6<T> Lambda = osim_schur(c.model, data, ws, q.template cast<T>());
      if (type != JointType::free_flyer) {  // 𝒴 = W₁ᵀ X₁ I₀⁻¹ X₁ᵀ W₁ = 0 on the fixed base: Λ does not exist
        CHECK_FALSE(ws.status.ok());
        CHECK(all_nan(Lambda));
      } else {  // a free body: Λ is its own inertia at E, Λ = 𝒮, and Λ⁻¹ = 𝒟
        REQUIRE(ws.status.ok());
        const Matrix6d& inertia_at_E = ref.inertia_at_E;
        CHECK((Lambda.template cast<double>() - inertia_at_E).norm() <= tol * ref.kappa_I * inertia_at_E.norm());
      }
    }
  }
}
