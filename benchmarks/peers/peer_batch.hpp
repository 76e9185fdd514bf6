// The fifth interface of the peers benchmark (benchmarks/peers/README.md): many states of one robot per call
// (issue 43), ABA and RNEA over a batch of states, each library's batch as its users call it on one core:
// treedyn's BatchRunner (one state at a time) and LaneBatchRunner (W states in the SIMD lanes of each kernel
// call), Pinocchio's abaInParallel / rneaInParallel (one state per OpenMP thread) with one thread. Kept apart
// from the other interfaces so that adding to it recompiles none of their Pinocchio units; Pinocchio's side is
// in its own units (pinocchio_batch_double.cpp, _float.cpp), the only ones built with OpenMP.
// Conventions as in peer.hpp: states are the columns of the matrices, in treedyn's coordinates, converted once
// (set_states), never timed.
#pragma once

#include <memory>
#include <string>

#include "peer.hpp"

namespace treedyn::peers {

/// One library's batched ABA and RNEA on one robot in one scalar, on one thread.
template <class S>
class BatchPeer {
 public:
  virtual ~BatchPeer() = default;
  [[nodiscard]] virtual std::string library() const = 0;  ///< "treedyn", "treedyn-lanes", "pinocchio"
  /// n states, one per column: Q (nq × n), V, A, TAU (nv × n), in treedyn's convention.
  virtual void set_states(const MatX<S>& Q, const MatX<S>& V, const MatX<S>& A, const MatX<S>& TAU) = 0;

  virtual MatX<S> check_aba() = 0;   ///< q̈ = FD(q, v, τ) of every state (nv × n, treedyn's order)
  virtual MatX<S> check_rnea() = 0;  ///< τ = ID(q, v, a) of every state

  // Timed: the whole batch per call.
  virtual void time_aba() = 0;
  virtual void time_rnea() = 0;
};

/// treedyn's BatchRunner on one thread ("treedyn") and, with lanes, its LaneBatchRunner at the native lane
/// width of S ("treedyn-lanes"; lane_width says W).
std::unique_ptr<BatchPeer<double>> make_treedyn_batch_double(const Robot& robot, bool lanes);
std::unique_ptr<BatchPeer<float>> make_treedyn_batch_float(const Robot& robot, bool lanes);
int treedyn_lane_width_double();
int treedyn_lane_width_float();
std::unique_ptr<BatchPeer<double>> make_pinocchio_batch_double(const Robot& robot, const std::vector<JointSlot>& layout);
std::unique_ptr<BatchPeer<float>> make_pinocchio_batch_float(const Robot& robot, const std::vector<JointSlot>& layout);

}  // namespace treedyn::peers
