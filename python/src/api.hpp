// treedyn Python module: the per-scalar forms of the model functions. Each is defined in a header of its
// family (dynamics.hpp, inertia.hpp, operational.hpp) and instantiated once per scalar in its own
// translation unit (*_f64.cpp, *_f32.cpp) so that each stays small; the registering units (dynamics.cpp,
// inertia.cpp, operational.cpp) see only these declarations and bind ONE Python entry point per function
// that dispatches on the model's type (common.hpp, by_model).
#pragma once

#include "common.hpp"

namespace treedyn::python {

/// rnea, bias, the forward dynamics and the batched calls (dynamics.hpp).
template <class S>
struct Dynamics {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  static py::array_t<S> rnea(H& h, Obj q, Obj v, Obj a, Obj f_ext, Obj out);
  static py::array_t<S> bias(H& h, Obj q, Obj v, Obj f_ext, Obj out);
  static py::array_t<S> aba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out);
  static py::array_t<S> modified_aba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out);
  static py::array_t<S> forward_dynamics_crba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out);
  static py::array_t<S> aba_batch(H& h, Obj Q, Obj V, Obj T, Obj out, int threads);
  static py::array_t<S> rnea_batch(H& h, Obj Q, Obj V, Obj A, Obj out, int threads);
  static py::array_t<S> crba_batch(H& h, Obj Q, Obj out, int threads);
};

/// The joint-space inertia matrix and its inverses (inertia.hpp).
template <class S>
struct Inertia {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  static py::array_t<S> crba(H& h, Obj q, Obj out);
  static py::array_t<S> minverse_ltdl(H& h, Obj q, Obj out);
  static py::array_t<S> minverse_aba(H& h, Obj q, Obj out);
};

/// The operational frames' class and their operational-space matrices (operational.hpp).
template <class S>
struct Operational {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  static void bind_frames(py::module_& m);  ///< registers OperationalFrames (float64) or OperationalFramesF32
  static py::array_t<S> oscm(H& h, Obj frames, Obj q, Obj out);
  static py::array_t<S> osim(H& h, Obj frames, Obj q, Obj out);
};

extern template struct Dynamics<double>;
extern template struct Dynamics<float>;
extern template struct Inertia<double>;
extern template struct Inertia<float>;
extern template struct Operational<double>;
extern template struct Operational<float>;

}  // namespace treedyn::python
