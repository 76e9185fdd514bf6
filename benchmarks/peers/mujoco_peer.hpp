// MuJoCo 2.2.2 as a peer, double only (mujoco_peer.cpp; built when TREEDYN_PEERS_MUJOCO is on).
#pragma once

#include <memory>
#include <vector>

#include "peer.hpp"
#include "peer_extra.hpp"

namespace treedyn::peers {

/// MuJoCo has no full H⁻¹ routine: check_minverse returns an empty matrix ("no such kernel").
std::unique_ptr<Peer<double>> make_mujoco_double(const Robot& robot, const std::vector<JointSlot>& layout);
/// Its sparse factor (mj_factorM) and solve (mj_solveM); no modified ABA.
std::unique_ptr<ExtraPeer<double>> make_mujoco_extra_double(const Robot& robot, const std::vector<JointSlot>& layout);

}  // namespace treedyn::peers
