// treedyn Python module: inertia-matrix bindings in double (inertia.hpp).
#include "inertia.hpp"

template void treedyn::python::bind_inertia<double>(pybind11::module_&);
