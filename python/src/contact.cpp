// treedyn Python module: the contact layer — Contact and BilateralConstraint records, collision shapes and
// CollisionGeometry, detect_contacts, the contact time step (ContactStep workspace + contact_step), Lemke's
// method on a dense LCP, and robots.sphere_pendulum. One entry point per function
// dispatches on the scalar of the model handle (Model: float64, ModelF32: float32), or on the dtype of M for
// lemke; the algorithms themselves run in ContactKernels<S> (below).
//
// Records (Contact, BilateralConstraint, Shape) are setup-time values held in float64, like ModelBuilder's
// numbers, and rounded to the model's scalar when a call uses them (contacts found by a float32 model are
// float32 numbers, so they round-trip exactly). Workspaces (CollisionGeometry, ContactStep) are built for one
// model in one scalar; using one with another model, or with the same model in the other scalar, raises
// ValueError.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "common.hpp"
#include "treedyn/contact/contact_metrics.hpp"
#include "treedyn/robots/sphere_pendulum.hpp"

namespace treedyn::python {

// ---- records: float64 in Python, cast to the model's scalar when used ----

template <class T, class S>
Contact<T> contact_cast(const Contact<S>& c) {
  Contact<T> o;
  o.body_a = c.body_a;
  o.point_a = c.point_a.template cast<T>();
  o.body_b = c.body_b;
  o.point_b = c.point_b.template cast<T>();
  o.normal = c.normal.template cast<T>();
  o.mu = static_cast<T>(c.mu);
  o.restitution = static_cast<T>(c.restitution);
  o.friction_directions = c.friction_directions;
  o.tangent = c.tangent.template cast<T>();
  o.distance = static_cast<T>(c.distance);
  return o;
}

template <class T, class S>
Shape<T> shape_cast(const Shape<S>& s) {
  Shape<T> o;
  o.type = s.type;
  o.body = s.body;
  o.p0 = s.p0.template cast<T>();
  o.p1 = s.p1.template cast<T>();
  o.normal = s.normal.template cast<T>();
  o.radius = static_cast<T>(s.radius);
  o.axes = s.axes.template cast<T>();
  o.half_extents = s.half_extents.template cast<T>();
  o.name = s.name;
  return o;
}

template <class T>
BilateralConstraint<T> bilateral_cast(const BilateralConstraint<double>& b) {
  return BilateralConstraint<T>{b.body_a, b.frame_a.cast<T>(), b.body_b, b.frame_b.cast<T>(), b.rows};
}


template <class H>
struct HandleScalar;
template <class S>
struct HandleScalar<ModelHandle<S>> {
  using type = S;
};
/// The scalar of a ModelHandle type (references and const removed).
template <class H>
using ScalarOf = typename HandleScalar<std::decay_t<H>>::type;

/// `mutex` locked, waiting with the GIL released: the thread holding it may need the GIL to finish. A
/// workspace's lock is taken before the model's (the model's lock never waits for a workspace's).
inline std::unique_lock<std::mutex> lock_without_gil(std::mutex& mutex) {
  std::unique_lock<std::mutex> lock(mutex, std::defer_lock);
  py::gil_scoped_release release;
  lock.lock();
  return lock;
}

/// A workspace built for one model in one scalar: Of<double> or Of<float>, and the model's id.
template <template <class> class Of>
struct Typed {
  std::shared_ptr<Of<double>> f64;
  std::shared_ptr<Of<float>> f32;
  std::uint64_t model_id = 0;

  template <class S>
  Of<S>* get() const noexcept {
    if constexpr (sizeof(S) == 4) return f32.get(); else return f64.get();
  }
  template <class S>
  void set(std::shared_ptr<Of<S>> p) noexcept {
    if constexpr (sizeof(S) == 4) f32 = std::move(p); else f64 = std::move(p);
  }
  [[nodiscard]] const char* dtype() const noexcept { return f32 ? "float32" : "float64"; }
  [[nodiscard]] py::dtype numpy_dtype() const { return f32 ? py::dtype::of<float>() : py::dtype::of<double>(); }
  /// run(Of<S>&) for the scalar this was built in, with its lock held.
  template <class Run>
  py::object visit(Run run) const {
    if (f32) {
      const auto lock = lock_without_gil(f32->mutex);
      return run(*f32);
    }
    const auto lock = lock_without_gil(f64->mutex);
    return run(*f64);
  }
  /// The Of<S> of model handle h: ValueError when this was built in the other scalar or for another model.
  template <class S>
  Of<S>& for_model(const char* call, const char* name, const ModelHandle<S>& h) const {
    Of<S>* p = get<S>();
    if (p == nullptr)
      value_error(std::string(call) + ": argument '" + name + "' was built for a " + dtype() + " model; given a " +
                  model_class_name<S>() + " (" + dtype_name<S>() + ")");
    if (model_id != h.model.id())
      value_error(std::string(call) + ": argument '" + name + "' was built for another model (id " +
                  std::to_string(model_id) + "; given id " + std::to_string(h.model.id()) + ")");
    return *p;
  }
};

/// Runs `setup` (which may throw std::invalid_argument) and turns that into ValueError "<call>: <what>".
template <class Setup>
auto as_value_error(const char* call, Setup setup) {
  try {
    return setup();
  } catch (const std::invalid_argument& e) {
    value_error(std::string(call) + ": " + e.what());
  }
}

// ---- statuses (scalar-free copies for Python) ----

using StepPhase = ContactStepStatus<double>::Phase;

/// An LcpStatus with its scalar residual as a double: the same report from both scalars.
struct LcpReport : Status {
  int pivots = 0;
  double residual = 0;
};

template <class S>
LcpReport lcp_report(const LcpStatus<S>& s) {
  LcpReport r;
  static_cast<Status&>(r) = s;
  r.pivots = s.pivots;
  r.residual = static_cast<double>(s.residual);
  return r;
}

struct StepReport : Status {
  StepPhase phase = StepPhase::none;
  LcpReport lcp;
  Status dynamics;
  int contacts = 0, collisions = 0, lcp_size = 0;
  std::string field, expected;  ///< a bad contact value: its field and what it must be (empty otherwise)
  double value = 0;             ///< that value
};

// ---- workspaces ----

template <class S>
struct GeometryOf {
  explicit GeometryOf(CollisionGeometry<S> g) : geometry(std::move(g)) {
    found.reserve(static_cast<std::size_t>(geometry.max_contacts()));
  }
  CollisionGeometry<S> geometry;
  std::vector<Contact<S>> found;  ///< detect_contacts' output, reserved once
  std::mutex mutex;               ///< held while `found` is written or read
};

struct GeometryPy : Typed<GeometryOf> {
  std::vector<Shape<double>> shapes;
};

template <class S>
struct StepOf {
  StepOf(const Model<S>& model, int max_contacts, int max_nf, std::vector<BilateralConstraint<S>> bilateral)
      : ws(model, max_contacts, max_nf, std::move(bilateral)), max_friction_directions(max_nf) {
    contacts.reserve(static_cast<std::size_t>(max_contacts));
  }
  ContactStepWorkspace<S, Dynamic> ws;
  int max_friction_directions;
  std::vector<Contact<S>> contacts;  ///< the step's contacts in scalar S, reserved once
  std::mutex mutex;                  ///< held from filling `contacts` to reading the results (two models may
                                     ///< share an id, Model.cast, so the model's lock alone does not cover it)
};

using StepPy = Typed<StepOf>;

template <class S>
py::array_t<S> copy_out(const Eigen::Ref<const Eigen::Matrix<S, Eigen::Dynamic, 1>>& v) {
  py::array_t<S> a(v.size());
  std::copy(v.data(), v.data() + v.size(), a.mutable_data());
  return a;
}
template <class S>
StepReport step_report(const StepOf<S>& of) {
  const auto& s = of.ws.status();
  StepReport r;
  static_cast<Status&>(r) = s;
  r.phase = static_cast<StepPhase>(static_cast<int>(s.phase));
  r.lcp = lcp_report(s.lcp);
  r.dynamics = s.dynamics;
  r.contacts = of.ws.contacts();
  for (int i = 0; i < r.contacts; ++i) r.collisions += of.ws.phase(i) == ContactPhase::collision ? 1 : 0;
  r.lcp_size = of.ws.lcp_size();
  if (s.field != nullptr) {
    r.field = s.field;
    r.expected = s.expected;
    r.value = static_cast<double>(s.value);
  }
  return r;
}

/// The calls that run the contact algorithms in scalar S (the algorithms themselves come from the compiled
/// component, treedyn/compiled.hpp).
template <class S>
struct ContactKernels {
  /// A CollisionGeometry of `shapes` (cast to S) checked against h's model (std::invalid_argument).
  static GeometryPy make_geometry(const ModelHandle<S>& h, std::vector<Shape<double>> shapes, const CollisionOptions& options);
  /// forward_kinematics(q), then detect_contacts into of.found (GIL released, the model locked).
  static void detect(ModelHandle<S>& h, GeometryOf<S>& of, const VectorIn<S>& q, S margin, const ContactProperties<S>& props);
  /// The workspace of contact_step (std::invalid_argument for a bad size or bilateral constraint).
  static std::shared_ptr<StepOf<S>> make_step(const ModelHandle<S>& h, int max_contacts, int max_friction_directions,
                                              const std::vector<BilateralConstraint<double>>& bilateral);
  /// contact_step on of.contacts (GIL released, the model locked); q_next, v_next copied to q_out, v_out.
  static void step(ModelHandle<S>& h, StepOf<S>& of, const VectorIn<S>& q, const VectorIn<S>& v, const VectorIn<S>& tau,
                   S dt, S* q_out, S* v_out);
  /// lemke(M, q) -> (z, w, LcpStatus) with M of dtype S.
  static py::object lemke(const py::handle& M, const py::handle& q, int max_pivots);
  /// robots.sphere_pendulum(n) built in S.
  static py::object sphere_pendulum(int n);
};


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
              friction_directions < 2 || friction_directions % 2 != 0 || !std::isfinite(margin))
            value_error("detect_contacts: need mu finite and >= 0, restitution in [0, 1], friction_directions even and "
                        ">= 2, margin finite; given mu = " + std::to_string(mu) + ", restitution = " +
                        std::to_string(restitution) + ", friction_directions = " + std::to_string(friction_directions) +
                        ", margin = " + std::to_string(margin));
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
      .def_readonly("lcp_size", &StepReport::lcp_size, "n_b + n_u (n_f + 2) of the last LCP solved (n_b + 3 n_u on the exact cone)")
      .def_readonly("field", &StepReport::field,
                    "a bad contact value: its field ('mu', 'restitution', 'normal', 'distance', ...; the contact is\n"
                    "`row`), empty otherwise")
      .def_readonly("value", &StepReport::value, "that value (for the normal: its length)")
      .def_readonly("expected", &StepReport::expected, "what that field must be")
      .def("__repr__", [](const StepReport& s) {
        const std::string bad = s.field.empty() ? std::string()
                                                : ", contact " + std::to_string(s.row) + ": " + s.field + " = " +
                                                      std::to_string(s.value) + ", expected " + s.expected;
        return "ContactStepStatus(" + to_string(s) + bad + ", contacts=" + std::to_string(s.contacts) +
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
      .def_property(
          "stabilisation",
          [](const StepPy& w) { return w.visit([](const auto& of) { return py::float_(of.ws.stabilisation); }); },
          [](StepPy& w, double beta) {
            if (!(beta >= 0.0 && beta <= 1.0))
              value_error("ContactStep.stabilisation must be in [0, 1]; given " + std::to_string(beta));
            w.visit([beta](auto& of) {
              using S = std::remove_reference_t<decltype(of.ws.stabilisation)>;
              of.ws.stabilisation = static_cast<S>(beta);
              return py::object();
            });
          },
          "beta of the drift correction (docs/contact.md#drift-correction): the fraction of each penetration and\n"
          "bilateral position error removed per step by moving positions only; 0 switches it off; default 0.2")
      .def_property(
          "friction_cone",
          [](const StepPy& w) {
            return w.visit([](const auto& of) {
              return py::str(of.ws.friction_cone == FrictionCone::exact ? "exact" : "pyramid");
            });
          },
          [](StepPy& w, const std::string& cone) {
            if (cone != "pyramid" && cone != "exact")
              value_error("ContactStep.friction_cone must be 'pyramid' or 'exact'; given '" + cone + "'");
            w.visit([&cone](auto& of) {
              of.ws.friction_cone = cone == "exact" ? FrictionCone::exact : FrictionCone::pyramid;
              return py::object();
            });
          },
          "'pyramid' (default: each contact's friction_directions, Jain's LCP by Lemke's method) or 'exact' (the\n"
          "Coulomb cone itself by nonsmooth Gauss-Seidel; docs/contact.md#exact-friction-cone). With 'exact' the\n"
          "status's lcp.pivots are the sweeps taken and lcp.residual the natural-map residual (m/s).")
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
      }, "ContactStepStatus of the last step")
      .def_property_readonly("metrics", [](const StepPy& w) {
        return w.visit([](const auto& of) {
          const auto metrics = treedyn::contact_metrics(of.ws, of.contacts);
          py::dict out;
          out["approach"] = static_cast<double>(metrics.worst.approach);
          out["signorini"] = static_cast<double>(metrics.worst.signorini);
          out["cone"] = static_cast<double>(metrics.worst.cone);
          out["dissipation"] = static_cast<double>(metrics.worst.dissipation);
          out["bilateral"] = static_cast<double>(metrics.bilateral);
          out["approach_contact"] = metrics.approach_contact;
          out["signorini_contact"] = metrics.signorini_contact;
          out["cone_contact"] = metrics.cone_contact;
          out["dissipation_contact"] = metrics.dissipation_contact;
          out["contacts"] = metrics.contacts;
          return py::object(out);
        });
      }, "dict of the last step's violations of the contact laws (docs/contact.md#contact-metrics): 'approach'\n"
         "(m/s), 'signorini' (N s m/s), 'cone' (N s), 'dissipation' (N s m/s): each the largest over the contacts,\n"
         "with the contact it was found at ('<name>_contact', -1 for none); 'bilateral' the largest |velocity| of\n"
         "a bilateral row; 'contacts' the number measured (0 after a failed step)");

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
