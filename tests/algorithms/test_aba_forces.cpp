// aba and modified_aba under forces: with external forces f_ext they equal CRBA + LTDL with the same forces
// and RNEA with those forces maps the answer back to τ; on a free-floating body they give the Newton–Euler
// answer (a unit of its own: each instantiates the algorithms again, for the f_ext argument type and for
// fixed-size 6-vector inputs); aba's free-joint steps (a floating base, a free joint below another body, a
// thin light free body) agree with a dense double H⁻¹(τ − C) and RNEA maps their answer back to τ.
#include <catch2/catch.hpp>

#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "algorithms/aba_methods.hpp"
#include "support/robot_cases.hpp"
#include "support/scalars.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
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

namespace {

/// A single body on a free-flyer joint: mass m, CoM c, rotational inertia Ic about the CoM (gravity on).
Model<double> free_body(double m, const Vector3<double>& c, const Matrix3<double>& Ic) {
  ModelBuilder<double> b;
  b.add_body(no_parent, Joint<double>::free_flyer(), Transform<double>::identity(),
             RigidInertia<double>::from_mass_com_inertia(m, c, Ic), "body");
  return b.build();
}

/// The models with free joints: a general free body; a thin light rod (1 g, 0.5 m, axial inertia 1e-9:
/// the spatial inertia's eigenvalues spread over 1e6); a free body on a revolute root (a free joint with a
/// parent); humanoid30 (a free-flyer torso).
std::vector<RobotCase<double>> free_joint_cases() {
  Matrix3<double> Ic;
  Ic << 0.30, 0.02, -0.01, 0.02, 0.25, 0.03, -0.01, 0.03, 0.20;
  const Matrix3<double> R = Eigen::AngleAxisd(0.7, Vector3<double>(1, 2, 3).normalized()).toRotationMatrix();
  const Matrix3<double> rod = R * Vector3<double>(1e-9, 1e-3 * 0.25 / 12, 1e-3 * 0.25 / 12).asDiagonal() * R.transpose();
  ModelBuilder<double> b;
  const int root = b.add_body(no_parent, Joint<double>::revolute(Vector3<double>::UnitY()), Transform<double>::identity(),
                              RigidInertia<double>::from_mass_com_inertia(1.5, Vector3<double>(0, 0, -0.2), Ic), "arm");
  b.add_body(root, Joint<double>::free_flyer(), xlt(Vector3<double>(0.1, 0, -0.4)),
             RigidInertia<double>::from_mass_com_inertia(0.8, Vector3<double>(0.05, 0.02, -0.1), Ic * 0.5), "flyer");
  return {{"free body", free_body(2.5, Vector3<double>(0.1, -0.2, 0.05), Ic)},
          {"thin light free body", free_body(1e-3, Vector3<double>(0.02, 0.01, 0.05), rod)},
          {"free joint with a parent", b.build()},
          {"humanoid30", robots::humanoid30<double>()}};
}

}  // namespace

TEMPLATE_TEST_CASE("aba's free-joint steps agree with H⁻¹(τ − C) and with RNEA", "[aba][free_joint]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  using VecT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  int index = 0;
  for (const RobotCase<double>& c : free_joint_cases()) {
    INFO(c.name);
    const Model<T> model = c.model.template cast<T>();
    Data<T> data(model);
    const State<T> s = random_state(model, 4500u + static_cast<unsigned>(index));
    const VecT tau = Rng(4600u + static_cast<unsigned>(index++)).matrix<T>(model.nv(), 1);
    // The reference in double from the same (rounded) inputs: dense H and C, an LDLᵀ solve.
    Data<double> ref_data(c.model);
    const Eigen::VectorXd q = s.q.template cast<double>(), qd = s.qd.template cast<double>();
    const Eigen::MatrixXd H = (crba(c.model, ref_data, q), dense_H(c.model, ref_data));
    const Eigen::VectorXd C = bias(c.model, ref_data, q, qd);
    const Eigen::VectorXd expected = H.ldlt().solve(tau.template cast<double>() - C);
    const double kappa = spd_condition(H);
    const double n = model.nv() + 1;
    const VecT qdd = aba(model, data, s.q, s.qd, tau);
    REQUIRE(data.aba_status.ok());
    // Forward error: ε(T) κ(H) ‖q̈‖, plus the double reference's own ε(double) κ(H) ‖q̈‖.
    const double forward_tol = 64.0 * n * (eps<T>() + eps<double>()) * kappa * (expected.norm() + 1.0);
    REQUIRE((qdd.template cast<double>() - expected).norm() <= forward_tol);
    // Residual: RNEA(q, q̇, q̈) − τ = H q̈ + C − τ, backward error ε(T) (‖H‖ ‖q̈‖ + ‖C‖ + ‖τ‖), no κ.
    const VecT tau_back = rnea(model, data, s.q, s.qd, qdd);
    const double residual_tol = 64.0 * n * eps<T>() *
                                (H.norm() * expected.norm() + C.norm() + static_cast<double>(tau.norm()) + 1.0);
    REQUIRE(static_cast<double>((tau_back - tau).norm()) <= residual_tol);
  }
}

}  // namespace treedyn::test
