// treedyn spatial algebra: the umbrella header of the spatial layer (no knowledge of trees).
//
// Reference: docs/notation.md (spatial vectors and operators); Featherstone, Rigid Body Dynamics Algorithms,
// Springer 2008, Chapter 2 and Table 2.8.
// Everything in this layer is fixed-size, inline and never allocates (except when a caller applies an
// operator to a block with a run-time column count, whose result then has that many columns).
#pragma once

#include <treedyn/spatial/types.hpp>
#include <treedyn/spatial/symmetric3.hpp>
#include <treedyn/spatial/cross.hpp>
#include <treedyn/spatial/transform.hpp>
#include <treedyn/spatial/rigid_inertia.hpp>
#include <treedyn/spatial/articulated_inertia.hpp>
#include <treedyn/spatial/log6.hpp>
