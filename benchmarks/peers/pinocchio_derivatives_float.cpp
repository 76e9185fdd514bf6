// Pinocchio's dynamics derivatives in float (one scalar per unit: benchmarks/peers/pinocchio_derivatives.hpp).
#include "pinocchio_derivatives.hpp"

namespace treedyn::peers {

std::unique_ptr<DerivativesPeer<float>> make_pinocchio_derivatives_float(const Robot& robot,
                                                                  const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioDerivatives<float>>(robot, layout);
}

}  // namespace treedyn::peers
