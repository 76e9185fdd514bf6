// aba and modified_aba: agree with CRBA + LTDL, invert RNEA, and report a singular joint pivot by its body
// (external forces and a free body: test_aba_forces.cpp; float against a long double run: test_aba_float.cpp).
#include <vector>

#include <catch2/catch.hpp>

#include "algorithms/aba_methods.hpp"
#include "support/crba_dense.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEMPLATE_TEST_CASE("aba and modified_aba equal forward_dynamics_crba and invert RNEA", "[aba]",
                   TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE) {
  using T = TestType;
  for (Method m : {Method::aba, Method::modified_aba}) {
    int index = 0;
    for (auto& c : robot_cases<T>()) {
      INFO(name(m) << " on " << c.name);
      const int n = c.model.nv();
      Data<T> data(c.model);
      const State<T> s = random_state(c.model, 4100u + static_cast<unsigned>(index++));
      const Eigen::Matrix<T, Eigen::Dynamic, 1> tau = rnea(c.model, data, s.q, s.qd, s.qdd);
      const Eigen::Matrix<T, Eigen::Dynamic, 1> qdd_crba = forward_dynamics_crba(c.model, data, s.q, s.qd, tau);
      REQUIRE(data.factor_status.ok());
      const double kappa = spd_condition(dense_H(c.model, data));
      const Eigen::Matrix<T, Eigen::Dynamic, 1> qdd = run(m, c.model, data, s.q, s.qd, tau);
      REQUIRE(data.aba_status.ok());
      const double scale = static_cast<double>(s.qdd.norm()) + 1.0;
      const double tol = 64.0 * (n + 1) * eps<T>() * kappa * scale;
      INFO("κ(H) = " << kappa);
      // (a) ABA(q, q̇, RNEA(q, q̇, q̈)) = q̈
      REQUIRE(static_cast<double>((qdd - s.qdd).norm()) <= tol);
      // (b) equals H⁻¹(τ − C) from CRBA + LTDL
      REQUIRE(static_cast<double>((qdd - qdd_crba).norm()) <= tol);
      // RNEA(ABA(τ)) = τ, relative to the size of the forces involved
      const Eigen::Matrix<T, Eigen::Dynamic, 1> tau_back = rnea(c.model, data, s.q, s.qd, qdd);
      REQUIRE(static_cast<double>((tau_back - tau).norm()) <=
              tol * (static_cast<double>(dense_H(c.model, data).norm()) + static_cast<double>(tau.norm()) + 1.0));
    }
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("aba's inward order (deepest first) gives the plain sweep's numbers to the bit", "[aba]") {
  // Each parent receives its children's terms in the same order either way (Model::inward_order), so the
  // sums, and everything after them, are bit for bit those of the sweep i = n−1, …, 0 run step by step here.
  for (auto& c : robot_cases<double>(20)) {
    INFO(c.name);
    const Model<double>& model = c.model;
    Data<double> data(model), plain(model);
    const State<double> s = random_state(model, 7100u);
    const Eigen::VectorXd tau = Eigen::VectorXd::LinSpaced(model.nv(), -1.0, 1.0);
    const Eigen::VectorXd qdd = aba(model, data, s.q, s.qd, tau);
    REQUIRE(data.aba_status.ok());
    REQUIRE(detail::aba_outward_pass(model, plain, s.q, s.qd, detail::NoExternalForces<double>{}, "aba"));
    for (int i = model.nbodies() - 1; i >= 0; --i)
      detail::with_joint_kind<true>(model.joint(i), [&](auto kind) {
        REQUIRE(detail::aba_inward_step(model, plain, tau, i, kind));
      });
    detail::aba_accelerations(model, plain, detail::ByJointKind<true>{});
    for (int i = 0; i < model.nbodies(); ++i) {
      CHECK(data.IA[i].M == plain.IA[i].M);
      CHECK(data.pA[i] == plain.pA[i]);
    }
    CHECK(qdd == plain.qdd);
  }
}

TEST_CASE("aba's and modified_aba's pivot D_i is the Schur complement of H on body i's subtree, free joints included",
          "[aba]") {
  // Ascher, Pai & Cloutier (1996): the ABA pivot is the pivot of Gaussian elimination on H, the rows of every
  // body numbered after i eliminated first; on a tree only i's descendants couple to it, so
  // D_i = H_ii − H_id H_dd⁻¹ H_di, d the DoFs of i's proper descendants. The reference is formed from H in
  // long double by an LDLᵀ of H_dd. Both methods must give it: aba from the summed IA_i, modified_aba from its
  // accumulated quadratic forms, and at a free joint from IA_i itself (modified_aba.hpp).
  for (auto& c : robot_cases<double>(20)) {
    const Model<double>& model = c.model;
    const Model<long double> model_ld = model.template cast<long double>();
    Data<double> data(model);
    Data<long double> data_ld(model_ld);
    const State<double> s = random_state(model, 7300u);
    const Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> H =
        crba_dense(model_ld, data_ld, s.q.template cast<long double>());
    const double kappa = spd_condition(H);
    const double tol = tolerance<double>(64.0 * kappa, model.nv() + 1, H.cwiseAbs().maxCoeff());
    const Eigen::VectorXd tau = Eigen::VectorXd::LinSpaced(model.nv(), -1.0, 1.0);
    for (Method m : {Method::aba, Method::modified_aba}) {
      INFO(name(m) << " on " << c.name << ", κ(H) = " << kappa);
      run(m, model, data, s.q, s.qd, tau);
      REQUIRE(data.aba_status.ok());
      for (int i = 0; i < model.nbodies(); ++i) {
        std::vector<Eigen::Index> own, desc;
        for (int k = 0; k < model.motion_subspaces()[i].cols(); ++k) own.push_back(model.v_offset(i) + k);
        for (int j = i + 1; j < model.nbodies(); ++j) {
          int a = j;
          while (a != no_parent && a > i) a = model.parent(a);
          if (a == i)
            for (int k = 0; k < model.motion_subspaces()[j].cols(); ++k) desc.push_back(model.v_offset(j) + k);
        }
        Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> D = H(own, own);
        if (!desc.empty()) {
          const Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> Hdi = H(desc, own);
          D -= Hdi.transpose() * H(desc, desc).ldlt().solve(Hdi);
        }
        INFO("body " << i << " (" << model.joint(i).type_name() << ")");
        CHECK(close_entrywise(Eigen::MatrixXd(data.D[i]), Eigen::MatrixXd(D.template cast<double>()), tol));
      }
    }
  }
}

TEST_CASE("a massless tip: aba reports the body whose pivot fails and q̈ is NaN", "[aba][status]") {
  ModelBuilder<double> builder;
  const auto link = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.5, 0, 0), Vector3<double>(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix());
  const int a = builder.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()),
                                 Transform<double>::identity(), link, "a");
  const int b = builder.add_body(a, Joint<double>::revolute(Vector3<double>::UnitZ()), xlt(Vector3<double>(1, 0, 0)),
                                 link, "b");
  builder.add_body(b, Joint<double>::spherical(), xlt(Vector3<double>(1, 0, 0)), RigidInertia<double>::zero(),
                   "massless_ball");
  const Model<double> model = builder.build();
  Data<double> data(model);
  const Eigen::VectorXd q = neutral(model);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
  for (Method m : {Method::aba, Method::modified_aba}) {
    INFO(name(m));
    const Eigen::VectorXd qdd = run(m, model, data, q, zero, zero);
    REQUIRE_FALSE(data.aba_status.ok());
    REQUIRE(data.aba_status.row == 2);
    REQUIRE(qdd.array().isNaN().all());
  }
  const Model<double> two = [] {
    ModelBuilder<double> bb;
    const auto l = RigidInertia<double>::from_mass_com_inertia(
        1.0, Vector3<double>(0.5, 0, 0), Vector3<double>(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix());
    const int r = bb.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()),
                              Transform<double>::identity(), l, "a");
    bb.add_body(r, Joint<double>::revolute(Vector3<double>::UnitY()), xlt(Vector3<double>(1, 0, 0)), l, "b");
    return bb.build();
  }();
  Data<double> d2(two);
  // A failed call followed by a healthy one: the status is cleared.
  d2.aba_status = FactorStatus::non_positive_pivot(0);
  aba(two, d2, neutral(two), Eigen::VectorXd::Zero(2), Eigen::VectorXd::Ones(2));
  REQUIRE(d2.aba_status.ok());
  REQUIRE(d2.qdd.allFinite());
}
#endif
