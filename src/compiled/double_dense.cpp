// The compiled component treedyn::compiled (treedyn/compiled.hpp): the double instantiations without vector
// arguments and those on dense vectors (the list: treedyn/detail/instantiations.hpp).
#include "treedyn/compiled.hpp"

namespace treedyn {
TREEDYN_INSTANTIATIONS_BASE(, double)
TREEDYN_INSTANTIATIONS_DENSE(, double)
}  // namespace treedyn
