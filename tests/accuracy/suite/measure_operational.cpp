// measure_operational<T>: the end frame's Jacobians, its drift J̇ q̇ and classical acceleration, and the operational-space compliance and inertia by every
// kernel, in T against the 50-digit reference. Compiled once per scalar (TREEDYN_TEST_SCALAR).
#include <memory>
#include <stdexcept>

#include <Eigen/Cholesky>

#include "accuracy/suite/measure_common.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/frame_jacobian_time_variation.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/algorithms/oscm_dense.hpp"
#include "treedyn/algorithms/oscm_schur.hpp"
#include "treedyn/algorithms/osim.hpp"
#include "treedyn/algorithms/osim_schur.hpp"

namespace treedyn::accuracy {

template <class T>
std::vector<Measurement> measure_operational(const Case& c, const std::vector<Reference>& refs,
                                             const std::vector<FrameReference>& frame_refs) {
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const Model<T> model = c.model.template cast<T>();
  Data<T> data(model);
  const int n = model.nv(), tip = model.nbodies() - 1;
  const Transform<T> placement = end_placement().cast<T>();
  OperationalFrames<T> frames(model);
  frames.add(tip, placement);
  std::unique_ptr<OscmSchurWorkspace<T>> schur_ws;
  try {
    schur_ws = std::make_unique<OscmSchurWorkspace<T>>(model, frames);
  } catch (const std::invalid_argument&) {
  }
  Recorder<T> r{c, {}};
  for (std::size_t k = 0; k < c.states.size(); ++k) {
    const VectorT q = c.states[k].q.cast<T>();
    const Reference& ref = refs[k];
    const FrameReference& fr = frame_refs[k];
    forward_kinematics(model, data, q);
    record_jacobians(r, fr, widen(frame_jacobian(model, data, tip, placement, ReferenceFrame::local)),
                     widen(frame_jacobian(model, data, tip, placement, ReferenceFrame::world_aligned)), n);
    const VectorT qd = c.states[k].qd.cast<T>(), qdd = c.states[k].tau.cast<T>();
    body_motion(model, data, q, qd, qdd);
    const auto motion = [&](const std::string& name, const Motion<T>& m, const VectorL& reference, long double scale) {
      r.add(name, "motion", static_cast<double>((widen(m) - reference).norm() / scale), 16, model.nbodies());
    };
    motion("frame_jacobian_drift local", frame_jacobian_drift(model, data, qd, tip, placement, ReferenceFrame::local),
           fr.drift_local, fr.drift_scale);
    motion("frame_jacobian_drift world",
           frame_jacobian_drift(model, data, qd, tip, placement, ReferenceFrame::world_aligned), fr.drift_world,
           fr.drift_scale);
    motion("frame_classical_acceleration world",
           frame_classical_acceleration(model, data, tip, placement, ReferenceFrame::world_aligned), fr.accel_world,
           fr.accel_scale);
    if (!c.operational || !solvable<T>(n, ref.kappa_s)) continue;
    const double kappa_lambda = scaled_condition(fr.compliance);
    if (!solvable<T>(6, kappa_lambda)) continue;
    const MatrixL inertia_ref = fr.compliance.ldlt().solve(MatrixL::Identity(6, 6));
    const auto compliance = [&](const std::string& name, const MatrixL& L) {
      r.add(name, "scaled", scaled_error(L, fr.compliance), 16, n, ref.kappa_s);
    };
    const auto inertia = [&](const std::string& name, const MatrixL& L) {
      r.add(name, "scaled", scaled_error(L, inertia_ref), 16, n, ref.kappa_s * kappa_lambda);
    };
    compliance("oscm", widen(oscm(model, data, frames, q)));
    compliance("oscm_faithful", widen(oscm_faithful(model, data, frames, q)));
    compliance("oscm_dense", widen(oscm_dense(model, data, frames, q)));
    inertia("osim", widen(osim(model, data, frames, q)));
    if (schur_ws) {
      compliance("oscm_schur", widen(oscm_schur(model, data, *schur_ws, q)));
      inertia("osim_schur", widen(osim_schur(model, data, *schur_ws, q)));
    }
  }
  return r.out;
}

template std::vector<Measurement> measure_operational<TREEDYN_TEST_SCALAR>(const Case&, const std::vector<Reference>&,
                                                                           const std::vector<FrameReference>&);

}  // namespace treedyn::accuracy
