// treedyn's model of a peers-benchmark robot, shared by treedyn's peer units (treedyn_peer.cpp,
// treedyn_whole_body.cpp): its own URDF loader with InertiaPolicy::strict (the robots are valid: loaded exactly
// as written) and a floating base where the robot has one.
#pragma once

#include "peer.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn::peers {

Model<double> treedyn_model(const Robot& robot);

}  // namespace treedyn::peers
