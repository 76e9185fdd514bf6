// treedyn Python module: the entry points of crba, minverse_ltdl and minverse_aba, one per function,
// dispatching on the model's type to the float64 or float32 form (api.hpp; defined in inertia.hpp).
#include <string>

#include "api.hpp"

namespace treedyn::python {

void bind_inertia(py::module_& m) {
  using D = Inertia<double>;
  using F = Inertia<float>;
  const auto def = [&](const char* name, auto f64, auto f32, const char* text) {
    def_by_model(m, name, f64, f32, text, py::arg("model"), py::arg("q"), py::kw_only(), py::arg("out") = py::none());
  };
  def("crba", &D::crba, &F::crba,
      "crba(model, q, *, out=None) -> H\n\n"
      "The joint-space inertia matrix H(q) (nv, nv), full and symmetric, by the composite-rigid-body\n"
      "algorithm (kg m^2, kg m or kg by the joints' units). out: optional preallocated C-contiguous (nv, nv)\n"
      "array. model.last_status: invalid_configuration (body) for a zero or non-finite quaternion (H is NaN).");
  def("minverse_ltdl", &D::minverse_ltdl, &F::minverse_ltdl,
      "minverse_ltdl(model, q, *, out=None) -> Minv\n\n"
      "H(q)^-1 (nv, nv), full and symmetric, from the CRBA and the sparse LTDL factorization of H.\n"
      "model.last_status: non_positive_pivot naming the DoF (row) of a pivot of H that is not > 0, or\n"
      "invalid_configuration; Minv is then NaN.");
  def("minverse_aba", &D::minverse_aba, &F::minverse_aba,
      "minverse_aba(model, q, *, out=None) -> Minv\n\n"
      "H(q)^-1 (nv, nv), full and symmetric, by the articulated-body recursion (never forms H).\n"
      "model.last_status: non_positive_pivot naming the BODY whose joint pivot is not positive definite, or\n"
      "invalid_configuration; Minv is then NaN.");
}

}  // namespace treedyn::python
