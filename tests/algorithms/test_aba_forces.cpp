// aba and modified_aba under forces: with external forces f_ext they equal CRBA + LTDL with the same forces
// and RNEA with those forces maps the answer back to τ; on a free-floating body they give the Newton–Euler
// answer (a unit of its own: each instantiates the algorithms again, for the f_ext argument type and for
// fixed-size 6-vector inputs).
#include <catch2/catch.hpp>

#include <vector>

#include <Eigen/Cholesky>

#include "algorithms/aba_methods.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/rnea.hpp"

namespace treedyn::test {

TEMPLATE_TEST_CASE("aba with external forces equals CRBA + LTDL with the same forces", "[aba][f_ext]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  int index = 0;
  for (auto& c : robot_cases<T>(20)) {
    INFO(c.name);
    Data<T> data(c.model);
    const State<T> s = random_state(c.model, 4200u + static_cast<unsigned>(index));
    Rng rng(4300u + static_cast<unsigned>(index++));
    std::vector<Force<T>> f_ext;
    for (int i = 0; i < c.model.nbodies(); ++i) f_ext.push_back(rng.matrix<T>(6, 1));
    const Eigen::Matrix<T, Eigen::Dynamic, 1> tau = rng.matrix<T>(c.model.nv(), 1);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> ref = forward_dynamics_crba(c.model, data, s.q, s.qd, tau, f_ext);
    const double kappa = spd_condition(dense_H(c.model, data));
    const double tol = 64.0 * (c.model.nv() + 1) * eps<T>() * kappa * (static_cast<double>(ref.norm()) + 1.0);
    REQUIRE(static_cast<double>((aba(c.model, data, s.q, s.qd, tau, f_ext) - ref).norm()) <= tol);
    REQUIRE(static_cast<double>((modified_aba(c.model, data, s.q, s.qd, tau, f_ext) - ref).norm()) <= tol);
    // And RNEA with the same forces maps the answer back to τ.
    const Eigen::Matrix<T, Eigen::Dynamic, 1> qdd = aba(c.model, data, s.q, s.qd, tau, f_ext);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> tau_back = rnea(c.model, data, s.q, s.qd, qdd, f_ext);
    REQUIRE(static_cast<double>((tau_back - tau).norm()) <= tol * (static_cast<double>(dense_H(c.model, data).norm()) + 1.0));
  }
}

TEMPLATE_TEST_CASE("a free-floating body: q̈ = I⁻¹(f − crf(v) I v)", "[aba][free_body]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  // A general rigid body: mass 2.5, CoM off the origin, a full rotational inertia.
  Matrix3<T> Ic;
  Ic << T(0.30), T(0.02), T(-0.01), T(0.02), T(0.25), T(0.03), T(-0.01), T(0.03), T(0.20);
  const RigidInertia<T> I = RigidInertia<T>::from_mass_com_inertia(T(2.5), Vector3<T>(T(0.1), T(-0.2), T(0.05)), Ic);
  ModelBuilder<T> b;
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), I, "body");
  b.set_gravity(Vector3<T>::Zero());
  const Model<T> model = b.build();
  Data<T> data(model);
  Rng rng(4400u);
  Eigen::Matrix<T, Eigen::Dynamic, 1> q = rng.matrix<T>(7, 1);
  q.template tail<4>().normalize();
  const Eigen::Matrix<T, 6, 1> v = rng.matrix<T>(6, 1);
  const Eigen::Matrix<T, 6, 1> f = rng.matrix<T>(6, 1);
  // The free flyer's v is body-frame [ω; v_O] and its S is the identity, so q̈ is the body acceleration.
  const Eigen::Matrix<T, 6, 6> Im = I.matrix();
  const Eigen::Matrix<T, 6, 1> expected = Im.ldlt().solve(f - cross_force(v, Eigen::Matrix<T, 6, 1>(Im * v)));
  const double kappa = spd_condition(Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>(Im));
  const double tol = 64.0 * 7 * eps<T>() * kappa * (static_cast<double>(expected.norm()) + 1.0);
  for (Method m : {Method::aba, Method::modified_aba}) {
    INFO(name(m));
    REQUIRE(static_cast<double>((run(m, model, data, q, v, f) - expected).norm()) <= tol);
  }
}

}  // namespace treedyn::test
