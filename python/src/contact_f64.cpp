// treedyn Python module: the contact kernels in double (contact_kernels.hpp).
#include "contact_kernels.hpp"

template struct treedyn::python::ContactKernels<double>;
