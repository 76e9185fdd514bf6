// The placement error of a frame on a robot (docs/derivatives.md#placement-error-and-its-jacobian):
// e(q) = log6(X_F(q) · X_des⁻¹) (Pinocchio's log6(M_des⁻¹ M(q))) and de/dq = jlog6(X_F X_des⁻¹) · J_local, on a chain of
// free, spherical, planar and helical joints (the tangent convention: q moves along integrate).
//  - e against the known value: with X_des = exp6(ξ₀) X_F(q₀), e(q₀) = log6(exp6(−ξ₀)) = −ξ₀ for |ξ₀'s ω| < π;
//  - de/dq against central differences of e along integrate, computed in cpp_bin_float_50 on the same model, q and
//    X_des (h = 1e-20), for float and double, with X_des at a small, a moderate and a near-π error.
// Tolerance: c·ε(T)·(1 + |e|²)·(1 + the largest entry of the reference): e and jlog6 have entries of size up to
// |e|², multiplied by J's entries (lever arms ~ the chain's length).
#include <catch2/catch.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/tolerance.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/frame_placements.hpp"
#include "treedyn/robots/random_tree.hpp"
#include "treedyn/spatial/log6.hpp"

using namespace treedyn;
using test::close_entrywise;
using test::tolerance;
using B50 = boost::multiprecision::cpp_bin_float_50;

namespace {

template <class T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <class T>
Vector6<T> placement_error(const Model<T>& model, const Frame<T>& frame, const Transform<T>& X_des, const Vec<T>& q) {
  Data<T> data(model);
  forward_kinematics(model, data, q);
  return log6(frame_placement(model, data, frame) * X_des.inverse());
}

}  // namespace

TEMPLATE_TEST_CASE("placement error log6(X(q) X_des^-1) and its derivative jlog6 * J_local", "[log6]", float, double) {
  using T = TestType;
  const Model<double> model = robots::random_chain<double>(
      6, 77, {JointType::free_flyer, JointType::spherical, JointType::planar, JointType::helical});
  const Model<T> mT = model.cast<T>();
  const Model<B50> m50 = model.cast<B50>();
  const Vec<double> q = random_configuration(model, 5);
  const int body = model.nbodies() - 1;
  const Matrix3<double> E = Eigen::AngleAxisd(0.7, Vector3<double>(1, -2, 0.5).normalized()).toRotationMatrix();
  const Frame<double> F{"tool", body, Transform<double>{E, Vector3<double>(0.1, -0.2, 0.3)}};
  const Frame<T> FT{F.name, body, F.placement.cast<T>()};
  const Frame<B50> F50{F.name, body, F.placement.cast<B50>()};

  Data<double> data(model);
  forward_kinematics(model, data, q);
  const Transform<double> X_F = frame_placement(model, data, F);
  for (const double angle : {0.05, 1.3, 3.1}) {
    CAPTURE(angle);
    Vector6<double> xi0;
    xi0 << angle * Vector3<double>(0.3, -0.9, 0.2).normalized(), 0.4, -0.25, 0.6;
    const Transform<double> X_des = exp6(xi0) * X_F;

    // e in T, and de/dq = jlog6 · J_local
    Data<T> dT(mT);
    const Vec<T> qT = q.cast<T>();
    forward_kinematics(mT, dT, qT);
    const Transform<T> X_desT = X_des.cast<T>();
    const Transform<T> X_err = frame_placement(mT, dT, FT) * X_desT.inverse();
    const Vector6<T> e = log6(X_err);
    const Eigen::Matrix<T, 6, Eigen::Dynamic> de = jlog6(X_err) * frame_jacobian(mT, dT, body, FT.placement);
    const double e2 = static_cast<double>(xi0.squaredNorm());
    CHECK(close_entrywise(e, Vector6<double>(-xi0), tolerance<T>(64, 1, 1.0 + e2)));
    CHECK(close_entrywise(e, placement_error(mT, FT, X_desT, qT), 0.0));

    // central differences of e along integrate, in 50 digits
    const Transform<B50> X_des50 = X_des.cast<B50>();
    const Vec<B50> q50 = q.cast<B50>();
    const B50 h("1e-20");
    Eigen::Matrix<B50, 6, Eigen::Dynamic> reference(6, model.nv());
    Vec<B50> qp(model.nq()), qm(model.nq());
    for (int k = 0; k < model.nv(); ++k) {
      const Vec<B50> unit = Vec<B50>::Unit(model.nv(), k);
      integrate(m50, q50, unit, h, qp);
      integrate(m50, q50, unit, B50(-h), qm);
      reference.col(k) = (placement_error(m50, F50, X_des50, qp) - placement_error(m50, F50, X_des50, qm)) / (B50(2) * h);
    }
    const double largest = static_cast<double>(reference.cwiseAbs().maxCoeff());
    CHECK(close_entrywise(de, reference, tolerance<T>(64, 1, (1.0 + e2) * (1.0 + largest))));
  }
}
