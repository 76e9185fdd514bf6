// treedyn Python module: the contact kernels in double (contact_kernels.hpp) other than the time step
// (contact_step_f64.cpp), so that neither unit carries both.
#include "contact_kernels.hpp"

namespace treedyn::python {
TREEDYN_PYTHON_CONTACT_KERNELS(double)
}  // namespace treedyn::python
