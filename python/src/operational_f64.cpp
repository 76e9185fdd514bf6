// treedyn Python module: the double operational frames and operational-space matrices (operational.hpp).
#include "operational.hpp"

template struct treedyn::python::Operational<double>;
