// Pinocchio's batched ABA and RNEA in float (one scalar per unit: benchmarks/peers/pinocchio_batch.hpp).
#include "pinocchio_batch.hpp"

namespace treedyn::peers {

std::unique_ptr<BatchPeer<float>> make_pinocchio_batch_float(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioBatch<float>>(robot, layout);
}

}  // namespace treedyn::peers
