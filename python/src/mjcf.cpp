// treedyn Python module: MJCF loading (treedyn.load_mjcf), when the mjcf component (tinyxml2) is built.
#include <string>

#include "common.hpp"
#ifdef TREEDYN_PYTHON_MJCF
#include "treedyn/mjcf.hpp"
#endif

namespace treedyn::python {

void bind_mjcf(py::module_& m) {
#ifdef TREEDYN_PYTHON_MJCF
  m.attr("has_mjcf") = true;
  m.def(
      "load_mjcf",
      [](const py::object& path_or_xml, const py::object& dtype) -> py::tuple {
        std::string source;
        bool is_path = !py::isinstance<py::str>(path_or_xml);
        if (is_path) source = py::module_::import("os").attr("fsdecode")(path_or_xml).cast<std::string>();
        else source = path_or_xml.cast<std::string>();
        const mjcf::Loaded<double> loaded =
            is_path ? mjcf::load_from_file<double>(source) : mjcf::load<double>(source);
        py::list report, joints;
        for (const std::string& line : loaded.report.lines()) report.append(line);
        for (const mjcf::JointInfo<double>& j : loaded.joints) {
          py::dict d;
          d["name"] = j.name;
          d["body"] = j.body;
          d["type"] = j.type;
          d["q_index"] = j.q_index;
          d["v_index"] = j.v_index;
          d["limited"] = j.limited;
          d["range"] = py::make_tuple(j.range_lower, j.range_upper);
          d["ref"] = j.ref;
          d["armature"] = j.armature;
          d["damping"] = j.damping;
          joints.append(d);
        }
        return py::make_tuple(wrap_model(loaded.model, dtype), report, joints);
      },
      py::arg("path_or_xml"), py::kw_only(), py::arg("dtype") = py::dtype::of<double>(),
      "load_mjcf(path_or_xml, *, dtype=numpy.float64) -> (model, report, joints)\n\n"
      "A model from a MuJoCo MJCF file (a str path or an os.PathLike such as pathlib.Path), or from MJCF text\n"
      "(a str whose first non-blank character is '<'). q and v are MuJoCo's qpos and qvel in its joint order,\n"
      "with quaternions stored (x, y, z, w) and a free joint's velocity [w_body; v_body] (docs/mjcf.md).\n"
      "report: list of str (inertias from geoms, mesh masses skipped, elements ignored). joints: one dict per\n"
      "MJCF joint in MuJoCo's order (name, body, type, q_index, v_index, limited, range, ref, armature,\n"
      "damping). A refused file raises ValueError naming the file, the line and the element. For float32 the\n"
      "float64 model is loaded, then cast once.");
#else
  m.attr("has_mjcf") = false;
#endif
}

}  // namespace treedyn::python
