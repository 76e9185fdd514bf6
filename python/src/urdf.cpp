// treedyn Python module: URDF loading (treedyn.load_urdf), when the urdf component (urdfdom) is built.
#include <string>

#include "common.hpp"
#ifdef TREEDYN_PYTHON_URDF
#include "treedyn/urdf/build_model.hpp"
#endif

namespace treedyn::python {

void bind_urdf(py::module_& m) {
#ifdef TREEDYN_PYTHON_URDF
  m.attr("has_urdf") = true;
  m.def(
      "load_urdf",
      [](const std::string& path_or_xml, bool floating_base, const std::string& inertia, const py::object& gravity,
         const py::object& dtype) {
        urdf::Options options;
        options.floating_base = floating_base;
        if (inertia == "repair") options.inertia = urdf::InertiaPolicy::repair;
        else if (inertia == "strict") options.inertia = urdf::InertiaPolicy::strict;
        else if (inertia == "as_is") options.inertia = urdf::InertiaPolicy::as_is;
        else value_error("load_urdf: inertia must be 'repair', 'strict' or 'as_is'; given '" + inertia + "'");
        const Vector3<double> g = vector3_arg("load_urdf", "gravity", gravity);
        options.gravity = {g(0), g(1), g(2)};
        urdf::Loaded<double> loaded = urdf::load<double>(path_or_xml, options);
        py::list report;
        for (const urdf::Diagnostic& d : loaded.report.diagnostics) report.append(d.to_string());
        return py::make_tuple(wrap_model(loaded.model, dtype), report);
      },
      py::arg("path_or_xml"), py::kw_only(), py::arg("floating_base") = false, py::arg("inertia") = "repair",
      py::arg("gravity") = py::make_tuple(0.0, 0.0, -9.81), py::arg("dtype") = py::dtype::of<double>(),
      "load_urdf(path_or_xml, *, floating_base=False, inertia='repair', gravity=(0, 0, -9.81),\n"
      "          dtype=numpy.float64) -> (model, report)\n\n"
      "A model from a URDF file, or from URDF text (first non-blank character '<'). floating_base: a free\n"
      "flyer between the world and the root link. inertia: what to do with a link inertia that is not\n"
      "physically valid ('repair': the nearest valid one, reported; 'strict': ValueError; 'as_is': kept,\n"
      "reported). Fixed links are merged into their parents and stay named frames. report: list of str, one\n"
      "per thing the loader did that the file did not say. A rejected file raises ValueError with the reason.\n"
      "For float32 the float64 model is loaded, then cast once.");
#else
  m.attr("has_urdf") = false;
#endif
}

}  // namespace treedyn::python
