// The fourth interface of the peers benchmark (benchmarks/peers/README.md): the analytical derivatives of
// inverse and forward dynamics (issue 41), ∂τ/∂q and ∂τ/∂q̇ (RNEADerivatives) and ∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ
// (ABADerivatives), and the kinematics derivatives of tip frames, ∂v/∂q, ∂v/∂q̇ (FrameVelocityDerivatives) and
// ∂v/∂q, ∂a/∂q, ∂a/∂q̇, ∂a/∂q̈ (FrameAccelerationDerivatives). Kept apart from the other interfaces so that adding to it recompiles none of their
// Pinocchio units; Pinocchio's side is in its own units (pinocchio_derivatives_double.cpp, _float.cpp).
// Conventions as in peer.hpp: every input and output is in treedyn's coordinates (rows and columns in
// treedyn's velocity order, the free flyer's [ω; v]), converted once, never timed. Derivatives with respect to
// q are along tangent increments, q ⊕ δ = integrate(q, δ), in both libraries.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "peer.hpp"

namespace treedyn::peers {

/// One library's dynamics derivatives on one robot in one scalar.
template <class S>
class DerivativesPeer {
 public:
  virtual ~DerivativesPeer() = default;
  [[nodiscard]] virtual std::string library() const = 0;
  /// The state in treedyn's convention (q̈ for the RNEA derivatives, τ for the ABA ones); converted once.
  virtual void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) = 0;

  /// [∂τ/∂q, ∂τ/∂q̇] (nv × 2nv) at (q, v, a).
  virtual MatX<S> check_rnea_derivatives() = 0;
  /// [∂q̈/∂q, ∂q̈/∂q̇] (nv × 2nv) at (q, v, τ).
  virtual MatX<S> check_aba_derivatives() = 0;
  /// The kinematics derivatives of the frames of set_frames, stacked (6 rows each, [ω; v] in the frame's own
  /// axes, spatial quantities): [∂v/∂q, ∂a/∂q, ∂a/∂q̇, ∂a/∂q̈] (6 × 4nv) at (q, v, q̈).
  virtual MatX<S> check_frame_derivatives() = 0;
  /// The frames of the kinematics derivatives: one at the origin of each body named (by its joint's name), in
  /// this order; called once, before set_state.
  virtual void set_frames(const std::vector<std::string>& joints) = 0;

  // Timed, on the state of set_state, each as the library's users call it.
  virtual void time_rnea_derivatives() = 0;
  virtual void time_aba_derivatives() = 0;
  virtual void time_frame_velocity_derivatives() = 0;      ///< ∂v/∂q, ∂v/∂q̇ of every frame
  virtual void time_frame_acceleration_derivatives() = 0;  ///< ∂v/∂q, ∂a/∂q, ∂a/∂q̇, ∂a/∂q̈ of every frame
};

std::unique_ptr<DerivativesPeer<double>> make_treedyn_derivatives_double(const Robot& robot);
std::unique_ptr<DerivativesPeer<float>> make_treedyn_derivatives_float(const Robot& robot);
std::unique_ptr<DerivativesPeer<double>> make_pinocchio_derivatives_double(const Robot& robot,
                                                                           const std::vector<JointSlot>& layout);
std::unique_ptr<DerivativesPeer<float>> make_pinocchio_derivatives_float(const Robot& robot,
                                                                         const std::vector<JointSlot>& layout);

}  // namespace treedyn::peers
