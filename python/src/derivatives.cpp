// treedyn Python module: the derivatives of the dynamics (rnea_derivatives, aba_derivatives;
// docs/derivatives.md): their float64 and float32 forms (Derivatives<S>) and one entry point per function that
// dispatches on the model's type (common.hpp, def_by_model). The workspaces are built per call (the model's
// Data is reused); these calls are not in the compiled component's list, so this unit instantiates them.
#include <string>
#include <tuple>

#include "common.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
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
}

}  // namespace treedyn::python
