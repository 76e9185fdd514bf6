// Pinocchio's batched ABA and RNEA in double (one scalar per unit: benchmarks/peers/pinocchio_batch.hpp).
#include "pinocchio_batch.hpp"

namespace treedyn::peers {

std::unique_ptr<BatchPeer<double>> make_pinocchio_batch_double(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioBatch<double>>(robot, layout);
}

}  // namespace treedyn::peers
