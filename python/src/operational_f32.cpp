// treedyn Python module: operational-space bindings in float (operational.hpp).
#include "operational.hpp"

template void treedyn::python::bind_operational<float>(pybind11::module_&);
