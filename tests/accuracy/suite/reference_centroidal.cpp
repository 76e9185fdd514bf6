// 50-digit centre of mass, com Jacobian and centroidal momentum matrix from the library's own
// jacobian_center_of_mass and ccrba in cpp_bin_float_50 (each checked in float and double against
// independent long double references by test_centroidal), with the scales of the suite's metrics.
#include <algorithm>

#include "accuracy/suite/reference_common.hpp"
#include "treedyn/algorithms/ccrba.hpp"
#include "treedyn/algorithms/jacobian_center_of_mass.hpp"

namespace treedyn::accuracy {

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
  return ref;
}

}  // namespace treedyn::accuracy
