// Pinocchio's sparse factor and solve in double (one scalar per unit: benchmarks/peers/pinocchio_extra.hpp).
#include "pinocchio_extra.hpp"

namespace treedyn::peers {

std::unique_ptr<ExtraPeer<double>> make_pinocchio_extra_double(const Robot& robot, const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioExtra<double>>(robot, layout);
}

}  // namespace treedyn::peers
