// The second interface of the peers benchmark (benchmarks/peers/README.md): the kernels beyond peer.hpp's five,
// which not every library has: the sparse factor of H and one solve with it, the operational-space compliance
// Λ⁻¹ = J H⁻¹ Jᵀ of the robot's tip frames, and treedyn's modified ABA.
// Kept apart from peer.hpp so that adding kernels here recompiles none of the heavy Pinocchio units of
// peer.hpp (pinocchio_double.cpp, pinocchio_float.cpp); Pinocchio's factor and solve live in their own,
// lighter units (pinocchio_solve_double.cpp, pinocchio_solve_float.cpp).
// Conventions as in peer.hpp: every input and output is in treedyn's coordinates, converted once, never timed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "peer.hpp"

namespace treedyn::peers {

/// One library's extra kernels on one robot in one scalar. An empty check_* result means "no such kernel":
/// it is neither checked nor timed.
template <class S>
class ExtraPeer {
 public:
  virtual ~ExtraPeer() = default;
  [[nodiscard]] virtual std::string library() const = 0;

  /// The state (treedyn's convention); the library computes H(q) and its factor here, once, untimed,
  /// so that time_solve finds a current factor. b is the right-hand side of the solve.
  virtual void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& tau, const VecX<S>& b) = 0;

  /// The operational frames of the OSCM: one 6-row frame at the origin of each body named (by its joint's
  /// name), in this order; called once, before set_state.
  virtual void set_frames(const std::vector<std::string>& joints) = 0;

  virtual VecX<S> check_solve() = 0;         ///< x = H(q)⁻¹ b by the library's sparse factor and solve
  /// Λ⁻¹ = J H⁻¹ Jᵀ, 6 rows per frame in treedyn's order [ω; v], each frame's rows in its own coordinates
  virtual MatX<S> check_oscm() = 0;
  virtual VecX<S> check_modified_aba() = 0;  ///< q̈ = FD(q, v, τ) by the modified ABA (treedyn only)

  // Timed, on the state of set_state: the factor alone (H already computed), one solve (b copied into the
  // output, then solved in place: the copy is the same nv numbers for every library), the modified ABA.
  virtual void time_factor() = 0;
  virtual void time_solve() = 0;
  virtual void time_modified_aba() = 0;
  virtual void time_oscm() = 0;
};

/// The OSCM's frames for `robot`: the joint names of treedyn's leaf bodies (the tips), in treedyn's order.
std::vector<std::string> tip_joints(const Robot& robot);

std::unique_ptr<ExtraPeer<double>> make_treedyn_extra_double(const Robot& robot);
std::unique_ptr<ExtraPeer<float>> make_treedyn_extra_float(const Robot& robot);
std::unique_ptr<ExtraPeer<double>> make_pinocchio_extra_double(const Robot& robot, const std::vector<JointSlot>& layout);
std::unique_ptr<ExtraPeer<float>> make_pinocchio_extra_float(const Robot& robot, const std::vector<JointSlot>& layout);

}  // namespace treedyn::peers
