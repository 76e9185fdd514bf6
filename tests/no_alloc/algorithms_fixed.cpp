// No allocation in the whole-tree algorithms with a fixed N, and in the fixed-N Data constructor.
#include "no_alloc/algorithms_check.hpp"

TEMPLATE_TEST_CASE("with a fixed N not even the Data constructor allocates", "[no_alloc][algorithms]", float, double) {
  using T = TestType;
  const Model<T, 30> model = robots::humanoid30<double>().cast<T, 30>();
  CHECK(allocations_in([&] { Data<T, 30> data(model); (void)data; }) == 0);
  Data<T, 30> data(model);
  require_algorithms_allocation_free(model, data);
}
