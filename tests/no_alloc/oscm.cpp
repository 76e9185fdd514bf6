// No allocation in the operational-space kernels after setup.
#include "no_alloc/no_alloc_support.hpp"
#include "support/scalars.hpp"

// oscm, oscm_faithful, oscm_dense and osim never allocate once OperationalFrames is built.
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/algorithms/oscm_dense.hpp"
#include "treedyn/algorithms/osim.hpp"

TEMPLATE_TEST_CASE("oscm, oscm_faithful, oscm_dense and osim never allocate after setup", "[no_alloc][oscm]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const Model<double>& md : {robots::humanoid30<double>(), robots::arm7<double>(), robots::random_tree<double>(12, 4),
                                  robots::random_chain<double>(20, 1)}) {
    const Model<T> model = md.cast<T>();
    Data<T> data(model);
    OperationalFrames<T> frames(model);  // setup: allocates
    frames.add(model.nbodies() - 1, Transform<T>::identity());
    frames.add(model.nbodies() / 2, Transform<T>::identity(), FrameRows::linear());
    frames.add(0, Transform<T>::identity(), FrameRows::angular());
    const Eigen::Matrix<T, Eigen::Dynamic, 1> q = random_configuration(model, 6);
    FactorStatus oscm_status, dense_status;  // frames.status is the last kernel's: keep each one's
    for (int call = 0; call < 2; ++call) {
      INFO((call == 0 ? "first call" : "steady state"));
      CHECK(allocations_in([&] { oscm(model, data, frames, q); oscm_status = frames.status; }) == 0);
      CHECK(allocations_in([&] { oscm_faithful(model, data, frames, q); }) == 0);
      CHECK(allocations_in([&] { oscm_dense(model, data, frames, q); dense_status = frames.status; }) == 0);
      CHECK(allocations_in([&] { osim(model, data, frames, q); }) == 0);
    }
    REQUIRE(oscm_status.ok());
    REQUIRE(dense_status.ok());
  }
}
