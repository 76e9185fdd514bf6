// The Schur-complement routes (treedyn/algorithms/schur_operators.hpp) need each body's OWN inertia: a
// massless link is refused with a message saying so, never "M is singular" (M sums the subtree and is
// regular here). double only; the accepted cases are tested in tests/algorithms/minverse/test_schur.cpp.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include <Eigen/Dense>

#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/model/model_builder.hpp"

namespace {

using namespace treedyn;

/// A massless first link on the fixed base (zero inertia) carrying a solid link: M is regular.
Model<double> massless_first_link() {
  ModelBuilder<double> b;
  const RigidInertia<double> solid = RigidInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.3, 0.0, 0.0), Matrix3<double>(Vector3<double>(0.1, 0.2, 0.25).asDiagonal()));
  const int root = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitZ()),
                              Transform<double>::identity(), RigidInertia<double>::zero(), "ghost");
  b.add_body(root, Joint<double>::revolute(Vector3<double>::UnitY()), xlt(Vector3<double>(0.5, 0, 0)), solid, "arm");
  return b.build();
}

}  // namespace

TEST_CASE("the Schur inverse names a massless link as unsupported, not M as singular", "[checks][schur]") {
  const Model<double> model = massless_first_link();
  Data<double> data(model);
  Eigen::VectorXd q(2);
  q << 0.3, -0.4;
  crba(model, data, q);
  const Eigen::MatrixXd H = dense_H(model, data);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(H);
  REQUIRE(eig.eigenvalues().minCoeff() > 1e-3);  // M is regular: the method, not M, is the limit
  REQUIRE_THROWS_AS(SchurWorkspace<double>(model), std::invalid_argument);
  using Catch::Contains;
  CHECK_THROWS_WITH(SchurWorkspace<double>(model), Contains("body 0 ('ghost')") && Contains("massless link") &&
                                                       Contains("unsupported by Fijany's Schur-complement method") &&
                                                       Contains("minverse_aba") && !Contains("M is singular"));
}
