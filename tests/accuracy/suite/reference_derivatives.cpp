// 50-digit derivatives of the dynamics (issue 41) by central differences in cpp_bin_float_50 along the tangent
// increments of q (q ⊕ h e_c = integrate(model, q, e_c, h), docs/derivatives.md#tangent-convention) and the
// entries of q̇: of τ = rnea(q, q̇, q̈) with q̈ the state's τ vector (as measure_dynamics' rnea row), and of
// q̈ = aba(q, q̇, τ). Step 1e-17: truncation ~h² ≈ 1e-34, rounding ~1e-50 / h ≈ 1e-33 relative, far below
// long double's ε. Independent of rnea_derivatives and aba_derivatives (only rnea, aba and integrate). The same
// differences of body_motion's frame_velocity and frame_acceleration (the end frame) for the kinematics
// derivatives, independent of frame_motion_derivatives.hpp.
#include <algorithm>
#include <cmath>

#include "accuracy/suite/reference_common.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_motion.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/model/configuration.hpp"

namespace treedyn::accuracy {

namespace {

/// Central differences of the vector fn(q, q̇) along every tangent increment of q (into dq) and entry of q̇ (into dv).
template <class Fn>
void central_differences(const Model<Real>& model, const VectorR& q, const VectorR& qd, Fn&& fn, MatrixL& dq,
                         MatrixL& dv) {
  const int n = model.nv();
  const Real h("1e-17");
  const Eigen::Index rows = fn(q, qd).size();
  MatrixR Dq(rows, n), Dv(rows, n);
  VectorR qp(model.nq()), qm(model.nq());
  for (int c = 0; c < n; ++c) {
    const VectorR e = VectorR::Unit(n, c);
    integrate(model, q, e, h, qp);
    integrate(model, q, e, Real(-h), qm);
    Dq.col(c) = (fn(qp, qd) - fn(qm, qd)) / (2 * h);
    Dv.col(c) = (fn(q, VectorR(qd + h * e)) - fn(q, VectorR(qd - h * e))) / (2 * h);
  }
  dq = to_long_double(Dq);
  dv = to_long_double(Dv);
}

/// The end frame's velocity and acceleration derivatives (q̈ = tau) in both frame_axes, and its reach.
void frame_references(const Model<Real>& model, Data<Real>& data, const VectorR& q, const VectorR& qd,
                      const VectorR& qdd, DerivativeReference& ref) {
  const int body = model.nbodies() - 1;
  const Transform<Real> placement = end_placement().cast<Real>();
  // [v_F; a_F] in axes 0, then in axes 1: 12 rows per axes
  const auto motions = [&](const VectorR& x, const VectorR& xd) {
    body_motion(model, data, x, xd, qdd);
    VectorR out(24);
    for (int k = 0; k < 2; ++k) {
      out.segment<6>(12 * k) = frame_velocity(model, data, body, placement, frame_axes[k]);
      out.segment<6>(12 * k + 6) = frame_acceleration(model, data, body, placement, frame_axes[k]);
    }
    return out;
  };
  MatrixL dq, dv;
  central_differences(model, q, qd, motions, dq, dv);
  // The differences' rounding is ~1e-50 ‖f‖ / h ≈ 1e-33 ‖f‖: an entry below 1e-28 (1 + ‖f‖∞) is a zero of
  // exact arithmetic (∂a_F/∂q̇ of a frame on a root joint) and is written 0, so the metric sees 0, not noise.
  const long double floor = 1e-28L * (1 + static_cast<long double>(motions(q, qd).cwiseAbs().maxCoeff()));
  for (MatrixL* m : {&dq, &dv}) *m = m->unaryExpr([floor](long double x) { return std::fabs(x) <= floor ? 0.0L : x; });
  for (int k = 0; k < 2; ++k) {
    ref.frame_dv_dq[k] = dq.middleRows(12 * k, 6);
    ref.frame_da_dq[k] = dq.middleRows(12 * k + 6, 6);
    ref.frame_da_dv[k] = dv.middleRows(12 * k + 6, 6);
  }
  // L: from the frame's origin to the farthest body origin on its path (at q)
  forward_kinematics(model, data, q);
  const Vector3<Real> origin = (placement * data.X_world[body]).r;
  Real reach = 0;
  for (int j = body; j != no_parent; j = model.parent(j))
    reach = std::max(reach, Real((data.X_world[j].r - origin).norm()));
  ref.frame_reach = static_cast<long double>(reach);
}

}  // namespace

DerivativeReference reference_derivatives(const Model<double>& model_d, const State& s) {
  const Model<Real> model = model_d.cast<Real>();
  Data<Real> data(model);
  const VectorR q = to_real(s.q), qd = to_real(s.qd), tau = to_real(s.tau);
  DerivativeReference ref;
  central_differences(
      model, q, qd, [&](const VectorR& x, const VectorR& xd) { return VectorR(rnea(model, data, x, xd, tau)); },
      ref.dtau_dq, ref.dtau_dv);
  central_differences(
      model, q, qd, [&](const VectorR& x, const VectorR& xd) { return VectorR(aba(model, data, x, xd, tau)); },
      ref.ddq_dq, ref.ddq_dv);
  frame_references(model, data, q, qd, tau, ref);
  return ref;
}

}  // namespace treedyn::accuracy
