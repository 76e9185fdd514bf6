// treedyn Python module: the built-in robots (treedyn.robots), built in float64 and cast for float32.
#include <cstdint>
#include <string>

#include "common.hpp"
#include "treedyn/robots/robots.hpp"

namespace treedyn::python {

void bind_robots(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "robots",
      "The built-in robots. Each takes dtype=numpy.float64 (a Model) or numpy.float32 (a ModelF32: the\n"
      "float64 robot cast once).");
  const py::object f64 = py::dtype::of<double>();
  m.def("arm7", [](const py::object& dtype) { return wrap_model(robots::arm7<double>(), dtype); }, py::arg("dtype") = f64,
        "A 7-revolute serial arm with published inertial parameters (Franka Emika Panda-like).");
  m.def("chain30", [](const py::object& dtype) { return wrap_model(robots::chain30<double>(), dtype); }, py::arg("dtype") = f64,
        "A 30-body serial chain.");
  m.def("humanoid30", [](const py::object& dtype) { return wrap_model(robots::humanoid30<double>(), dtype); },
        py::arg("dtype") = f64, "A branched 30-body humanoid-like tree.");
  m.def("puma560", [](const py::object& dtype) { return wrap_model(robots::puma560<double>(), dtype); }, py::arg("dtype") = f64,
        "The PUMA 560 arm (6 revolute joints).");
  m.def("pendulum", [](int n, const py::object& dtype) { return wrap_model(robots::pendulum<double>(n), dtype); },
        py::arg("n"), py::arg("dtype") = f64, "The n-link pendulum of touching 1 kg spheres (n >= 1).");
  m.def(
      "two_link",
      [](double l1, double m1, double l2, double m2, double width, const py::object& dtype) {
        return wrap_model(robots::two_link<double>(l1, m1, l2, m2, width), dtype);
      },
      py::arg("l1") = 2.0, py::arg("m1") = 10.0, py::arg("l2") = 0.02, py::arg("m2") = 0.1, py::arg("width") = 0.02,
      py::arg("dtype") = f64,
      "Ascher, Pai & Cloutier's planar two-link chain (l1, m1 distal; l2, m2 base-connected; m, kg): a stiff,\n"
      "ill-conditioned H for small l2.");
  m.def(
      "collinear_masses",
      [](double m_base, double m_tip, const py::object& axis, const py::object& dtype) {
        return wrap_model(robots::collinear_masses<double>(m_base, m_tip, vector3_arg("collinear_masses", "axis", axis)),
                          dtype);
      },
      py::arg("m_base"), py::arg("m_tip"), py::arg("axis") = py::make_tuple(1.0, 0.0, 0.0), py::arg("dtype") = f64,
      "Two point masses (kg) on collinear prismatic joints along `axis`, no gravity: cond(H) grows as\n"
      "m_base / m_tip.");
  m.def(
      "random_tree",
      [](int nbodies, std::uint64_t seed, const py::object& dtype) {
        return wrap_model(robots::random_tree<double>(nbodies, seed), dtype);
      },
      py::arg("nbodies"), py::arg("seed"), py::arg("dtype") = f64,
      "A random tree of `nbodies` bodies from `seed` (every joint type when nbodies >= 7), a pure function of\n"
      "(nbodies, seed).");
  m.def(
      "random_chain",
      [](int nbodies, std::uint64_t seed, const py::object& dtype) {
        return wrap_model(robots::random_chain<double>(nbodies, seed), dtype);
      },
      py::arg("nbodies"), py::arg("seed"), py::arg("dtype") = f64, "A random chain of revolute joints from `seed`.");
}

}  // namespace treedyn::python
