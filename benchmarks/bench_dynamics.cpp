// Dynamics kernels on the ready-made robots: RNEA, CRBA (kinematics
// included, as the peers measure it), and forward dynamics three ways: CRBA + bias + packed LTDL + solve,
// the articulated-body method (ABA) and the modified ABA of Ascher–Pai–Cloutier; the centroidal momentum matrix
// (CCRBA: A_g, h_g, I_g, kinematics included, as Pinocchio's ccrba) and the centre-of-mass Jacobian
// (JacobianCom, as Pinocchio's jacobianCenterOfMass); the derivatives of the dynamics (RNEADerivatives:
// ∂τ/∂q, ∂τ/∂q̇ with τ, as Pinocchio's computeRNEADerivatives; ABADerivatives: ∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ with q̈,
// as its computeABADerivatives), each with its workspace built outside the timed loop; the Coriolis matrix
// (CoriolisMatrix, as Pinocchio's computeCoriolisMatrix); the last body's J and J̇ (FrameJacobianTimeVariation,
// body_motion included, world-aligned axes, as computeJointJacobiansTimeVariation + getFrameJacobianTimeVariation)
// and the drift J̇ q̇ alone (FrameJacobianDrift, body_motion included); the centroidal drift Ȧ_g q̇
// (CentroidalDrift, kinematics included) and the matrix Ȧ_g with A_g (CentroidalMapTimeVariation, as Pinocchio's
// computeCentroidalMapTimeVariation); the last body's kinematics derivatives (FrameVelocityDerivatives: ∂v/∂q,
// ∂v/∂q̇; FrameAccelerationDerivatives: ∂v/∂q, ∂a/∂q, ∂a/∂q̇, ∂a/∂q̈; body_motion included, world-aligned axes, as
// Pinocchio's computeForwardKinematicsDerivatives + getFrameVelocityDerivatives / getFrameAccelerationDerivatives),
// their 6 × n outputs allocated outside the timed loop.
// Names: Kernel/model/scalar, e.g. CRBA/humanoid30/double. Inputs are built outside the timed loop.
#include <benchmark/benchmark.h>

#include <string>

#include "support/fixture.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/centroidal_map_time_variation.hpp"
#include "treedyn/algorithms/centroidal_momentum_rate.hpp"
#include "treedyn/algorithms/coriolis_matrix.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"

namespace {

/// The 6 × nv outputs of frame_velocity_derivatives and frame_acceleration_derivatives, built once.
template <class S>
struct FrameDerivativeOutputs {
  using M = Eigen::Matrix<S, 6, Eigen::Dynamic>;
  M dv_dq, dv_dqd, da_dq, da_dqd, da_dqdd;
  explicit FrameDerivativeOutputs(const treedyn::Model<S>& m)
      : dv_dq(6, m.nv()), dv_dqd(6, m.nv()), da_dq(6, m.nv()), da_dqd(6, m.nv()), da_dqdd(6, m.nv()) {}
};

template <class S>
void register_robot(const std::string& robot, const treedyn::Model<S>& model, const std::string& scalar) {
  using VecX = treedyn::bench::VecX<S>;
  const treedyn::bench::State<S> s = treedyn::bench::state(model);
  const VecX &q = s.q, &qd = s.qd, &qdd = s.qdd;
  const std::string suffix = "/" + robot + "/" + scalar;
  auto add = [&](const std::string& kernel, auto body) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(), [model, q, qd, qdd, body](benchmark::State& st) {
      treedyn::Data<S> data(model);
      for (auto _ : st) {
        body(model, data, q, qd, qdd);
        benchmark::ClobberMemory();
      }
    });
  };
  add("RNEA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::rnea(m, d, q_, v_, a_).data());
  });
  add("CRBA", [](const auto& m, auto& d, const VecX& q_, const VecX&, const VecX&) {
    benchmark::DoNotOptimize(treedyn::crba(m, d, q_).data());
  });
  add("ForwardDynamicsCRBA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::forward_dynamics_crba(m, d, q_, v_, a_).data());
  });
  add("ABA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::aba(m, d, q_, v_, a_).data());
  });
  add("CCRBA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX&) {
    benchmark::DoNotOptimize(treedyn::ccrba(m, d, q_, v_));
    benchmark::DoNotOptimize(d.Ag.data());
  });
  add("JacobianCom", [](const auto& m, auto& d, const VecX& q_, const VecX&, const VecX&) {
    benchmark::DoNotOptimize(treedyn::jacobian_center_of_mass(m, d, q_));
    benchmark::DoNotOptimize(d.Jcom.data());
  });
  // the derivative kernels keep a workspace of their own, built once with the Data
  auto add_with = [&](const std::string& kernel, auto make_workspace, auto body) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(), [model, q, qd, qdd, make_workspace, body](benchmark::State& st) {
      treedyn::Data<S> data(model);
      auto ws = make_workspace(model);
      for (auto _ : st) {
        body(model, data, ws, q, qd, qdd);
        benchmark::ClobberMemory();
      }
    });
  };
  add_with(
      "RNEADerivatives", [](const auto& m) { return treedyn::RneaDerivativesWorkspace<S>(m); },
      [](const auto& m, auto& d, auto& ws, const VecX& q_, const VecX& v_, const VecX& a_) {
        benchmark::DoNotOptimize(treedyn::rnea_derivatives(m, d, ws, q_, v_, a_));
        benchmark::DoNotOptimize(ws.dtau_dq.data());
      });
  add_with(
      "ABADerivatives", [](const auto& m) { return treedyn::AbaDerivativesWorkspace<S>(m); },
      [](const auto& m, auto& d, auto& ws, const VecX& q_, const VecX& v_, const VecX& a_) {
        benchmark::DoNotOptimize(treedyn::aba_derivatives(m, d, ws, q_, v_, a_));
        benchmark::DoNotOptimize(ws.ddq_dq.data());
      });
  add_with(
      "CoriolisMatrix", [](const auto& m) { return treedyn::CoriolisMatrixWorkspace<S>(m); },
      [](const auto& m, auto& d, auto& ws, const VecX& q_, const VecX& v_, const VecX&) {
        benchmark::DoNotOptimize(treedyn::coriolis_matrix(m, d, ws, q_, v_));
        benchmark::DoNotOptimize(ws.C.data());
      });
  add_with(
      "CentroidalMapTimeVariation", [](const auto& m) { return treedyn::CentroidalMapTimeVariationWorkspace<S>(m); },
      [](const auto& m, auto& d, auto& ws, const VecX& q_, const VecX& v_, const VecX&) {
        benchmark::DoNotOptimize(treedyn::centroidal_map_time_variation(m, d, ws, q_, v_));
        benchmark::DoNotOptimize(ws.dAg.data());
      });
  add_with(
      "FrameJacobianTimeVariation", [](const auto& m) { return treedyn::FrameJacobianTimeVariation<S>(m); },
      [](const auto& m, auto& d, auto& ws, const VecX& q_, const VecX& v_, const VecX&) {
        benchmark::DoNotOptimize(treedyn::body_motion(m, d, q_, v_));
        benchmark::DoNotOptimize(treedyn::frame_jacobian_time_variation(m, d, ws, m.nbodies() - 1,
                                                                        treedyn::Transform<S>::identity(),
                                                                        treedyn::ReferenceFrame::world_aligned)
                                     .data());
      });
  const auto frame_outputs = [](const auto& m) { return FrameDerivativeOutputs<S>(m); };
  add_with("FrameVelocityDerivatives", frame_outputs,
           [](const auto& m, auto& d, auto& o, const VecX& q_, const VecX& v_, const VecX&) {
             benchmark::DoNotOptimize(treedyn::frame_velocity_derivatives(
                 m, d, m.nbodies() - 1, treedyn::Transform<S>::identity(), q_, v_,
                 treedyn::ReferenceFrame::world_aligned, o.dv_dq, o.dv_dqd));
             benchmark::DoNotOptimize(o.dv_dq.data());
           });
  add_with("FrameAccelerationDerivatives", frame_outputs,
           [](const auto& m, auto& d, auto& o, const VecX& q_, const VecX& v_, const VecX& a_) {
             benchmark::DoNotOptimize(treedyn::frame_acceleration_derivatives(
                 m, d, m.nbodies() - 1, treedyn::Transform<S>::identity(), q_, v_, a_,
                 treedyn::ReferenceFrame::world_aligned, o.dv_dq, o.da_dq, o.da_dqd, o.da_dqdd));
             benchmark::DoNotOptimize(o.da_dq.data());
           });
  add("FrameJacobianDrift", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX&) {
    benchmark::DoNotOptimize(treedyn::body_motion(m, d, q_, v_));
    benchmark::DoNotOptimize(treedyn::frame_jacobian_drift(m, d, v_, m.nbodies() - 1, treedyn::Transform<S>::identity(),
                                                           treedyn::ReferenceFrame::world_aligned));
  });
  add("CentroidalDrift", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX&) {
    benchmark::DoNotOptimize(treedyn::centroidal_drift(m, d, q_, v_));
  });
  add("ModifiedABA", [](const auto& m, auto& d, const VecX& q_, const VecX& v_, const VecX& a_) {
    benchmark::DoNotOptimize(treedyn::modified_aba(m, d, q_, v_, a_).data());
  });
}

const int registered = [] {
  for (const treedyn::bench::NamedModel& r : treedyn::bench::robots())
    treedyn::bench::for_each_scalar(r.model, [&r](const auto& model, const std::string& scalar) {
      register_robot(r.name, model, scalar);
    });
  return 0;
}();

}  // namespace
