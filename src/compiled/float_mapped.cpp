// The compiled component treedyn::compiled (treedyn/compiled.hpp): the float instantiations on strided maps
// (StridedVectorMap, e.g. NumPy arrays; the list: treedyn/detail/instantiations.hpp).
#include "treedyn/compiled.hpp"

namespace treedyn {
TREEDYN_INSTANTIATIONS_MAPPED(, float)
}  // namespace treedyn
