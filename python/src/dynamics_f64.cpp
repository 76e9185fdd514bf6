// treedyn Python module: the double forms of the dynamics functions (dynamics.hpp).
#include "dynamics.hpp"

template struct treedyn::python::Dynamics<double>;
