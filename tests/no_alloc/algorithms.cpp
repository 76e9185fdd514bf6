// No allocation in the whole-tree algorithms on models of dynamic size, every robot.
#include "no_alloc/algorithms_check.hpp"
#include "support/scalars.hpp"

TEMPLATE_TEST_CASE("algorithms never allocate: dynamic size, every robot", "[no_alloc][algorithms]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const Model<double>& md : {robots::humanoid30<double>(), robots::chain30<double>(), robots::arm7<double>(),
                                  robots::random_tree<double>(12, 4)}) {
    const Model<T> model = md.cast<T>();
    Data<T> data(model);
    require_algorithms_allocation_free(model, data);
  }
}
