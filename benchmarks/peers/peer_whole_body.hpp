// The third interface of the peers benchmark (benchmarks/peers/README.md): what a whole-body controller asks
// for besides H and q̈ (issue 42): the centroidal momentum matrix A_g (CCRBA), the centre-of-mass Jacobian,
// forward kinematics and the placements of every frame, and the Jacobians' time variation J̇ of the tip frames.
// Kept apart from peer.hpp and peer_extra.hpp so that adding kernels here recompiles none of their Pinocchio
// units; Pinocchio's side is in its own units (pinocchio_whole_body_double.cpp, pinocchio_whole_body_float.cpp).
// Conventions as in peer.hpp: every input and output is in treedyn's coordinates, converted once, never timed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "peer.hpp"

namespace treedyn::peers {

/// One library's whole-body kernels on one robot in one scalar.
template <class S>
class WholeBodyPeer {
 public:
  virtual ~WholeBodyPeer() = default;
  [[nodiscard]] virtual std::string library() const = 0;
  /// How many frames the library's frame placements update (its own count: libraries name frames differently).
  [[nodiscard]] virtual int nframes() const = 0;

  /// The frames of J̇: one at the origin of each body named (by its joint's name), in this order; called once,
  /// before set_state.
  virtual void set_frames(const std::vector<std::string>& joints) = 0;
  /// The state in treedyn's convention; converted here, once.
  virtual void set_state(const VecX<S>& q, const VecX<S>& v) = 0;

  virtual MatX<S> check_ccrba() = 0;  ///< A_g (6 × nv), angular rows first (treedyn's order), about the com
  virtual MatX<S> check_jcom() = 0;   ///< J_com (3 × nv), world coordinates
  /// Every body's placement after forward kinematics alone (`frames` false) or with every frame updated
  /// (`frames` true), one column per treedyn body: the body's axes in world coordinates (3 × 3, column-major),
  /// then its origin.
  virtual MatX<S> check_placements(bool frames) = 0;
  /// J̇ of the frames of set_frames (6 rows each, [ω; v] in the frame's own axes), stacked.
  virtual MatX<S> check_jdot() = 0;

  // Timed, on the state of set_state, each as the library's users call it.
  virtual void time_ccrba() = 0;
  virtual void time_jcom() = 0;
  virtual void time_forward_kinematics() = 0;
  virtual void time_frame_placements() = 0;  ///< forward kinematics and every frame's placement
  virtual void time_jdot() = 0;              ///< velocities, then J and J̇ of every frame of set_frames
};

std::unique_ptr<WholeBodyPeer<double>> make_treedyn_whole_body_double(const Robot& robot);
std::unique_ptr<WholeBodyPeer<float>> make_treedyn_whole_body_float(const Robot& robot);
std::unique_ptr<WholeBodyPeer<double>> make_pinocchio_whole_body_double(const Robot& robot,
                                                                        const std::vector<JointSlot>& layout);
std::unique_ptr<WholeBodyPeer<float>> make_pinocchio_whole_body_float(const Robot& robot,
                                                                      const std::vector<JointSlot>& layout);

}  // namespace treedyn::peers
