// treedyn Python module: the centre of mass, its Jacobian, the centroidal momentum matrix, the energies and
// the Coriolis matrix (center_of_mass, jacobian_center_of_mass, ccrba, centroidal_momentum_rate,
// centroidal_drift, centroidal_map_time_variation, kinetic_energy, potential_energy; docs/centroidal.md; coriolis_matrix,
// docs/dynamics.md#the-coriolis-matrix):
// their float64 and float32 forms (Centroidal<S>) and one entry point per function that dispatches on the
// model's type (common.hpp, def_by_model). These calls are not in the compiled component's list, so this unit
// instantiates them (for the strided maps NumPy arrays arrive as).
#include <algorithm>
#include <string>

#include "common.hpp"
#include "treedyn/algorithms/centroidal_map_time_variation.hpp"
#include "treedyn/algorithms/centroidal_momentum_rate.hpp"
#include "treedyn/algorithms/coriolis_matrix.hpp"

namespace treedyn::python {
namespace {

/// A (rows, cols) row-major array from an Eigen matrix (any storage).
template <class S, class M>
py::array_t<S> matrix_out(const M& m) {
  py::array_t<S> out({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  S* d = out.mutable_data();
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) d[r * m.cols() + c] = m(r, c);
  return out;
}

template <class S>
py::array_t<S> vector_out(const Eigen::Matrix<S, Eigen::Dynamic, 1>& v) {
  py::array_t<S> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.data(), v.data() + v.size(), out.mutable_data());
  return out;
}

template <class S>
struct Centroidal {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;

  static py::dict center_of_mass(H& h, Obj q, Obj v, Obj a) {
    constexpr const char* call = "center_of_mass";
    const Model<S>& model = h.model;
    const VectorIn<S> qm = vector_in<S>(call, "q", q, model.nq(), "model.nq");
    const bool has_v = !v.is_none(), has_a = !a.is_none();
    if (has_a && !has_v) value_error("center_of_mass: argument 'a' needs 'v'");
    const VectorIn<S> vm = has_v ? vector_in<S>(call, "v", v, model.nv(), "model.nv") : qm;
    const VectorIn<S> am = has_a ? vector_in<S>(call, "a", a, model.nv(), "model.nv") : qm;
    const int nb = model.nbodies();
    Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> subtree(nb, 3);
    Vec masses(nb), com(3), vcom(3), acom(3);
    S mass(0);
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      if (has_a) h.last_status = treedyn::center_of_mass(model, h.data, qm, vm, am);
      else if (has_v) h.last_status = treedyn::center_of_mass(model, h.data, qm, vm);
      else h.last_status = treedyn::center_of_mass(model, h.data, qm);
      for (int i = 0; i < nb; ++i) {
        subtree.row(i) = h.data.com_subtree[i].transpose();
        masses(i) = h.data.mass_subtree[i];
      }
      com = h.data.com;
      vcom = h.data.vcom;
      acom = h.data.acom;
      mass = h.data.mass;
    }
    py::dict out;
    out["com"] = vector_out<S>(com);
    out["mass"] = mass;
    out["com_subtree"] = matrix_out<S>(subtree);
    out["mass_subtree"] = vector_out<S>(masses);
    if (has_v) out["vcom"] = vector_out<S>(vcom);
    if (has_a) out["acom"] = vector_out<S>(acom);
    return out;
  }

  static py::array_t<S> jacobian_center_of_mass(H& h, Obj q) {
    const VectorIn<S> qm = vector_in<S>("jacobian_center_of_mass", "q", q, h.model.nq(), "model.nq");
    Eigen::Matrix<S, 3, Eigen::Dynamic> J(3, h.model.nv());
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::jacobian_center_of_mass(h.model, h.data, qm);
      J = h.data.Jcom;
    }
    return matrix_out<S>(J);
  }

  static py::dict ccrba(H& h, Obj q, Obj v) {
    const VectorIn<S> qm = vector_in<S>("ccrba", "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>("ccrba", "v", v, h.model.nv(), "model.nv");
    Eigen::Matrix<S, 6, Eigen::Dynamic> Ag(6, h.model.nv());
    Vec hg(6), com(3), vcom(3);
    Matrix6<S> Ig;
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::ccrba(h.model, h.data, qm, vm);
      Ag = h.data.Ag;
      hg = h.data.hg;
      Ig = h.data.Ig.matrix();
      com = h.data.com;
      vcom = h.data.vcom;
    }
    py::dict out;
    out["Ag"] = matrix_out<S>(Ag);
    out["hg"] = vector_out<S>(hg);
    out["Ig"] = matrix_out<S>(Ig);
    out["com"] = vector_out<S>(com);
    out["vcom"] = vector_out<S>(vcom);
    return out;
  }

  static py::float_ kinetic_energy(H& h, Obj q, Obj v) {
    const VectorIn<S> qm = vector_in<S>("kinetic_energy", "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>("kinetic_energy", "v", v, h.model.nv(), "model.nv");
    S T(0);
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::kinetic_energy(h.model, h.data, qm, vm);
      T = h.data.kinetic_energy;
    }
    return py::float_(static_cast<double>(T));
  }

  static py::float_ potential_energy(H& h, Obj q) {
    const VectorIn<S> qm = vector_in<S>("potential_energy", "q", q, h.model.nq(), "model.nq");
    S V(0);
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::potential_energy(h.model, h.data, qm);
      V = h.data.potential_energy;
    }
    return py::float_(static_cast<double>(V));
  }

  /// centroidal_momentum_rate (a given) or centroidal_drift (a None) as a (6,) array.
  static py::array_t<S> centroidal_momentum_rate(H& h, Obj q, Obj v, Obj a) {
    const char* call = a.is_none() ? "centroidal_drift" : "centroidal_momentum_rate";
    const VectorIn<S> qm = vector_in<S>(call, "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>(call, "v", v, h.model.nv(), "model.nv");
    const VectorIn<S> am = a.is_none() ? vm : vector_in<S>(call, "a", a, h.model.nv(), "model.nv");
    Force<S> rate;
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      rate = a.is_none() ? treedyn::centroidal_drift(h.model, h.data, qm, vm)
                         : treedyn::centroidal_momentum_rate(h.model, h.data, qm, vm, am);
      h.last_status = h.data.config_status;
    }
    py::array_t<S> out(6);
    std::copy(rate.data(), rate.data() + 6, out.mutable_data());
    return out;
  }

  static py::array_t<S> centroidal_drift(H& h, Obj q, Obj v) { return centroidal_momentum_rate(h, q, v, py::none()); }

  static py::dict centroidal_map_time_variation(H& h, Obj q, Obj v) {
    constexpr const char* call = "centroidal_map_time_variation";
    const VectorIn<S> qm = vector_in<S>(call, "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>(call, "v", v, h.model.nv(), "model.nv");
    CentroidalMapTimeVariationWorkspace<S> ws(h.model);  // sized per call, as coriolis_matrix's
    Eigen::Matrix<S, 6, Eigen::Dynamic> Ag(6, h.model.nv());
    Vec hg(6);
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::centroidal_map_time_variation(h.model, h.data, ws, qm, vm);
      Ag = h.data.Ag;
      hg = h.data.hg;
    }
    py::dict out;
    out["dAg"] = matrix_out<S>(ws.dAg);
    out["Ag"] = matrix_out<S>(Ag);
    out["hg"] = vector_out<S>(hg);
    return out;
  }

  static py::array_t<S> coriolis_matrix(H& h, Obj q, Obj v) {
    const VectorIn<S> qm = vector_in<S>("coriolis_matrix", "q", q, h.model.nq(), "model.nq");
    const VectorIn<S> vm = vector_in<S>("coriolis_matrix", "v", v, h.model.nv(), "model.nv");
    CoriolisMatrixWorkspace<S> ws(h.model);  // sized per call: the binding allocates its output anyway
    {
      py::gil_scoped_release release;
      const std::lock_guard<std::mutex> lock(h.mutex);
      h.last_status = treedyn::coriolis_matrix(h.model, h.data, ws, qm, vm);
    }
    return matrix_out<S>(ws.C);
  }
};

}  // namespace

void bind_centroidal(py::module_& m) {
  using D = Centroidal<double>;
  using F = Centroidal<float>;
  const py::object none = py::none();
  const char* status = nan_status_doc;
  def_by_model(m, "center_of_mass", &D::center_of_mass, &F::center_of_mass,
               std::string("center_of_mass(model, q, v=None, a=None) -> dict\n\n"
                           "The centre of mass in world coordinates: 'com' (3,), 'mass', 'com_subtree' (nbodies, 3) and\n"
                           "'mass_subtree' (nbodies,) (row i: body i and every body below it; Pinocchio's com[i + 1]),\n"
                           "with v (nv,) also 'vcom' (3,), with a (nv,) also 'acom' (3,) (gravity not included).") + status,
               py::arg("model"), py::arg("q"), py::arg("v") = none, py::arg("a") = none);
  def_by_model(m, "jacobian_center_of_mass", &D::jacobian_center_of_mass, &F::jacobian_center_of_mass,
               std::string("jacobian_center_of_mass(model, q) -> Jcom\n\n"
                           "The (3, nv) Jacobian of the centre of mass, world coordinates: vcom = Jcom @ v.") + status,
               py::arg("model"), py::arg("q"));
  def_by_model(m, "ccrba", &D::ccrba, &F::ccrba,
               std::string("ccrba(model, q, v) -> dict\n\n"
                           "The centroidal momentum matrix by the CCRBA: 'Ag' (6, nv) with the ANGULAR rows first (Pinocchio's\n"
                           "Ag is linear first: Ag[[3, 4, 5, 0, 1, 2]]), 'hg' (6,) = Ag @ v = [k_G; l_G], 'Ig' (6, 6) the\n"
                           "centroidal composite inertia (angular first, about the com, world axes), 'com' (3,), 'vcom' (3,).") +
                   status,
               py::arg("model"), py::arg("q"), py::arg("v"));
  def_by_model(m, "kinetic_energy", &D::kinetic_energy, &F::kinetic_energy,
               std::string("kinetic_energy(model, q, v) -> float\n\nT = 1/2 v' H(q) v, by one pass (H is not formed).") + status,
               py::arg("model"), py::arg("q"), py::arg("v"));
  def_by_model(m, "potential_energy", &D::potential_energy, &F::potential_energy,
               std::string("potential_energy(model, q) -> float\n\nV = -sum_i m_i g' p_i with the model's gravity g.") +
                   status,
               py::arg("model"), py::arg("q"));
  def_by_model(m, "centroidal_momentum_rate", &D::centroidal_momentum_rate, &F::centroidal_momentum_rate,
               std::string("centroidal_momentum_rate(model, q, v, a) -> (6,)\n\n"
                           "The rate of the centroidal momentum d(hg)/dt = Ag @ a + dAg @ v, angular first, about the com,\n"
                           "world axes (as ccrba's hg); gravity not included.") + status,
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"));
  def_by_model(m, "centroidal_drift", &D::centroidal_drift, &F::centroidal_drift,
               std::string("centroidal_drift(model, q, v) -> (6,)\n\n"
                           "dAg @ v: centroidal_momentum_rate at a = 0 (dAg not formed).") + status,
               py::arg("model"), py::arg("q"), py::arg("v"));
  def_by_model(m, "centroidal_map_time_variation", &D::centroidal_map_time_variation, &F::centroidal_map_time_variation,
               std::string("centroidal_map_time_variation(model, q, v) -> dict\n\n"
                           "'dAg' (6, nv): the time derivative of the centroidal momentum matrix along v, ANGULAR rows first\n"
                           "as ccrba's Ag (Pinocchio's dccrba dAg is linear first: dAg[[3, 4, 5, 0, 1, 2]]), with 'Ag' (6, nv)\n"
                           "and 'hg' (6,); dAg @ v = centroidal_drift(model, q, v).") + status,
               py::arg("model"), py::arg("q"), py::arg("v"));
  def_by_model(m, "coriolis_matrix", &D::coriolis_matrix, &F::coriolis_matrix,
               std::string("coriolis_matrix(model, q, v) -> C (nv, nv)\n\n"
                           "The Coriolis matrix: C @ v = bias(q, v) - gravity_torques(q) (the velocity terms) and\n"
                           "dH/dt - 2 C skew-symmetric (Echeandia & Wensing 2021; docs/dynamics.md).") + status,
               py::arg("model"), py::arg("q"), py::arg("v"));
}

}  // namespace treedyn::python
