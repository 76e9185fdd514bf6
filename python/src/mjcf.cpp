// treedyn Python module: MJCF loading (treedyn.load_mjcf), when the mjcf component (tinyxml2) is built.
#include <algorithm>
#include <string>
#include <vector>

#include "common.hpp"
#ifdef TREEDYN_PYTHON_MJCF
#include "treedyn/mjcf.hpp"
#endif

namespace treedyn::python {

#ifdef TREEDYN_PYTHON_MJCF
namespace {

/// A float64 NumPy array of the given shape holding n = product(shape) values read row by row by at(k).
template <class At>
py::array_t<double> numbers(std::vector<py::ssize_t> shape, At at) {
  py::array_t<double> out(shape);
  double* d = out.mutable_data();
  for (py::ssize_t k = 0; k < out.size(); ++k) d[k] = at(k);
  return out;
}

/// A constraint body as a frame of the model: its MJCF name, the treedyn body it is fixed on (−1: the world)
/// and its placement ^frame X_body as (rotation, translation), as ModelBuilder.set_frame_placement takes it.
py::dict frame_dict(const Frame<double>& f) {
  py::dict d;
  d["name"] = f.name;
  d["body"] = f.body;
  d["rotation"] = numbers({3, 3}, [&](py::ssize_t k) { return f.placement.E(k / 3, k % 3); });
  d["translation"] = numbers({3}, [&](py::ssize_t k) { return f.placement.r(k); });
  return d;
}

/// One mjcf::Equality as a dict with the fields its type uses (docs/mjcf.md#equality-constraints).
py::dict equality_dict(const mjcf::Equality<double>& e) {
  py::dict d;
  d["type"] = e.type;
  d["name"] = e.name;
  d["active"] = e.active;
  d["solref"] = py::make_tuple(e.solref[0], e.solref[1]);
  d["solimp"] = py::make_tuple(e.solimp[0], e.solimp[1], e.solimp[2], e.solimp[3], e.solimp[4]);
  if (e.type == "joint") {
    d["joint1"] = e.joint1;
    d["joint2"] = e.joint2;
    d["polycoef"] = py::make_tuple(e.polycoef[0], e.polycoef[1], e.polycoef[2], e.polycoef[3], e.polycoef[4]);
    return d;
  }
  d["body1"] = frame_dict(e.body1);
  d["body2"] = frame_dict(e.body2);
  d["anchor"] = numbers({3}, [&](py::ssize_t k) { return e.anchor(k); });
  if (e.type == "weld") {
    d["relpose_given"] = e.relpose_given;
    d["relpose_position"] = numbers({3}, [&](py::ssize_t k) { return e.relpose_position(k); });
    d["relpose_quaternion"] = numbers({4}, [&](py::ssize_t k) { return e.relpose_quaternion(k); });
    d["torquescale"] = e.torquescale;
  }
  return d;
}

}  // namespace
#endif

void bind_mjcf(py::module_& m) {
#ifdef TREEDYN_PYTHON_MJCF
  m.attr("has_mjcf") = true;
  m.def(
      "load_mjcf",
      [](const py::object& path_or_xml, const py::object& dtype, bool equalities, bool sites) -> py::tuple {
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
        py::list result;
        result.append(wrap_model(loaded.model, dtype));
        result.append(report);
        result.append(joints);
        if (equalities) {
          py::list records;
          for (const mjcf::Equality<double>& e : loaded.equalities) records.append(equality_dict(e));
          result.append(records);
        }
        if (sites) {
          const auto& frames = loaded.model.frames();
          py::list records;
          for (const mjcf::SiteInfo& site : loaded.sites) {
            py::dict d;
            d["name"] = site.name;
            d["body"] = site.body;
            d["frame"] = site.frame;
            const auto at = std::find_if(frames.begin(), frames.end(),
                                         [&](const Frame<double>& f) { return f.name == site.frame; });
            d["frame_index"] = static_cast<int>(at - frames.begin());
            records.append(d);
          }
          result.append(records);
        }
        return py::tuple(result);
      },
      py::arg("path_or_xml"), py::kw_only(), py::arg("dtype") = py::dtype::of<double>(), py::arg("equalities") = false,
      py::arg("sites") = false,
      "load_mjcf(path_or_xml, *, dtype=numpy.float64, equalities=False, sites=False) -> (model, report, joints),\n"
      "with equalities and then sites appended when asked for: (model, report, joints, equalities, sites)\n\n"
      "A model from a MuJoCo MJCF file (a str path or an os.PathLike such as pathlib.Path), or from MJCF text\n"
      "(a str whose first non-blank character is '<'). q and v are MuJoCo's qpos and qvel in its joint order,\n"
      "with quaternions stored (x, y, z, w) and a free joint's velocity [w_body; v_body] (docs/mjcf.md).\n"
      "report: list of str (inertias from geoms, mesh masses skipped, elements ignored). joints: one dict per\n"
      "MJCF joint in MuJoCo's order (name, body, type, q_index, v_index, limited, range, ref, armature,\n"
      "damping). equalities=True adds the <equality> constraints in the file's order, one dict each: 'type'\n"
      "('connect', 'weld' or 'joint'), 'name', 'active', 'solref', 'solimp'; connect and weld: 'body1', 'body2'\n"
      "(dicts: 'name', 'body' (the model body it is fixed on, -1 for the world), 'rotation', 'translation' of\n"
      "^frame X_body) and 'anchor'; weld: 'relpose_given', 'relpose_position', 'relpose_quaternion' (x, y, z, w),\n"
      "'torquescale'; joint: 'joint1', 'joint2' (indices into joints, -1 when omitted) and 'polycoef'. The tree\n"
      "model does not enforce them. sites=True adds every <site> in MuJoCo's site order, one dict each: 'name'\n"
      "(the MJCF name), 'body' (its MJCF body, 'world' for a site of <worldbody>), 'frame' (the model frame that\n"
      "is the site: its name, or 'site:<name>' when a body has the name) and 'frame_index' (its index in\n"
      "model.frame_names); frame_placement(model, q, site['frame']) places it. A refused file raises ValueError naming the file, the line and the element.\n"
      "For float32 the float64 model is loaded, then cast once.");
#else
  m.attr("has_mjcf") = false;
#endif
}

}  // namespace treedyn::python
