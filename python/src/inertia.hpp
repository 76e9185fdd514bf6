// treedyn Python module: the joint-space inertia matrix and its inverses (crba, minverse_ltdl,
// minverse_aba) for one scalar; instantiated once per scalar (inertia_f64.cpp, inertia_f32.cpp).
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "common.hpp"
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

template <class S>
void bind_inertia(py::module_& m) {
  using H = ModelHandle<S>;
  const bool f32 = sizeof(S) == 4;
  const auto doc = [&](const char* text) {
    return f32 ? std::string("float32 overload (ModelF32): as for Model, every array float32.") : std::string(text);
  };
  m.def(
      "crba",
      [](H& h, const py::object& q, const py::object& out) {
        return square_call<S>("crba", h, q, out, [&](const VectorIn<S>& qm, auto& dst) {
          treedyn::crba(h.model, h.data, qm);
          treedyn::dense_H(h.model, h.data, dst);
          h.last_status = h.data.config_status;
        });
      },
      py::arg("model"), py::arg("q"), py::kw_only(), py::arg("out") = py::none(),
      doc("crba(model, q, *, out=None) -> H\n\n"
          "The joint-space inertia matrix H(q) (nv, nv), full and symmetric, by the composite-rigid-body\n"
          "algorithm (kg m^2, kg m or kg by the joints' units). out: optional preallocated C-contiguous (nv, nv)\n"
          "array. model.last_status: invalid_configuration (body) for a zero or non-finite quaternion (H is NaN).")
          .c_str());
  // The inverses: `Workspace` made on first use in `slot`; status(data, ws) is the call's status.
  const auto inverse = [&](const char* name, auto workspace_tag, std::shared_ptr<void> H::*slot, auto kernel, auto status,
                           const char* text) {
    using Workspace = typename decltype(workspace_tag)::type;
    m.def(
        name,
        [name, slot, kernel, status](H& h, const py::object& q, const py::object& out) {
          return square_call<S>(name, h, q, out, [&](const VectorIn<S>& qm, auto& dst) {
            if (!(h.*slot)) h.*slot = std::make_shared<Workspace>(h.model);
            auto& ws = *static_cast<Workspace*>((h.*slot).get());
            dst = kernel(h.model, h.data, ws, qm);
            h.last_status = status(h.data, ws);
          });
        },
        py::arg("model"), py::arg("q"), py::kw_only(), py::arg("out") = py::none(), doc(text).c_str());
  };
  inverse(
      "minverse_ltdl", Tag<MinverseLtdlWorkspace<S>>{}, &H::minverse_ltdl_ws,
      [](auto&&... a) -> const auto& { return treedyn::minverse_ltdl(std::forward<decltype(a)>(a)...); },
      [](const Data<S>& data, const auto&) { return data.factor_status; },
      "minverse_ltdl(model, q, *, out=None) -> Minv\n\n"
      "H(q)^-1 (nv, nv), full and symmetric, from the CRBA and the sparse LTDL factorization of H.\n"
      "model.last_status: non_positive_pivot naming the DoF (row) of a pivot of H that is not > 0, or\n"
      "invalid_configuration; Minv is then NaN.");
  inverse(
      "minverse_aba", Tag<MinverseAbaWorkspace<S>>{}, &H::minverse_aba_ws,
      [](auto&&... a) -> const auto& { return treedyn::minverse_aba(std::forward<decltype(a)>(a)...); },
      [](const Data<S>&, const auto& ws) { return ws.status; },
      "minverse_aba(model, q, *, out=None) -> Minv\n\n"
      "H(q)^-1 (nv, nv), full and symmetric, by the articulated-body recursion (never forms H).\n"
      "model.last_status: non_positive_pivot naming the BODY whose joint pivot is not positive definite, or\n"
      "invalid_configuration; Minv is then NaN.");
}

}  // namespace treedyn::python
