// treedyn Python module: the SE(3) exponential and logarithm and the Jacobian of the logarithm on placements
// (R, p) (treedyn/spatial/log6.hpp, docs/derivatives.md#placement-error-and-its-jacobian), float64 and float32
// (the dtype of the first argument; the others must match it).
#include "common.hpp"
#include "treedyn/spatial/log6.hpp"

namespace treedyn::python {
namespace {

/// The placement (R, p) of a frame B in A (Pinocchio's SE3: B's axes as R's columns, its origin p) as ^B X_A = (Rᵀ, p):
/// rows_as_columns maps R transposed, which is E.
template <class S>
Transform<S> placement_in(const char* call, const py::handle& R, const py::handle& p) {
  return Transform<S>{rows_as_columns<S>(call, "R", R, 3, 3, "3, 3"), vector_in<S>(call, "p", p, 3, "3")};
}

template <class S, int Rows, int Cols>
py::array_t<S> array_of(const Eigen::Matrix<S, Rows, Cols>& m) {
  py::array_t<S> out(Cols == 1 ? std::vector<py::ssize_t>{Rows} : std::vector<py::ssize_t>{Rows, Cols});
  S* d = out.mutable_data();
  for (int i = 0; i < Rows; ++i)
    for (int j = 0; j < Cols; ++j) d[i * Cols + j] = m(i, j);
  return out;
}

template <class S>
py::object log6_of(const py::handle& R, const py::handle& p) {
  return array_of<S>(treedyn::log6(placement_in<S>("log6", R, p)));
}

template <class S>
py::object jlog6_of(const py::handle& R, const py::handle& p) {
  return array_of<S>(treedyn::jlog6(placement_in<S>("jlog6", R, p)));
}

template <class S>
py::object exp6_of(const py::handle& xi) {
  const Transform<S> X = treedyn::exp6(Vector6<S>(vector_in<S>("exp6", "xi", xi, 6, "6")));
  return py::make_tuple(array_of<S>(Matrix3<S>(X.E.transpose())), array_of<S>(X.r));
}

bool float32_array(const py::handle& obj) { return py::isinstance<py::array>(obj) && py::isinstance<py::array_t<float>>(obj); }

}  // namespace

void bind_log6(py::module_& m) {
  const std::string placement =
      "R (3, 3) and p (3,) are a placement as frame_placement returns it (Pinocchio's SE3 rotation and translation).\n"
      "Twists are ANGULAR FIRST, xi = [w; v] (Pinocchio's Motion is linear first). float64 or float32, by R's dtype.";
  m.def("log6",
        [](const py::handle& R, const py::handle& p) { return float32_array(R) ? log6_of<float>(R, p) : log6_of<double>(R, p); },
        ("log6(R, p) -> xi (6,): the twist [w; v] with exp6(xi) = (R, p), |w| <= pi (at |w| = pi either sign).\n"
         "The placement error of IK: log6(R_des.T @ R, R_des.T @ (p - p_des)).\n" + placement).c_str(),
        py::arg("R"), py::arg("p"));
  m.def("exp6", [](const py::handle& xi) { return float32_array(xi) ? exp6_of<float>(xi) : exp6_of<double>(xi); },
        ("exp6(xi) -> (R, p): the placement reached by moving with the constant body twist xi = [w; v] for unit time:\n"
         "R = exp(w x), p = V(w) v.\n" + placement).c_str(),
        py::arg("xi"));
  m.def("jlog6",
        [](const py::handle& R, const py::handle& p) { return float32_array(R) ? jlog6_of<float>(R, p) : jlog6_of<double>(R, p); },
        ("jlog6(R, p) -> J (6, 6): d log6(M exp6(d)) / dd at d = 0 for M = (R, p), the local (right) perturbation.\n"
         "With frame_jacobian(model, q, frame, 'local') J_F: d/dq log6(M_des^-1 M_F(q)) = jlog6(M_des^-1 M_F) @ J_F.\n" +
         placement).c_str(),
        py::arg("R"), py::arg("p"));
}

}  // namespace treedyn::python
