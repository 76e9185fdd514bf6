// treedyn robots: every ready-made model in one include (namespace treedyn::robots).
//
// humanoid30, chain30 (Featherstone (2005) §6), arm7 (Franka Emika Panda, Gaz et al. RA-L 2019), puma560
// (Armstrong, Khatib, Burdick ICRA 1986 via Corke's mdl_puma560akb), two_link and collinear_masses (Ascher,
// Pai & Cloutier (1996) Examples 1–3), pendulum and SpherePendulum (Jain (n.d.) §8; the latter with its contact
// geometry and non-minimal form), random_tree (tests); see docs/references.md.
// Each header cites its source and its numbers. Each function builds (and allocates) a Model<Scalar>;
// call them once, outside hot loops.
#pragma once

#include "treedyn/robots/arm7.hpp"
#include "treedyn/robots/chain30.hpp"
#include "treedyn/robots/collinear_masses.hpp"
#include "treedyn/robots/humanoid30.hpp"
#include "treedyn/robots/pendulum.hpp"
#include "treedyn/robots/puma560.hpp"
#include "treedyn/robots/random_tree.hpp"
#include "treedyn/robots/sphere_pendulum.hpp"
#include "treedyn/robots/two_link.hpp"
