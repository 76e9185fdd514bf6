// treedyn Python module: configuration space (neutral, random_configuration, integrate, difference),
// forward kinematics, frame placements and frame Jacobians, and the controller tick compute_all_terms (whose
// frame placements share this unit's writer), both scalars.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "treedyn/algorithms/compute_all_terms.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
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
    if (reference != "local" && reference != "world_aligned")
      value_error("frame_jacobian: reference must be 'local' or 'world_aligned'; given '" + reference + "'");
    const ReferenceFrame ref = reference == "local" ? ReferenceFrame::local : ReferenceFrame::world_aligned;
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
        const auto& Jm = treedyn::frame_jacobian(h.model, h.data, f.first, f.second, ref);
        for (int r = 0; r < 6; ++r)
          for (py::ssize_t c = 0; c < nv; ++c) Jd[r * nv + c] = Jm(r, c);
      }
    }
    return J;
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
               "(reference='local') or along the world axes ('world_aligned'). Columns of joints off the path to the\n"
               "base are zero (all of them for a frame fixed on the base).",
               py::arg("model"), py::arg("q"), py::arg("frame"), py::arg("reference") = "local");
}

}  // namespace treedyn::python
