// Pinocchio's sparse factor and solve in float (one scalar per unit: benchmarks/peers/pinocchio_extra.hpp).
#include "pinocchio_extra.hpp"

namespace treedyn::peers {

std::unique_ptr<ExtraPeer<float>> make_pinocchio_extra_float(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioExtra<float>>(robot, layout);
}

}  // namespace treedyn::peers
