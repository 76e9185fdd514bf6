// treedyn Python module: the joint-space inertia matrix and its inverses (crba, minverse_ltdl,
// minverse_aba) for one scalar (api.hpp's Inertia<S>); instantiated once per scalar (inertia_f64.cpp,
// inertia_f32.cpp). The Python entry points and their docstrings are in inertia.cpp.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "api.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"

namespace treedyn::python {

/// The common frame of a call q -> an nv x nv matrix: checks, output, GIL released, lock, `run` writes
/// the output through an Eigen map.
template <class S, class Run>
py::array_t<S> square_call(const char* call, ModelHandle<S>& h, const py::handle& q, const py::handle& out, Run run) {
  const Model<S>& model = h.model;
  const VectorIn<S> qm = vector_in<S>(call, "q", q, model.nq(), "model.nq");
  py::array_t<S> result = output<S>(call, out, {model.nv(), model.nv()}, "model.nv, model.nv");
  Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>> dst(result.mutable_data(), model.nv(), model.nv());
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(h.mutex);
    run(qm, dst);  // every result is symmetric: the column-major map of the row-major array is exact
  }
  return result;
}

/// An inverse: its `Workspace` made on first use in `slot`, status(data, ws) the call's status.
template <class Workspace, class S, class Kernel, class Status>
py::array_t<S> inverse_call(const char* call, ModelHandle<S>& h, const py::object& q, const py::object& out,
                            std::shared_ptr<void> ModelHandle<S>::*slot, Kernel kernel, Status status) {
  return square_call<S>(call, h, q, out, [&](const VectorIn<S>& qm, auto& dst) {
    if (!(h.*slot)) h.*slot = std::make_shared<Workspace>(h.model);
    auto& ws = *static_cast<Workspace*>((h.*slot).get());
    dst = kernel(h.model, h.data, ws, qm);
    h.last_status = status(h.data, ws);
  });
}

template <class S>
py::array_t<S> Inertia<S>::crba(H& h, Obj q, Obj out) {
  return square_call<S>("crba", h, q, out, [&](const VectorIn<S>& qm, auto& dst) {
    treedyn::crba(h.model, h.data, qm);
    treedyn::dense_H(h.model, h.data, dst);
    h.last_status = h.data.config_status;
  });
}

template <class S>
py::array_t<S> Inertia<S>::minverse_ltdl(H& h, Obj q, Obj out) {
  return inverse_call<MinverseLtdlWorkspace<S>>(
      "minverse_ltdl", h, q, out, &H::minverse_ltdl_ws,
      [](auto&&... a) -> const auto& { return treedyn::minverse_ltdl(std::forward<decltype(a)>(a)...); },
      [](const Data<S>& data, const auto&) { return data.factor_status; });
}

template <class S>
py::array_t<S> Inertia<S>::minverse_aba(H& h, Obj q, Obj out) {
  return inverse_call<MinverseAbaWorkspace<S>>(
      "minverse_aba", h, q, out, &H::minverse_aba_ws,
      [](auto&&... a) -> const auto& { return treedyn::minverse_aba(std::forward<decltype(a)>(a)...); },
      [](const Data<S>&, const auto& ws) { return ws.status; });
}

}  // namespace treedyn::python
