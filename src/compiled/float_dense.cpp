// The compiled component treedyn::compiled (treedyn/compiled.hpp): the float instantiations without vector
// arguments and those on dense vectors (the list: treedyn/detail/instantiations.hpp).
#include "treedyn/compiled.hpp"

namespace treedyn {
TREEDYN_INSTANTIATIONS_BASE(, float)
TREEDYN_INSTANTIATIONS_DENSE(, float)
}  // namespace treedyn
