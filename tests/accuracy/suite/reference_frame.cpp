// 50-digit end-frame Jacobians (local and world-aligned) and the OSCM Λ = J H⁻¹ Jᵀ, formed by plain loops
// from frame_jacobian, the CRBA and the LTDL kernels in cpp_bin_float_50.
#include "accuracy/suite/reference_common.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/tree_products.hpp"

namespace treedyn::accuracy {

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
  return ref;
}

}  // namespace treedyn::accuracy
