// treedyn Python module: inverse and forward dynamics (rnea, bias, aba, modified_aba,
// forward_dynamics_crba) and their batched forms (aba_batch, rnea_batch, crba_batch) for one scalar
// (api.hpp's Dynamics<S>); instantiated once per scalar (dynamics_f64.cpp, dynamics_f32.cpp) so that each
// translation unit stays small. The Python entry points and their docstrings are in dynamics.cpp.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "api.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/crba.hpp"
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

/// The number n of states of a batched call: the rows of Q (n, model.nq); ValueError when Q is not 2-D.
template <class S>
py::ssize_t batch_rows(const char* call, const ModelHandle<S>& h, const py::handle& Q) {
  if (!py::isinstance<py::array>(Q) || py::reinterpret_borrow<py::array>(Q).ndim() != 2)
    value_error(std::string(call) + ": argument 'Q' must be a numpy.ndarray of dtype " + dtype_name<S>() +
                " and shape (n, " + std::to_string(h.model.nq()) + ") (n, model.nq)");
  return py::reinterpret_borrow<py::array>(Q).shape(0);
}

/// run(runner) -> BatchStatus on the model's BatchRunner (made on `threads` threads on first use or when
/// the count changes) with the GIL released and the model's lock taken; its status kept in
/// model.last_batch_status.
template <class S, class Run>
void run_batch(const char* call, ModelHandle<S>& h, int threads, Run run) {
  if (threads < 1) value_error(std::string(call) + ": threads must be >= 1");
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(h.mutex);
  if (!h.batch || h.batch_threads != threads) {
    h.batch.reset();
    h.batch = std::make_shared<BatchRunner<S>>(h.model, threads);
    h.batch_threads = threads;
  }
  const BatchStatus s = run(*static_cast<BatchRunner<S>*>(h.batch.get()));
  h.last_batch_status = BatchReport{s.failures, s.first_failed, s.first_status};
}

/// A batched (Q, V, X) -> (n, nv) call: method(runner, Q, V, X, OUT) runs the BatchRunner's kernel on the
/// rows of Q (n, nq), V and X (n, nv; X named x_name) as columns of nv x n maps.
template <class S, class Method>
py::array_t<S> dynamics_batch(const char* call, ModelHandle<S>& h, const py::object& Q, const py::object& V,
                              const char* x_name, const py::object& X, const py::object& out, int threads, Method method) {
  const py::ssize_t n = batch_rows<S>(call, h, Q);
  const py::ssize_t nv = h.model.nv();
  const MatrixIn<S> Qm = rows_as_columns<S>(call, "Q", Q, n, h.model.nq(), "n, model.nq");
  const MatrixIn<S> Vm = rows_as_columns<S>(call, "V", V, n, nv, "n, model.nv");
  const MatrixIn<S> Xm = rows_as_columns<S>(call, x_name, X, n, nv, "n, model.nv");
  py::array_t<S> result = output<S>(call, out, {n, nv}, "n, model.nv");
  Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>> OUT(result.mutable_data(), nv, n);
  run_batch(call, h, threads, [&](BatchRunner<S>& r) { return method(r, Qm, Vm, Xm, OUT); });
  return result;
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

template <class S>
py::array_t<S> Dynamics<S>::aba_batch(H& h, Obj Q, Obj V, Obj T, Obj out, int threads) {
  return dynamics_batch<S>("aba_batch", h, Q, V, "T", T, out, threads,
                           [](BatchRunner<S>& r, const auto& Qm, const auto& Vm, const auto& Tm, auto& QDD) {
                             return r.aba(Qm, Vm, Tm, QDD);
                           });
}

template <class S>
py::array_t<S> Dynamics<S>::rnea_batch(H& h, Obj Q, Obj V, Obj A, Obj out, int threads) {
  return dynamics_batch<S>("rnea_batch", h, Q, V, "A", A, out, threads,
                           [](BatchRunner<S>& r, const auto& Qm, const auto& Vm, const auto& Am, auto& TAU) {
                             return r.rnea(Qm, Vm, Am, TAU);
                           });
}

template <class S>
py::array_t<S> Dynamics<S>::crba_batch(H& h, Obj Q, Obj out, int threads) {
  constexpr const char* call = "crba_batch";
  const py::ssize_t n = batch_rows<S>(call, h, Q);
  const py::ssize_t nv = h.model.nv();
  const MatrixIn<S> Qm = rows_as_columns<S>(call, "Q", Q, n, h.model.nq(), "n, model.nq");
  py::array_t<S> result = output<S>(call, out, {n, nv, nv}, "n, model.nv, model.nv");
  S* dst = result.mutable_data();
  run_batch(call, h, threads, [&](BatchRunner<S>& r) {
    return r.for_each(static_cast<int>(n), [&](const Model<S>& model, Data<S>& data, int k) {
      treedyn::crba(model, data, Qm.col(k));
      // H is symmetric: the column-major map of row k's row-major (nv, nv) block is exact.
      dense_H(model, data, Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>>(dst + k * nv * nv, nv, nv));
      return data.config_status;
    });
  });
  return result;
}

}  // namespace treedyn::python
