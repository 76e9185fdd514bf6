// No allocation in exp6, log6, jlog6 and their SO(3) pieces (treedyn/spatial/log6.hpp), nor in the placement error
// of a frame built from them: e = log6(X_F X_des⁻¹) and jlog6(X_F X_des⁻¹) · J_local into a preallocated 6×nv.
#include "no_alloc/no_alloc_support.hpp"

#include "treedyn/spatial/log6.hpp"

TEMPLATE_TEST_CASE("exp6, log6, jlog6, exp3, log3, jlog3 never allocate", "[no_alloc][log6]", float, double) {
  using T = TestType;
  const Model<T> model = robots::arm7<double>().template cast<T>();
  Data<T> data(model);
  const Eigen::Matrix<T, Eigen::Dynamic, 1> q = random_configuration(model, 3);
  forward_kinematics(model, data, q);
  const int body = model.nbodies() - 1;
  Vector6<T> xi;
  xi << T(0.3), T(-1.1), T(2.2), T(0.5), T(-0.4), T(0.1);
  const Transform<T> X_des = exp6(xi);
  Eigen::Matrix<T, 6, Eigen::Dynamic> de(6, model.nv());
  Vector6<T> e;
  Matrix6<T> J6;
  Matrix3<T> R, J3;
  Vector3<T> w;
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state"));
    CHECK(allocations_in([&] {
            const Transform<T> X = exp6(xi);
            e = log6(X);
            J6 = jlog6(X);
            R = exp3(Vector3<T>(xi.template head<3>()));
            w = log3(R);
            J3 = jlog3(R);
          }) == 0);
    CHECK(allocations_in([&] {
            const Transform<T> X_err = data.X_world[body] * X_des.inverse();
            e = log6(X_err);
            de.noalias() = jlog6(X_err) * frame_jacobian(model, data, body, Transform<T>::identity());
          }) == 0);
  }
  CHECK(e.allFinite());
  CHECK(de.allFinite());
  CHECK(J3.allFinite());
}
