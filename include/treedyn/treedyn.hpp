// treedyn: dynamics of rigid-body kinematic trees. Umbrella header: every public layer.
#pragma once

#include "treedyn/fwd.hpp"
#include "treedyn/version.hpp"

#include "treedyn/spatial/spatial.hpp"
#include "treedyn/topology/topology.hpp"
#include "treedyn/kernels/kernels.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/algorithms/algorithms.hpp"
