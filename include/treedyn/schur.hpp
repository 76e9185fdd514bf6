// treedyn Schur-complement family (a façade beside the umbrella treedyn.hpp, which does not include it):
// Fijany's Schur-complement mass-matrix inverse M⁻¹ = 𝒢 − ℬᵀ𝒜⁻¹ℬ and M⁻¹τ (minverse_schur,
// minverse_apply_schur with a SchurWorkspace), the one-frame operational-space forms (oscm_schur,
// osim_schur with an OscmSchurWorkspace), and the block kernels they run on: block-tridiagonal LDLᵀ,
// block cyclic reduction and the leaves-first sibling-block LDLᵀ. Fijany (1994), see docs/references.md.
#pragma once

#include "treedyn/treedyn.hpp"

#include "treedyn/kernels/block_cyclic_reduction.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/kernels/sibling_block_ldlt.hpp"

#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/algorithms/oscm_schur.hpp"
#include "treedyn/algorithms/osim_schur.hpp"
