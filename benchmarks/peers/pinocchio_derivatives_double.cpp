// Pinocchio's dynamics derivatives in double (one scalar per unit: benchmarks/peers/pinocchio_derivatives.hpp).
#include "pinocchio_derivatives.hpp"

namespace treedyn::peers {

std::unique_ptr<DerivativesPeer<double>> make_pinocchio_derivatives_double(const Robot& robot,
                                                                  const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioDerivatives<double>>(robot, layout);
}

}  // namespace treedyn::peers
