// Joint kinematics along integrate:
//  * for every joint type, S q̇ equals the body-frame joint velocity obtained by differentiating
//    XJ(q(t)) numerically along q(t) = integrate(q, q̇, t), with v_J read off crm(v_J) = −Ẋ X⁻¹ (dense);
//    at t = 0 this tests the q̇(v) map, at t ≠ 0 it tests that integrate follows a constant body twist;
//  * helical with pitch 0 equals revolute bit for bit; a free flyer with ω = 0 translates along R v;
//    a planar joint's velocity is in the body frame and its exponential closes a full turn.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "model_test_support.hpp"

using namespace model_test;
using treedyn::JointType;
using treedyn::Model;

TEMPLATE_TEST_CASE("S v is the body velocity along integrate (central differences)", "[model][joint]", float,
                   double) {
  using T = TestType;
  // Central differences with step h = ε^(1/3): truncation h²/6 |X'''| ≈ h² |v|³ |X| / 6 and rounding
  // ε |X| / h are both ε^(2/3)-sized; the bound below allows a factor 8 on each.
  const T h = std::cbrt(T(eps<T>()));
  treedyn::test::Rng rng(20240601);
  for (JointType type : moving_types()) {
    const Model<T> model = single_joint_model<T>(type);
    const treedyn::Joint<T>& joint = model.joint(0);
    const MatX<T> S = joint.motion_subspace();
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const VecX<T> q0 = treedyn::random_configuration(model, seed);
      const VecX<T> v = random_vector<T>(rng, model.nv());
      for (const T t0 : {T(0), T(0.7)}) {
        VecX<T> qm(model.nq()), qc(model.nq()), qp(model.nq());
        treedyn::integrate(model, q0, v, t0 - h, qm);
        treedyn::integrate(model, q0, v, t0, qc);
        treedyn::integrate(model, q0, v, t0 + h, qp);
        const treedyn::Transform<T> Xc = joint.transform(qc);
        const M6<T> Xdot = (joint.transform(qp).motion_matrix() - joint.transform(qm).motion_matrix()) / (T(2) * h);
        const M6<T> M = -Xdot * Xc.inverse().motion_matrix();
        const V6<T> vJ = velocity_from_crm(M);
        const V6<T> expected = S * v;
        const T scale = T(1) + Xc.r.norm();
        const T speed = T(1) + v.norm();
        const T tol = T(8) * h * h * speed * speed * speed * scale;
        INFO("joint " << joint.type_name() << ", seed " << seed << ", t0 " << t0);
        INFO("S v = " << expected.transpose() << "\nv_J = " << vJ.transpose());
        CHECK(close_entrywise(vJ, expected, tol));
        // −Ẋ X⁻¹ must itself be a motion cross-product matrix (zero top-right block, equal diagonal blocks)
        CHECK(close_entrywise(M, treedyn::crm(vJ), tol));
      }
    }
  }
}

TEMPLATE_TEST_CASE("helical joint with pitch 0 is the revolute joint bit for bit", "[model][joint]", float, double) {
  using T = TestType;
  const V3<T> axis = V3<T>(T(0.3), T(-0.5), T(0.8)).normalized();
  const treedyn::Joint<T> revolute = treedyn::Joint<T>::revolute(axis);
  const treedyn::Joint<T> helical = treedyn::Joint<T>::helical(axis, T(0));
  treedyn::test::Rng rng(7);
  for (int k = 0; k < 10; ++k) {
    Eigen::Matrix<T, 1, 1> q;
    q(0) = static_cast<T>(rng.uniform(-4.0, 4.0));
    const treedyn::Transform<T> Xr = revolute.transform(q), Xh = helical.transform(q);
    CHECK(Xr.E == Xh.E);
    CHECK(Xr.r == Xh.r);
  }
  CHECK(revolute.motion_subspace() == helical.motion_subspace());
  // and a helical joint with pitch p moves p·angle along its axis
  const treedyn::Joint<T> screw = treedyn::Joint<T>::helical(axis, T(0.25));
  Eigen::Matrix<T, 1, 1> q;
  q(0) = T(2);
  CHECK(close_entrywise(screw.transform(q).r, T(0.5) * axis, T(4 * eps<T>())));
  CHECK(screw.transform(q).E == revolute.transform(q).E);
}

TEMPLATE_TEST_CASE("free flyer with zero angular velocity translates along R v", "[model][joint]", float, double) {
  using T = TestType;
  const Model<T> model = single_joint_model<T>(JointType::free_flyer);
  treedyn::test::Rng rng(99);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const VecX<T> q0 = treedyn::random_configuration(model, seed);
    VecX<T> v = VecX<T>::Zero(6);
    v.template tail<3>() = random_vector<T>(rng, 3);
    const T dt = T(0.37);
    VecX<T> q1(7);
    treedyn::integrate(model, q0, v, dt, q1);
    const treedyn::Matrix3<T> R = treedyn::detail::quaternion_rotation(q0.template segment<4>(3));
    const V3<T> expected = q0.template head<3>() + R * v.template tail<3>() * dt;
    CHECK(close_entrywise(q1.template head<3>(), expected, T(8 * eps<T>())));
    CHECK(close_entrywise(q1.template tail<4>(), q0.template tail<4>(), T(4 * eps<T>())));
    // the body frame keeps its orientation: XJ's rotation is unchanged
    CHECK(close_entrywise(model.joint(0).transform(q1).E, model.joint(0).transform(q0).E, T(8 * eps<T>())));
  }
}

TEMPLATE_TEST_CASE("planar velocity is in the body frame", "[model][configuration]", float, double) {
  using T = TestType;
  const Model<T> model = single_joint_model<T>(JointType::planar);
  VecX<T> q0(3);
  q0 << T(0.5), T(-0.25), T(1.2);
  // pure body-x motion: the origin moves along the body's x axis, (cos θ, sin θ) in the parent
  VecX<T> v(3), q1(3);
  v << T(2), T(0), T(0);
  treedyn::integrate(model, q0, v, T(0.5), q1);
  CHECK(std::abs(q1(0) - (T(0.5) + std::cos(T(1.2)))) <= T(8 * eps<T>()));
  CHECK(std::abs(q1(1) - (T(-0.25) + std::sin(T(1.2)))) <= T(8 * eps<T>()));
  CHECK(q1(2) == q0(2));
  // a full turn with a body-x speed comes back to the start (the SE(2) exponential closes the circle)
  const T two_pi = T(8) * std::atan(T(1));
  v << T(1), T(0), two_pi;
  treedyn::integrate(model, q0, v, T(1), q1);
  CHECK(std::abs(q1(0) - q0(0)) <= T(16 * eps<T>()));
  CHECK(std::abs(q1(1) - q0(1)) <= T(16 * eps<T>()));
  CHECK(std::abs(q1(2) - (q0(2) + two_pi)) <= T(8 * eps<T>()));
}
