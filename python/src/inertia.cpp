// treedyn Python module: crba, solve_H, minverse_ltdl and minverse_aba: their float64 and float32 forms (Inertia<S>)
// and one entry point per function that dispatches on the model's type (common.hpp, def_by_model).
#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "common.hpp"

namespace treedyn::python {

/// The joint-space inertia matrix and its inverses in scalar S.
template <class S>
struct Inertia {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  static py::array_t<S> crba(H& h, Obj q, Obj out);
  static py::array_t<S> solve_H(H& h, Obj q, Obj b, Obj out);
  static py::array_t<S> minverse_ltdl(H& h, Obj q, Obj out);
  static py::array_t<S> minverse_aba(H& h, Obj q, Obj out);
};

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
py::array_t<S> Inertia<S>::solve_H(H& h, Obj q, Obj b, Obj out) {
  const VectorIn<S> qm = vector_in<S>("solve_H", "q", q, h.model.nq(), "model.nq");
  const VectorIn<S> bm = vector_in<S>("solve_H", "b", b, h.model.nv(), "model.nv");
  py::array_t<S> result = output<S>("solve_H", out, {h.model.nv()}, "model.nv");
  Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, 1>> x(result.mutable_data(), h.model.nv());
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(h.mutex);
    x = bm;
    treedyn::crba(h.model, h.data, qm);
    treedyn::factor_H(h.model, h.data);
    h.last_status = treedyn::solve_H(h.model, h.data, x);
  }
  return result;
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

void bind_inertia(py::module_& m) {
  using D = Inertia<double>;
  using F = Inertia<float>;
  const auto def = [&](const char* name, auto f64, auto f32, const char* text) {
    def_by_model(m, name, f64, f32, text, py::arg("model"), py::arg("q"), py::kw_only(), py::arg("out") = py::none());
  };
  def("crba", &D::crba, &F::crba,
      "crba(model, q, *, out=None) -> H\n\n"
      "The joint-space inertia matrix H(q) (nv, nv), full and symmetric, by the composite-rigid-body\n"
      "algorithm (kg m^2, kg m or kg by the joints' units). out: optional preallocated C-contiguous (nv, nv)\n"
      "array. model.last_status: invalid_configuration (body) for a zero quaternion, non_finite_input (argument, row) for a NaN or an inf in an input (H is NaN).");
  def_by_model(m, "solve_H", &D::solve_H, &F::solve_H,
               "solve_H(model, q, b, *, out=None) -> x\n\n"
               "x = H(q)^-1 b (nv,): crba, the sparse LTDL factorization of H and its solve in one call (Pinocchio's\n"
               "crba + cholesky.decompose + cholesky.solve). model.last_status: non_positive_pivot naming the DoF\n"
               "(row) of a pivot of H that is not > 0, invalid_configuration, or non_finite_input (argument, row);\n"
               "x is then NaN.",
               py::arg("model"), py::arg("q"), py::arg("b"), py::kw_only(), py::arg("out") = py::none());
  def("minverse_ltdl", &D::minverse_ltdl, &F::minverse_ltdl,
      "minverse_ltdl(model, q, *, out=None) -> Minv\n\n"
      "H(q)^-1 (nv, nv), full and symmetric, from the CRBA and the sparse LTDL factorization of H.\n"
      "model.last_status: non_positive_pivot naming the DoF (row) of a pivot of H that is not > 0, or\n"
      "invalid_configuration; Minv is then NaN.");
  def("minverse_aba", &D::minverse_aba, &F::minverse_aba,
      "minverse_aba(model, q, *, out=None) -> Minv\n\n"
      "H(q)^-1 (nv, nv), full and symmetric, by the articulated-body recursion (never forms H).\n"
      "model.last_status: non_positive_pivot naming the BODY whose joint pivot is not positive definite, or\n"
      "invalid_configuration; Minv is then NaN.");
}

}  // namespace treedyn::python
