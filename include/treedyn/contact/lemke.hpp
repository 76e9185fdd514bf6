// lemke: Lemke's method (Cottle, Pang, Stone 1992, §4.4; docs/references.md) now lives beside the other
// solvers in treedyn/kernels/lemke.hpp; this header forwards to it so that code including the old path
// compiles unchanged (see CHANGELOG.md, "Layout").
#pragma once

#include "treedyn/kernels/lemke.hpp"
