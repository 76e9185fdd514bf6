// treedyn Python module: inertia-matrix bindings in float (inertia.hpp).
#include "inertia.hpp"

template void treedyn::python::bind_inertia<float>(pybind11::module_&);
