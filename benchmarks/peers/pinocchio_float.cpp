// Pinocchio in float (one scalar per unit: benchmarks/peers/pinocchio_peer.hpp).
#include "pinocchio_peer.hpp"

namespace treedyn::peers {

std::unique_ptr<Peer<float>> make_pinocchio_float(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioPeer<float>>(robot, layout);
}

}  // namespace treedyn::peers
