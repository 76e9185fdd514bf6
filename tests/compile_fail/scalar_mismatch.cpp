// Must NOT compile: a double vector given to a Model<float>. tests/CMakeLists.txt runs the compiler on this
// file and passes when its output carries treedyn's static_assert message (TREEDYN_SAME_SCALAR,
// treedyn/detail/check.hpp) rather than only Eigen's mixed-scalar errors.
#include <Eigen/Core>

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/robots/robots.hpp"

int main() {
  const treedyn::Model<float> model = treedyn::robots::arm7<float>();
  treedyn::Data<float> data(model);
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq());
  const Eigen::VectorXf v = Eigen::VectorXf::Zero(model.nv());
  treedyn::aba(model, data, q, v, v);
  return 0;
}
