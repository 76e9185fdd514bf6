// treedyn Python module: the double forms of the inertia functions (inertia.hpp).
#include "inertia.hpp"

template struct treedyn::python::Inertia<double>;
