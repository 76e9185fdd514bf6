// No allocation in the kernels instantiated on treedyn::Lanes (docs/lanes.md), float and double lanes, every
// robot. Built only where <experimental/simd> is (tests/CMakeLists.txt, as test_lanes).
#include "no_alloc/no_alloc_support.hpp"
#include "lanes/lanes_support.hpp"
#include "treedyn/lanes/lane_status.hpp"
#include "treedyn/lanes/lanes.hpp"

namespace {

/// Every kernel that runs on lanes (docs/lanes.md#what-exists), twice (first call and steady state),
/// inside the guard; W distinct random states of `md` packed into lanes.
template <class T, int W>
void require_lane_kernels_allocation_free(const Model<double>& md) {
  using L = Lanes<T, W>;
  using test::pack;
  const Model<L> model = md.cast<L>();
  Data<L> data(model);
  const test::LaneStates<T> s = test::lane_states<T, W>(md, 900);
  const test::LaneVector<T, W> q = pack<T, W>(s.q), qd = pack<T, W>(s.qd), qdd = pack<T, W>(s.qdd);
  test::LaneVector<T, W> q_out = q, x = qdd;
  Transform<L> placement = Transform<L>::identity();
  placement.r << L(0.1), L(0), L(0.2);
  const int tip = model.nbodies() - 1;
  MinverseAbaWorkspace<L> minverse_ws(model);
  RneaDerivativesWorkspace<L> rnea_derivatives_ws(model);
  AbaDerivativesWorkspace<L> aba_derivatives_ws(model);
  Eigen::Matrix<L, 6, Eigen::Dynamic> dv_dq(6, model.nv()), dv_dv = dv_dq, da_dq = dv_dq, da_dv = dv_dq, da_da = dv_dq;
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state"));
    CHECK(allocations_in([&] { rnea(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { bias(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { crba(model, data, q); }) == 0);
    CHECK(allocations_in([&] { forward_kinematics(model, data, q); }) == 0);
    CHECK(allocations_in([&] { frame_jacobian(model, data, tip, placement, ReferenceFrame::world_aligned); }) == 0);
    CHECK(allocations_in([&] { aba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { modified_aba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { minverse_aba(model, data, minverse_ws, q); }) == 0);
    CHECK(allocations_in([&] { rnea_derivatives(model, data, rnea_derivatives_ws, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { aba_derivatives(model, data, aba_derivatives_ws, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] {
            frame_velocity_derivatives(model, data, tip, placement, q, qd, ReferenceFrame::local, dv_dq, dv_dv);
            frame_acceleration_derivatives(model, data, tip, placement, q, qd, qdd, ReferenceFrame::world_aligned,
                                           dv_dq, da_dq, da_dv, da_da);
          }) == 0);
    CHECK(allocations_in([&] { integrate(model, q, qd, L(0.3), q_out); }) == 0);
    CHECK(allocations_in([&] { forward_dynamics_crba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { crba(model, data, q); factor_H(model, data); }) == 0);
    CHECK(allocations_in([&] { x = qdd; solve_H(model, data, x); }) == 0);
    CHECK(allocations_in([&] { crba(model, data, q); static_cast<void>(factor_H_lanes(model, data, q)); }) == 0);
  }
}

}  // namespace

TEST_CASE("lane kernels never allocate: Lanes<double, 4> and Lanes<float, 8>, every robot", "[no_alloc][lanes]") {
  for (const Model<double>& md : {robots::humanoid30<double>(), robots::chain30<double>(), robots::arm7<double>(),
                                  robots::random_tree<double>(12, 4)}) {
    require_lane_kernels_allocation_free<double, 4>(md);
    require_lane_kernels_allocation_free<float, 8>(md);
  }
}
