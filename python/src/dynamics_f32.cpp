// treedyn Python module: dynamics bindings in float (dynamics.hpp).
#include "dynamics.hpp"

template void treedyn::python::bind_dynamics<float>(pybind11::module_&);
