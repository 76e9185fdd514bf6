// measure_all: the references of one case once, then every family in float and double.
#include "accuracy/suite/accuracy.hpp"

namespace treedyn::accuracy {

#ifdef TREEDYN_ACCURACY_LANES
/// rnea_derivatives and aba_derivatives on lanes, measure_derivatives' rows as "float-lanes8" / "double-lanes4"
/// (measure_lanes.cpp). Declared here, not in accuracy.hpp: a change to that header recompiles every unit of the
/// suite, the 50-digit reference units included; move it there with that header's next change.
template <class T>
std::vector<Measurement> measure_lanes_derivatives(const Case& c, const std::vector<Reference>& refs,
                                                   const std::vector<DerivativeReference>& derivative_refs);
#endif

std::vector<Measurement> measure_all(const Case& c) {
  std::vector<Reference> refs;
  std::vector<FrameReference> frame_refs;
  std::vector<CentroidalReference> centroidal_refs;
  std::vector<DerivativeReference> derivative_refs;
  for (const State& s : c.states) {
    refs.push_back(reference_dynamics(c.model, s));
    frame_refs.push_back(reference_frame(c.model, s));
    centroidal_refs.push_back(reference_centroidal(c.model, s));
    derivative_refs.push_back(reference_derivatives(c.model, s));
  }
  std::vector<Measurement> out;
  const auto append = [&out](const std::vector<Measurement>& m) { out.insert(out.end(), m.begin(), m.end()); };
  append(measure_dynamics<float>(c, refs));
  append(measure_dynamics<double>(c, refs));
  append(measure_inverse<float>(c, refs));
  append(measure_inverse<double>(c, refs));
  append(measure_operational<float>(c, refs, frame_refs));
  append(measure_operational<double>(c, refs, frame_refs));
  append(measure_centroidal<float>(c, centroidal_refs));
  append(measure_centroidal<double>(c, centroidal_refs));
  append(measure_derivatives<float>(c, refs, derivative_refs));
  append(measure_derivatives<double>(c, refs, derivative_refs));
#ifdef TREEDYN_ACCURACY_LANES
  append(measure_lanes<float>(c, refs, frame_refs));
  append(measure_lanes<double>(c, refs, frame_refs));
  append(measure_lanes_derivatives<float>(c, refs, derivative_refs));
  append(measure_lanes_derivatives<double>(c, refs, derivative_refs));
#endif
  return out;
}

}  // namespace treedyn::accuracy
