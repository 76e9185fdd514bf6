// treedyn Python module: the derivatives of the dynamics (rnea_derivatives, aba_derivatives,
// frame_velocity_derivatives, frame_acceleration_derivatives; docs/derivatives.md): their float64 and float32 forms (Derivatives<S>) and one entry point per function that
// dispatches on the model's type (common.hpp, def_by_model). The workspaces are built per call (the model's
// Data is reused); these calls are not in the compiled component's list, so this unit instantiates them.
#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"

namespace treedyn::python {
namespace {

/// A new (n, n) row-major array holding m.
template <class S, class M>
py::array_t<S> square_out(const char* call, const M& m) {
  const py::ssize_t n = static_cast<py::ssize_t>(m.rows());
  py::array_t<S> out = output<S>(call, py::none(), {n, n}, "model.nv");
  S* d = out.mutable_data();
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) d[r * m.cols() + c] = m(r, c);
  return out;
}

/// The common frame of both calls: (q, v, w[, f_ext]) checked, GIL released, the model's lock taken, and
/// `run(model, data, q, v, w, f_ext)` (the derivative call, into its workspace) giving model.last_status.
template <class S, class Run>
void derivative_call(const char* call, ModelHandle<S>& h, const py::object& q, const py::object& v, const char* w_name,
                     const py::object& w, const py::object& f_ext, Run run) {
  const Model<S>& model = h.model;
  const VectorIn<S> qm = vector_in<S>(call, "q", q, model.nq(), "model.nq");
  const VectorIn<S> vm = vector_in<S>(call, "v", v, model.nv(), "model.nv");
  const VectorIn<S> wm = vector_in<S>(call, w_name, w, model.nv(), "model.nv");
  const ForceRows<S> fm = forces_in<S>(call, f_ext, model.nbodies());
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(h.mutex);
  h.last_status = run(model, h.data, qm, vm, wm, fm);
}

template <class S>
struct Derivatives {
  using H = ModelHandle<S>;
  using Obj = const py::object&;

  static py::tuple rnea_derivatives(H& h, Obj q, Obj v, Obj a, Obj f_ext) {
    RneaDerivativesWorkspace<S> ws(h.model);
    derivative_call<S>("rnea_derivatives", h, q, v, "a", a, f_ext, [&](auto& model, auto& data, auto&... in) {
      return treedyn::rnea_derivatives(model, data, ws, in...);
    });
    return py::make_tuple(square_out<S>("rnea_derivatives", ws.dtau_dq), square_out<S>("rnea_derivatives", ws.dtau_dv));
  }

  static py::tuple aba_derivatives(H& h, Obj q, Obj v, Obj tau, Obj f_ext) {
    AbaDerivativesWorkspace<S> ws(h.model);
    derivative_call<S>("aba_derivatives", h, q, v, "tau", tau, f_ext, [&](auto& model, auto& data, auto&... in) {
      return treedyn::aba_derivatives(model, data, ws, in...);
    });
    return py::make_tuple(square_out<S>("aba_derivatives", ws.ddq_dq), square_out<S>("aba_derivatives", ws.ddq_dv),
                          square_out<S>("aba_derivatives", ws.ddq_dtau));
  }

  /// The frame calls: for each frame, `count` new (6, nv) arrays written in place (row-major maps); q, v[, a]
  /// checked, GIL released, the model's lock taken, one body_motion(q, v[, a]) for all the frames, then
  /// run(model, data, body, placement, reference, maps...) per frame (the forms without q: the same numbers to the
  /// bit as the forms with q). A frame fixed on the base does not move: every matrix zero. `frame` is one frame
  /// (returns a tuple) or a list or tuple of them (returns a list of tuples).
  template <std::size_t count, class Run>
  static py::object frame_derivative_call(const char* call, H& h, Obj q, Obj v, Obj a, Obj frame,
                                          const std::string& reference, Run run) {
    using Map = Eigen::Map<Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor>>;
    using Outputs = std::array<py::array_t<S>, count>;
    const Model<S>& model = h.model;
    const VectorIn<S> qm = vector_in<S>(call, "q", q, model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>(call, "v", v, model.nv(), "model.nv");
    const VectorIn<S> am = a.is_none() ? vm : vector_in<S>(call, "a", a, model.nv(), "model.nv");
    const bool several = py::isinstance<py::list>(frame) || py::isinstance<py::tuple>(frame);
    std::vector<std::pair<int, Transform<S>>> frames;
    if (several)
      for (const py::handle item : frame) frames.push_back(frame_arg<S>(call, model, item));
    else
      frames.push_back(frame_arg<S>(call, model, frame));
    const ReferenceFrame ref = reference_arg(call, reference);
    const py::ssize_t nv = model.nv();
    std::vector<Outputs> out(frames.size());
    std::vector<std::array<S*, count>> ptr(frames.size());  // taken while the GIL is held
    for (std::size_t f = 0; f < frames.size(); ++f)
      for (std::size_t k = 0; k < count; ++k) {
        out[f][k] = py::array_t<S>({py::ssize_t{6}, nv});
        ptr[f][k] = out[f][k].mutable_data();
      }
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = a.is_none() ? treedyn::body_motion(model, h.data, qm, vm)
                                  : treedyn::body_motion(model, h.data, qm, vm, am);
      for (std::size_t f = 0; f < frames.size(); ++f) {
        if (frames[f].first == no_parent) {
          for (S* p : ptr[f]) std::fill(p, p + 6 * nv, S(0));
          continue;
        }
        std::apply([&](auto*... p) {
          run(model, std::as_const(h.data), frames[f].first, frames[f].second, ref, Map(p, 6, nv)...);
        }, ptr[f]);
      }
    }
    const auto tuple = [](Outputs& o) { return std::apply([](auto&... m) { return py::make_tuple(m...); }, o); };
    if (!several) return tuple(out.front());
    py::list result;
    for (Outputs& o : out) result.append(tuple(o));
    return result;
  }

  static py::object frame_velocity_derivatives(H& h, Obj q, Obj v, Obj frame, const std::string& reference) {
    return frame_derivative_call<2>("frame_velocity_derivatives", h, q, v, py::none(), frame, reference,
                                    [](auto& model, auto& data, int body, auto& P, ReferenceFrame ref, auto&&... maps) {
                                      return treedyn::frame_velocity_derivatives(model, data, body, P, ref, maps...);
                                    });
  }

  static py::object frame_acceleration_derivatives(H& h, Obj q, Obj v, Obj a, Obj frame, const std::string& reference) {
    return frame_derivative_call<4>("frame_acceleration_derivatives", h, q, v, a, frame, reference,
                                    [](auto& model, auto& data, int body, auto& P, ReferenceFrame ref, auto&&... maps) {
                                      return treedyn::frame_acceleration_derivatives(model, data, body, P, ref, maps...);
                                    });
  }
};

}  // namespace

void bind_derivatives(py::module_& m) {
  const char* layout = "\n\nEvery matrix is (nv, nv): row r is DoF r of the result, column c DoF c of the input; the\n"
                       "derivative in q is along the tangent increment e_c of integrate(model, q, e_c * t) (body frame,\n"
                       "angular first for a free flyer; docs/derivatives.md).";
  using D = Derivatives<double>;
  using F = Derivatives<float>;
  def_by_model(m, "rnea_derivatives", &D::rnea_derivatives, &F::rnea_derivatives,
               std::string("rnea_derivatives(model, q, v, a, f_ext=None) -> (dtau_dq, dtau_dv)\n\n"
                           "The partial derivatives of tau = rnea(model, q, v, a, f_ext) in q and v (d tau / d a = H:\n"
                           "crba). f_ext: (nbodies, 6) body-frame forces, angular first.") +
                   layout + nan_status_doc,
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"), py::arg("f_ext") = py::none());
  def_by_model(m, "aba_derivatives", &D::aba_derivatives, &F::aba_derivatives,
               std::string("aba_derivatives(model, q, v, tau, f_ext=None) -> (ddq_dq, ddq_dv, ddq_dtau)\n\n"
                           "The partial derivatives of a = aba(model, q, v, tau, f_ext) in q, v and tau (ddq_dtau = H^-1).") +
                   layout + nan_status_doc,
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("tau"), py::arg("f_ext") = py::none());
  const char* frame_layout =
      "\n\nEvery matrix is (6, nv): row r is entry r of the 6-vector [angular; linear] along `reference` ('local',\n"
      "'world_aligned' or 'world_origin'), column c DoF c; the derivative in q is along the tangent increment e_c\n"
      "of integrate(model, q, e_c * t) (docs/derivatives.md#kinematics-derivatives). frame: a frame name or a\n"
      "body index; or a list of them, which returns a list of the tuples, one per frame, from one outward pass\n"
      "(the same numbers as one call per frame).";
  def_by_model(m, "frame_velocity_derivatives", &D::frame_velocity_derivatives, &F::frame_velocity_derivatives,
               std::string("frame_velocity_derivatives(model, q, v, frame, reference='local') -> (dv_dq, dv_dv)\n\n"
                           "The partial derivatives of the frame's spatial velocity (frame_velocity) in q and v\n"
                           "(dv_dv = the frame Jacobian J).") +
                   frame_layout + nan_status_doc,
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("frame"), py::arg("reference") = "local");
  def_by_model(m, "frame_acceleration_derivatives", &D::frame_acceleration_derivatives,
               &F::frame_acceleration_derivatives,
               std::string("frame_acceleration_derivatives(model, q, v, a, frame, reference='local')\n"
                           "    -> (dv_dq, da_dq, da_dv, da_da)\n\n"
                           "The partial derivatives of the frame's spatial acceleration (frame_acceleration: no\n"
                           "gravity) in q, v and a (da_da = J), and of its velocity in q.") +
                   frame_layout + nan_status_doc,
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"), py::arg("frame"),
               py::arg("reference") = "local");
}

}  // namespace treedyn::python
