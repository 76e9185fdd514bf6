// 50-digit end-frame Jacobians (local and world-aligned) and the OSCM Λ = J H⁻¹ Jᵀ, formed by plain loops
// from frame_jacobian, the CRBA and the LTDL kernels in cpp_bin_float_50; the drift J̇ q̇ and the classical
// acceleration from body_motion and frame_jacobian_drift in cpp_bin_float_50 (each checked in float and double
// against central differences of J in 50 digits by test_frame_motion).
#include <algorithm>

#include "accuracy/suite/reference_common.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/frame_jacobian_time_variation.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/tree_products.hpp"

namespace treedyn::accuracy {
namespace {

/// The drift, the acceleration at q̈ = τ and their scales (accuracy.hpp, FrameReference).
void reference_motion(const Model<Real>& model, Data<Real>& data, const State& s, int body,
                      const Transform<Real>& placement, FrameReference& ref) {
  const VectorR q = to_real(s.q), qd = to_real(s.qd), qdd = to_real(s.tau);
  body_motion(model, data, q, qd, qdd);
  ref.drift_local = to_long_double(frame_jacobian_drift(model, data, qd, body, placement, ReferenceFrame::local));
  ref.drift_world = to_long_double(frame_jacobian_drift(model, data, qd, body, placement, ReferenceFrame::world_aligned));
  ref.accel_world =
      to_long_double(frame_classical_acceleration(model, data, body, placement, ReferenceFrame::world_aligned));
  Real d_max = 0;
  detail::for_each_path_body(model, data, body, placement,
                             [&](int, const Transform<Real>& X_Fk) { d_max = std::max(d_max, Real(X_Fk.r.norm())); });
  Real V = 0, A = 0;
  detail::for_each_path_body(model, data, body, placement, [&](int k, const Transform<Real>& X_Fk) {
    const MotionSubspace<Real>& S = model.motion_subspaces()[k];
    Motion<Real> mv = Motion<Real>::Zero(), ma = Motion<Real>::Zero();
    for (int c = 0; c < S.cols(); ++c) {
      mv += S.col(c) * qd(model.v_offset(k) + c);
      ma += S.col(c) * qdd(model.v_offset(k) + c);
    }
    V += X_Fk.apply_motion(mv).norm() + mv.head<3>().norm() * d_max;
    A += X_Fk.apply_motion(ma).norm() + ma.head<3>().norm() * d_max;
  });
  ref.drift_scale = std::max(static_cast<long double>(V * V), 1e-300L);
  ref.accel_scale = std::max(static_cast<long double>(V * V + A), 1e-300L);
}

}  // namespace

FrameReference reference_frame(const Model<double>& model_d, const State& s) {
  const Model<Real> model = model_d.cast<Real>();
  Data<Real> data(model);
  const VectorR q = to_real(s.q);
  const int n = model.nv(), body = model.nbodies() - 1;
  const Transform<Real> placement = end_placement().cast<Real>();
  forward_kinematics(model, data, q);
  FrameReference ref;
  const MatrixR J = frame_jacobian(model, data, body, placement, ReferenceFrame::local);
  ref.J_local = to_long_double(J);
  ref.J_world = to_long_double(frame_jacobian(model, data, body, placement, ReferenceFrame::world_aligned));
  // d_j: the frame's origin to the origin of the body that owns DoF j
  const Transform<Real> X_F0 = placement * data.X_world[body];
  const Vector3<Real> frame_origin = X_F0.r;
  ref.distance.resize(n);
  for (int j = 0; j < n; ++j) {
    const Vector3<Real> d = data.X_world[model.dof_body(j)].r - frame_origin;
    ref.distance(j) = static_cast<long double>(d.norm());
  }
  crba(model, data, q);
  MatrixR H = dense_H(model, data);
  ltdl(H, model.dof_parents());
  MatrixR HiJt = J.transpose();
  for (int c = 0; c < HiJt.cols(); ++c) {
    VectorR x = HiJt.col(c);
    ltdl_solve(H, model.dof_parents(), x);
    HiJt.col(c) = x;
  }
  MatrixR L(J.rows(), J.rows());
  for (int a = 0; a < J.rows(); ++a)
    for (int b = 0; b < J.rows(); ++b) {
      Real sum = 0;
      for (int k = 0; k < n; ++k) sum += J(a, k) * HiJt(k, b);
      L(a, b) = sum;
    }
  ref.compliance = to_long_double(L);
  reference_motion(model, data, s, body, placement, ref);
  return ref;
}

}  // namespace treedyn::accuracy
