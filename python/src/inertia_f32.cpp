// treedyn Python module: the float forms of the inertia functions (inertia.hpp).
#include "inertia.hpp"

template struct treedyn::python::Inertia<float>;
