// The cost of the finite-input checks (detail::finite_ok), counted in instructions (a figure a loaded
// machine cannot blur): one call of `rnea`, `bias`, `crba`, `aba` or `forward_dynamics_crba` on humanoid30, in
// float or double, `iterations` times. measure.sh builds it against two include trees (before and after
// the checks) and counts instructions under valgrind's callgrind; (count(N) − count(0)) / N is one call.
// One binary per kernel (-DKERNEL_rnea, …): with every kernel in one loop, the compiler's inlining choices
// for one kernel moved with the code of the others (aba in float read +2.1 % where alone it reads +0.8 %).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"

template <class T>
T run(long iterations) {
  using namespace treedyn;
  using V = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const Model<T> model = robots::humanoid30<T>();
  Data<T> data(model);
  V q = random_configuration(model, 3);
  const V qd = V::LinSpaced(model.nv(), T(-0.5), T(0.7)), tau = V::LinSpaced(model.nv(), T(2), T(-1));
  T sum = 0;
  for (long k = 0; k < iterations; ++k) {
    q[8] += T(1e-6);  // a new state each call, so nothing is hoisted out of the loop
#if defined(KERNEL_rnea)
    sum += rnea(model, data, q, qd, tau)[0];
#elif defined(KERNEL_bias)
    sum += bias(model, data, q, qd)[0];
#elif defined(KERNEL_crba)
    sum += crba(model, data, q)[0];
#elif defined(KERNEL_aba)
    sum += aba(model, data, q, qd, tau)[0];
#else
    sum += forward_dynamics_crba(model, data, q, qd, tau)[0];
#endif
  }
  return sum;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const bool is_float = std::strcmp(argv[1], "float") == 0;
  const long iterations = std::atol(argv[2]);
  const double sum = is_float ? double(run<float>(iterations)) : run<double>(iterations);
  std::printf("%.9g\n", sum);
}
