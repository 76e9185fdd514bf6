// Part 3's entry points beyond demo.hpp's: the compliance of every leaf body, for the URDF run.
#pragma once

#include <treedyn/model/model.hpp>

namespace demo {

// Λ of every leaf body of the model (no children), at its own origin, by oscm against oscm_dense.
bool print_leaf_compliance(const treedyn::Model<double>& model);

}  // namespace demo
