// treedyn Python module: dynamics bindings in double (dynamics.hpp).
#include "dynamics.hpp"

template void treedyn::python::bind_dynamics<double>(pybind11::module_&);
