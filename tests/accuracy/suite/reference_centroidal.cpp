// 50-digit centre of mass, com Jacobian and centroidal momentum matrix from the library's own
// jacobian_center_of_mass and ccrba in cpp_bin_float_50 (each checked in float and double against
// independent long double references by test_centroidal), with the scales of the suite's metrics; at the state's
// q̇, Ȧ_g, the drift Ȧ_g q̇ and the Coriolis matrix from centroidal_map_time_variation, centroidal_drift and
// coriolis_matrix in cpp_bin_float_50 (checked against 50-digit central differences by test_centroidal).
#include <algorithm>
#include <vector>

#include "accuracy/suite/reference_common.hpp"
#include "treedyn/algorithms/ccrba.hpp"
#include "treedyn/algorithms/centroidal_map_time_variation.hpp"
#include "treedyn/algorithms/centroidal_momentum_rate.hpp"
#include "treedyn/algorithms/coriolis_matrix.hpp"
#include "treedyn/algorithms/jacobian_center_of_mass.hpp"

namespace treedyn::accuracy {
namespace {

/// Ȧ_g, the drift and C at (q, q̇) with their scales (accuracy.hpp, CentroidalReference).
void reference_rates(const Model<Real>& model, const VectorR& q, const VectorR& qd, CentroidalReference& ref) {
  Data<Real> data(model);
  CentroidalMapTimeVariationWorkspace<Real> ws(model);
  centroidal_map_time_variation(model, data, ws, q, qd);  // data.v: the body velocities, body axes
  ref.dAg = to_long_double(ws.dAg);
  std::vector<Real> b(static_cast<std::size_t>(model.nbodies()));
  Real drift_scale = 0, C_scale = 0;
  for (int j = 0; j < model.nbodies(); ++j) {
    const Real arm = 1 + (data.X_world[j].r - data.com).norm(), v = data.v[j].norm();
    b[j] = model.inertia(j).matrix().norm() * (1 + v) * arm * arm;
    drift_scale += b[j] * (1 + v);
    C_scale += b[j];
  }
  for (const int i : model.inward_order())
    if (model.parent(i) != no_parent) b[model.parent(i)] += b[i];  // now the subtree sums
  ref.dAg_scale.resize(model.nv());
  for (int i = 0; i < model.nbodies(); ++i) {
    const MotionSubspace<Real>& S = model.motion_subspaces()[i];
    for (int c = 0; c < S.cols(); ++c)
      ref.dAg_scale(model.v_offset(i) + c) =
          static_cast<long double>(b[i] * (S.col(c).head<3>().norm() + S.col(c).tail<3>().norm()));
  }
  ref.drift = to_long_double(Eigen::Matrix<Real, 6, 1>(centroidal_drift(model, data, q, qd)));
  ref.drift_scale = static_cast<long double>(drift_scale);
  CoriolisMatrixWorkspace<Real> cws(model);
  coriolis_matrix(model, data, cws, q, qd);
  ref.C = to_long_double(cws.C);
  ref.C_scale = static_cast<long double>(C_scale);
}

}  // namespace

CentroidalReference reference_centroidal(const Model<double>& model_d, const State& s) {
  const Model<Real> model = model_d.cast<Real>();
  Data<Real> data(model);
  const VectorR q = to_real(s.q);
  const int n = model.nv();
  jacobian_center_of_mass(model, data, q);
  ccrba(model, data, q, VectorR::Zero(n));
  CentroidalReference ref;
  ref.com = to_long_double(data.com);
  ref.Jcom = to_long_double(data.Jcom);
  ref.Ag = to_long_double(data.Ag);
  Real size = 0;
  for (int i = 0; i < model.nbodies(); ++i) size = std::max(size, Real((data.X_world[i].r - data.com).norm()));
  ref.com_scale = static_cast<long double>(data.com.norm() + size);
  ref.jcom_scale.resize(n);
  ref.moment_scale.resize(n);
  for (int i = 0; i < model.nbodies(); ++i) {
    const MotionSubspace<Real>& S = model.motion_subspaces()[i];
    const RigidInertia<Real>& Ic = data.IC_world[i];
    const Real hs = data.h_subtree[i].norm(), I_norm = Ic.I.matrix().norm(), g = data.com_offset[i].norm();
    for (int c = 0; c < S.cols(); ++c) {
      const Real sw = S.col(c).head<3>().norm(), sv = S.col(c).tail<3>().norm();
      const Real f = data.mass_subtree[i] * sv + sw * hs;
      ref.jcom_scale(model.v_offset(i) + c) = static_cast<long double>(f / data.mass);
      ref.moment_scale(model.v_offset(i) + c) = static_cast<long double>(I_norm * sw + hs * sv + f * g);
    }
  }
  reference_rates(model, q, to_real(s.qd), ref);
  return ref;
}

}  // namespace treedyn::accuracy
