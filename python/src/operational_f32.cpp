// treedyn Python module: the float operational frames and operational-space matrices (operational.hpp).
#include "operational.hpp"

template struct treedyn::python::Operational<float>;
