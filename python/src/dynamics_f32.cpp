// treedyn Python module: the float forms of the dynamics functions (dynamics.hpp).
#include "dynamics.hpp"

template struct treedyn::python::Dynamics<float>;
