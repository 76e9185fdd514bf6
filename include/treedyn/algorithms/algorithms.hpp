// treedyn algorithms: (const Model&, Data&, inputs…) → a reference into Data.
#pragma once

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/minverse_apply_fixman.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/algorithms/rnea.hpp"
// ---- operational-space compliance / inertia: recursive Λ, its dense reference, Λ⁻¹ ----
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/algorithms/oscm_dense.hpp"
#include "treedyn/algorithms/osim.hpp"
// ---- end of operational-space compliance / inertia ----
