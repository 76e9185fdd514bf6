// treedyn Python module, contact layer: the pieces shared by contact.cpp (the classes and the dispatch on the
// model's scalar) and the per-scalar units contact[_step]_f64.cpp / _f32.cpp (ContactKernels<S>: the calls
// that instantiate the contact step, the narrow phase, Lemke's method and the sphere pendulum, kept out of
// contact.cpp so that no unit exceeds the compile budget).
//
// Records (Contact, BilateralConstraint, Shape) are setup-time values held in float64, like ModelBuilder's
// numbers, and rounded to the model's scalar when a call uses them (contacts found by a float32 model are
// float32 numbers, so they round-trip exactly). Workspaces (CollisionGeometry, ContactStep) are built for one
// model in one scalar; using one with another model, or with the same model in the other scalar, raises
// ValueError.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common.hpp"
#include "treedyn/contact/contact_step.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/kernels/lemke.hpp"

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
  return r;
}

/// The calls that instantiate the contact algorithms in scalar S, defined in contact_kernels.hpp and
/// instantiated per scalar (contact_f64.cpp / contact_f32.cpp; the time step in contact_step_f64.cpp /
/// contact_step_f32.cpp).
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

}  // namespace treedyn::python
