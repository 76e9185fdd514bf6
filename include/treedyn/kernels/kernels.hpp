// treedyn kernels: sparse LTL / LTDL factorizations and products that need only a matrix and a parent array.
// The block-tridiagonal and sibling-block kernels of the Schur-complement forms come with treedyn/schur.hpp.
#pragma once

#include "treedyn/status.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltdl_inverse.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/kernels/ltl.hpp"
#include "treedyn/kernels/tree_products.hpp"
