// treedyn Python module: Joint, ModelBuilder and the Model classes (float64 Model, float32 ModelF32).
#include <limits>
#include <string>
#include <vector>

#include "common.hpp"

namespace treedyn::python {

bool is_float32(const py::handle& dtype) {
  const py::dtype d = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
  if (d.kind() == 'f' && d.itemsize() == 4) return true;
  if (d.kind() == 'f' && d.itemsize() == 8) return false;
  value_error("treedyn: dtype must be numpy.float64 or numpy.float32; given " + text(d));
}

void model_type_error(const char* call, const char* name, const py::handle& obj) {
  throw py::value_error(std::string(call) + ": argument '" + name +
                       "' must be a treedyn.Model (float64) or treedyn.ModelF32 (float32); given " +
                       text(obj.get_type().attr("__name__")));
}

py::object wrap_model(const Model<double>& model, const py::handle& dtype) {
  if (is_float32(dtype)) return py::cast(std::make_unique<ModelHandle<float>>(model.cast<float>()));
  return py::cast(std::make_unique<ModelHandle<double>>(model));
}

namespace {

py::array_t<double, py::array::forcecast> real_array(const char* call, const char* name, const py::handle& obj,
                                                     py::ssize_t rows, py::ssize_t cols) {
  const std::string expected = cols < 0 ? "(" + std::to_string(rows) + ",)"
                                        : "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
  py::array_t<double, py::array::forcecast> a;
  try {
    a = py::array_t<double, py::array::forcecast>::ensure(obj);
  } catch (const py::error_already_set&) {
  }
  if (!a || a.ndim() != (cols < 0 ? 1 : 2) || a.shape(0) != rows || (cols >= 0 && a.shape(1) != cols))
    value_error(std::string(call) + ": argument '" + name + "' must be real numbers of shape " + expected);
  return a;
}

}  // namespace

Vector3<double> vector3_arg(const char* call, const char* name, const py::handle& obj) {
  const auto a = real_array(call, name, obj, 3, -1);
  return Vector3<double>(a.at(0), a.at(1), a.at(2));
}

Matrix3<double> matrix3_arg(const char* call, const char* name, const py::handle& obj) {
  const auto a = real_array(call, name, obj, 3, 3);
  Matrix3<double> M;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M(i, j) = a.at(i, j);
  return M;
}

namespace {

template <class V>
py::array_t<double> to_numpy3(const V& v) {
  py::array_t<double> out(3);
  for (int k = 0; k < 3; ++k) out.mutable_at(k) = static_cast<double>(v(k));
  return out;
}

/// [item(i) for i in range(n)].
template <class Item>
py::list list_of(int n, Item item) {
  py::list out;
  for (int i = 0; i < n; ++i) out.append(item(i));
  return out;
}

template <class Array>
py::list int_list(const Array& a) {
  py::list out;
  for (int i = 0; i < static_cast<int>(a.size()); ++i) out.append(a[i]);
  return out;
}

Transform<double> transform_arg(const char* call, const py::handle& rotation, const py::handle& translation) {
  Transform<double> X = Transform<double>::identity();
  if (!rotation.is_none()) X.E = matrix3_arg(call, "rotation", rotation);
  if (!translation.is_none()) X.r = vector3_arg(call, "translation", translation);
  return X;
}

void bind_joint(py::module_& m) {
  py::enum_<JointType>(m, "JointType", "The joint models (see Joint).")
      .value("fixed", JointType::fixed)
      .value("revolute", JointType::revolute)
      .value("prismatic", JointType::prismatic)
      .value("helical", JointType::helical)
      .value("spherical", JointType::spherical)
      .value("planar", JointType::planar)
      .value("free_flyer", JointType::free_flyer);
  using J = Joint<double>;
  py::class_<J>(m, "Joint",
                "A joint model (float64 numbers; a float32 model rounds them once when cast).\n\n"
                "  type        nq/nv  q                                  S (motion subspace, body coordinates)\n"
                "  revolute    1/1    angle about the unit axis a (rad)  [a; 0]\n"
                "  prismatic   1/1    displacement along a (m)           [0; a]\n"
                "  helical     1/1    angle, pitch p (m/rad)             [a; p a]\n"
                "  spherical   4/3    quaternion (x, y, z, w)            [1; 0]\n"
                "  planar      3/3    (x, y, theta) in the xy-plane      [0; e_x], [0; e_y], [e_z; 0]\n"
                "  free_flyer  7/6    (p (3), quaternion (x, y, z, w))   identity (v = [w; v_O])\n"
                "  fixed       0/0    -                                  merged into the parent by build()\n"
                "Quaternions are normalised on use; velocities are body-frame quantities.")
      .def_static("revolute", [](const py::object& axis) { return J::revolute(vector3_arg("Joint.revolute", "axis", axis)); },
                  py::arg("axis"), "Revolute joint about `axis` (3 numbers, normalised by ModelBuilder.add_body).")
      .def_static("prismatic", [](const py::object& axis) { return J::prismatic(vector3_arg("Joint.prismatic", "axis", axis)); },
                  py::arg("axis"), "Prismatic joint along `axis` (3 numbers, normalised by ModelBuilder.add_body).")
      .def_static("helical",
                  [](const py::object& axis, double pitch) { return J::helical(vector3_arg("Joint.helical", "axis", axis), pitch); },
                  py::arg("axis"), py::arg("pitch"), "Helical joint about `axis` with `pitch` metres per radian.")
      .def_static("spherical", &J::spherical, "Spherical joint: q = quaternion (x, y, z, w), v = body angular velocity.")
      .def_static("planar", &J::planar, "Planar joint: q = (x, y, theta), v = (v_x, v_y, w) in the body frame.")
      .def_static("free_flyer", &J::free_flyer,
                  "Free flyer: q = (position (3), quaternion (x, y, z, w)), v = [w; v_O] in body coordinates.")
      .def_static("fixed", &J::fixed, "Fixed joint: the body is merged into its parent by build() and stays a named frame.")
      .def_readonly("type", &J::type, "JointType")
      .def_property_readonly("axis", [](const J& j) { return to_numpy3(j.axis); }, "unit axis (float64, 3)")
      .def_readonly("pitch", &J::pitch, "helical pitch, m/rad")
      .def_property_readonly("nq", &J::nq, "configuration dimension")
      .def_property_readonly("nv", &J::nv, "velocity dimension (degrees of freedom)")
      .def("__repr__", [](const J& j) { return std::string("Joint.") + j.type_name() + "()"; });
}

void bind_builder(py::module_& m) {
  using B = ModelBuilder<double>;
  py::class_<B>(m, "ModelBuilder",
                "Collects bodies (float64 numbers), validates each as it is added, and builds a Model or\n"
                "ModelF32. A bad body raises ValueError naming the body and the rule broken.")
      .def(py::init<>(), "An empty builder (gravity (0, 0, -9.81), physical inertia checks on).")
      .def(
          "add_body",
          [](B& b, int parent, const Joint<double>& joint, const py::object& rotation, const py::object& translation,
             double mass, const py::object& com, const py::object& inertia, const std::string& name) {
            const Transform<double> X = transform_arg("ModelBuilder.add_body", rotation, translation);
            const Vector3<double> c = com.is_none() ? Vector3<double>::Zero() : vector3_arg("ModelBuilder.add_body", "com", com);
            const Matrix3<double> Ic =
                inertia.is_none() ? Matrix3<double>::Zero() : matrix3_arg("ModelBuilder.add_body", "inertia", inertia);
            return b.add_body(parent, joint, X, RigidInertia<double>::from_mass_com_inertia(mass, c, Ic), name);
          },
          py::arg("parent"), py::arg("joint"), py::arg("rotation") = py::none(), py::arg("translation") = py::none(),
          py::arg("mass") = 0.0, py::arg("com") = py::none(), py::arg("inertia") = py::none(), py::arg("name") = "",
          "add_body(parent, joint, rotation=None, translation=None, mass=0.0, com=None, inertia=None, name='') -> int\n\n"
          "Adds a body hanging from `parent` (an index returned earlier, or -1 for the fixed base) through `joint`.\n"
          "The tree transform X_T = (E, r) places the joint's predecessor frame in the parent's frame:\n"
          "rotation = E (3x3, default identity) takes parent coordinates to predecessor coordinates (its ROWS are\n"
          "the predecessor axes in parent coordinates); translation = r (3, default 0, m) is the predecessor\n"
          "origin in parent coordinates. mass (kg), com (3, m, body frame) and inertia (3x3, kg m^2, rotational\n"
          "inertia about the centre of mass in body axes) give the body's rigid-body inertia. Returns the body's\n"
          "0-based index in the builder (bodies on fixed joints are merged by build()).")
      .def("set_joint_name", &B::set_joint_name, py::arg("body"), py::arg("name"),
           "Names the joint of body `body` (default: the body's name).")
      .def(
          "set_joint_limits",
          [](B& b, int body, double lower, double upper, double velocity, double effort) {
            b.set_joint_limits(body, JointLimits<double>{lower, upper, velocity, effort});
          },
          py::arg("body"), py::arg("lower") = -std::numeric_limits<double>::infinity(),
          py::arg("upper") = std::numeric_limits<double>::infinity(),
          py::arg("velocity") = std::numeric_limits<double>::infinity(),
          py::arg("effort") = std::numeric_limits<double>::infinity(),
          "Limits of body `body`'s joint (metadata read by no algorithm): position (rad or m), |qdot|, |tau|.")
      .def(
          "set_frame_placement",
          [](B& b, int body, const py::object& rotation, const py::object& translation) {
            b.set_frame_placement(body, transform_arg("ModelBuilder.set_frame_placement", rotation, translation));
          },
          py::arg("body"), py::arg("rotation") = py::none(), py::arg("translation") = py::none(),
          "Places body `body`'s named frame at ^frame X_body = (rotation, translation) instead of its origin.")
      .def(
          "set_gravity", [](B& b, const py::object& g) { b.set_gravity(vector3_arg("ModelBuilder.set_gravity", "g", g)); },
          py::arg("g"), "Gravity in base coordinates, m/s^2 (default (0, 0, -9.81)).")
      .def("set_physical_inertia_check", &B::set_physical_inertia_check, py::arg("on"),
           "Whether add_body rejects an inertia that is not positive semidefinite or breaks the triangle\n"
           "inequality (default True).")
      .def("__len__", &B::size, "Number of bodies added (fixed ones included).")
      .def(
          "build", [](const B& b, const py::object& dtype) { return wrap_model(b.build(), dtype); },
          py::arg("dtype") = py::dtype::of<double>(),
          "build(dtype=numpy.float64) -> Model or ModelF32\n\n"
          "Builds the model (bodies on fixed joints merged into their parents). For float32 the float64 model is\n"
          "built and validated, then cast once (Model.cast).");
}

/// One field of every joint's limits, as a read-only array in the model's dtype.
template <class S>
py::array_t<S> limit_array(const Model<S>& model, S JointLimits<S>::*field) {
  py::array_t<S> out(static_cast<py::ssize_t>(model.nbodies()));
  for (int i = 0; i < model.nbodies(); ++i) out.mutable_at(i) = model.limits(i).*field;
  out.attr("flags").attr("writeable") = false;
  return out;
}

/// Every body's mass (what = 0), centre of mass (1) or rotational inertia about it (2), read-only.
template <class S>
py::array_t<S> inertia_array(const Model<S>& model, int what) {
  const py::ssize_t n = model.nbodies();
  py::array_t<S> out = what == 0 ? py::array_t<S>(n) : what == 1 ? py::array_t<S>({n, py::ssize_t(3)})
                                                                 : py::array_t<S>({n, py::ssize_t(3), py::ssize_t(3)});
  for (int i = 0; i < model.nbodies(); ++i) {
    const RigidInertia<S>& I = model.inertia(i);
    const Vector3<S> c = I.m > S(0) ? Vector3<S>(I.h / I.m) : Vector3<S>::Zero();
    // Ī_C = Ī + m c×c× = Ī − m (|c|² 1 − c cᵀ)
    const Matrix3<S> I_com = I.I.matrix() - I.m * (c.squaredNorm() * Matrix3<S>::Identity() - c * c.transpose());
    if (what == 0) out.mutable_at(i) = I.m;
    for (int r = 0; r < 3 && what > 0; ++r) {
      if (what == 1) out.mutable_at(i, r) = c(r);
      for (int k = 0; k < 3 && what == 2; ++k) out.mutable_at(i, r, k) = I_com(r, k);
    }
  }
  out.attr("flags").attr("writeable") = false;
  return out;
}

template <class S>
void bind_model_class(py::module_& m) {
  using H = ModelHandle<S>;
  py::class_<H>(m, model_class_name<S>(),
                (std::string("An immutable kinematic tree in ") + dtype_name<S>() +
                 ", with the one workspace (Data) every algorithm\n"
                 "called on it uses. Every array an algorithm returns has dtype " + dtype_name<S>() +
                 ", and every array argument\n"
                 "must have it. Calls release the GIL; calls on one model from several threads run one at a time\n"
                 "(use one model per thread, e.g. model.cast(model.dtype), to run them in parallel).\n"
                 "Body i (0-based) hangs from parents[i] < i (-1: the fixed base) through joint(i); its block of q\n"
                 "starts at q_offsets[i], its block of v, qdd and tau at v_offsets[i].")
                    .c_str())
      .def_property_readonly("nq", [](const H& h) { return h.model.nq(); }, "configuration dimension")
      .def_property_readonly("nv", [](const H& h) { return h.model.nv(); }, "degrees of freedom")
      .def_property_readonly("nbodies", [](const H& h) { return h.model.nbodies(); }, "moving bodies")
      .def_property_readonly("dtype", [](const H&) { return py::dtype::of<S>(); }, "numpy dtype of every array")
      .def_property_readonly("id", [](const H& h) { return h.model.id(); }, "identity of the structure (kept by cast)")
      .def_property_readonly("parents", [](const H& h) { return int_list(h.model.parents()); },
                             "body parent array (-1: the base)")
      .def_property_readonly("dof_parents", [](const H& h) { return int_list(h.model.dof_parents()); },
                             "expanded per-DoF parent array (the sparsity pattern of H)")
      .def_property_readonly(
          "q_offsets",
          [](const H& h) { return list_of(h.model.nbodies(), [&](int i) { return h.model.q_offset(i); }); },
          "first entry of each body's joint in q")
      .def_property_readonly(
          "v_offsets",
          [](const H& h) { return list_of(h.model.nbodies(), [&](int i) { return h.model.v_offset(i); }); },
          "first entry of each body's joint in v, qdd, tau")
      .def_property_readonly(
          "body_names",
          [](const H& h) { return list_of(h.model.nbodies(), [&](int i) { return h.model.name(i); }); },
          "names of the moving bodies")
      .def_property_readonly(
          "joint_names",
          [](const H& h) { return list_of(h.model.nbodies(), [&](int i) { return h.model.joint_name(i); }); },
          "names of the joints (joint i moves body i)")
      .def_property_readonly(
          "frame_names",
          [](const H& h) {
            const auto& frames = h.model.frames();
            return list_of(static_cast<int>(frames.size()), [&](int i) { return frames[static_cast<std::size_t>(i)].name; });
          },
          "named frames: one per moving body and one per merged fixed body")
      .def_property_readonly(
          "lower_limits", [](const H& h) { return limit_array(h.model, &JointLimits<S>::lower); },
          "position lower limit of each joint (nbodies; -inf when unbounded), rad or m, read-only")
      .def_property_readonly(
          "upper_limits", [](const H& h) { return limit_array(h.model, &JointLimits<S>::upper); },
          "position upper limit of each joint (nbodies; inf when unbounded), rad or m, read-only")
      .def_property_readonly(
          "velocity_limits", [](const H& h) { return limit_array(h.model, &JointLimits<S>::velocity); },
          "largest |qdot| of each joint (nbodies; inf when unbounded), read-only")
      .def_property_readonly(
          "effort_limits", [](const H& h) { return limit_array(h.model, &JointLimits<S>::effort); },
          "largest |tau| of each joint (nbodies; inf when unbounded), read-only")
      .def_property_readonly(
          "masses", [](const H& h) { return inertia_array<S>(h.model, 0); },
          "mass of each body, fixed links merged in (nbodies), kg, read-only")
      .def_property_readonly(
          "coms", [](const H& h) { return inertia_array<S>(h.model, 1); },
          "centre of mass of each body in its own frame (nbodies x 3; 0 for a massless body), m, read-only")
      .def_property_readonly(
          "rotational_inertias", [](const H& h) { return inertia_array<S>(h.model, 2); },
          "rotational inertia of each body about its centre of mass, body axes (nbodies x 3 x 3; about the\n"
          "body origin for a massless body), kg m^2, read-only")
      .def(
          "joint", [](const H& h, int i) {
            if (i < 0 || i >= h.model.nbodies()) value_error("Model.joint: no joint " + std::to_string(i));
            return h.model.joint(i).template cast<double>();
          },
          py::arg("i"), "Joint i (the joint moving body i), float64 numbers.")
      .def("body_index", [](const H& h, const std::string& name) { return h.model.body_index(name); }, py::arg("name"),
           "Index of the body called `name` (ValueError if none).")
      .def("joint_index", [](const H& h, const std::string& name) { return h.model.joint_index(name); }, py::arg("name"),
           "Index of the joint called `name` (ValueError if none).")
      .def_property_readonly(
          "gravity",
          [](const H& h) {
            py::array_t<S> g(3);
            for (int k = 0; k < 3; ++k) g.mutable_at(k) = h.model.gravity()(k);
            return g;
          },
          "gravity in base coordinates, m/s^2")
      .def(
          "with_gravity",
          [](const H& h, const py::object& g) {
            return std::make_unique<H>(
                h.model.with_gravity(vector3_arg("Model.with_gravity", "g", g).template cast<S>()));
          },
          py::arg("g"), "The same model with gravity g (3 numbers, base coordinates, m/s^2).")
      .def(
          "cast",
          [](const H& h, const py::object& dtype) -> py::object {
            if (is_float32(dtype)) return py::cast(std::make_unique<ModelHandle<float>>(h.model.template cast<float>()));
            return py::cast(std::make_unique<ModelHandle<double>>(h.model.template cast<double>()));
          },
          py::arg("dtype"),
          "cast(dtype) -> Model or ModelF32: the same robot in float64 or float32 (numbers rounded once; a\n"
          "new workspace). cast(model.dtype) is an independent copy, e.g. one per thread.")
      .def_property_readonly("last_status", [](const H& h) { return h.last_status; },
                             "FactorStatus of the last algorithm called on this model (see each function)")
      .def_property_readonly("last_batch_status", [](const H& h) { return h.last_batch_status; },
                             "BatchStatus of the last batched call (aba_batch)")
      .def("__repr__", [](const H& h) {
        return std::string(model_class_name<S>()) + "(nbodies=" + std::to_string(h.model.nbodies()) +
               ", nq=" + std::to_string(h.model.nq()) + ", nv=" + std::to_string(h.model.nv()) + ")";
      });
}

}  // namespace

void bind_model(py::module_& m) {
  bind_joint(m);
  bind_builder(m);
  bind_model_class<double>(m);
  bind_model_class<float>(m);
}

}  // namespace treedyn::python
