// treedyn Python module: the contact layer — Contact and BilateralConstraint records, collision shapes and
// CollisionGeometry, detect_contacts, the contact time step (ContactStep workspace + contact_step), Lemke's
// method on a dense LCP, and robots.sphere_pendulum (contact.hpp: conventions). One entry point per function
// dispatches on the scalar of the model handle (Model: float64, ModelF32: float32), or on the dtype of M for
// lemke; the algorithms themselves run in ContactKernels<S> (contact_kernels.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "contact.hpp"

namespace treedyn::python {
namespace {

using Vec3 = Vector3<double>;

/// A 3-vector as a new float64 array.
py::array_t<double> array3(const Vec3& v) {
  py::array_t<double> a(3);
  std::copy(v.data(), v.data() + 3, a.mutable_data());
  return a;
}

/// A 3x3 matrix as a new float64 array (row r of the array = row r of the matrix).
py::array_t<double> array33(const Matrix3<double>& M) {
  py::array_t<double> a({py::ssize_t{3}, py::ssize_t{3}});
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a.mutable_at(r, c) = M(r, c);
  return a;
}

// ---- scalar dispatch ----

/// Calls run(handle) with the ModelHandle<double> or ModelHandle<float> behind `model`; ValueError otherwise.
template <class Run>
py::object by_model(const char* call, const py::handle& model, Run run) {
  if (ModelHandle<double>* h = model_handle<double>(model)) return run(*h);
  if (ModelHandle<float>* h = model_handle<float>(model)) return run(*h);
  model_type_error(call, "model", model);
}

// ---- bindings ----

const char* shape_type_name(ShapeType t) {
  switch (t) {
    case ShapeType::sphere: return "sphere";
    case ShapeType::capsule: return "capsule";
    case ShapeType::box: return "box";
    case ShapeType::plane: return "plane";
  }
  return "unknown";
}

/// A float64 3-vector property of a record: getter returns a new array, setter takes any 3 numbers.
template <class Class, class T>
void vector_property(Class& cls, const char* name, Vec3 T::*member, const char* doc) {
  cls.def_property(
      name, [member](const T& c) { return array3(c.*member); },
      [member, name](T& c, const py::object& x) { c.*member = vector3_arg("Contact", name, x); }, doc);
}

void bind_records(py::module_& m) {
  using C = Contact<double>;
  py::class_<C> contact(m, "Contact",
                        "One unilateral frictional contact between body A and body B or the world (Jain, Minimal\n"
                        "Coordinates Formulation of Contact Dynamics, eqs. 4-16; friction polyhedron of Stewart and\n"
                        "Trinkle 1996).\n\n"
                        "point_a lies on body A in A's frame; point_b on body B in B's frame, or in world coordinates\n"
                        "when body_b = treedyn.world (-1). normal: unit vector from B to A in WORLD coordinates (the\n"
                        "impulse on A is along +normal). distance: signed separation along the normal, m (negative =\n"
                        "penetration); a step lets a contact with distance > 0 close its gap. mu >= 0: friction\n"
                        "coefficient; restitution in [0, 1]; friction_directions n_f (even, >= 2): the friction\n"
                        "polyhedron's directions d_k = cos(2 pi k/n_f) t1 + sin(2 pi k/n_f) t2, (t1, t2, n)\n"
                        "right-handed, t1 = `tangent` projected off the normal (zero tangent: automatic).\n"
                        "Fields are float64 (rounded to the model's scalar when used); vector fields return a new\n"
                        "array: assign the attribute to change them.");
  contact
      .def(py::init([](int body_a, const py::object& point_a, int body_b, const py::object& point_b,
                       const py::object& normal, double mu, double restitution, int friction_directions,
                       const py::object& tangent, double distance) {
             C c;
             c.body_a = body_a;
             c.point_a = vector3_arg("Contact", "point_a", point_a);
             c.body_b = body_b;
             c.point_b = vector3_arg("Contact", "point_b", point_b);
             c.normal = vector3_arg("Contact", "normal", normal);
             c.mu = mu;
             c.restitution = restitution;
             c.friction_directions = friction_directions;
             c.tangent = vector3_arg("Contact", "tangent", tangent);
             c.distance = distance;
             return c;
           }),
           py::kw_only(), py::arg("body_a") = 0, py::arg("point_a") = py::make_tuple(0.0, 0.0, 0.0),
           py::arg("body_b") = world, py::arg("point_b") = py::make_tuple(0.0, 0.0, 0.0),
           py::arg("normal") = py::make_tuple(0.0, 0.0, 1.0), py::arg("mu") = 0.5, py::arg("restitution") = 0.0,
           py::arg("friction_directions") = 4, py::arg("tangent") = py::make_tuple(0.0, 0.0, 0.0),
           py::arg("distance") = 0.0,
           "Contact(*, body_a=0, point_a=(0,0,0), body_b=world, point_b=(0,0,0), normal=(0,0,1), mu=0.5,\n"
           "restitution=0.0, friction_directions=4, tangent=(0,0,0), distance=0.0). Values are checked when a\n"
           "step uses the contact (ValueError naming the contact).")
      .def_readwrite("body_a", &C::body_a, "body A (the normal points towards it)")
      .def_readwrite("body_b", &C::body_b, "body B, or treedyn.world (-1)")
      .def_readwrite("mu", &C::mu, "friction coefficient (>= 0)")
      .def_readwrite("restitution", &C::restitution, "coefficient of restitution eps in [0, 1]")
      .def_readwrite("friction_directions", &C::friction_directions, "n_f: even, >= 2")
      .def_readwrite("distance", &C::distance, "signed separation along the normal, m (negative: penetration)");
  vector_property(contact, "point_a", &C::point_a, "(3,) point on A, A's frame, m");
  vector_property(contact, "point_b", &C::point_b, "(3,) point on B, B's frame (world coordinates for the world), m");
  vector_property(contact, "normal", &C::normal, "(3,) normal from B to A, world coordinates");
  vector_property(contact, "tangent", &C::tangent, "(3,) first friction direction wanted (zero: automatic)");
  contact
      .def(
          "directions",
          [](const C& c) {
            if (c.friction_directions < 2 || c.friction_directions % 2 != 0)
              value_error("Contact.directions: friction_directions must be even and >= 2; given " +
                          std::to_string(c.friction_directions));
            Eigen::Matrix<double, 3, Eigen::Dynamic> D(3, c.friction_directions + 1);
            friction_directions(c, D);
            py::array_t<double> out({py::ssize_t{3}, static_cast<py::ssize_t>(D.cols())});
            for (int r = 0; r < 3; ++r)
              for (int k = 0; k < D.cols(); ++k) out.mutable_at(r, k) = D(r, k);
            return out;
          },
          "directions() -> (3, n_f + 1) array [n, d_1 ... d_nf] (Jain's D(i), eq. 7): the unit normal, then the\n"
          "friction directions in world coordinates (the second half the exact negatives of the first).")
      .def("__repr__", [](const C& c) {
        return "Contact(body_a=" + std::to_string(c.body_a) + ", body_b=" + std::to_string(c.body_b) +
               ", distance=" + std::to_string(c.distance) + ")";
      });

  using B = BilateralConstraint<double>;
  const auto frame = [](const char* name, const py::object& R, const py::object& p) {
    return Transform<double>{R.is_none() ? Matrix3<double>::Identity() : matrix3_arg("BilateralConstraint", name, R),
                             p.is_none() ? Vec3::Zero() : vector3_arg("BilateralConstraint", name, p)};
  };
  py::class_<B>(m, "BilateralConstraint",
                "An equality constraint (a loop closure, Jain eq. 53, rows Q_b): frame F_a fixed on body A at\n"
                "^{F_a}X_A = (rotation_a, translation_a), frame F_b on body B (or the world: body_b = world, then\n"
                "^{F_b}X_0); rotation E's ROWS are the frame's axes in the body's coordinates, translation is the\n"
                "frame origin in body coordinates (m), as ModelBuilder.add_body. The rows selected by the bit mask\n"
                "`rows` of the relative spatial velocity of F_a w.r.t. F_b, in F_a coordinates (bit 0-2 angular\n"
                "x, y, z; bit 3-5 linear x, y, z: angular first) are held at zero. A hinge about z: rows = 0x3B.")
      .def(py::init([frame](int body_a, int body_b, const py::object& rotation_a, const py::object& translation_a,
                            const py::object& rotation_b, const py::object& translation_b, unsigned rows) {
             return B{body_a, frame("rotation_a", rotation_a, translation_a), body_b,
                      frame("rotation_b", rotation_b, translation_b), static_cast<std::uint8_t>(rows)};
           }),
           py::arg("body_a"), py::arg("body_b") = world, py::kw_only(), py::arg("rotation_a") = py::none(),
           py::arg("translation_a") = py::none(), py::arg("rotation_b") = py::none(),
           py::arg("translation_b") = py::none(), py::arg("rows") = 0x3F,
           "BilateralConstraint(body_a, body_b=world, *, rotation_a=None, translation_a=None, rotation_b=None,\n"
           "translation_b=None, rows=0x3F). Checked when a ContactStep is built (ValueError).")
      .def_readonly("body_a", &B::body_a, "body A (frame F_a is fixed on it)")
      .def_readonly("body_b", &B::body_b, "body B, or treedyn.world (-1)")
      .def_property_readonly("rows", [](const B& b) { return static_cast<int>(b.rows); }, "row mask (bits 0-5)")
      .def_property_readonly("rotation_a", [](const B& b) { return array33(b.frame_a.E); }, "(3, 3) E of ^{F_a}X_A")
      .def_property_readonly("translation_a", [](const B& b) { return array3(b.frame_a.r); },
                             "(3,) F_a's origin in A coordinates, m")
      .def_property_readonly("rotation_b", [](const B& b) { return array33(b.frame_b.E); }, "(3, 3) E of ^{F_b}X_B")
      .def_property_readonly("translation_b", [](const B& b) { return array3(b.frame_b.r); },
                             "(3,) F_b's origin in B (or world) coordinates, m");
}

void bind_geometry(py::module_& m) {
  using Sh = Shape<double>;
  py::class_<Sh>(m, "Shape",
                 "A collision primitive fixed on a body (its coordinates in the body's frame) or on the world\n"
                 "(body = treedyn.world, world coordinates); float64, lengths in m. Made by the factories sphere,\n"
                 "capsule, box, plane; checked when a CollisionGeometry is built.")
      .def_static(
          "sphere",
          [](int body, const py::object& centre, double radius, const std::string& name) {
            return Sh::sphere(body, vector3_arg("Shape.sphere", "centre", centre), radius, name);
          },
          py::arg("body"), py::arg("centre"), py::arg("radius"), py::arg("name") = "",
          "Shape.sphere(body, centre (3,), radius > 0, name='')")
      .def_static(
          "capsule",
          [](int body, const py::object& end0, const py::object& end1, double radius, const std::string& name) {
            return Sh::capsule(body, vector3_arg("Shape.capsule", "end0", end0), vector3_arg("Shape.capsule", "end1", end1),
                               radius, name);
          },
          py::arg("body"), py::arg("end0"), py::arg("end1"), py::arg("radius"), py::arg("name") = "",
          "Shape.capsule(body, end0 (3,), end1 (3,), radius > 0, name=''): the segment end0-end1 inflated by radius")
      .def_static(
          "box",
          [](int body, const py::object& centre, const py::object& half_extents, const py::object& axes,
             const std::string& name) {
            return Sh::box(body, vector3_arg("Shape.box", "centre", centre),
                           axes.is_none() ? Matrix3<double>::Identity() : matrix3_arg("Shape.box", "axes", axes),
                           vector3_arg("Shape.box", "half_extents", half_extents), name);
          },
          py::arg("body"), py::arg("centre"), py::arg("half_extents"), py::arg("axes") = py::none(), py::arg("name") = "",
          "Shape.box(body, centre (3,), half_extents (3,) > 0, axes=None (3x3, COLUMNS = the box axes in the body\n"
          "frame, orthonormal; default identity), name=''). Only its 8 corners collide (box-plane).")
      .def_static(
          "plane",
          [](int body, const py::object& point, const py::object& normal, const std::string& name) {
            return Sh::plane(body, vector3_arg("Shape.plane", "point", point), vector3_arg("Shape.plane", "normal", normal),
                             name);
          },
          py::arg("body"), py::arg("point"), py::arg("normal"), py::arg("name") = "",
          "Shape.plane(body, point (3,), normal (3,), name=''): the half-space normal . (x - point) <= 0 is solid;\n"
          "normal is the outward normal (normalised).")
      .def_property_readonly("type", [](const Sh& s) { return shape_type_name(s.type); }, "'sphere', 'capsule', 'box' or 'plane'")
      .def_readonly("body", &Sh::body, "the body it is fixed on, or treedyn.world (-1)")
      .def_readonly("name", &Sh::name, "name used in error messages")
      .def_readonly("radius", &Sh::radius, "sphere / capsule radius, m")
      .def_property_readonly("p0", [](const Sh& s) { return array3(s.p0); }, "sphere/box centre, capsule end0, plane point")
      .def_property_readonly("p1", [](const Sh& s) { return array3(s.p1); }, "capsule end1")
      .def_property_readonly("normal", [](const Sh& s) { return array3(s.normal); }, "plane normal")
      .def_property_readonly("axes", [](const Sh& s) { return array33(s.axes); }, "box axes (columns)")
      .def_property_readonly("half_extents", [](const Sh& s) { return array3(s.half_extents); }, "box half extents, m")
      .def("__repr__", [](const Sh& s) {
        return std::string("Shape.") + shape_type_name(s.type) + "(body=" + std::to_string(s.body) +
               (s.name.empty() ? std::string() : ", name='" + s.name + "'") + ")";
      });

  py::class_<GeometryPy>(
      m, "CollisionGeometry",
      "The shapes of a scene and the shape pairs to test, checked once against a model (Model or ModelF32;\n"
      "usable only with that model in that scalar). Pairs: shapes on different bodies (never two on the same\n"
      "body or both on the world) of a supported kind: sphere-plane, sphere-sphere, capsule-plane,\n"
      "capsule-sphere, box-plane.")
      .def(py::init([](const py::object& model, const std::vector<Shape<double>>& shapes, bool exclude_parent_child,
                       const std::vector<std::pair<int, int>>& exclude) {
             CollisionOptions options;
             options.exclude_parent_child = exclude_parent_child;
             options.exclude = exclude;
             GeometryPy g;
             by_model("CollisionGeometry", model, [&](auto& h) {
               g = as_value_error("CollisionGeometry", [&] { return ContactKernels<ScalarOf<decltype(h)>>::make_geometry(h, shapes, options); });
               return py::object();
             });
             return g;
           }),
           py::arg("model"), py::arg("shapes"), py::kw_only(), py::arg("exclude_parent_child") = false,
           py::arg("exclude") = std::vector<std::pair<int, int>>{},
           "CollisionGeometry(model, shapes, *, exclude_parent_child=False, exclude=[]): exclude lists pairs of\n"
           "shape indices never tested (either order). ValueError names a bad shape (index, name, problem).")
      .def_property_readonly("dtype", [](const GeometryPy& g) { return g.numpy_dtype(); }, "the model's dtype")
      .def_property_readonly("shapes", [](const GeometryPy& g) { return g.shapes; }, "the shapes (a list of Shape)")
      .def_property_readonly(
          "pairs",
          [](const GeometryPy& g) {
            return g.visit([](const auto& of) {
              py::list out;
              for (const auto& p : of.geometry.pairs()) out.append(py::make_tuple(p.first, p.second));
              return py::object(out);
            });
          },
          "list of (first, second) shape indices tested: first is the A side (unless on the world), second the B\n"
          "side (the plane of a plane pair)")
      .def_property_readonly(
          "max_contacts",
          [](const GeometryPy& g) { return g.visit([](const auto& of) { return py::int_(of.geometry.max_contacts()); }); },
          "the most contacts detect_contacts can report");

  m.def(
      "detect_contacts",
      [](const py::object& model, const GeometryPy& g, const py::object& q, double margin, double mu, double restitution,
         int friction_directions) {
        return by_model("detect_contacts", model, [&](auto& h) -> py::object {
          using S = ScalarOf<decltype(h)>;
          GeometryOf<S>& of = g.template for_model<S>("detect_contacts", "geometry", h);
          const auto lock = lock_without_gil(of.mutex);
          const VectorIn<S> qm = vector_in<S>("detect_contacts", "q", q, h.model.nq(), "model.nq");
          if (!(mu >= 0.0) || !std::isfinite(mu) || !(restitution >= 0.0 && restitution <= 1.0) ||
              friction_directions < 2 || friction_directions % 2 != 0)
            value_error("detect_contacts: need mu finite and >= 0, restitution in [0, 1], friction_directions even and "
                        ">= 2; given mu = " + std::to_string(mu) + ", restitution = " + std::to_string(restitution) +
                        ", friction_directions = " + std::to_string(friction_directions));
          const ContactProperties<S> props{static_cast<S>(mu), static_cast<S>(restitution), friction_directions};
          ContactKernels<S>::detect(h, of, qm, static_cast<S>(margin), props);
          py::list out;
          for (const Contact<S>& c : of.found) out.append(contact_cast<double>(c));
          return std::move(out);
        });
      },
      py::arg("model"), py::arg("geometry"), py::arg("q"), py::arg("margin") = 0.0, py::kw_only(), py::arg("mu") = 0.5,
      py::arg("restitution") = 0.0, py::arg("friction_directions") = 4,
      "detect_contacts(model, geometry, q, margin=0.0, *, mu=0.5, restitution=0.0, friction_directions=4)\n"
      "    -> list of Contact\n\n"
      "Runs forward kinematics at q (nq,) and returns one Contact per feature pair whose signed distance is\n"
      "<= margin (m): sphere-plane (the sphere's lowest point along the plane normal and its projection),\n"
      "sphere-sphere (the surface points on the line of centres), capsule-plane (each end cap),\n"
      "capsule-sphere, box-plane (each corner). body_a/point_a is the pair's first shape, the normal points\n"
      "from B to A (B is the plane of a plane pair; when the first shape is on the world the roles swap, so\n"
      "body_a is always a body). distance = normal . (world point_a - world point_b), negative on overlap.\n"
      "Each contact takes mu, restitution and friction_directions. model.last_status: the configuration status.");
}

void bind_statuses(py::module_& m) {
  py::class_<LcpReport, Status>(m, "LcpStatus",
                                "Status of an LCP (a Status: code, row, call, ok): pivots (Lemke's pivots) and\n"
                                "residual = max_i |min(w_i, z_i)| of w = M z + q recomputed from M and q. row: the\n"
                                "bilateral row of a failed pivot (code non_positive_pivot), else -1.")
      .def_readonly("pivots", &LcpReport::pivots, "Lemke's pivots")
      .def_readonly("residual", &LcpReport::residual, "max_i |min(w_i, z_i)| of the z returned")
      .def("__repr__", [](const LcpReport& s) {
        return "LcpStatus(" + to_string(s) + ", pivots=" + std::to_string(s.pivots) + ")";
      });
  py::enum_<StepPhase>(m, "ContactStepPhase", "The LCP phase of a contact step.")
      .value("none", StepPhase::none)
      .value("compression", StepPhase::compression)
      .value("decompression", StepPhase::decompression)
      .value("time_step", StepPhase::time_step);
  py::enum_<ContactPhase>(m, "ContactPhase", "Whether a contact collided in the last step.")
      .value("contact", ContactPhase::contact)
      .value("collision", ContactPhase::collision);
  py::class_<StepReport, Status>(m, "ContactStepStatus",
                                 "Status of contact_step (a Status: code success, invalid_argument, dynamics_failed\n"
                                 "or lcp_failed): phase (the LCP that failed, none when solved), lcp (LcpStatus of\n"
                                 "that LCP, or of the time step's when solved), dynamics (Status of ABA / OSCM),\n"
                                 "contacts (n_u), collisions (contacts in phase collision), lcp_size\n"
                                 "(n_b + n_u (n_f + 2) of the last LCP solved, Jain's Table 2 count).")
      .def_readonly("phase", &StepReport::phase, "ContactStepPhase of the LCP that failed (none when solved)")
      .def_readonly("lcp", &StepReport::lcp, "LcpStatus of that LCP (the time step's when solved)")
      .def_readonly("dynamics", &StepReport::dynamics, "Status of ABA / OSCM")
      .def_readonly("contacts", &StepReport::contacts, "contacts in the step (n_u)")
      .def_readonly("collisions", &StepReport::collisions, "contacts that took part in a collision")
      .def_readonly("lcp_size", &StepReport::lcp_size, "n_b + n_u (n_f + 2) of the last LCP solved")
      .def("__repr__", [](const StepReport& s) {
        return "ContactStepStatus(" + to_string(s) + ", contacts=" + std::to_string(s.contacts) +
               ", collisions=" + std::to_string(s.collisions) + ")";
      });
}

/// An array argument written in place by contact_step: dtype S, shape (n,), C-contiguous, writeable.
template <class S>
S* inplace_target(const char* name, const py::handle& obj, py::ssize_t n, const char* label) {
  const py::array a = checked_array<S>("contact_step", name, obj, {n}, label);
  if (!(a.flags() & py::array::c_style) || !a.writeable())
    value_error(std::string("contact_step: argument '") + name + "' must be C-contiguous and writeable for inplace=True");
  return static_cast<S*>(py::reinterpret_borrow<py::array>(obj).mutable_data());
}

/// An (n, 3) array, row i = get(workspace, i) for each contact of the last step, in the workspace's dtype.
template <class Get>
py::object per_contact_vectors(const StepPy& w, Get get) {
  return w.visit([&get](const auto& of) {
    using S = typename std::decay_t<decltype(of.ws.q_next)>::Scalar;
    py::array_t<S> a({py::ssize_t{of.ws.contacts()}, py::ssize_t{3}});
    for (int i = 0; i < of.ws.contacts(); ++i) {
      const Vector3<S> x = get(of.ws, i);
      for (int k = 0; k < 3; ++k) a.mutable_at(i, k) = x(k);
    }
    return py::object(a);
  });
}

void bind_step(py::module_& m) {
  py::class_<StepPy>(
      m, "ContactStep",
      "The workspace of contact_step for one model in one scalar: everything allocated here, once, for at most\n"
      "max_contacts contacts of at most max_friction_directions directions each, plus the bilateral\n"
      "constraints (a list of BilateralConstraint, fixed for the workspace's life). After a step it holds the\n"
      "results: q_next, v_next, the impulses and phases of the contacts, the bilateral impulses, the status.")
      .def(py::init([](const py::object& model, int max_contacts, int max_friction_directions,
                       const std::vector<BilateralConstraint<double>>& bilateral) {
             StepPy ws;
             by_model("ContactStep", model, [&](auto& h) {
               using S = ScalarOf<decltype(h)>;
               ws.set<S>(as_value_error("ContactStep", [&] {
                 return ContactKernels<S>::make_step(h, max_contacts, max_friction_directions, bilateral);
               }));
               ws.model_id = h.model.id();
               return py::object();
             });
             return ws;
           }),
           py::arg("model"), py::arg("max_contacts"), py::arg("max_friction_directions") = 4,
           py::arg("bilateral") = std::vector<BilateralConstraint<double>>{},
           "ContactStep(model, max_contacts, max_friction_directions=4, bilateral=[]). ValueError for a bad size or\n"
           "bilateral constraint (naming it).")
      .def_property_readonly("dtype", [](const StepPy& w) { return w.numpy_dtype(); }, "the model's dtype")
      .def_property_readonly("max_contacts", [](const StepPy& w) {
        return w.visit([](const auto& of) { return py::int_(of.ws.max_contacts()); });
      }, "the most contacts a step takes")
      .def_property_readonly("max_friction_directions", [](const StepPy& w) {
        return w.visit([](const auto& of) { return py::int_(of.max_friction_directions); });
      }, "the most friction directions a contact may have")
      .def_property_readonly("bilateral_rows", [](const StepPy& w) {
        return w.visit([](const auto& of) { return py::int_(of.ws.bilateral_rows()); });
      }, "n_b: the number of bilateral rows")
      .def_property(
          "collision_speed",
          [](const StepPy& w) { return w.visit([](const auto& of) { return py::float_(of.ws.collision_speed); }); },
          [](StepPy& w, double speed) {
            w.visit([speed](auto& of) {
              using S = std::remove_reference_t<decltype(of.ws.collision_speed)>;
              of.ws.collision_speed = static_cast<S>(speed);
              return py::object();
            });
          },
          "approach speed -n.v (m/s) above which a contact collides (restitution applies); default 1e-3")
      .def_property_readonly("q_next", [](const StepPy& w) {
        return w.visit([](const auto& of) { return py::object(copy_out<typename std::decay_t<decltype(of.ws.q_next)>::Scalar>(of.ws.q_next)); });
      }, "(nq,) q after the last step")
      .def_property_readonly("v_next", [](const StepPy& w) {
        return w.visit([](const auto& of) { return py::object(copy_out<typename std::decay_t<decltype(of.ws.v_next)>::Scalar>(of.ws.v_next)); });
      }, "(nv,) v after the last step")
      .def_property_readonly("normal_impulses", [](const StepPy& w) {
        return w.visit([](const auto& of) {
          using S = typename std::decay_t<decltype(of.ws.q_next)>::Scalar;
          py::array_t<S> a(of.ws.contacts());
          for (int i = 0; i < of.ws.contacts(); ++i) a.mutable_at(i) = of.ws.normal_impulse(i);
          return py::object(a);
        });
      }, "(n,) F_n >= 0 of each contact over the last step (all phases), N s")
      .def_property_readonly("impulses", [](const StepPy& w) {
        return per_contact_vectors(w, [](const auto& ws, int i) { return ws.impulse(i); });
      }, "(n, 3) total linear impulse on body A at each contact (normal + friction), world coordinates, N s")
      .def_property_readonly("friction_impulses", [](const StepPy& w) {
        return per_contact_vectors(w, [](const auto& ws, int i) { return ws.friction_impulse(i); });
      }, "(n, 3) friction part of `impulses` (perpendicular to the normal), world coordinates, N s")
      .def_property_readonly("bilateral_impulse", [](const StepPy& w) {
        return w.visit([](const auto& of) {
          using S = typename std::decay_t<decltype(of.ws.q_next)>::Scalar;
          const auto p = of.ws.bilateral_impulse();
          py::array_t<S> a(p.size());
          for (Eigen::Index k = 0; k < p.size(); ++k) a.mutable_at(k) = p(k);
          return py::object(a);
        });
      }, "(n_b,) bilateral impulses p_b of the last time-step LCP")
      .def_property_readonly("phases", [](const StepPy& w) {
        return w.visit([](const auto& of) {
          py::list out;
          for (int i = 0; i < of.ws.contacts(); ++i) out.append(of.ws.phase(i));
          return py::object(out);
        });
      }, "list of ContactPhase, one per contact of the last step")
      .def_property_readonly("status", [](const StepPy& w) {
        return w.visit([](const auto& of) { return py::cast(step_report(of)); });
      }, "ContactStepStatus of the last step");

  m.def(
      "contact_step",
      [](const py::object& model, const StepPy& w, const py::object& q, const py::object& v, const py::object& tau,
         const std::vector<Contact<double>>& contacts, double dt, bool inplace) {
        return by_model("contact_step", model, [&](auto& h) -> py::object {
          using S = ScalarOf<decltype(h)>;
          const char* call = "contact_step";
          StepOf<S>& of = w.template for_model<S>(call, "workspace", h);
          const auto lock = lock_without_gil(of.mutex);
          const Model<S>& md = h.model;
          const VectorIn<S> qm = vector_in<S>(call, "q", q, md.nq(), "model.nq");
          const VectorIn<S> vm = vector_in<S>(call, "v", v, md.nv(), "model.nv");
          const VectorIn<S> taum = vector_in<S>(call, "tau", tau, md.nv(), "model.nv");
          if (!(dt > 0.0) || !std::isfinite(dt))
            value_error("contact_step: argument 'dt' must be a finite step > 0; given " + std::to_string(dt));
          if (static_cast<int>(contacts.size()) > of.ws.max_contacts())
            value_error("contact_step: " + std::to_string(contacts.size()) + " contacts given; the workspace holds at most " +
                        std::to_string(of.ws.max_contacts()));
          of.contacts.clear();
          for (std::size_t i = 0; i < contacts.size(); ++i) {
            if (contacts[i].friction_directions > of.max_friction_directions)
              value_error("contact_step: contact " + std::to_string(i) + ": friction_directions = " +
                          std::to_string(contacts[i].friction_directions) + " exceeds the workspace's " +
                          std::to_string(of.max_friction_directions));
            of.contacts.push_back(contact_cast<S>(contacts[i]));
          }
          as_value_error(call, [&] { validate_contacts(md, of.contacts); return 0; });
          S* qdst = nullptr;
          S* vdst = nullptr;
          py::object q_out, v_out;
          if (inplace) {
            qdst = inplace_target<S>("q", q, md.nq(), "model.nq");
            vdst = inplace_target<S>("v", v, md.nv(), "model.nv");
            q_out = q;
            v_out = v;
          } else {
            py::array_t<S> qa(md.nq()), va(md.nv());
            qdst = qa.mutable_data();
            vdst = va.mutable_data();
            q_out = qa;
            v_out = va;
          }
          ContactKernels<S>::step(h, of, qm, vm, taum, static_cast<S>(dt), qdst, vdst);
          return py::make_tuple(q_out, v_out, step_report(of));
        });
      },
      py::arg("model"), py::arg("workspace"), py::arg("q"), py::arg("v"), py::arg("tau"), py::arg("contacts"),
      py::arg("dt"), py::kw_only(), py::arg("inplace") = false,
      "contact_step(model, workspace, q, v, tau, contacts, dt, *, inplace=False) -> (q_next, v_next, status)\n\n"
      "One time step of length dt (s) with unilateral frictional contacts, collisions and the workspace's\n"
      "bilateral constraints, by the operational-space contact LCP (Jain, Minimal Coordinates Formulation of\n"
      "Contact Dynamics, eq. 53, sections 6-7; Stewart-Trinkle friction polyhedron):\n"
      "  1. free motion qdd_f = aba(q, v, tau) (gravity included);\n"
      "  2. collisions: a contact approaching faster than workspace.collision_speed whose gap closes within\n"
      "     the step starts a compression LCP (and, for restitution eps > 0, a decompression that returns\n"
      "     eps times the compression's normal impulse, then an LCP again);\n"
      "  3. time step: v_f = v_c + dt qdd_f, the LCP gives impulses p >= 0 with normal velocity >= -d/dt for\n"
      "     a contact at distance d > 0 (>= 0 otherwise; penetration is not corrected), friction opposing\n"
      "     sliding inside the polyhedron of mu F_n;\n"
      "  4. v_next = v_f + M^-1 J^T p (impulse ABA), q_next = integrate(q, v_next dt) (semi-implicit Euler).\n"
      "q (nq,), v (nv,), tau (nv,) in the model's dtype (v: body-coordinate joint velocities, [w; v] angular\n"
      "first for free joints); contacts: a list of Contact (at most workspace.max_contacts; ValueError naming a\n"
      "bad one). Returns new arrays, or with inplace=True writes q_next, v_next into q and v (C-contiguous,\n"
      "writeable) and returns them. The impulses and phases stay in the workspace. A failed LCP returns\n"
      "q_next = q, v_next = v and a status naming the phase. model.last_status: the dynamics status.");
}

void bind_lemke(py::module_& m) {
  m.def(
      "lemke",
      [](const py::object& M, const py::object& q, int max_pivots) {
        if (py::isinstance<py::array_t<double>>(M)) return ContactKernels<double>::lemke(M, q, max_pivots);
        if (py::isinstance<py::array_t<float>>(M)) return ContactKernels<float>::lemke(M, q, max_pivots);
        value_error("lemke: argument 'M' must be a numpy.ndarray of dtype float64 or float32; given " +
                    (py::isinstance<py::array>(M) ? "dtype " + text(py::reinterpret_borrow<py::array>(M).dtype())
                                                  : text(M.get_type().attr("__name__"))));
      },
      py::arg("M"), py::arg("q"), py::kw_only(), py::arg("max_pivots") = 0,
      "lemke(M, q, *, max_pivots=0) -> (z, w, status)\n\n"
      "Lemke's complementary pivoting method (Cottle, Pang, Stone 1992, sec. 4.4, lexicographic degeneracy\n"
      "resolution sec. 4.9) for LCP(q, M): find z with w = M z + q >= 0, z >= 0, w^T z = 0. M (n, n) and q (n,),\n"
      "both float64 or both float32 (M's dtype decides); M need not be symmetric. Solves for copositive-plus\n"
      "M (e.g. positive semi-definite) when a solution exists; status.code ray_termination otherwise.\n"
      "max_pivots: 0 means 50 + 20 n. status.residual = max_i |min(w_i, z_i)|. The workspace is allocated per\n"
      "call (an experimentation entry point, not a hot path).");
}

}  // namespace

void bind_contact(py::module_& m) {
  m.attr("world") = world;
  bind_statuses(m);
  bind_records(m);
  bind_geometry(m);
  bind_step(m);
  bind_lemke(m);
  py::module_ robots_module = m.attr("robots");
  robots_module.def(
      "sphere_pendulum",
      [](int n, const py::object& dtype) { return is_float32(dtype) ? ContactKernels<float>::sphere_pendulum(n) : ContactKernels<double>::sphere_pendulum(n); },
      py::arg("n"), py::arg("dtype") = py::dtype::of<double>(),
      "sphere_pendulum(n, dtype=numpy.float64) -> types.SimpleNamespace\n\n"
      "The multi-link pendulum contact benchmark of Jain (Minimal Coordinates Formulation of Contact Dynamics,\n"
      "sec. 8): n touching 1 kg spheres of radius 6/n m on pin hinges, first hinge at (0, 10, 0), y up, a floor\n"
      "y = 0 and a wall x = 4, g = 9.8 m/s^2 along -y. Fields: links, radius; os (the minimal-coordinates chain,\n"
      "nq = nv = n) and os_geometry; nmc (every sphere on its own free joint, nq = 7n, nv = 6n), nmc_geometry and\n"
      "hinges (n BilateralConstraint of 5 rows, for ContactStep(nmc, ..., bilateral=hinges)); the initial state\n"
      "os_q, os_v, nmc_q, nmc_v (pi/4 from the vertical, base hinge at 1 rad/s towards the wall). Geometry\n"
      "shapes: sphere k on body k, then the floor, then the wall; adjacent spheres excluded. The float32\n"
      "robot is built in float32 (not cast).");
}

}  // namespace treedyn::python
