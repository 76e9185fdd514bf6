// treedyn Python module: inverse and forward dynamics (rnea, bias, aba, modified_aba,
// forward_dynamics_crba, aba_batch) for one scalar; instantiated once per scalar (dynamics_f64.cpp,
// dynamics_f32.cpp) so that each translation unit stays small.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "common.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/parallel/batch.hpp"

namespace treedyn::python {

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

template <class S>
void bind_dynamics(py::module_& m) {
  using H = ModelHandle<S>;
  const bool f32 = sizeof(S) == 4;
  const std::string note = f32 ? "float32 overload (ModelF32): as for Model, every array float32." : "";
  const auto doc = [&](const char* text) { return f32 ? note : std::string(text); };
  const py::object none = py::none();

  m.def(
      "rnea",
      [](H& h, const py::object& q, const py::object& v, const py::object& a, const py::object& f_ext, const py::object& out) {
        return dof_call<S>("rnea", h, q, v, "a", a, f_ext, out, [&](auto& model, auto& data, auto& qm, auto& vm, auto& am, auto& fm) -> const auto& {
          const auto& tau = treedyn::rnea(model, data, qm, vm, am, fm);
          h.last_status = data.config_status;
          return tau;
        });
      },
      py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"), py::kw_only(), py::arg("f_ext") = none,
      py::arg("out") = none,
      doc("rnea(model, q, v, a, *, f_ext=None, out=None) -> tau\n\n"
          "Inverse dynamics by the recursive Newton-Euler algorithm: the joint forces tau (nv,) that produce the\n"
          "accelerations a (nv,) at configuration q (nq,) and velocity v (nv,), gravity included. f_ext: None or\n"
          "(nbodies, 6) external forces, row i = [n; f] (N m, N; angular first) acting on body i in body-i\n"
          "coordinates. out: optional preallocated C-contiguous (nv,) array, written and returned.\n"
          "model.last_status: invalid_configuration (body) for a zero or non-finite quaternion (tau is NaN).")
          .c_str());

  m.def(
      "bias",
      [](H& h, const py::object& q, const py::object& v, const py::object& f_ext, const py::object& out) {
        return dof_call<S>("bias", h, q, v, nullptr, py::none(), f_ext, out,
                           [&](auto& model, auto& data, auto& qm, auto& vm, auto&, auto& fm) -> const auto& {
                             const auto& C = treedyn::bias(model, data, qm, vm, fm);
                             h.last_status = data.config_status;
                             return C;
                           });
      },
      py::arg("model"), py::arg("q"), py::arg("v"), py::kw_only(), py::arg("f_ext") = none, py::arg("out") = none,
      doc("bias(model, q, v, *, f_ext=None, out=None) -> C\n\n"
          "C(q, v) = rnea(q, v, 0): Coriolis, centrifugal and gravity forces (nv,), and f_ext as in rnea.\n"
          "model.last_status as in rnea.")
          .c_str());

  // Forward dynamics: `kernel` is the algorithm, `status` the Data member holding its status.
  const auto forward = [&](const char* name, auto kernel, FactorStatus Data<S>::*status, const char* text) {
    m.def(
        name,
        [name, kernel, status](H& h, const py::object& q, const py::object& v, const py::object& tau,
                               const py::object& f_ext, const py::object& out) {
          return dof_call<S>(name, h, q, v, "tau", tau, f_ext, out,
                             [&](auto& model, auto& data, auto& qm, auto& vm, auto& tm, auto& fm) -> const auto& {
                               const auto& qdd = kernel(model, data, qm, vm, tm, fm);
                               h.last_status = data.*status;
                               return qdd;
                             });
        },
        py::arg("model"), py::arg("q"), py::arg("v"), py::arg("tau"), py::kw_only(), py::arg("f_ext") = py::none(),
        py::arg("out") = py::none(), doc(text).c_str());
  };
  forward(
      "aba", [](auto&&... a) -> const auto& { return treedyn::aba(std::forward<decltype(a)>(a)...); }, &Data<S>::aba_status,
      "aba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
      "Forward dynamics by the articulated-body algorithm: qdd (nv,) = H(q)^-1 (tau - C(q, v)), tau (nv,) in\n"
      "N or N m. f_ext and out as in rnea. model.last_status: non_positive_pivot naming the BODY whose joint\n"
      "pivot D_i is not positive definite, or invalid_configuration; qdd is then NaN.");
  forward(
      "modified_aba", [](auto&&... a) -> const auto& { return treedyn::modified_aba(std::forward<decltype(a)>(a)...); },
      &Data<S>::aba_status,
      "modified_aba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
      "Forward dynamics by the modified articulated-body algorithm (joint pivots formed without the\n"
      "cancellation of the ABA when a parent's and a child's joint axes (nearly) coincide: more accurate in\n"
      "float32 on such chains). Arguments, result and model.last_status as in aba.");
  forward(
      "forward_dynamics_crba", [](auto&&... a) -> const auto& { return treedyn::forward_dynamics_crba(std::forward<decltype(a)>(a)...); },
      &Data<S>::factor_status,
      "forward_dynamics_crba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
      "Forward dynamics by the CRBA and the sparse LTDL factorization of H: qdd = H^-1 (tau - C).\n"
      "model.last_status: non_positive_pivot naming the DoF (row) of a pivot of H that is not > 0, or\n"
      "invalid_configuration; qdd is then NaN.");

  m.def(
      "aba_batch",
      [](H& h, const py::object& Q, const py::object& V, const py::object& T, const py::object& out, int threads) {
        constexpr const char* call = "aba_batch";
        const Model<S>& model = h.model;
        if (!py::isinstance<py::array>(Q) || py::reinterpret_borrow<py::array>(Q).ndim() != 2)
          value_error(std::string(call) + ": argument 'Q' must be a numpy.ndarray of dtype " + dtype_name<S>() +
                      " and shape (n, " + std::to_string(model.nq()) + ") (n, model.nq)");
        const py::ssize_t n = py::reinterpret_borrow<py::array>(Q).shape(0);
        const MatrixIn<S> Qm = rows_as_columns<S>(call, "Q", Q, n, model.nq(), "n, model.nq");
        const MatrixIn<S> Vm = rows_as_columns<S>(call, "V", V, n, model.nv(), "n, model.nv");
        const MatrixIn<S> Tm = rows_as_columns<S>(call, "T", T, n, model.nv(), "n, model.nv");
        if (threads < 1) value_error(std::string(call) + ": threads must be >= 1");
        py::array_t<S> result = output<S>(call, out, {n, model.nv()}, "n, model.nv");
        Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>> QDD(result.mutable_data(), model.nv(), n);
        {
          py::gil_scoped_release release;
          const std::lock_guard<std::mutex> lock(h.mutex);
          if (!h.batch || h.batch_threads != threads) {
            h.batch.reset();
            h.batch = std::make_shared<BatchRunner<S>>(model, threads);
            h.batch_threads = threads;
          }
          const BatchStatus s = static_cast<BatchRunner<S>*>(h.batch.get())->aba(Qm, Vm, Tm, QDD);
          h.last_batch_status = BatchReport{s.failures, s.first_failed, s.first_status};
        }
        return result;
      },
      py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("T"), py::kw_only(), py::arg("out") = none,
      py::arg("threads") = 1,
      doc("aba_batch(model, Q, V, T, *, out=None, threads=1) -> QDD\n\n"
          "aba over the rows of Q (n, nq), V (n, nv), T (n, nv), the loop run in C++ on `threads` threads\n"
          "(threads - 1 workers kept with the model; results are bit for bit those of a serial loop). Returns\n"
          "QDD (n, nv); out: optional preallocated C-contiguous (n, nv) array. Failed rows are NaN and counted\n"
          "in model.last_batch_status.")
          .c_str());
}

}  // namespace treedyn::python
