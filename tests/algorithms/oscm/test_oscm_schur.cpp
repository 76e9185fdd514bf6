// Fijany's Schur forms of the OSCM for one frame on a chain (Fijany (1994) §III.C–D, Eqs. 39 and 43):
//  (a) oscm_schur = 𝒟 − ℰᵀ𝒜⁻¹ℰ equals an independent dense J·H⁻¹·Jᵀ (frame_jacobian local, CRBA's H, Eigen,
//      in double) on random chains N = 1 … 50 of revolute, prismatic, helical and multi-DoF joints, within
//      c·n·ε·κ(H); osim_schur = 𝒮 + ℛᵀ𝒴⁻¹ℛ equals its inverse whenever J has full row rank, and
//      osim_schur · oscm_schur = I;
//  (b) N = 1: Λ⁻¹ is the single-joint compliance X_E S (SᵀIS)⁻¹ Sᵀ X_Eᵀ;
//  the sign of Λ = 𝒮 ± ℛᵀ𝒴⁻¹ℛ: "+" holds, the paper's printed "−" fails; a chain whose J lacks full row rank
//  makes osim_schur report a singular 𝒴; every rejection of OscmSchurWorkspace names its reason.
#include <catch2/catch.hpp>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "support/crba_dense.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/oscm_schur.hpp"
#include "treedyn/algorithms/osim_schur.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

using JointList = std::initializer_list<JointType>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

/// A random placement ^EX_N (rotation about a random axis, offset up to 0.3 per axis), built in double.
Transform<double> random_placement(Rng& rng) {
  const Eigen::Vector3d axis(rng.uniform(), rng.uniform(), rng.uniform());
  const Eigen::Matrix3d R = Eigen::AngleAxisd(rng.uniform(-3.0, 3.0), axis.normalized()).toRotationMatrix();
  return transform_from(R, Eigen::Vector3d(0.3 * rng.uniform(), 0.3 * rng.uniform(), 0.3 * rng.uniform()));
}

/// Λ⁻¹ = J H⁻¹ Jᵀ of the frame, in double, from frame_jacobian (local), CRBA's H and a dense Eigen inverse.
struct DenseReference {
  Matrix6d Lambda_inv;
  double kappa_H = 0.0;
  int rank_J = 0;
};

DenseReference dense_reference(const Model<double>& model, const Transform<double>& placement,
                               const Eigen::VectorXd& q) {
  Data<double> data(model);
  forward_kinematics(model, data, q);
  const Eigen::MatrixXd J = frame_jacobian(model, data, model.nbodies() - 1, placement, ReferenceFrame::local);
  const Eigen::MatrixXd H = crba_dense(model, data, q);
  DenseReference ref;
  ref.Lambda_inv = J * H.inverse() * J.transpose();
  ref.kappa_H = spd_condition(H);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(J);
  svd.setThreshold(1e-9);
  ref.rank_J = static_cast<int>(svd.rank());
  return ref;
}

/// One chain case: the model in double (for the reference) and in T, the frame on its tip.
template <class T>
struct ChainCase {
  std::string name;
  Model<double> model_d;
  Model<T> model;
  Transform<double> placement;
};

template <class T>
ChainCase<T> chain_case(const std::string& name, int n, unsigned seed, JointList types, bool offset) {
  Rng rng(seed + 17u);
  ChainCase<T> c{name + " N=" + std::to_string(n), robots::random_chain<double>(n, seed, types), {},
                 offset ? random_placement(rng) : Transform<double>::identity()};
  c.model = c.model_d.template cast<T>();
  return c;
}

/// Random chains N = 1 … 50 for each joint list (every other chain with an offset frame).
template <class T>
std::vector<ChainCase<T>> chain_cases() {
  std::vector<ChainCase<T>> cases;
  const auto add = [&cases](const std::string& name, unsigned salt, JointList types) {
    for (int n = 1; n <= 50; ++n)
      cases.push_back(chain_case<T>(name, n, 6000u + salt * 100u + static_cast<unsigned>(n), types, n % 2 == 0));
  };
  add("revolute", 1, {JointType::revolute});
  add("prismatic", 2, {JointType::prismatic});
  add("helical", 3, {JointType::helical});
  add("1-dof mix", 4, {JointType::revolute, JointType::prismatic, JointType::helical});
  add("multi-dof", 5, {JointType::revolute, JointType::spherical, JointType::planar});
  add("all", 6, {JointType::revolute, JointType::prismatic, JointType::helical, JointType::spherical,
                 JointType::planar, JointType::free_flyer});
  return cases;
}

template <class T>
OperationalFrames<T> tip_frame(const Model<T>& model, const Transform<double>& placement) {
  OperationalFrames<T> frames(model);
  frames.add(model.nbodies() - 1, placement.template cast<T>(), FrameRows::all(), "tip");
  return frames;
}

/// Everything one case needs: the tip frame, Data, the workspace, a random q and the dense reference at q.
template <class T>
struct Setup {
  Setup(const ChainCase<T>& c, unsigned state_seed)
      : frames(tip_frame(c.model, c.placement)),
        data(c.model),
        ws(c.model, frames),
        q(random_state(c.model, state_seed).q),
        ref(dense_reference(c.model_d, c.placement, q.template cast<double>())) {}
  OperationalFrames<T> frames;
  Data<T> data;
  OscmSchurWorkspace<T> ws;
  Eigen::Matrix<T, Eigen::Dynamic, 1> q;
  DenseReference ref;
};

template <class T>
bool all_nan(const Matrix6<T>& m) {
  for (int i = 0; i < 36; ++i)
    if (!std::isnan(static_cast<double>(m.data()[i]))) return false;
  return true;
}

}  // namespace

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
      Data<double> data_d(c.model_d);
      const Eigen::VectorXd q = random_state(c.model_d, seed).q;
      // S is constant in body coordinates: no kinematics enters the compliance.
      const Eigen::MatrixXd S = c.model_d.motion_subspace(0);
      const Matrix6d I = c.model_d.inertia(0).matrix();
      const Matrix6d X_E = c.placement.motion_matrix();
      const Eigen::MatrixXd StIS = S.transpose() * I * S;
      const Matrix6d compliance = X_E * S * StIS.inverse() * S.transpose() * X_E.transpose();
      Data<T> data(c.model);
      OscmSchurWorkspace<T> ws(c.model, frames);
      const Matrix6<T> Lambda_inv = oscm_schur(c.model, data, ws, q.template cast<T>());
      REQUIRE(ws.status.ok());
      const double tol = 64.0 * 7 * eps<T>() * spd_condition(StIS) * compliance.norm();
      CHECK((Lambda_inv.template cast<double>() - compliance).norm() <= tol);
      const Matrix6<T> Lambda = osim_schur(c.model, data, ws, q.template cast<T>());
      if (type != JointType::free_flyer) {  // 𝒴 = W₁ᵀ X₁ I₀⁻¹ X₁ᵀ W₁ = 0 on the fixed base: Λ does not exist
        CHECK_FALSE(ws.status.ok());
        CHECK(all_nan(Lambda));
      } else {  // a free body: Λ is its own inertia at E, Λ = 𝒮, and Λ⁻¹ = 𝒟
        REQUIRE(ws.status.ok());
        const Matrix6d inertia_at_E = X_E.inverse().transpose() * I * X_E.inverse();
        CHECK((Lambda.template cast<double>() - inertia_at_E).norm() <= tol * spd_condition(I) * inertia_at_E.norm());
      }
    }
  }
}

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
    const Eigen::MatrixXd Y = A - E * D.inverse() * E.transpose();
    CHECK((Y - A).topRows(tip_row).norm() == 0.0);  // 𝒴 differs from 𝒜 only in the tip block
    CHECK((Y - A).leftCols(tip_row).norm() == 0.0);
    const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Y).eigenvalues();
    const double kappa = spd_condition(A) * ref.kappa_H;
    CHECK(eig.minCoeff() > 0.0);  // 𝒴 is positive (semi)definite
    const Matrix6d YR = R.transpose() * Y.inverse() * R;
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

// Cross-check against the recursive oscm (§5.1) once that part is merged.
#if __has_include("treedyn/algorithms/oscm.hpp")
#include "treedyn/algorithms/oscm.hpp"

TEMPLATE_TEST_CASE("the Schur forms equal the recursive oscm for chains N = 1 … 50", "[oscm][schur][recursive]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (int n = 1; n <= 50; ++n) {
    const ChainCase<T> c = chain_case<T>("mixed", n, 6900u + static_cast<unsigned>(n),
                                         {JointType::revolute, JointType::prismatic, JointType::helical,
                                          JointType::spherical, JointType::planar},
                                         n % 2 == 1);
    INFO(c.name);
    Setup<T> setup(c, 6901u);
    auto& [frames, data, ws, q, ref] = setup;
    const Matrix6<T> schur = oscm_schur(c.model, data, ws, q);
    REQUIRE(ws.status.ok());
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> recursive = oscm(c.model, data, frames, q);
    REQUIRE(recursive.rows() == 6);
    CHECK((schur - recursive).template cast<double>().norm() <=
          64.0 * (c.model.nv() + 1) * eps<T>() * ref.kappa_H * ref.Lambda_inv.norm());
  }
}
#endif
