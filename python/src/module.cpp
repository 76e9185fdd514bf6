// The treedyn Python module: statuses and the registration of every part (one translation unit each).
#include <string>

#include "common.hpp"

namespace treedyn::python {
namespace {

std::string code_name(FactorStatus::Code c) {
  switch (c) {
    case FactorStatus::Code::success: return "success";
    case FactorStatus::Code::non_positive_pivot: return "non_positive_pivot";
    case FactorStatus::Code::invalid_configuration: return "invalid_configuration";
    case FactorStatus::Code::invalid_parent_array: return "invalid_parent_array";
    case FactorStatus::Code::invalid_argument: return "invalid_argument";
  }
  return "unknown";
}

void bind_statuses(py::module_& m) {
  py::enum_<FactorStatus::Code>(m, "StatusCode", "How a computation ended (FactorStatus.code).")
      .value("success", FactorStatus::Code::success)
      .value("non_positive_pivot", FactorStatus::Code::non_positive_pivot,
             "a pivot that is not > 0: a singular or indefinite H (row = DoF) or joint pivot D_i (row = body)")
      .value("invalid_configuration", FactorStatus::Code::invalid_configuration,
             "the quaternion of body `row`'s joint is zero or not finite; the outputs are NaN")
      .value("invalid_parent_array", FactorStatus::Code::invalid_parent_array)
      .value("invalid_argument", FactorStatus::Code::invalid_argument);
  py::class_<FactorStatus>(m, "FactorStatus",
                           "Status of the last algorithm called on a model (Model.last_status).\n\n"
                           "code: a StatusCode; row: the 0-based DoF (names_body False) or body (names_body True)\n"
                           "whose pivot failed or whose quaternion is invalid, -1 on success. bool(status) is True\n"
                           "on success.")
      .def_property_readonly("code", [](const FactorStatus& s) { return s.code; }, "StatusCode")
      .def_property_readonly("row", [](const FactorStatus& s) { return s.row; },
                             "0-based DoF or body (see names_body) that failed; -1 on success")
      .def_property_readonly("names_body", &FactorStatus::names_body, "True when row is a body index, False for a DoF")
      .def_property_readonly("ok", &FactorStatus::ok, "True on success")
      .def("__bool__", &FactorStatus::ok)
      .def("__repr__", [](const FactorStatus& s) {
        if (s.ok()) return std::string("FactorStatus(success)");
        return "FactorStatus(" + code_name(s.code) + ", " + (s.names_body() ? "body " : "row ") + std::to_string(s.row) + ")";
      });
  py::class_<BatchReport>(m, "BatchStatus",
                          "Status of the last batched call (Model.last_batch_status): failures = the number of\n"
                          "states (rows) whose computation failed (their outputs are NaN), first_failed = the\n"
                          "smallest such row (-1 if none), first_status = its FactorStatus.")
      .def_readonly("failures", &BatchReport::failures, "number of rows whose computation failed")
      .def_readonly("first_failed", &BatchReport::first_failed, "smallest failed row, -1 if none")
      .def_readonly("first_status", &BatchReport::first_status, "FactorStatus of that row")
      .def_property_readonly("ok", [](const BatchReport& b) { return b.failures == 0 && b.first_status.ok(); },
                             "True when every row succeeded")
      .def("__bool__", [](const BatchReport& b) { return b.failures == 0 && b.first_status.ok(); })
      .def("__repr__", [](const BatchReport& b) {
        return "BatchStatus(failures=" + std::to_string(b.failures) + ", first_failed=" + std::to_string(b.first_failed) + ")";
      });
}

}  // namespace
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
  bind_kinematics(m);
  bind_kernels(m);
  bind_dynamics(m);
  bind_inertia(m);
  bind_operational(m);
  bind_contact(m);
}
