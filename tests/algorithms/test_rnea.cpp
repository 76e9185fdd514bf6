// RNEA and bias: τ = H q̈ + C, external forces against the dense reference, and a
// free-falling floating body needs no joint force.
#include <catch2/catch.hpp>

#include <vector>

#include "support/robot_cases.hpp"
#include "reference/dense_dynamics.hpp"
#include "support/crba_dense.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEMPLATE_TEST_CASE("rnea: τ = H q̈ + C and agrees with the dense Newton–Euler reference, with external forces",
                   "[rnea]", float, double) {
  using T = TestType;
  using VecX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  for_each_robot_state<T>(50, 900u, [](const RobotCase<T>& c, const State<T>& s, int index) {
    const int n = c.model.nv();
    Data<T> data(c.model);
    const VecX tau = rnea(c.model, data, s.q, s.qd, s.qdd);
    const VecX C = bias(c.model, data, s.q, s.qd);
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> H = crba_dense(c.model, data, s.q);
    // every term is bounded by |H||q̈| + |C|: the rounding of each side is a small multiple of it
    const double scale = static_cast<double>((H.cwiseAbs() * s.qdd.cwiseAbs()).maxCoeff() + C.cwiseAbs().maxCoeff() + T(1));
    const double tol = 64.0 * (n + 1) * eps<T>() * scale;
    REQUIRE(static_cast<double>((tau - (H * s.qdd + C)).cwiseAbs().maxCoeff()) <= tol);

    Rng rng(5000u + static_cast<unsigned>(index + 1));
    std::vector<Force<T>> f_ext;
    std::vector<reference::Vec6<double>> f_ext_d;
    for (int i = 0; i < c.model.nbodies(); ++i) {
      f_ext.push_back(rng.matrix<T>(6, 1));
      f_ext_d.push_back(f_ext.back().template cast<double>());
    }
    const VecX tau_ext = rnea(c.model, data, s.q, s.qd, s.qdd, f_ext);
    const Model<double> md = c.model.template cast<double>();
    const Eigen::VectorXd ref = reference::inverse_dynamics(md, s.q.template cast<double>(), s.qd.template cast<double>(),
                                                            s.qdd.template cast<double>(), f_ext_d);
    const double scale_ext = ref.cwiseAbs().maxCoeff() + scale;
    REQUIRE(close_entrywise(tau_ext.template cast<double>(), ref, 64.0 * (n + 1) * eps<T>() * scale_ext));
    const VecX C_ext = bias(c.model, data, s.q, s.qd, f_ext);
    REQUIRE(static_cast<double>((tau_ext - (H * s.qdd + C_ext)).cwiseAbs().maxCoeff()) <= 64.0 * (n + 1) * eps<T>() * scale_ext);
  });
}

TEMPLATE_TEST_CASE("a free-falling floating body needs no joint force", "[rnea]", float, double) {
  using T = TestType;
  ModelBuilder<T> builder;
  Matrix3<T> Ic;
  Ic << T(0.3), T(0.01), T(-0.02), T(0.01), T(0.2), T(0.015), T(-0.02), T(0.015), T(0.25);
  builder.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(),
                   RigidInertia<T>::from_mass_com_inertia(T(2), Vector3<T>(T(0.1), T(-0.05), T(0.2)), Ic), "body");
  const Model<T> model = builder.build();
  Data<T> data(model);
  const State<T> s = random_state(model, 17);
  // Free fall: f = I a + crf(v) I v = 0 with a = X a_0 + q̈ (S = 1₆, crm(v) v = 0), so
  // q̈ = −I⁻¹ crf(v) I v − X a_0 with a_0 = −[0; g].
  forward_kinematics(model, data, s.q);
  const Motion<T> v = s.qd;
  const Eigen::Matrix<T, 6, 6> I = model.inertia(0).matrix();
  Motion<T> a0 = Motion<T>::Zero();
  a0.template tail<3>() = -model.gravity();
  const Motion<T> qdd = -I.inverse() * (crf(v) * (I * v)) - data.Xup[0].apply_motion(a0);
  const Eigen::Matrix<T, Eigen::Dynamic, 1> tau = rnea(model, data, s.q, s.qd, qdd);
  const double scale = static_cast<double>(I.cwiseAbs().maxCoeff() * (qdd.cwiseAbs().maxCoeff() + T(10)));
  REQUIRE(static_cast<double>(tau.cwiseAbs().maxCoeff()) <= 64.0 * eps<T>() * scale);
}
