// No allocation in the whole-tree algorithms, dynamic and fixed N, and in the fixed-N Data constructor.
#include "no_alloc/no_alloc_support.hpp"

namespace {

/// Every algorithm on (model, data), twice (first call and steady state), inside the guard.
template <class T, int N>
void require_algorithms_allocation_free(const Model<T, N>& model, Data<T, N>& data) {
  using Vec = Eigen::Matrix<T, N, 1>;
  const Eigen::Matrix<T, Eigen::Dynamic, 1> q_dyn = random_configuration(model, 3);
  const Eigen::Matrix<T, Eigen::Dynamic, 1, Eigen::ColMajor, (N == Dynamic ? Dynamic : 2 * N), 1> q = q_dyn;
  const Vec qd = Vec::LinSpaced(model.nv(), T(-1), T(1));
  const Vec qdd = Vec::LinSpaced(model.nv(), T(1), T(-1));
  std::vector<Force<T>> f_ext(static_cast<std::size_t>(model.nbodies()), Force<T>::Constant(T(0.5)));
  const Transform<T> placement = xlt(Vector3<T>(T(0.1), T(0), T(0.2)));
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state"));
    CHECK(allocations_in([&] { forward_kinematics(model, data, q); }) == 0);
    CHECK(allocations_in([&] { rnea(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { rnea(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { bias(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { bias(model, data, q, qd, f_ext); }) == 0);
    CHECK(allocations_in([&] { crba(model, data, q); }) == 0);
    CHECK(allocations_in([&] { forward_dynamics_crba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { forward_dynamics_crba(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { aba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { aba(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { modified_aba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { modified_aba(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] {
            frame_jacobian(model, data, model.nbodies() - 1, placement, ReferenceFrame::local);
            frame_jacobian(model, data, model.nbodies() - 1, placement, ReferenceFrame::world_aligned);
          }) == 0);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("algorithms never allocate: dynamic size, every robot", "[no_alloc][algorithms]", float, double) {
  using T = TestType;
  for (const Model<double>& md : {robots::humanoid30<double>(), robots::chain30<double>(), robots::arm7<double>(),
                                  robots::random_tree<double>(12, 4)}) {
    const Model<T> model = md.cast<T>();
    Data<T> data(model);
    require_algorithms_allocation_free(model, data);
  }
}

TEMPLATE_TEST_CASE("with a fixed N not even the Data constructor allocates", "[no_alloc][algorithms]", float, double) {
  using T = TestType;
  const Model<T, 30> model = robots::humanoid30<double>().cast<T, 30>();
  CHECK(allocations_in([&] { Data<T, 30> data(model); (void)data; }) == 0);
  Data<T, 30> data(model);
  require_algorithms_allocation_free(model, data);
}
