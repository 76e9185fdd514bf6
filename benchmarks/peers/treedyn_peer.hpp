// treedyn's model of a peers-benchmark robot, shared by treedyn's peer units (treedyn_peer.cpp,
// treedyn_whole_body.cpp, treedyn_derivatives.cpp, treedyn_batch.cpp): its own URDF loader with
// InertiaPolicy::strict (the robots are valid: loaded exactly as written) and a floating base where the robot
// has one; and the one escape() those units time with (pinocchio_map.hpp has the Pinocchio units' own).
#pragma once

#include "peer.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn::peers {

Model<double> treedyn_model(const Robot& robot);

/// Keeps a timed result alive without a store the compiler could see through.
inline void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

}  // namespace treedyn::peers
