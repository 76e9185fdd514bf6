// Pinocchio in double (one scalar per unit: benchmarks/peers/pinocchio_peer.hpp).
#include "pinocchio_peer.hpp"

namespace treedyn::peers {

std::unique_ptr<Peer<double>> make_pinocchio_double(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioPeer<double>>(robot, layout);
}

}  // namespace treedyn::peers
