// Pinocchio's whole-body kernels in float (one scalar per unit: benchmarks/peers/pinocchio_whole_body.hpp).
#include "pinocchio_whole_body.hpp"

namespace treedyn::peers {

std::unique_ptr<WholeBodyPeer<float>> make_pinocchio_whole_body_float(const Robot& robot,
                                                           const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioWholeBody<float>>(robot, layout);
}

}  // namespace treedyn::peers
