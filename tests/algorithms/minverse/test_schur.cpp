// The Schur-complement M⁻¹ of Fijany (1994) §IV.B (see docs/references.md) and its two checks:
//  (a) 𝒢 − ℬᵀ𝒜⁻¹ℬ equals the dense inverse of CRBA's H within c·n·ε·κ(H) on every ready-made robot, seeded
//      random chains of every joint type and 50 random trees; minverse_apply_schur(τ) = H⁻¹τ;
//  (b) the multipliers μ are the constraint parts W_iᵀ f_i of RNEA's interbody forces for q̈ = M⁻¹τ;
//  a model the method cannot handle is rejected when the workspace is built. (The operators and the solvers
//  of 𝒜: test_schur_operators.cpp.)
#include <catch2/catch.hpp>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "algorithms/minverse/schur_cases.hpp"
#include "support/crba_dense.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEMPLATE_TEST_CASE("Fijany's 𝒢 − ℬᵀ𝒜⁻¹ℬ is the inverse of CRBA's H, and minverse_apply_schur applies it",
                   "[minverse][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for_each_case<T>(50, 5100u, [](const RobotCase<T>& c, Data<T>& data, SchurWorkspace<T>& ws, const State<T>& s) {
    const int n = c.model.nv();
    const MatrixX<T> H = crba_dense(c.model, data, s.q);
    const Eigen::MatrixXd Hinv = H.template cast<double>().inverse();
    const double kappa = spd_condition(H);
    const double tol = 64.0 * (n + 1) * eps<T>() * kappa * Hinv.norm();
    INFO("κ(H) = " << kappa << ", chain: " << ws.is_chain());

    const MatrixX<T>& Minv = minverse_schur(c.model, data, ws, s.q);
    REQUIRE(ws.status.ok());
    CHECK((Minv.template cast<double>() - Hinv).norm() <= tol);

    const VectorX<T> tau = s.qdd;  // any vector: the random state's third component
    const VectorX<T> qdd = minverse_apply_schur(c.model, data, ws, s.q, tau);
    REQUIRE(ws.status.ok());
    CHECK((qdd.template cast<double>() - Hinv * tau.template cast<double>()).norm() <=
          tol * (static_cast<double>(tau.norm()) + 1.0));
  });
}

TEMPLATE_TEST_CASE("the multipliers μ are the constraint forces W_iᵀ f_i of RNEA for q̈ = M⁻¹τ",
                   "[minverse][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for_each_case<T>(20, 5200u, [](const RobotCase<T>& c, Data<T>& data, SchurWorkspace<T>& ws, const State<T>& s) {
    const int n = c.model.nv();
    const double kappa = spd_condition(MatrixX<T>(crba_dense(c.model, data, s.q)));
    const VectorX<T> tau = s.qd;
    const VectorX<T> qdd = minverse_apply_schur(c.model, data, ws, s.q, tau);
    REQUIRE(ws.status.ok());
    const VectorX<T> zero = VectorX<T>::Zero(n);
    // f_i with q̇ = 0, g = 0: RNEA is affine in (q̈, gravity), so subtract the gravity-only forces.
    (void)rnea(c.model, data, s.q, zero, zero);
    const std::vector<Force<T>> f_gravity(data.f.begin(), data.f.end());
    (void)rnea(c.model, data, s.q, zero, qdd);
    double f_norm = 0.0;
    for (int i = 0; i < c.model.nbodies(); ++i)
      f_norm += static_cast<double>((data.f[i] - f_gravity[static_cast<std::size_t>(i)]).squaredNorm());
    const double tol = 64.0 * (n + 1) * eps<T>() * kappa * (std::sqrt(f_norm) + static_cast<double>(tau.norm()));
    for (int i = 0; i < c.model.nbodies(); ++i) {
      INFO("body " << i);
      const Force<T> f = data.f[i] - f_gravity[static_cast<std::size_t>(i)];
      const VectorX<T> constraint = ws.W(i).transpose() * f;
      const VectorX<T> mu_i = ws.mu.segment(ws.offset(SchurPart::constraint, i), 6 - ws.n(i));
      CHECK((constraint - mu_i).template cast<double>().norm() <= tol);
      // and the joint part of f_i is τ_i: f_i = Ŝ_i τ_i + W_i μ_i
      const Force<T> rebuilt = ws.S_hat(i) * tau.segment(c.model.v_offset(i), ws.n(i)) + ws.W(i) * mu_i;
      CHECK((rebuilt - f).template cast<double>().norm() <= tol);
    }
  });
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("SchurWorkspace rejects a singular inertia away from the fixed base, naming the body", "[minverse][schur]") {
  ModelBuilder<double> b;
  const RigidInertia<double> solid = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.1, 0.0, 0.0), Matrix3<double>(Vector3<double>(0.1, 0.2, 0.25).asDiagonal()));
  const int root = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), xlt(Vector3<double>::Zero()), solid);
  b.add_body(root, Joint<double>::revolute(Vector3<double>::UnitY()), xlt(Vector3<double>(0.5, 0, 0)),
             RigidInertia<double>::zero(), "massless_link");
  const Model<double> model = b.build();
  REQUIRE_THROWS_AS(SchurWorkspace<double>(model), std::invalid_argument);
  REQUIRE_THROWS_WITH(SchurWorkspace<double>(model), Catch::Contains("massless_link"));
  // puma560's massless link 1 sits on the fixed base: regularised, accepted (and checked above)
  REQUIRE_NOTHROW(SchurWorkspace<double>(robots::puma560<double>()));
}
#endif
