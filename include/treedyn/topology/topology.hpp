// treedyn topology layer: parent arrays, cost metrics and topology generators in one include.
//
// Citation: Featherstone, IJRR 24(6) 2005 (docs/references.md): eq. 2 and Fig. 2 (parent_array.hpp), eqs. 8, 9,
// 15 and Tables 1-2 (cost.hpp), §4.2 Fig. 4 and §6 Fig. 6 (generators.hpp). Nothing here is on a hot
// path: see each header for its costs and allocation behaviour.
#pragma once

#include "treedyn/topology/parent_array.hpp"
#include "treedyn/topology/cost.hpp"
#include "treedyn/topology/generators.hpp"
