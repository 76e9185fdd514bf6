// treedyn Python module: the dynamics functions (rnea, bias, gravity_torques, aba, modified_aba,
// forward_dynamics_crba): their float64 and float32 forms (Dynamics<S>) and one entry point per function that
// dispatches on the model's type (common.hpp, def_by_model). The algorithms come from the compiled component
// (treedyn/compiled.hpp, included by common.hpp). The batched calls are in batches.cpp.
#include <algorithm>
#include <string>
#include <utility>

#include "common.hpp"

namespace treedyn::python {

/// rnea, bias and the forward dynamics in scalar S.
template <class S>
struct Dynamics {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  static py::array_t<S> rnea(H& h, Obj q, Obj v, Obj a, Obj f_ext, Obj out);
  static py::array_t<S> bias(H& h, Obj q, Obj v, Obj f_ext, Obj out);
  static py::array_t<S> gravity_torques(H& h, Obj q, Obj out);
  static py::array_t<S> aba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out);
  static py::array_t<S> modified_aba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out);
  static py::array_t<S> forward_dynamics_crba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out);
};

/// The common frame of a call that maps (q, v, w[, f_ext]) to a vector of nv entries: checks, output,
/// GIL released, the model's lock taken, `run` called, the result copied into the output.
template <class S, class Run>
py::array_t<S> dof_call(const char* call, ModelHandle<S>& h, const py::handle& q, const py::handle& v, const char* w_name,
                        const py::handle& w, const py::handle& f_ext, const py::handle& out, Run run) {
  const Model<S>& model = h.model;
  const VectorIn<S> qm = vector_in<S>(call, "q", q, model.nq(), "model.nq");
  const VectorIn<S> vm = vector_in<S>(call, "v", v, model.nv(), "model.nv");
  const bool has_w = w_name != nullptr;
  const VectorIn<S> wm = has_w ? vector_in<S>(call, w_name, w, model.nv(), "model.nv") : vm;
  const ForceRows<S> fm = forces_in<S>(call, f_ext, model.nbodies());
  py::array_t<S> result = output<S>(call, out, {model.nv()}, "model.nv");
  S* dst = result.mutable_data();
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(h.mutex);
    const auto& r = run(model, h.data, qm, vm, wm, fm);
    std::copy(r.data(), r.data() + model.nv(), dst);
  }
  return result;
}

/// A forward-dynamics call: `kernel` the algorithm, `status` the Data member holding its status.
template <class S, class Kernel>
py::array_t<S> forward_call(const char* call, ModelHandle<S>& h, const py::object& q, const py::object& v,
                            const py::object& tau, const py::object& f_ext, const py::object& out, Kernel kernel,
                            FactorStatus Data<S>::*status) {
  return dof_call<S>(call, h, q, v, "tau", tau, f_ext, out,
                     [&](auto& model, auto& data, auto& qm, auto& vm, auto& tm, auto& fm) -> const auto& {
                       const auto& qdd = kernel(model, data, qm, vm, tm, fm);
                       h.last_status = data.*status;
                       return qdd;
                     });
}

template <class S>
py::array_t<S> Dynamics<S>::rnea(H& h, Obj q, Obj v, Obj a, Obj f_ext, Obj out) {
  return dof_call<S>("rnea", h, q, v, "a", a, f_ext, out, [&](auto& model, auto& data, auto& qm, auto& vm, auto& am, auto& fm) -> const auto& {
    const auto& tau = treedyn::rnea(model, data, qm, vm, am, fm);
    h.last_status = data.config_status;
    return tau;
  });
}

template <class S>
py::array_t<S> Dynamics<S>::bias(H& h, Obj q, Obj v, Obj f_ext, Obj out) {
  return dof_call<S>("bias", h, q, v, nullptr, py::none(), f_ext, out,
                     [&](auto& model, auto& data, auto& qm, auto& vm, auto&, auto& fm) -> const auto& {
                       const auto& C = treedyn::bias(model, data, qm, vm, fm);
                       h.last_status = data.config_status;
                       return C;
                     });
}

template <class S>
py::array_t<S> Dynamics<S>::gravity_torques(H& h, Obj q, Obj out) {
  const VectorIn<S> qm = vector_in<S>("gravity_torques", "q", q, h.model.nq(), "model.nq");
  py::array_t<S> result = output<S>("gravity_torques", out, {h.model.nv()}, "model.nv");
  S* dst = result.mutable_data();
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(h.mutex);
    const auto& g = treedyn::gravity_torques(h.model, h.data, qm);
    h.last_status = h.data.config_status;
    std::copy(g.data(), g.data() + h.model.nv(), dst);
  }
  return result;
}

template <class S>
py::array_t<S> Dynamics<S>::aba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out) {
  return forward_call<S>("aba", h, q, v, tau, f_ext, out,
                         [](auto&&... a) -> const auto& { return treedyn::aba(std::forward<decltype(a)>(a)...); },
                         &Data<S>::aba_status);
}

template <class S>
py::array_t<S> Dynamics<S>::modified_aba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out) {
  return forward_call<S>("modified_aba", h, q, v, tau, f_ext, out,
                         [](auto&&... a) -> const auto& { return treedyn::modified_aba(std::forward<decltype(a)>(a)...); },
                         &Data<S>::aba_status);
}

template <class S>
py::array_t<S> Dynamics<S>::forward_dynamics_crba(H& h, Obj q, Obj v, Obj tau, Obj f_ext, Obj out) {
  return forward_call<S>(
      "forward_dynamics_crba", h, q, v, tau, f_ext, out,
      [](auto&&... a) -> const auto& { return treedyn::forward_dynamics_crba(std::forward<decltype(a)>(a)...); },
      &Data<S>::factor_status);
}

void bind_dynamics(py::module_& m) {
  using D = Dynamics<double>;
  using F = Dynamics<float>;
  const py::object none = py::none();

  def_by_model(m, "rnea", &D::rnea, &F::rnea,
               "rnea(model, q, v, a, *, f_ext=None, out=None) -> tau\n\n"
               "Inverse dynamics by the recursive Newton-Euler algorithm: the joint forces tau (nv,) that produce the\n"
               "accelerations a (nv,) at configuration q (nq,) and velocity v (nv,), gravity included. f_ext: None or\n"
               "(nbodies, 6) external forces, row i = [n; f] (N m, N; angular first) acting on body i in body-i\n"
               "coordinates. out: optional preallocated C-contiguous (nv,) array, written and returned.\n"
               "model.last_status: invalid_configuration (body) for a zero quaternion, non_finite_input (argument, row) for a NaN or an inf in an input (tau is NaN).",
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"), py::kw_only(), py::arg("f_ext") = none, py::arg("out") = none);
  def_by_model(m, "bias", &D::bias, &F::bias,
               "bias(model, q, v, *, f_ext=None, out=None) -> C\n\n"
               "C(q, v) = rnea(q, v, 0): Coriolis, centrifugal and gravity forces (nv,), and f_ext as in rnea.\n"
               "model.last_status as in rnea.",
               py::arg("model"), py::arg("q"), py::arg("v"), py::kw_only(), py::arg("f_ext") = none, py::arg("out") = none);

  def_by_model(m, "gravity_torques", &D::gravity_torques, &F::gravity_torques,
               "gravity_torques(model, q, *, out=None) -> g\n\n"
               "The generalized gravity g(q) (nv,): the joint forces that hold q still against gravity, by a pass\n"
               "without velocity terms (Pinocchio's computeGeneralizedGravity); equals bias(q, 0) to rounding.\n"
               "model.last_status as in rnea.",
               py::arg("model"), py::arg("q"), py::kw_only(), py::arg("out") = none);
  const auto forward = [&](const char* name, auto f64, auto f32, const char* text) {
    def_by_model(m, name, f64, f32, text, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("tau"), py::kw_only(),
                 py::arg("f_ext") = none, py::arg("out") = none);
  };
  forward("aba", &D::aba, &F::aba,
          "aba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
          "Forward dynamics by the articulated-body algorithm: qdd (nv,) = H(q)^-1 (tau - C(q, v)), tau (nv,) in\n"
          "N or N m. f_ext and out as in rnea. model.last_status: non_positive_pivot naming the BODY whose joint\n"
          "pivot D_i is not positive definite, or invalid_configuration; qdd is then NaN.");
  forward("modified_aba", &D::modified_aba, &F::modified_aba,
          "modified_aba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
          "Forward dynamics by the modified articulated-body algorithm (joint pivots formed without the\n"
          "cancellation of the ABA when a parent's and a child's joint axes (nearly) coincide: more accurate in\n"
          "float32 on such chains). Arguments, result and model.last_status as in aba.");
  forward("forward_dynamics_crba", &D::forward_dynamics_crba, &F::forward_dynamics_crba,
          "forward_dynamics_crba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
          "Forward dynamics by the CRBA and the sparse LTDL factorization of H: qdd = H^-1 (tau - C).\n"
          "model.last_status: non_positive_pivot naming the DoF (row) of a pivot of H that is not > 0, or\n"
          "invalid_configuration; qdd is then NaN.");
}

}  // namespace treedyn::python
