// treedyn Python module: configuration space (neutral, random_configuration, integrate, difference),
// forward kinematics, frame placements, frame Jacobians in three axes, frame velocity and acceleration, J̇ and
// the drift J̇ q̇ (docs/frame-motion.md), and the controller tick compute_all_terms (whose frame placements
// share this unit's writer), both scalars.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "treedyn/algorithms/compute_all_terms.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/frame_jacobian_time_variation.hpp"
#include "treedyn/model/configuration.hpp"

namespace treedyn::python {
namespace {

template <class S>
py::array_t<S> copy_vector(const Eigen::Matrix<S, Eigen::Dynamic, 1>& v) {
  py::array_t<S> out(v.size());
  std::copy(v.data(), v.data() + v.size(), out.mutable_data());
  return out;
}

/// Writes the world placement of a frame: R (3x3, its axes in world coordinates, = E^T) and p (3, its
/// origin in world coordinates) from ^frame X_0 = (E, r).
template <class S>
void write_placement(const Transform<S>& X, S* R, S* p) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) R[3 * i + j] = X.E(j, i);
    p[i] = X.r(i);
  }
}

/// A 6 × nv matrix into a row-major (6, nv) array.
template <class M, class S>
void write_rows(const M& m, S* out) {
  for (Eigen::Index r = 0; r < 6; ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) out[r * m.cols() + c] = m(r, c);
}

/// Runs forward kinematics on q with the GIL released and the model locked, then write(X_world, R, p)
/// fills the placements R (shape R_shape) and p (shape p_shape); returns (R, p).
template <class S, class Write>
py::tuple placements(const char* call, ModelHandle<S>& h, const py::handle& q, std::vector<py::ssize_t> R_shape,
                     std::vector<py::ssize_t> p_shape, Write write) {
  const VectorIn<S> qm = vector_in<S>(call, "q", q, h.model.nq(), "model.nq");
  py::array_t<S> R(std::move(R_shape)), p(std::move(p_shape));
  S* Rd = R.mutable_data();
  S* pd = p.mutable_data();
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(h.mutex);
    const auto& X = treedyn::forward_kinematics(h.model, h.data, qm);
    h.last_status = h.data.config_status;
    write(X, Rd, pd);
  }
  return py::make_tuple(R, p);
}

/// The per-scalar forms of the functions (both scalars in this unit: they are light).
template <class S>
struct Kinematics {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;

  static py::array_t<S> neutral(H& h) { return copy_vector<S>(treedyn::neutral(h.model)); }

  static py::array_t<S> random_configuration(H& h, std::uint64_t seed) {
    return copy_vector<S>(treedyn::random_configuration(h.model, seed));
  }

  static py::array_t<S> integrate(H& h, Obj q, Obj v, double dt) {
    const VectorIn<S> qm = vector_in<S>("integrate", "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>("integrate", "v", v, h.model.nv(), "model.nv");
    py::array_t<S> out(h.model.nq());
    Eigen::Map<Vec> dst(out.mutable_data(), h.model.nq());
    py::gil_scoped_release release;
    treedyn::integrate(h.model, qm, vm, static_cast<S>(dt), dst);
    return out;
  }

  static py::array_t<S> difference(H& h, Obj q0, Obj q1) {
    const VectorIn<S> a = vector_in<S>("difference", "q0", q0, h.model.nq(), "model.nq");
    const VectorIn<S> b = vector_in<S>("difference", "q1", q1, h.model.nq(), "model.nq");
    py::array_t<S> out(h.model.nv());
    Eigen::Map<Vec> dst(out.mutable_data(), h.model.nv());
    py::gil_scoped_release release;
    treedyn::difference(h.model, a, b, dst);
    return out;
  }

  static py::tuple forward_kinematics(H& h, Obj q) {
    const py::ssize_t nb = h.model.nbodies();
    return placements<S>("forward_kinematics", h, q, {nb, 3, 3}, {nb, 3}, [&](const auto& X, S* R, S* p) {
      for (int i = 0; i < h.model.nbodies(); ++i) write_placement(X[i], R + 9 * i, p + 3 * i);
    });
  }

  static py::tuple frame_placement(H& h, Obj q, Obj frame) {
    const auto f = frame_arg<S>("frame_placement", h.model, frame);
    return placements<S>("frame_placement", h, q, {3, 3}, {3}, [&](const auto& X, S* R, S* p) {
      write_placement(f.first == no_parent ? f.second : Transform<S>(f.second * X[f.first]), R, p);
    });
  }

  static py::tuple frame_placements(H& h, Obj q) {
    const py::ssize_t nf = static_cast<py::ssize_t>(h.model.frames().size());
    return placements<S>("frame_placements", h, q, {nf, 3, 3}, {nf, 3}, [&](const auto&, S* R, S* p) {
      const auto& X = treedyn::frame_placements(h.model, h.data);
      for (int f = 0; f < X.size(); ++f) write_placement(X[f], R + 9 * f, p + 3 * f);
    });
  }
  static py::dict compute_all_terms(H& h, Obj q, Obj v) {
    const VectorIn<S> qm = vector_in<S>("compute_all_terms", "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>("compute_all_terms", "v", v, h.model.nv(), "model.nv");
    const py::ssize_t nv = h.model.nv(), nf = static_cast<py::ssize_t>(h.model.frames().size());
    py::array_t<S> Hm({nv, nv}), C(nv), g(nv), R({nf, py::ssize_t{3}, py::ssize_t{3}}), p({nf, py::ssize_t{3}});
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::compute_all_terms(h.model, h.data, qm, vm);
      // H is symmetric: the column-major map of the row-major array is exact
      treedyn::dense_H(h.model, h.data, Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>>(Hm.mutable_data(), nv, nv));
      std::copy(h.data.C.data(), h.data.C.data() + nv, C.mutable_data());
      std::copy(h.data.g.data(), h.data.g.data() + nv, g.mutable_data());
      for (int f = 0; f < h.data.X_frame.size(); ++f)
        write_placement(h.data.X_frame[f], R.mutable_data() + 9 * f, p.mutable_data() + 3 * f);
    }
    py::dict out;
    out["H"] = Hm;
    out["C"] = C;
    out["g"] = g;
    out["R"] = R;
    out["p"] = p;
    return out;
  }
  static py::array_t<S> frame_jacobian(H& h, Obj q, Obj frame, const std::string& reference) {
    const VectorIn<S> qm = vector_in<S>("frame_jacobian", "q", q, h.model.nq(), "model.nq");
    const auto f = frame_arg<S>("frame_jacobian", h.model, frame);
    const ReferenceFrame ref = reference_arg("frame_jacobian", reference);
    const py::ssize_t nv = h.model.nv();
    py::array_t<S> J({py::ssize_t{6}, nv});
    S* Jd = J.mutable_data();
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      treedyn::forward_kinematics(h.model, h.data, qm);
      h.last_status = h.data.config_status;
      if (f.first == no_parent) {  // a frame fixed on the base does not move
        std::fill(Jd, Jd + 6 * nv, S(0));
      } else {
        write_rows(treedyn::frame_jacobian(h.model, h.data, f.first, f.second, ref), Jd);
      }
    }
    return J;
  }

  /// body_motion(q, v[, a]) with the GIL released and the model locked, then query(body, placement, ref)
  /// -> Motion; a frame fixed on the base does not move (zero). Returns the motion as a (6,) array.
  template <class Query>
  static py::array_t<S> frame_motion(const char* call, H& h, Obj q, Obj v, const py::object* a, Obj frame,
                                     const std::string& reference, Query query) {
    const VectorIn<S> qm = vector_in<S>(call, "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>(call, "v", v, h.model.nv(), "model.nv");
    const VectorIn<S> am = a != nullptr ? vector_in<S>(call, "a", *a, h.model.nv(), "model.nv") : vm;
    const auto f = frame_arg<S>(call, h.model, frame);
    const ReferenceFrame ref = reference_arg(call, reference);
    py::array_t<S> out(6);
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = a != nullptr ? treedyn::body_motion(h.model, h.data, qm, vm, am)
                                   : treedyn::body_motion(h.model, h.data, qm, vm);
      const Motion<S> m = f.first == no_parent ? Motion<S>(Motion<S>::Zero()) : Motion<S>(query(vm, f.first, f.second, ref));
      std::copy(m.data(), m.data() + 6, out.mutable_data());
    }
    return out;
  }

  static py::array_t<S> frame_velocity(H& h, Obj q, Obj v, Obj frame, const std::string& reference) {
    return frame_motion("frame_velocity", h, q, v, nullptr, frame, reference, [&](const auto&, int b, const auto& X, ReferenceFrame r) {
      return treedyn::frame_velocity(h.model, h.data, b, X, r);
    });
  }

  static py::array_t<S> frame_acceleration(H& h, Obj q, Obj v, Obj a, Obj frame, const std::string& reference) {
    return frame_motion("frame_acceleration", h, q, v, &a, frame, reference, [&](const auto&, int b, const auto& X, ReferenceFrame r) {
      return treedyn::frame_acceleration(h.model, h.data, b, X, r);
    });
  }

  static py::array_t<S> frame_classical_acceleration(H& h, Obj q, Obj v, Obj a, Obj frame, const std::string& reference) {
    return frame_motion("frame_classical_acceleration", h, q, v, &a, frame, reference,
                        [&](const auto&, int b, const auto& X, ReferenceFrame r) {
                          return treedyn::frame_classical_acceleration(h.model, h.data, b, X, r);
                        });
  }

  static py::array_t<S> frame_jacobian_drift(H& h, Obj q, Obj v, Obj frame, const std::string& reference) {
    return frame_motion("frame_jacobian_drift", h, q, v, nullptr, frame, reference,
                        [&](const auto& vm, int b, const auto& X, ReferenceFrame r) {
                          return treedyn::frame_jacobian_drift(h.model, h.data, vm, b, X, r);
                        });
  }

  static py::tuple frame_jacobian_time_variation(H& h, Obj q, Obj v, Obj frame, const std::string& reference) {
    constexpr const char* call = "frame_jacobian_time_variation";
    const VectorIn<S> qm = vector_in<S>(call, "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>(call, "v", v, h.model.nv(), "model.nv");
    const auto f = frame_arg<S>(call, h.model, frame);
    const ReferenceFrame ref = reference_arg(call, reference);
    const py::ssize_t nv = h.model.nv();
    py::array_t<S> J({py::ssize_t{6}, nv}), dJ({py::ssize_t{6}, nv});
    S* Jd = J.mutable_data();
    S* dJd = dJ.mutable_data();
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::body_motion(h.model, h.data, qm, vm);
      if (f.first == no_parent) {  // a frame fixed on the base does not move
        std::fill(Jd, Jd + 6 * nv, S(0));
        std::fill(dJd, dJd + 6 * nv, S(0));
      } else {
        FrameJacobianTimeVariation<S> ws(h.model);  // sized per call: the binding allocates its outputs anyway
        treedyn::frame_jacobian_time_variation(h.model, h.data, ws, f.first, f.second, ref);
        write_rows(ws.J, Jd);
        write_rows(ws.dJ, dJd);
      }
    }
    return py::make_tuple(J, dJ);
  }
};

}  // namespace

void bind_kinematics(py::module_& m) {
  using D = Kinematics<double>;
  using F = Kinematics<float>;
  def_by_model(m, "neutral", &D::neutral, &F::neutral,
               "neutral(model) -> q: the neutral configuration (nq,): zeros, identity quaternions (0, 0, 0, 1).",
               py::arg("model"));
  def_by_model(m, "random_configuration", &D::random_configuration, &F::random_configuration,
               "random_configuration(model, seed) -> q (nq,): a pure function of (model, seed): angles in\n"
               "[-pi, pi], translations in [-1, 1] m, uniform unit quaternions (x, y, z, w).",
               py::arg("model"), py::arg("seed"));
  def_by_model(m, "integrate", &D::integrate, &F::integrate,
               "integrate(model, q, v, dt=1.0) -> q_out (nq,): q moved along the constant body velocity v (nv,)\n"
               "for dt seconds (exact exponentials for quaternion and planar joints; q + v dt for 1-DoF joints).",
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("dt") = 1.0);
  def_by_model(m, "difference", &D::difference, &F::difference,
               "difference(model, q0, q1) -> v (nv,): the velocity with integrate(q0, v, 1) = q1 (the shortest\n"
               "rotation for quaternion joints).",
               py::arg("model"), py::arg("q0"), py::arg("q1"));
  def_by_model(m, "forward_kinematics", &D::forward_kinematics, &F::forward_kinematics,
               "forward_kinematics(model, q) -> (R, p)\n\n"
               "Body placements in the world: R (nbodies, 3, 3), R[i] = the rotation whose columns are body i's axes\n"
               "in world coordinates; p (nbodies, 3), body i's origin in world coordinates (m).\n"
               "model.last_status: invalid_configuration (body) for a zero quaternion, non_finite_input (argument, row) for a NaN or an inf in an input.",
               py::arg("model"), py::arg("q"));
  def_by_model(m, "frame_placement", &D::frame_placement, &F::frame_placement,
               "frame_placement(model, q, frame) -> (R, p)\n\n"
               "The world placement of a named frame (frame: str, see model.frame_names) or of body `frame` (int):\n"
               "R (3, 3) its axes in world coordinates (columns), p (3,) its origin in world coordinates (m).",
               py::arg("model"), py::arg("q"), py::arg("frame"));
  def_by_model(m, "frame_placements", &D::frame_placements, &F::frame_placements,
               "frame_placements(model, q) -> (R, p)\n\n"
               "Every named frame's world placement in one pass: R (nframes, 3, 3), R[f] the axes of frame\n"
               "model.frame_names[f] in world coordinates (columns; Pinocchio's data.oMf[f].rotation), p (nframes, 3)\n"
               "its origin in world coordinates (m; oMf[f].translation). model.last_status as in forward_kinematics.",
               py::arg("model"), py::arg("q"));
  def_by_model(m, "compute_all_terms", &D::compute_all_terms, &F::compute_all_terms,
               "compute_all_terms(model, q, v) -> dict\n\n"
               "A controller tick's quantities at (q, v) in one call (Pinocchio's computeAllTerms), each computed once:\n"
               "'H' (nv, nv) the joint-space inertia matrix, 'C' (nv,) = bias(q, v), 'g' (nv,) = gravity_torques(q),\n"
               "'R' (nframes, 3, 3) and 'p' (nframes, 3) = frame_placements(q). Each equals the separate call's result\n"
               "bit for bit. model.last_status: the factorization of H (non_positive_pivot naming the DoF, or\n"
               "invalid_configuration naming the body; the arrays are then NaN where the call could not form them).",
               py::arg("model"), py::arg("q"), py::arg("v"));
  def_by_model(m, "frame_jacobian", &D::frame_jacobian, &F::frame_jacobian,
               "frame_jacobian(model, q, frame, reference='local') -> J (6, nv)\n\n"
               "The Jacobian of a named frame (frame: str) or of body `frame` (int) at q: J @ v = [w; v_O], the\n"
               "frame's angular velocity and its origin's linear velocity (angular first), in the frame's axes\n"
               "(reference='local'), along the world axes ('world_aligned'), or the velocity of the body point at the\n"
               "world origin along the world axes ('world_origin', Pinocchio's WORLD). Columns of joints off the path\n"
               "to the base are zero (all of them for a frame fixed on the base).",
               py::arg("model"), py::arg("q"), py::arg("frame"), py::arg("reference") = "local");
  const std::string axes =
      "\nreference: 'local' (frame origin, frame axes), 'world_aligned' (frame origin, world axes) or\n"
      "'world_origin' (world origin, world axes); see docs/frame-motion.md. A frame fixed on the base gives zeros.";
  // (model, q, v, frame, reference) and (model, q, v, a, frame, reference): the docstring ends with the axes
  const auto def_v = [&](const char* name, auto f64, auto f32, const std::string& doc) {
    def_by_model(m, name, f64, f32, doc + axes + nan_status_doc, py::arg("model"), py::arg("q"), py::arg("v"),
                 py::arg("frame"), py::arg("reference") = "local");
  };
  const auto def_va = [&](const char* name, auto f64, auto f32, const std::string& doc) {
    def_by_model(m, name, f64, f32, doc + axes + nan_status_doc, py::arg("model"), py::arg("q"), py::arg("v"),
                 py::arg("a"), py::arg("frame"), py::arg("reference") = "local");
  };
  def_v("frame_velocity", &D::frame_velocity, &F::frame_velocity,
        "frame_velocity(model, q, v, frame, reference='local') -> (6,)\n\n"
        "The spatial velocity [w; v] of a named frame (str) or of body `frame` (int) at (q, v): J @ v for\n"
        "frame_jacobian with the same reference.");
  def_va("frame_acceleration", &D::frame_acceleration, &F::frame_acceleration,
         "frame_acceleration(model, q, v, a, frame, reference='local') -> (6,)\n\n"
         "The spatial acceleration [dw; dv] of the frame at (q, v, a), gravity not included: J @ a + dJ @ v\n"
         "in 'local' and 'world_origin' axes.");
  def_va("frame_classical_acceleration", &D::frame_classical_acceleration, &F::frame_classical_acceleration,
         "frame_classical_acceleration(model, q, v, a, frame, reference='local') -> (6,)\n\n"
         "The classical acceleration [dw; dv + w x v] of the frame (gravity not included): with\n"
         "reference='world_aligned' the angular acceleration and the second derivative of the frame's origin,\n"
         "= J @ a + dJ @ v in those axes.");
  def_v("frame_jacobian_time_variation", &D::frame_jacobian_time_variation, &F::frame_jacobian_time_variation,
        "frame_jacobian_time_variation(model, q, v, frame, reference='local') -> (J, dJ)\n\n"
        "The frame's Jacobian J (6, nv) (frame_jacobian's) and its time derivative dJ (6, nv) along v: the\n"
        "derivative of J(integrate(q, t v)) at t = 0.");
  def_v("frame_jacobian_drift", &D::frame_jacobian_drift, &F::frame_jacobian_drift,
        "frame_jacobian_drift(model, q, v, frame, reference='local') -> (6,)\n\n"
        "dJ @ v without forming dJ: the frame's acceleration at a = 0 without gravity (spatial in 'local' and\n"
        "'world_origin' axes, classical in 'world_aligned' axes). A task J a = a* - dJ v.");
}

}  // namespace treedyn::python
