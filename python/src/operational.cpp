// treedyn Python module: the operational frames' classes and the entry points of oscm and osim, one per
// function, dispatching on the model's type to the float64 or float32 form (api.hpp; defined in
// operational.hpp).
#include <string>

#include "api.hpp"

namespace treedyn::python {

void bind_operational(py::module_& m) {
  using D = Operational<double>;
  using F = Operational<float>;
  D::bind_frames(m);
  F::bind_frames(m);
  const auto def = [&](const char* name, auto f64, auto f32, const char* text) {
    def_by_model(m, name, f64, f32, std::string(text) + "\nframes: the model's OperationalFrames (float64) or OperationalFramesF32.",
                 py::arg("model"), py::arg("frames"), py::arg("q"), py::kw_only(), py::arg("out") = py::none());
  };
  def("oscm", &D::oscm, &F::oscm,
      "oscm(model, frames, q, *, out=None) -> Lambda\n\n"
      "The operational-space compliance matrix Lambda = J H(q)^-1 J^T (frames.rows, frames.rows), symmetric,\n"
      "J the frames' selected rows in their local axes, by Jain's O(N + n_c d + n_c^2) recursion (never forms\n"
      "H). model.last_status and frames.status: non_positive_pivot naming the BODY whose joint pivot is not\n"
      "positive definite, or invalid_configuration; Lambda is then NaN.");
  def("osim", &D::osim, &F::osim,
      "osim(model, frames, q, *, out=None) -> Lambda_inv\n\n"
      "Khatib's operational-space inertia (J H(q)^-1 J^T)^-1 (frames.rows, frames.rows), symmetric: oscm, then\n"
      "a dense LTDL factorization. frames.status (and model.last_status): as in oscm, or non_positive_pivot\n"
      "naming the ROW of the compliance where it is singular to working precision (J without full row rank,\n"
      "e.g. 6 rows on a body with fewer than 6 DoFs below it); the result is then NaN.");
}

}  // namespace treedyn::python
