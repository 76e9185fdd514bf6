// measure_centroidal<T>: the centre of mass, its Jacobian, the centroidal momentum matrix, its time variation
// Ȧ_g, the drift Ȧ_g q̇ and the Coriolis matrix in T against the 50-digit reference (accuracy.hpp, CentroidalReference). Compiled once per scalar (TREEDYN_TEST_SCALAR).
#include <algorithm>
#include <limits>

#include "accuracy/suite/measure_common.hpp"
#include "treedyn/algorithms/ccrba.hpp"
#include "treedyn/algorithms/centroidal_map_time_variation.hpp"
#include "treedyn/algorithms/centroidal_momentum_rate.hpp"
#include "treedyn/algorithms/coriolis_matrix.hpp"
#include "treedyn/algorithms/jacobian_center_of_mass.hpp"

namespace treedyn::accuracy {
namespace {

/// max over columns j of ‖Δ rows [row, row + 3) of column j‖ / scale_j; a column of scale 0 (a massless
/// subtree) must be exactly zero, else the error is infinite.
double column_error(const MatrixL& computed, const MatrixL& reference, int row, const VectorL& scale) {
  double worst = 0;
  for (Eigen::Index j = 0; j < computed.cols(); ++j) {
    const long double d = (computed.col(j).segment<3>(row) - reference.col(j).segment<3>(row)).norm();
    if (scale(j) == 0) {
      if (d != 0) return std::numeric_limits<double>::infinity();
      continue;
    }
    worst = std::max(worst, static_cast<double>(d / scale(j)));
  }
  return worst;
}

}  // namespace

template <class T>
std::vector<Measurement> measure_centroidal(const Case& c, const std::vector<CentroidalReference>& refs) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const Model<T> model = c.model.template cast<T>();
  Data<T> data(model);
  CentroidalMapTimeVariationWorkspace<T> map_rate_ws(model);
  CoriolisMatrixWorkspace<T> coriolis_ws(model);
  const int n = model.nv(), nb = model.nbodies();
  Recorder<T> r{c, {}};
  for (std::size_t k = 0; k < c.states.size(); ++k) {
    const VectorT q = c.states[k].q.cast<T>();
    const CentroidalReference& ref = refs[k];
    jacobian_center_of_mass(model, data, q);
    r.add("center_of_mass", "position", static_cast<double>((widen(data.com) - ref.com).norm() / ref.com_scale), 16,
          nb);
    r.add("jacobian_center_of_mass", "column", column_error(widen(data.Jcom), ref.Jcom, 0, ref.jcom_scale), 16, nb);
    ccrba(model, data, q, VectorT::Zero(n));
    // the linear rows are M J_c: their scale is M times J_c's
    long double mass = 0;
    for (int i = 0; i < nb; ++i) mass += static_cast<long double>(c.model.inertia(i).m);
    const MatrixL Ag = widen(data.Ag);
    const VectorL force_scale = ref.jcom_scale * mass;
    r.add("ccrba", "column",
          std::max(column_error(Ag, ref.Ag, 0, ref.moment_scale), column_error(Ag, ref.Ag, 3, force_scale)),
          16, nb);
    const VectorT qd = c.states[k].qd.cast<T>();
    centroidal_map_time_variation(model, data, map_rate_ws, q, qd);
    const MatrixL dAg = widen(map_rate_ws.dAg);
    r.add("centroidal_map_time_variation", "column",
          std::max(column_error(dAg, ref.dAg, 0, ref.dAg_scale), column_error(dAg, ref.dAg, 3, ref.dAg_scale)), 16, nb);
    const Eigen::Matrix<T, 6, 1> drift = centroidal_drift(model, data, q, qd);
    r.add("centroidal_drift", "rate", static_cast<double>((widen(drift) - ref.drift).norm() / ref.drift_scale), 16, nb);
    coriolis_matrix(model, data, coriolis_ws, q, qd);
    r.add("coriolis_matrix", "entry",
          static_cast<double>((widen(coriolis_ws.C) - ref.C).cwiseAbs().maxCoeff() / ref.C_scale), 16, nb);
  }
  return r.out;
}

template std::vector<Measurement> measure_centroidal<TREEDYN_TEST_SCALAR>(const Case&,
                                                                          const std::vector<CentroidalReference>&);

}  // namespace treedyn::accuracy
