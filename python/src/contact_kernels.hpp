// treedyn Python module, contact layer: the definitions of ContactKernels<S> (contact.hpp), instantiated
// once per scalar in two units each: the time step (contact_step_f64.cpp, contact_step_f32.cpp) and the rest
// (contact_f64.cpp, contact_f32.cpp); one unit with both took 86 s / 1.3 GB at -O2 under load.
#pragma once

#include <algorithm>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "contact.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/robots/sphere_pendulum.hpp"

namespace treedyn::python {

template <class S>
GeometryPy ContactKernels<S>::make_geometry(const ModelHandle<S>& h, std::vector<Shape<double>> shapes,
                                            const CollisionOptions& options) {
  std::vector<Shape<S>> cast;
  for (const Shape<double>& s : shapes) cast.push_back(shape_cast<S>(s));
  GeometryPy g;
  g.set<S>(std::make_shared<GeometryOf<S>>(CollisionGeometry<S>(h.model, std::move(cast), options)));
  g.model_id = h.model.id();
  g.shapes = std::move(shapes);
  return g;
}

template <class S>
void ContactKernels<S>::detect(ModelHandle<S>& h, GeometryOf<S>& of, const VectorIn<S>& q, S margin,
                               const ContactProperties<S>& props) {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(h.mutex);
  treedyn::forward_kinematics(h.model, h.data, q);
  h.last_status = h.data.config_status;
  treedyn::detect_contacts(h.model, h.data, of.geometry, of.found, margin, props);
}

template <class S>
std::shared_ptr<StepOf<S>> ContactKernels<S>::make_step(const ModelHandle<S>& h, int max_contacts,
                                                        int max_friction_directions,
                                                        const std::vector<BilateralConstraint<double>>& bilateral) {
  std::vector<BilateralConstraint<S>> b;
  for (const BilateralConstraint<double>& c : bilateral) b.push_back(bilateral_cast<S>(c));
  return std::make_shared<StepOf<S>>(h.model, max_contacts, max_friction_directions, std::move(b));
}

template <class S>
void ContactKernels<S>::step(ModelHandle<S>& h, StepOf<S>& of, const VectorIn<S>& q, const VectorIn<S>& v,
                             const VectorIn<S>& tau, S dt, S* q_out, S* v_out) {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(h.mutex);
  const auto& s = treedyn::contact_step(h.model, h.data, of.ws, q, v, tau, of.contacts, dt);
  h.last_status = s.dynamics;
  std::copy(of.ws.q_next.data(), of.ws.q_next.data() + h.model.nq(), q_out);
  std::copy(of.ws.v_next.data(), of.ws.v_next.data() + h.model.nv(), v_out);
}

template <class S>
py::object ContactKernels<S>::lemke(const py::handle& M, const py::handle& q, int max_pivots) {
  const py::array qa = py::isinstance<py::array>(q) ? py::reinterpret_borrow<py::array>(q) : py::array();
  const py::ssize_t n = qa.ndim() == 1 ? qa.shape(0) : -1;
  const VectorIn<S> qm = vector_in<S>("lemke", "q", q, n < 0 ? 0 : n, "n");
  // rows_as_columns maps M transposed; its transpose is M itself (no copy)
  const MatrixIn<S> Mt = rows_as_columns<S>("lemke", "M", M, n, n, "len(q), len(q)");
  LemkeWorkspace<S> ws(static_cast<int>(n));
  ws.max_pivots = max_pivots;
  LcpReport report;
  {
    py::gil_scoped_release release;
    report = lcp_report(treedyn::lemke(ws, Mt.transpose(), qm));
  }
  return py::make_tuple(copy_out<S>(ws.z()), copy_out<S>(ws.w()), report);
}

template <class S>
py::object ContactKernels<S>::sphere_pendulum(int n) {
  const robots::SpherePendulum<S> sp = as_value_error("robots.sphere_pendulum", [n] { return robots::SpherePendulum<S>(n); });
  const auto wrap = [](const Model<S>& model, const CollisionGeometry<S>& geometry) {
    auto h = std::make_unique<ModelHandle<S>>(model);
    GeometryPy g;
    g.set<S>(std::make_shared<GeometryOf<S>>(geometry));
    g.model_id = h->model.id();
    for (const Shape<S>& s : geometry.shapes()) g.shapes.push_back(shape_cast<double>(s));
    return std::make_pair(py::cast(std::move(h)), py::cast(std::move(g)));
  };
  const auto os = wrap(sp.os, sp.os_geometry);
  const auto nmc = wrap(sp.nmc, sp.nmc_geometry);
  py::list hinges;
  for (const BilateralConstraint<S>& b : sp.hinges)
    hinges.append(BilateralConstraint<double>{b.body_a, b.frame_a.template cast<double>(), b.body_b,
                                              b.frame_b.template cast<double>(), b.rows});
  const py::object ns = py::module_::import("types").attr("SimpleNamespace");
  return ns(py::arg("links") = sp.links, py::arg("radius") = static_cast<double>(sp.radius), py::arg("os") = os.first,
            py::arg("os_geometry") = os.second, py::arg("nmc") = nmc.first, py::arg("nmc_geometry") = nmc.second,
            py::arg("hinges") = hinges, py::arg("os_q") = copy_out<S>(sp.os_q), py::arg("os_v") = copy_out<S>(sp.os_v),
            py::arg("nmc_q") = copy_out<S>(sp.nmc_q), py::arg("nmc_v") = copy_out<S>(sp.nmc_v));
}


/// Explicit instantiations of the members of ContactKernels<S> other than the time step.
#define TREEDYN_PYTHON_CONTACT_KERNELS(S)                                                                         \
  template GeometryPy ContactKernels<S>::make_geometry(const ModelHandle<S>&, std::vector<Shape<double>>,       \
                                                       const CollisionOptions&);                                \
  template void ContactKernels<S>::detect(ModelHandle<S>&, GeometryOf<S>&, const VectorIn<S>&, S,               \
                                          const ContactProperties<S>&);                                        \
  template py::object ContactKernels<S>::lemke(const py::handle&, const py::handle&, int);                     \
  template py::object ContactKernels<S>::sphere_pendulum(int);

/// Explicit instantiations of the time step's members of ContactKernels<S>.
#define TREEDYN_PYTHON_CONTACT_STEP_KERNELS(S)                                                                    \
  template std::shared_ptr<StepOf<S>> ContactKernels<S>::make_step(                                             \
      const ModelHandle<S>&, int, int, const std::vector<BilateralConstraint<double>>&);                        \
  template void ContactKernels<S>::step(ModelHandle<S>&, StepOf<S>&, const VectorIn<S>&, const VectorIn<S>&,    \
                                        const VectorIn<S>&, S, S*, S*);

}  // namespace treedyn::python
