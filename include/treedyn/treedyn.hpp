// treedyn: dynamics of rigid-body kinematic trees. Umbrella header: every public layer and the core
// algorithms. Beside it: treedyn/schur.hpp and treedyn/fixman.hpp (the heavier families), the ready-made
// robots (treedyn/robots/robots.hpp), the optional URDF component (treedyn/urdf/) and the batched
// evaluation over many states on all cores (treedyn/parallel/batch.hpp, which pulls <thread>).
#pragma once

#include "treedyn/fwd.hpp"
#include "treedyn/version.hpp"
#include "treedyn/status.hpp"
#include "treedyn/status_io.hpp"

#include "treedyn/spatial/spatial.hpp"
#include "treedyn/topology/topology.hpp"
#include "treedyn/kernels/kernels.hpp"
#include "treedyn/kernels/random_tree_matrix.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/joint.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/algorithms/algorithms.hpp"
