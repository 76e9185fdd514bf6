// require_algorithms_allocation_free: every whole-tree algorithm on (model, data), first call and steady
// state, inside the guards. Shared by the dynamic-size and the fixed-N units of test_no_alloc.
#pragma once

#include "no_alloc/no_alloc_support.hpp"
#include "treedyn/algorithms/centroidal_map_time_variation.hpp"
#include "treedyn/algorithms/centroidal_momentum_rate.hpp"
#include "treedyn/algorithms/coriolis_matrix.hpp"

namespace no_alloc {

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
  MatrixN<T, N> H = MatrixN<T, N>::Zero(model.nv(), model.nv());  // dense_H's caller-sized output
  Vec x = qdd;                                                     // solve_H's right-hand sides
  Eigen::Matrix<T, N, 2> B = Eigen::Matrix<T, N, 2>::Ones(model.nv(), 2);
  RneaDerivativesWorkspace<T, N> rnea_derivatives_ws(model);  // built outside the guard, as Data is
  AbaDerivativesWorkspace<T, N> aba_derivatives_ws(model);
  FrameJacobianTimeVariation<T, N> dJ_ws(model);
  CoriolisMatrixWorkspace<T, N> coriolis_ws(model);
  CentroidalMapTimeVariationWorkspace<T, N> map_rate_ws(model);
  const int tip = model.nbodies() - 1;
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state"));
    CHECK(allocations_in([&] { forward_kinematics(model, data, q); }) == 0);
    CHECK(allocations_in([&] { rnea(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { rnea(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { bias(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { bias(model, data, q, qd, f_ext); }) == 0);
    CHECK(allocations_in([&] { crba(model, data, q); }) == 0);
    CHECK(allocations_in([&] { dense_H(model, data, H); }) == 0);
    CHECK(allocations_in([&] { dense_H(model, data, H.block(0, 0, model.nv(), model.nv())); }) == 0);
    CHECK(allocations_in([&] { forward_dynamics_crba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { forward_dynamics_crba(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { aba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { aba(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { modified_aba(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { modified_aba(model, data, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { gravity_torques(model, data, q); }) == 0);
    CHECK(allocations_in([&] { frame_placements(model, data); }) == 0);
    CHECK(allocations_in([&] { frame_placement(model, data, static_cast<int>(model.frames().size()) - 1); }) == 0);
    CHECK(allocations_in([&] { frame_placement(model, data, model.frames().back()); }) == 0);
    CHECK(allocations_in([&] { crba(model, data, q); factor_H(model, data); }) == 0);
    CHECK(allocations_in([&] { solve_H(model, data, x); }) == 0);
    CHECK(allocations_in([&] { solve_H(model, data, B); }) == 0);
    CHECK(allocations_in([&] { compute_all_terms(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { center_of_mass(model, data, q); }) == 0);
    CHECK(allocations_in([&] { center_of_mass(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { center_of_mass(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { jacobian_center_of_mass(model, data, q); }) == 0);
    CHECK(allocations_in([&] { ccrba(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { kinetic_energy(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { potential_energy(model, data, q); }) == 0);
    CHECK(allocations_in([&] { rnea_derivatives(model, data, rnea_derivatives_ws, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { rnea_derivatives(model, data, rnea_derivatives_ws, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] { aba_derivatives(model, data, aba_derivatives_ws, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { aba_derivatives(model, data, aba_derivatives_ws, q, qd, qdd, f_ext); }) == 0);
    CHECK(allocations_in([&] {
            frame_jacobian(model, data, model.nbodies() - 1, placement, ReferenceFrame::local);
            frame_jacobian(model, data, model.nbodies() - 1, placement, ReferenceFrame::world_aligned);
            frame_jacobian(model, data, model.nbodies() - 1, placement, ReferenceFrame::world_origin);
          }) == 0);
    CHECK(allocations_in([&] { coriolis_matrix(model, data, coriolis_ws, q, qd); }) == 0);
    CHECK(allocations_in([&] { centroidal_drift(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { centroidal_map_time_variation(model, data, map_rate_ws, q, qd); }) == 0);
    CHECK(allocations_in([&] { centroidal_momentum_rate(model, data, q, qd, qdd); }) == 0);
    CHECK(allocations_in([&] { body_motion(model, data, q, qd); }) == 0);
    CHECK(allocations_in([&] { body_motion(model, data, q, qd, qdd); }) == 0);
    for (const ReferenceFrame ref : {ReferenceFrame::local, ReferenceFrame::world_aligned, ReferenceFrame::world_origin}) {
      CHECK(allocations_in([&] {
              frame_velocity(model, data, tip, placement, ref);
              frame_acceleration(model, data, tip, placement, ref);
              frame_classical_acceleration(model, data, tip, placement, ref);
              frame_jacobian_time_variation(model, data, dJ_ws, tip, placement, ref);
              frame_jacobian_drift(model, data, qd, tip, placement, ref);
            }) == 0);
    }
  }
}

}  // namespace no_alloc

using no_alloc::require_algorithms_allocation_free;
