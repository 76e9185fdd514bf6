// Fijany's Schur form of the OSIM for one frame on a chain (Fijany (1994) §III.D, Eq. 43; the OSCM's own
// checks: test_oscm_schur.cpp): the sign of Λ = 𝒮 ± ℛᵀ𝒴⁻¹ℛ: "+" holds, the paper's printed "−" fails; a
// chain whose J lacks full row rank makes osim_schur report a singular 𝒴; every rejection of
// OscmSchurWorkspace names its reason.
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

TEMPLATE_TEST_CASE("the sign of Λ = 𝒮 ± ℛᵀ𝒴⁻¹ℛ: '+' holds, the seed's printed '−' fails", "[oscm][schur]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const int n : {6, 7, 12, 30}) {
    const ChainCase<T> c = chain_case<T>("revolute", n, 6700u + static_cast<unsigned>(n), {JointType::revolute}, true);
    INFO(c.name);
    Setup<T> setup(c, 6701u);
    auto& [frames, data, ws, q, ref] = setup;
    REQUIRE(ref.rank_J == 6);
    // 𝒴 = 𝒜 − ℰ𝒟⁻¹ℰᵀ, formed densely from the operators (ℰ, ℛ nonzero only in the tip block)
    schur_operators(c.model, data, ws.schur, q);
    const Eigen::MatrixXd A = ws.schur.A_dense().template cast<double>();
    const int nw = ws.schur.nw(), w = 6 - ws.schur.n(ws.tip()), tip_row = nw - w;
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(nw, 6), R = Eigen::MatrixXd::Zero(nw, 6);
    E.bottomRows(w) = ws.E_N.template cast<double>();
    R.bottomRows(w) = ws.R_N.template cast<double>();
    const Matrix6d D = ws.D.template cast<double>(), S = ws.S.template cast<double>();
    const WoodburyReference woodbury = woodbury_reference(A, E, R, D);  // in double (schur_chain_cases.cpp)
    const Eigen::MatrixXd& Y = woodbury.Y;
    CHECK((Y - A).topRows(tip_row).norm() == 0.0);  // 𝒴 differs from 𝒜 only in the tip block
    CHECK((Y - A).leftCols(tip_row).norm() == 0.0);
    const double kappa = woodbury.kappa_A * ref.kappa_H;
    CHECK(woodbury.min_eigenvalue_Y > 0.0);  // 𝒴 is positive (semi)definite
    const Matrix6d& YR = woodbury.YR;
    const Matrix6d Lambda_ref = ref.Lambda_inv.inverse();
    const double tol = 64.0 * (nw + 1) * eps<T>() * kappa * spd_condition(ref.Lambda_inv) * Lambda_ref.norm();
    CHECK((S + YR - Lambda_ref).norm() <= tol);                  // Woodbury on Eq. 39: "+"
    CHECK((S - YR - Lambda_ref).norm() > 0.5 * Lambda_ref.norm());  // Fijany (1994) Eq. (43) as printed: "−"
    // and the kernel computes the "+" form
    const Matrix6<T> Lambda = osim_schur(c.model, data, ws, q);
    REQUIRE(ws.status.ok());
    CHECK((Lambda.template cast<double>() - (S + YR)).norm() <= tol);
  }
}

TEMPLATE_TEST_CASE("a chain whose J lacks full row rank: osim_schur reports a singular 𝒴, oscm_schur still works",
                   "[oscm][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const int n : {1, 2, 3, 4, 5}) {
    const ChainCase<T> c = chain_case<T>("revolute", n, 6800u + static_cast<unsigned>(n), {JointType::revolute}, true);
    INFO(c.name);
    Setup<T> setup(c, 6801u);
    auto& [frames, data, ws, q, ref] = setup;
    const Matrix6<T> Lambda = osim_schur(c.model, data, ws, q);
    CHECK_FALSE(ws.status.ok());
    CHECK(ws.status.code == FactorStatus::Code::non_positive_pivot);
    // the failing pivot is in the tip block of 𝒴 (its leading blocks are 𝒜's, positive definite)
    CHECK(ws.status.row >= ws.schur.nw() - 5);
    CHECK(ws.status.row < ws.schur.nw());
    CHECK(all_nan(Lambda));
    // Λ⁻¹ = J M⁻¹ Jᵀ exists and has rank n
    const Matrix6<T> Lambda_inv = oscm_schur(c.model, data, ws, q);
    REQUIRE(ws.status.ok());
    CHECK((Lambda_inv.template cast<double>() - ref.Lambda_inv).norm() <=
          64.0 * (n + 1) * eps<T>() * ref.kappa_H * ref.Lambda_inv.norm());
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("OscmSchurWorkspace rejects everything outside §5.2's setting, naming the body or frame",
          "[oscm][schur]") {
  const Model<double> chain = robots::random_chain<double>(4, 7u);
  const Transform<double> id = Transform<double>::identity();
  {  // no frame, two frames
    OperationalFrames<double> none(chain);
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(chain, none), Catch::Contains("exactly one operational frame, got 0"));
    OperationalFrames<double> two(chain);
    two.add(3, id);
    two.add(3, id);
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(chain, two), Catch::Contains("exactly one operational frame, got 2"));
  }
  {  // a tree: humanoid30 branches
    const Model<double> tree = robots::humanoid30<double>();
    OperationalFrames<double> f(tree);
    f.add(tree.nbodies() - 1, id);
    CHECK_THROWS_AS(OscmSchurWorkspace<double>(tree, f), std::invalid_argument);
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(tree, f), Catch::Contains("serial chain on a fixed base"));
  }
  {  // the frame on a body that is not the tip
    OperationalFrames<double> f(chain);
    f.add(2, id, FrameRows::all(), "elbow");
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(chain, f),
                      Catch::Contains("'elbow'") && Catch::Contains("is on body 2") && Catch::Contains("not on the tip body 3"));
  }
  {  // a row selection other than all 6 rows
    OperationalFrames<double> f(chain);
    f.add(3, id, FrameRows::linear(), "contact");
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(chain, f),
                      Catch::Contains("'contact'") && Catch::Contains("selects 3 rows"));
  }
  {  // frames chosen on another model
    const Model<double> other = robots::random_chain<double>(6, 7u);
    OperationalFrames<double> f(other);
    f.add(3, id);
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(chain, f), Catch::Contains("model with 6 bodies"));
  }
  const RigidInertia<double> solid = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.1, 0.0, 0.0), Matrix3<double>(Vector3<double>(0.1, 0.2, 0.25).asDiagonal()));
  for (const bool single : {false, true}) {  // a massless tip, on a chain of 2 and alone on the fixed base
    ModelBuilder<double> b;
    int parent = no_parent;
    if (!single) parent = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), id, solid);
    b.add_body(parent, Joint<double>::revolute(Vector3<double>::UnitY()), xlt(Vector3<double>(0.5, 0, 0)),
               RigidInertia<double>::zero(), "massless_tip");
    const Model<double> model = b.build();
    OperationalFrames<double> f(model);
    f.add(model.nbodies() - 1, id);
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(model, f),
                      Catch::Contains("'massless_tip'") && Catch::Contains("singular spatial inertia"));
  }
  {  // SchurWorkspace's own rejection: a massless body inside the chain
    ModelBuilder<double> b;
    const int root = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()), id, solid);
    const int mid = b.add_body(root, Joint<double>::revolute(Vector3<double>::UnitY()), xlt(Vector3<double>(0.5, 0, 0)),
                               RigidInertia<double>::zero(), "massless_link");
    b.add_body(mid, Joint<double>::revolute(Vector3<double>::UnitY()), xlt(Vector3<double>(0.5, 0, 0)), solid);
    const Model<double> model = b.build();
    OperationalFrames<double> f(model);
    f.add(2, id);
    CHECK_THROWS_WITH(OscmSchurWorkspace<double>(model, f), Catch::Contains("massless_link"));
  }
  {  // the accepted setting, for contrast
    OperationalFrames<double> f(chain);
    f.add(3, id);
    CHECK_NOTHROW(OscmSchurWorkspace<double>(chain, f));
  }
}
#endif
