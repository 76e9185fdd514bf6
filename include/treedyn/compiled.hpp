// treedyn/compiled.hpp: the whole public API, with the float and double instantiations of every algorithm
// taken from the compiled component treedyn::compiled instead of being compiled again in the including unit
// (docs/cmake.md#the-compiled-component).
//
// treedyn is header-only: a unit that calls a dozen algorithms in float and double instantiates each of them
// (60–90 CPU-seconds and up to 1.8 GB at -O2). Linking treedyn::compiled and including this header instead of
// treedyn/treedyn.hpp declares those instantiations `extern template`, so the unit only calls them. A call
// matches an instantiation when its scalar is float or double, its model has N = Dynamic and its vector
// arguments are all `Eigen::VectorX<S>` (`Eigen::Matrix<S, Eigen::Dynamic, 1>`) or all `StridedVectorMap<S>`
// (a strided map of const data, as from NumPy), without external forces or with them as a
// `std::vector<Force<S>>` (dense vectors) or a `ForceRows<S>` (strided maps); any other call (another scalar,
// a fixed N, an expression or a segment as argument) is instantiated in the unit as before, with the same
// code. Results are the same either way: the same templates compiled with the same flags.
//
// The list of instantiations is detail/instantiations.hpp (one list: the declarations here and the
// definitions in src/compiled/*.cpp expand the same macros). Defining TREEDYN_NO_EXTERN_TEMPLATES before
// including this header turns the declarations off (the unit then instantiates everything itself).
#pragma once

#include "treedyn/treedyn.hpp"
#include "treedyn/schur.hpp"
#include "treedyn/fixman.hpp"
#include "treedyn/contact/contact_step.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/detail/instantiations.hpp"

#ifndef TREEDYN_NO_EXTERN_TEMPLATES
namespace treedyn {
TREEDYN_INSTANTIATIONS(extern, float)
TREEDYN_INSTANTIATIONS(extern, double)
}  // namespace treedyn
#endif
