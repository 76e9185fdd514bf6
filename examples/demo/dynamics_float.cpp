// Part 2's checks and timings instantiated for float (the other scalar's are in their own unit).
#include "dynamics_checks.hpp"

namespace demo {

template void run_dynamics_scalar<float, 1>(std::array<Robot, 1>&, std::size_t, const TimingConfig&);
template void run_dynamics_scalar<float, 2>(std::array<Robot, 2>&, std::size_t, const TimingConfig&);

}  // namespace demo
