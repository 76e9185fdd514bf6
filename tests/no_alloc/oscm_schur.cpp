// No allocation in Fijany's one-frame Schur forms of the OSCM and OSIM.
#include "no_alloc/no_alloc_support.hpp"
#include "support/scalars.hpp"

// Fijany's Schur forms of the OSCM (oscm_schur / osim_schur): with the workspace built
// before the guard, neither kernel allocates, on the first call or in steady state.
#include "treedyn/algorithms/oscm_schur.hpp"
#include "treedyn/algorithms/osim_schur.hpp"

TEMPLATE_TEST_CASE("oscm_schur and osim_schur never allocate after OscmSchurWorkspace is built",
                   "[no_alloc][oscm][schur]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const Model<double>& md :
       {robots::random_chain<double>(12, 5), robots::random_chain<double>(3, 5),
        robots::random_chain<double>(9, 6, {JointType::revolute, JointType::helical, JointType::spherical,
                                            JointType::planar, JointType::free_flyer})}) {
    const Model<T> model = md.cast<T>();
    OperationalFrames<T> frames(model);
    frames.add(model.nbodies() - 1, xlt(Vector3<T>(T(0.1), T(0), T(0.2))));
    Data<T> data(model);
    OscmSchurWorkspace<T> ws(model, frames);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> q = random_configuration(model, 13);
    for (int call = 0; call < 2; ++call) {
      INFO((call == 0 ? "first call" : "steady state") << ", nv = " << model.nv());
      CHECK(allocations_in([&] { (void)oscm_schur(model, data, ws, q); }) == 0);
      CHECK(allocations_in([&] { (void)osim_schur(model, data, ws, q); }) == 0);  // also when 𝒴 is singular (nv = 3)
    }
  }
}
