// Pinocchio's whole-body kernels in double (one scalar per unit: benchmarks/peers/pinocchio_whole_body.hpp).
#include "pinocchio_whole_body.hpp"

namespace treedyn::peers {

std::unique_ptr<WholeBodyPeer<double>> make_pinocchio_whole_body_double(const Robot& robot,
                                                            const std::vector<JointSlot>& layout) {
  return std::make_unique<PinocchioWholeBody<double>>(robot, layout);
}

}  // namespace treedyn::peers
