// treedyn algorithms: algo(model, data[, workspace], inputs…) → a reference into data or the workspace.
//
// The core: kinematics, RNEA, CRBA, the forward-dynamics routes, the LTDL and ABA mass-matrix inverses
// and the operational-space kernels. The heavier families have façade headers of their own, so that a
// program that does not use them does not compile them: treedyn/schur.hpp (Fijany's Schur-complement
// forms and the block kernels they run on) and treedyn/fixman.hpp (Fixman's O(n) M⁻¹b).
#pragma once

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/ccrba.hpp"
#include "treedyn/algorithms/center_of_mass.hpp"
#include "treedyn/algorithms/centroidal_map_time_variation.hpp"
#include "treedyn/algorithms/centroidal_momentum_rate.hpp"
#include "treedyn/algorithms/compute_all_terms.hpp"
#include "treedyn/algorithms/coriolis_matrix.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/energy.hpp"
#include "treedyn/algorithms/external_forces.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/frame_jacobian_time_variation.hpp"
#include "treedyn/algorithms/frame_motion.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"
#include "treedyn/algorithms/frame_placements.hpp"
#include "treedyn/algorithms/gravity_torques.hpp"
#include "treedyn/algorithms/impulse_aba.hpp"
#include "treedyn/algorithms/jacobian_center_of_mass.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/algorithms/oscm_dense.hpp"
#include "treedyn/algorithms/osim.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"
