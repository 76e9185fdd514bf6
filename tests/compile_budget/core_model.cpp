// The compile-time budget's companion unit: builds the humanoid (the builder, a robot, cast to float)
// and runs core_tu.cpp's algorithms on it. measure.sh reports its compile cost beside the core unit's.
#include <cstdio>

#include <treedyn/robots/robots.hpp>

template <class Scalar>
bool run_core_algorithms(const treedyn::Model<Scalar>& model);

int main() {
  const treedyn::Model<double> humanoid = treedyn::robots::humanoid30<double>();
  const bool ok = run_core_algorithms(humanoid.cast<float>()) && run_core_algorithms(humanoid);
  std::printf("core algorithms, float and double: %s\n", ok ? "finite" : "NOT FINITE");
  return ok ? 0 : 1;
}
