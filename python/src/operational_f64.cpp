// treedyn Python module: operational-space bindings in double (operational.hpp).
#include "operational.hpp"

template void treedyn::python::bind_operational<double>(pybind11::module_&);
