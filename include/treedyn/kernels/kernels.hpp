// treedyn kernels: sparse LTL / LTDL factorizations and products that need only a matrix and a parent array.
#pragma once

#include "treedyn/kernels/block_cyclic_reduction.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/kernels/factor_status.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltdl_inverse.hpp"
#include "treedyn/kernels/ltdl_packed.hpp"
#include "treedyn/kernels/ltl.hpp"
#include "treedyn/kernels/sibling_block_ldlt.hpp"
#include "treedyn/kernels/tree_products.hpp"
