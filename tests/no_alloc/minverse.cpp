// No allocation in the LTDL and ABA routes to H⁻¹ and the tree inverse kernels.
#include "no_alloc/no_alloc_support.hpp"
#include "support/scalars.hpp"

// The LTDL and ABA routes to H⁻¹ and the tree inverse kernels ltdl_inverse(_packed).
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"
#include "treedyn/kernels/ltdl_inverse.hpp"

namespace {

/// Both H⁻¹ routes and the two kernels, first call and steady state, inside the guard.
template <class T, int N>
void require_minverse_ltdl_aba_allocation_free(const Model<T, N>& model, Data<T, N>& data) {
  const Eigen::Matrix<T, Eigen::Dynamic, 1> q_dyn = random_configuration(model, 5);
  const Eigen::Matrix<T, Eigen::Dynamic, 1, Eigen::ColMajor, (N == Dynamic ? Dynamic : 2 * N), 1> q = q_dyn;
  crba(model, data, q);
  MatrixN<T, N> dense_factor = dense_H(model, data), inverse = dense_factor;
  if constexpr (N != Dynamic)  // with a fixed N the workspace holds fixed-size blocks: building it allocates nothing
    CHECK(allocations_in([&] { const MinverseAbaWorkspace<T, N> built(model); }) == 0);
  MinverseAbaWorkspace<T, N> ws(model);
  MinverseLtdlWorkspace<T, N> ws_ltdl(model);
  REQUIRE(ltdl(dense_factor, model.dof_parents()).ok());
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state"));
    CHECK(allocations_in([&] { minverse_ltdl(model, data, ws_ltdl, q); }) == 0);
    CHECK(allocations_in([&] { minverse_aba(model, data, ws, q); }) == 0);
    CHECK(allocations_in([&] { ltdl_inverse(dense_factor, model.dof_parents(), inverse); }) == 0);
    CHECK(allocations_in([&] { ltdl_inverse_packed(data.H_factor, model.h_pattern(), inverse); }) == 0);
    CHECK(allocations_in([&] { ltdl_inverse(dense_factor, model.dof_parents(), inverse.block(0, 0, model.nv(), model.nv())); }) == 0);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("minverse_ltdl, minverse_aba and ltdl_inverse never allocate", "[no_alloc][minverse]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  for (const Model<double>& md : {robots::humanoid30<double>(), robots::arm7<double>(), robots::random_tree<double>(12, 4),
                                  robots::random_chain<double>(40, 1)}) {
    const Model<T> model = md.cast<T>();
    Data<T> data(model);
    require_minverse_ltdl_aba_allocation_free(model, data);
  }
  const Model<T, 30> fixed = robots::humanoid30<double>().cast<T, 30>();
  Data<T, 30> data(fixed);
  require_minverse_ltdl_aba_allocation_free(fixed, data);
}
