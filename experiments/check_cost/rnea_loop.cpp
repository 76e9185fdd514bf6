// The cost of treedyn's argument checks, counted in instructions (a figure a loaded machine cannot blur):
// `rnea` on arm7, `iterations` times. measure.sh builds it with and without -DTREEDYN_DISABLE_CHECKS and
// counts instructions under valgrind's callgrind; the difference of a run with N iterations and one with
// none, divided by N, is the instructions of one call.
#include <cstdio>
#include <cstdlib>

#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/robots/robots.hpp"

int main(int argc, char** argv) {
  using namespace treedyn;
  const long iterations = argc > 1 ? std::atol(argv[1]) : 0;
  const Model<double> model = robots::arm7<double>();
  Data<double> data(model);
  Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(model.nq(), 0.1, 0.7);
  const Eigen::VectorXd qd = 0.5 * q, qdd = 0.25 * q;
  double sum = 0;
  for (long k = 0; k < iterations; ++k) {
    q[0] += 1e-9;  // a new state each call, so nothing is hoisted out of the loop
    sum += rnea(model, data, q, qd, qdd)[0];
  }
  std::printf("%.17g\n", sum);
}
