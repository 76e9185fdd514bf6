// treedyn Fixman family (a façade beside the umbrella treedyn.hpp, which does not include it): M⁻¹b in
// O(n) for fixed-base serial chains by Fixman's soft/hard variables (minverse_apply_fixman with a
// FixmanWorkspace; its Lie derivatives use forward-mode autodiff). Lee, Wang & Chirikjian (2007), see
// docs/references.md.
#pragma once

#include "treedyn/treedyn.hpp"

#include "treedyn/algorithms/minverse_apply_fixman.hpp"
