// RBDL 3.3.1 as a peer, double only (rbdl_peer.cpp; built when TREEDYN_PEERS_RBDL is on).
#pragma once

#include <memory>
#include <vector>

#include "peer.hpp"

namespace treedyn::peers {

/// RBDL has no full H⁻¹ routine: the peer's check_minverse returns an empty matrix ("no such kernel").
std::unique_ptr<Peer<double>> make_rbdl_double(const Robot& robot, const std::vector<JointSlot>& layout);

}  // namespace treedyn::peers
