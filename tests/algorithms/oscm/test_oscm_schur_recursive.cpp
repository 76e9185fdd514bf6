// Fijany's Schur form of the OSCM (Fijany (1994) §III.C, Eq. 39; test_oscm_schur.cpp checks it against a
// dense J·H⁻¹·Jᵀ) equals the recursive oscm of oscm.hpp for one tip frame on mixed chains N = 1 … 50 (a unit
// of its own: it instantiates both families).
#include <catch2/catch.hpp>

#include "algorithms/oscm/schur_chain_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/algorithms/oscm_schur.hpp"

namespace treedyn::test {

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

}  // namespace treedyn::test
