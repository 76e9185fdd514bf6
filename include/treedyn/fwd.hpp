// treedyn forward declarations and library-wide constants.
//
// Indices are 0-based everywhere in the code; the base (the root's parent) is `no_parent` = -1.
// Featherstone's papers (docs/references.md) number bodies from 1 with the base 0 (docs/notation.md):
// "paper k <-> code k-1; `while i != 0` <-> `while (i != no_parent)`".
#pragma once

#include <Eigen/Core>

namespace treedyn {

/// Marker for a size only known at run time (the same value as Eigen::Dynamic).
inline constexpr int Dynamic = Eigen::Dynamic;

/// Parent of a root: the fixed base.
inline constexpr int no_parent = -1;

template <typename Scalar> struct Transform;
template <typename Scalar> struct RigidInertia;
template <typename Scalar> struct ArticulatedInertia;

struct Status;
using FactorStatus = Status;
struct CostMetrics;

}  // namespace treedyn
