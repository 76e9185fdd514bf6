// No allocation in Fixman's M⁻¹b (minverse_apply_fixman) once its workspace is built.
#include "no_alloc/no_alloc_support.hpp"

// minverse_apply_fixman: the apply call never allocates once its workspace is built.
#include "treedyn/algorithms/minverse_apply_fixman.hpp"

TEMPLATE_TEST_CASE("minverse_apply_fixman never allocates after FixmanWorkspace is built", "[no_alloc][fixman]", float,
                   double) {
  using T = TestType;
  for (const Model<double>& md : {robots::random_chain<double>(40, 2, {JointType::revolute, JointType::prismatic}),
                                  robots::arm7<double>(), robots::puma560<double>()}) {
    const Model<T> model = md.cast<T>();
    FixmanWorkspace<T> ws(model);
    Data<T> fdata(model);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> q = random_configuration(model, 3);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> b = Eigen::Matrix<T, Eigen::Dynamic, 1>::LinSpaced(model.nv(), T(-1), T(1));
    for (int call = 0; call < 2; ++call) {
      INFO((call == 0 ? "first call" : "steady state"));
      CHECK(allocations_in([&] { (void)minverse_apply_fixman(model, fdata, ws, q, b); }) == 0);
      CHECK(ws.status.ok());
    }
  }
}
