// The interface every library of the peers benchmark is driven through (benchmarks/peers/README.md).
// It names no library, so each library's translation unit (treedyn_peer.cpp, pinocchio_double.cpp,
// pinocchio_float.cpp, rbdl_peer.cpp) includes only its own headers: a Pinocchio unit takes minutes and
// gigabytes at -O3, and keeping one per scalar keeps the build within reach of a 2-core machine.
//
// Conventions. Every input and output that crosses this interface is in treedyn's coordinates
// (docs/conventions.md): bodies in treedyn's order, a free-flyer velocity [ω; v_O] in body coordinates,
// quaternions (x, y, z, w), a revolute angle as one number. Each peer converts ONCE, in set_state (inputs)
// and in the check_* calls (outputs, never timed); the time_* calls run the library's own kernel on the
// state it already holds in its own convention, so nothing but the kernel is in the timed loop.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace treedyn::peers {

template <class S>
using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <class S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

/// One moving joint of the treedyn model, in treedyn's order: what a peer needs to map its own
/// coordinates onto treedyn's by joint name (the free flyer, nq = 7, is matched by kind, not name).
struct JointSlot {
  std::string name;
  int nq = 0, nv = 0, q_offset = 0, v_offset = 0;
};

/// A robot as every library loads it: the URDF file and whether its root link is free-flying.
struct Robot {
  std::string name;       ///< the middle token of Kernel/model/library-scalar
  std::string urdf;       ///< path of the URDF file every library loads with its own loader
  bool floating = false;  ///< a free flyer between the world and the root link
};

/// One library on one robot in one scalar.
template <class S>
class Peer {
 public:
  virtual ~Peer() = default;
  [[nodiscard]] virtual std::string library() const = 0;  ///< "treedyn", "pinocchio", …
  [[nodiscard]] virtual int nv() const = 0;

  /// The state in treedyn's convention (q: treedyn's nq entries); converted here, once.
  virtual void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) = 0;

  // Checks (not timed): each runs the kernel and returns its output in treedyn's convention, matrices
  // full and symmetric (a library filling one triangle has it mirrored here).
  virtual VecX<S> check_rnea() = 0;      ///< τ = ID(q, v, a)
  virtual VecX<S> check_bias() = 0;      ///< C(q, v) = ID(q, v, 0) (Pinocchio's nonLinearEffects)
  virtual MatX<S> check_crba() = 0;      ///< H(q)
  virtual VecX<S> check_aba() = 0;       ///< q̈ = FD(q, v, τ)
  virtual MatX<S> check_minverse() = 0;  ///< H(q)⁻¹

  // Timed: the library's own kernel on the state of set_state, in its own convention and storage.
  virtual void time_rnea() = 0;
  virtual void time_bias() = 0;
  virtual void time_crba() = 0;
  virtual void time_aba() = 0;
  virtual void time_minverse() = 0;
};

/// The joints of treedyn's model of `robot`, in treedyn's order (treedyn_peer.cpp).
std::vector<JointSlot> treedyn_layout(const Robot& robot);

std::unique_ptr<Peer<double>> make_treedyn_double(const Robot& robot);
std::unique_ptr<Peer<float>> make_treedyn_float(const Robot& robot);
/// The model is loaded in double by Pinocchio's URDF parser; the float one is its cast<float>().
std::unique_ptr<Peer<double>> make_pinocchio_double(const Robot& robot, const std::vector<JointSlot>& layout);
std::unique_ptr<Peer<float>> make_pinocchio_float(const Robot& robot, const std::vector<JointSlot>& layout);

}  // namespace treedyn::peers
