// treedyn Python module: URDF loading (treedyn.load_urdf, MimicJoint), when the urdf component (urdfdom)
// is built.
#include <string>

#include "common.hpp"
#ifdef TREEDYN_PYTHON_URDF
#include "treedyn/urdf/build_model.hpp"
#endif

namespace treedyn::python {

#ifdef TREEDYN_PYTHON_URDF
namespace {

/// The path or URDF text of load_urdf: a str as given (text when it starts with '<'), an os.PathLike or
/// bytes path through os.fsdecode (always a file). Sets `is_path` for the latter.
std::string path_or_text(const py::object& obj, bool& is_path) {
  is_path = false;
  if (py::isinstance<py::str>(obj)) return obj.cast<std::string>();
  const py::module_ os = py::module_::import("os");
  if (py::isinstance(obj, os.attr("PathLike")) || py::isinstance<py::bytes>(obj)) {
    is_path = true;
    return os.attr("fsdecode")(obj).cast<std::string>();
  }
  throw py::type_error("load_urdf: path_or_xml must be a str (a path or URDF text) or an os.PathLike such as "
                       "pathlib.Path; given " + obj.get_type().attr("__name__").cast<std::string>());
}

urdf::Options load_options(bool floating_base, const std::string& inertia, const py::object& gravity) {
  urdf::Options options;
  options.floating_base = floating_base;
  if (inertia == "repair") options.inertia = urdf::InertiaPolicy::repair;
  else if (inertia == "strict") options.inertia = urdf::InertiaPolicy::strict;
  else if (inertia == "as_is") options.inertia = urdf::InertiaPolicy::as_is;
  else value_error("load_urdf: inertia must be 'repair', 'strict' or 'as_is'; given '" + inertia + "'");
  const Vector3<double> g = vector3_arg("load_urdf", "gravity", gravity);
  options.gravity = {g(0), g(1), g(2)};
  return options;
}

}  // namespace
#endif

void bind_urdf(py::module_& m) {
#ifdef TREEDYN_PYTHON_URDF
  m.attr("has_urdf") = true;
  using Mimic = urdf::MimicJoint<double>;
  py::class_<Mimic>(m, "MimicJoint",
                    "A <mimic> relation the loader kept beside the model (the model treats both joints as\n"
                    "independent): q[index] = multiplier * q[mimicked_index] + offset, for a program to enforce.")
      .def_readonly("joint", &Mimic::joint, "the mimicking joint (its URDF name)")
      .def_readonly("mimicked", &Mimic::mimicked, "the joint it follows")
      .def_readonly("index", &Mimic::index, "model.joint_index(joint), -1 when that joint is fixed (merged)")
      .def_readonly("mimicked_index", &Mimic::mimicked_index, "model.joint_index(mimicked), -1 when fixed")
      .def_readonly("multiplier", &Mimic::multiplier)
      .def_readonly("offset", &Mimic::offset)
      .def("__repr__", [](const Mimic& r) {
        return "MimicJoint(joint='" + r.joint + "', mimicked='" + r.mimicked + "', multiplier=" +
               py::repr(py::float_(r.multiplier)).cast<std::string>() + ", offset=" +
               py::repr(py::float_(r.offset)).cast<std::string>() + ")";
      });
  m.def(
      "load_urdf",
      [](const py::object& path_or_xml, bool floating_base, const std::string& inertia, const py::object& gravity,
         const py::object& dtype, bool mimics) -> py::tuple {
        bool is_path = false;
        const std::string source = path_or_text(path_or_xml, is_path);
        const urdf::Options options = load_options(floating_base, inertia, gravity);
        const urdf::Loaded<double> loaded =
            is_path ? urdf::load_from_file<double>(source, options) : urdf::load<double>(source, options);
        py::list report;
        for (const std::string& line : loaded.report.lines()) report.append(line);
        if (!mimics) return py::make_tuple(wrap_model(loaded.model, dtype), report);
        py::list relations;
        for (const Mimic& r : loaded.mimics) relations.append(py::cast(r));
        return py::make_tuple(wrap_model(loaded.model, dtype), report, relations);
      },
      py::arg("path_or_xml"), py::kw_only(), py::arg("floating_base") = false, py::arg("inertia") = "repair",
      py::arg("gravity") = py::make_tuple(0.0, 0.0, -9.81), py::arg("dtype") = py::dtype::of<double>(),
      py::arg("mimics") = false,
      "load_urdf(path_or_xml, *, floating_base=False, inertia='repair', gravity=(0, 0, -9.81),\n"
      "          dtype=numpy.float64, mimics=False) -> (model, report), or (model, report, mimics)\n\n"
      "A model from a URDF file (a str path or an os.PathLike such as pathlib.Path), or from URDF text (a str\n"
      "whose first non-blank character is '<'). floating_base: a free flyer between the world and the root\n"
      "link. inertia: what to do with a link inertia that is not physically valid, or a massless link whose\n"
      "joint would have a zero pivot ('repair': the nearest valid one / a tiny point mass, reported;\n"
      "'strict': ValueError; 'as_is': kept, reported). Fixed links are merged into their parents and stay\n"
      "named frames. report: list of str, the repairs first, then mimics, then one line for the merged fixed\n"
      "links. mimics=True adds the list of MimicJoint relations (each <mimic> loads as an independent joint;\n"
      "one naming a missing or fixed joint is reported and skipped). A rejected file raises ValueError with\n"
      "the reason. For float32 the float64 model is loaded, then cast once.");
#else
  m.attr("has_urdf") = false;
#endif
}

}  // namespace treedyn::python
