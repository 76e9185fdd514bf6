// treedyn Python module: the contact time step in double (contact_kernels.hpp): the heaviest instantiation
// of the contact layer (ABA, OSCM, the impulse ABA and the contact LCP), in a unit of its own.
#include "contact_kernels.hpp"

namespace treedyn::python {
TREEDYN_PYTHON_CONTACT_STEP_KERNELS(double)
}  // namespace treedyn::python
