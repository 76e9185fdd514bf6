// The treedyn Python module: statuses and the registration of every part (one translation unit each).
#include <string>

#include "common.hpp"

namespace treedyn::python {
namespace {

/// The Python name of a C++ argument a status names: the bindings call q̇ `v` and q̈ `a`.
const char* python_argument(const char* argument) {
  const std::string a = argument;
  return a == "qd" ? "v" : a == "qdd" ? "a" : argument;
}

/// The status as Python prints it: its argument by its Python name.
Status python_names(Status s) {
  if (s.argument != nullptr) s.argument = python_argument(s.argument);
  return s;
}

void bind_statuses(py::module_& m) {
  py::enum_<Status::Code>(m, "StatusCode", "How a computation ended (Status.code; treedyn/status.hpp).")
      .value("success", Status::Code::success)
      .value("non_positive_pivot", Status::Code::non_positive_pivot,
             "a pivot that is not > 0: a singular or indefinite H (row = DoF) or joint pivot D_i (row = body)")
      .value("invalid_configuration", Status::Code::invalid_configuration,
             "the quaternion of body `row`'s joint is zero or not finite; the outputs are NaN")
      .value("invalid_parent_array", Status::Code::invalid_parent_array)
      .value("invalid_argument", Status::Code::invalid_argument)
      .value("non_finite_input", Status::Code::non_finite_input, "an input holds a NaN or an infinity")
      .value("ray_termination", Status::Code::ray_termination,
             "Lemke's method found no positive pivot: for copositive-plus M the LCP has no solution")
      .value("pivot_cap", Status::Code::pivot_cap, "the pivot cap was reached (only round-off can cause it)")
      .value("dynamics_failed", Status::Code::dynamics_failed, "contact_step: the ABA / OSCM failed (see dynamics)")
      .value("lcp_failed", Status::Code::lcp_failed, "contact_step: the LCP of `phase` failed (see lcp)");
  py::class_<Status>(m, "Status",
                     "How a computation ended (Model.last_status, and the base of every status).\n\n"
                     "code: a StatusCode; row: the 0-based DoF (names_body False) or body (names_body True)\n"
                     "whose pivot failed or whose quaternion is invalid, -1 when there is none; call: the\n"
                     "library call that found the failure (None on success); argument: for non_finite_input,\n"
                     "the input holding a NaN or an infinity ('q', 'v', 'a', 'tau', 'f_ext', ...; None\n"
                     "otherwise), row its 0-based entry (a body for f_ext). bool(status) is True on success;\n"
                     "str(status) is one line, e.g. 'non_positive_pivot at body 6 (aba)'.")
      .def_property_readonly("code", [](const Status& s) { return s.code; }, "StatusCode")
      .def_property_readonly("row", [](const Status& s) { return s.row; },
                             "0-based DoF or body (see names_body) that failed; -1 when there is none")
      .def_property_readonly("names_body", &Status::names_body, "True when row is a body index, False for a DoF")
      .def_property_readonly("call", [](const Status& s) -> py::object {
        return s.call == nullptr ? py::object(py::none()) : py::object(py::str(s.call));
      }, "the library call that found the failure, None when none is named")
      .def_property_readonly("argument", [](const Status& s) -> py::object {
        return s.argument == nullptr ? py::object(py::none()) : py::object(py::str(python_argument(s.argument)));
      }, "non_finite_input: the argument holding a NaN or an infinity, by its Python name; None otherwise")
      .def_property_readonly("ok", &Status::ok, "True on success")
      .def("__bool__", &Status::ok)
      .def("__str__", [](const Status& s) { return to_string(python_names(s)); })
      .def("__repr__", [](const Status& s) { return "Status(" + to_string(python_names(s)) + ")"; });
  m.attr("FactorStatus") = m.attr("Status");
  py::class_<BatchReport>(m, "BatchStatus",
                          "Status of the last batched call (Model.last_batch_status): failures = the number of\n"
                          "states (rows) whose computation failed (their outputs are NaN), first_failed = the\n"
                          "smallest such row (-1 if none), first_status = its Status.")
      .def_readonly("failures", &BatchReport::failures, "number of rows whose computation failed")
      .def_readonly("first_failed", &BatchReport::first_failed, "smallest failed row, -1 if none")
      .def_readonly("first_status", &BatchReport::first_status, "Status of that row")
      .def_property_readonly("ok", [](const BatchReport& b) { return b.failures == 0 && b.first_status.ok(); },
                             "True when every row succeeded")
      .def("__bool__", [](const BatchReport& b) { return b.failures == 0 && b.first_status.ok(); })
      .def("__repr__", [](const BatchReport& b) {
        return "BatchStatus(failures=" + std::to_string(b.failures) + ", first_failed=" + std::to_string(b.first_failed) + ")";
      });
}

}  // namespace

// log6.cpp and batches.cpp (declared here rather than in common.hpp, which every unit of the module includes)
void bind_log6(py::module_& m);
void bind_batch(py::module_& m);

}  // namespace treedyn::python

PYBIND11_MODULE(treedyn, m) {
  using namespace treedyn::python;
  m.doc() =
      "treedyn: dynamics of rigid-body kinematic trees (RNEA, CRBA, ABA, modified ABA, mass-matrix inverses)\n"
      "in float64 (Model) and float32 (ModelF32).\n\n"
      "Conventions: spatial vectors are angular first, [w; v] for motions and [n; f] for forces, in body\n"
      "coordinates unless stated; quaternions are stored (x, y, z, w); every index is 0-based; a body's\n"
      "parent is -1 (no_parent) for the fixed base. Units are SI (m, kg, s, rad, N, N m).\n"
      "Arrays are numpy.ndarray of the model's dtype and are never converted: a wrong dtype or shape raises\n"
      "ValueError naming the argument and the expected shape.";
  m.attr("no_parent") = treedyn::no_parent;
  bind_statuses(m);
  bind_model(m);
  bind_robots(m);
  bind_urdf(m);
  bind_mjcf(m);
  bind_kinematics(m);
  bind_kernels(m);
  bind_dynamics(m);
  bind_batch(m);
  bind_inertia(m);
  bind_operational(m);
  bind_contact(m);
  bind_centroidal(m);
  bind_derivatives(m);
  bind_log6(m);
}
