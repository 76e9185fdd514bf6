// treedyn Python module: the entry points of the dynamics functions (rnea, bias, aba, modified_aba,
// forward_dynamics_crba, aba_batch, rnea_batch, crba_batch), one per function, dispatching on the model's
// type to the float64 or float32 form (api.hpp; defined in dynamics.hpp).
#include <string>

#include "api.hpp"

namespace treedyn::python {

void bind_dynamics(py::module_& m) {
  using D = Dynamics<double>;
  using F = Dynamics<float>;
  const py::object none = py::none();

  def_by_model(m, "rnea", &D::rnea, &F::rnea,
               "rnea(model, q, v, a, *, f_ext=None, out=None) -> tau\n\n"
               "Inverse dynamics by the recursive Newton-Euler algorithm: the joint forces tau (nv,) that produce the\n"
               "accelerations a (nv,) at configuration q (nq,) and velocity v (nv,), gravity included. f_ext: None or\n"
               "(nbodies, 6) external forces, row i = [n; f] (N m, N; angular first) acting on body i in body-i\n"
               "coordinates. out: optional preallocated C-contiguous (nv,) array, written and returned.\n"
               "model.last_status: invalid_configuration (body) for a zero or non-finite quaternion (tau is NaN).",
               py::arg("model"), py::arg("q"), py::arg("v"), py::arg("a"), py::kw_only(), py::arg("f_ext") = none, py::arg("out") = none);
  def_by_model(m, "bias", &D::bias, &F::bias,
               "bias(model, q, v, *, f_ext=None, out=None) -> C\n\n"
               "C(q, v) = rnea(q, v, 0): Coriolis, centrifugal and gravity forces (nv,), and f_ext as in rnea.\n"
               "model.last_status as in rnea.",
               py::arg("model"), py::arg("q"), py::arg("v"), py::kw_only(), py::arg("f_ext") = none, py::arg("out") = none);

  const auto forward = [&](const char* name, auto f64, auto f32, const char* text) {
    def_by_model(m, name, f64, f32, text, py::arg("model"), py::arg("q"), py::arg("v"), py::arg("tau"), py::kw_only(),
                 py::arg("f_ext") = none, py::arg("out") = none);
  };
  forward("aba", &D::aba, &F::aba,
          "aba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
          "Forward dynamics by the articulated-body algorithm: qdd (nv,) = H(q)^-1 (tau - C(q, v)), tau (nv,) in\n"
          "N or N m. f_ext and out as in rnea. model.last_status: non_positive_pivot naming the BODY whose joint\n"
          "pivot D_i is not positive definite, or invalid_configuration; qdd is then NaN.");
  forward("modified_aba", &D::modified_aba, &F::modified_aba,
          "modified_aba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
          "Forward dynamics by the modified articulated-body algorithm (joint pivots formed without the\n"
          "cancellation of the ABA when a parent's and a child's joint axes (nearly) coincide: more accurate in\n"
          "float32 on such chains). Arguments, result and model.last_status as in aba.");
  forward("forward_dynamics_crba", &D::forward_dynamics_crba, &F::forward_dynamics_crba,
          "forward_dynamics_crba(model, q, v, tau, *, f_ext=None, out=None) -> qdd\n\n"
          "Forward dynamics by the CRBA and the sparse LTDL factorization of H: qdd = H^-1 (tau - C).\n"
          "model.last_status: non_positive_pivot naming the DoF (row) of a pivot of H that is not > 0, or\n"
          "invalid_configuration; qdd is then NaN.");

  const std::string batch_note =
      "The loop runs in C++ on `threads` threads with the GIL released (threads - 1 workers kept with the\n"
      "model; results are bit for bit those of a serial loop of the single-state call). Failed rows are NaN\n"
      "and counted in model.last_batch_status.";
  def_by_model(m, "aba_batch", &D::aba_batch, &F::aba_batch,
               std::string("aba_batch(model, Q, V, T, *, out=None, threads=1) -> QDD\n\n"
                           "aba over the rows of Q (n, nq), V (n, nv), T (n, nv): QDD (n, nv); out: optional preallocated\n"
                           "C-contiguous (n, nv) array. ") + batch_note,
               py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("T"), py::kw_only(), py::arg("out") = none, py::arg("threads") = 1);
  def_by_model(m, "rnea_batch", &D::rnea_batch, &F::rnea_batch,
               std::string("rnea_batch(model, Q, V, A, *, out=None, threads=1) -> TAU\n\n"
                           "rnea (without external forces) over the rows of Q (n, nq), V (n, nv), A (n, nv): TAU (n, nv);\n"
                           "out: optional preallocated C-contiguous (n, nv) array. Row status: invalid_configuration. ") + batch_note,
               py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("A"), py::kw_only(), py::arg("out") = none, py::arg("threads") = 1);
  def_by_model(m, "crba_batch", &D::crba_batch, &F::crba_batch,
               std::string("crba_batch(model, Q, *, out=None, threads=1) -> H\n\n"
                           "crba over the rows of Q (n, nq): H (n, nv, nv), H[k] the full symmetric H(Q[k]); out: optional\n"
                           "preallocated C-contiguous (n, nv, nv) array. Row status: invalid_configuration. ") + batch_note,
               py::arg("model"), py::arg("Q"), py::kw_only(), py::arg("out") = none, py::arg("threads") = 1);
}

}  // namespace treedyn::python
