// treedyn Python module: the operational frames' classes and oscm and osim: their float64 and float32 forms
// (Operational<S>) and one entry point per function that dispatches on the model's type (common.hpp,
// def_by_model).
#include <algorithm>
#include <string>
#include <utility>

#include "common.hpp"

namespace treedyn::python {

/// The operational frames' class and their operational-space matrices in scalar S.
template <class S>
struct Operational {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  static void bind_frames(py::module_& m);  ///< registers OperationalFrames (float64) or OperationalFramesF32
  static py::array_t<S> oscm(H& h, Obj frames, Obj q, Obj out);
  static py::array_t<S> osim(H& h, Obj frames, Obj q, Obj out);
};

/// The Python class name of the operational frames in scalar S.
template <class S>
constexpr const char* frames_class_name() noexcept {
  return sizeof(S) == 4 ? "OperationalFramesF32" : "OperationalFrames";
}

/// The row selection named by `rows`: "all" (6 rows), "angular" (ω) or "linear" (v: a contact point).
inline FrameRows rows_arg(const std::string& rows) {
  if (rows == "all") return FrameRows::all();
  if (rows == "angular") return FrameRows::angular();
  if (rows == "linear") return FrameRows::linear();
  value_error("OperationalFrames.add: rows must be 'all', 'angular' or 'linear'; given '" + rows + "'");
}

/// Operational frames and the model they were made for (kept alive by the Python object: keep_alive).
template <class S>
struct FramesHandle {
  explicit FramesHandle(const ModelHandle<S>& h) : owner(&h), frames(h.model) {}
  const ModelHandle<S>* owner;
  OperationalFrames<S> frames;
};

/// Frame index a of `frames`, checked (ValueError when out of range).
template <class S>
int at(const OperationalFrames<S>& frames, int a) {
  if (a < 0 || a >= frames.size())
    value_error("OperationalFrames: frame index " + std::to_string(a) + " is not below len(frames) = " + std::to_string(frames.size()));
  return a;
}

/// Runs `kernel` (oscm or osim) on the frames at q and returns a copy of the matrix it fills.
template <class S, class Kernel>
py::array_t<S> operational_call(const char* call, ModelHandle<S>& h, const py::handle& frames_obj, const py::handle& q,
                                const py::handle& out, Kernel kernel) {
  if (!py::isinstance<FramesHandle<S>>(frames_obj))
    throw py::value_error(std::string(call) + ": argument 'frames' must be a treedyn." + frames_class_name<S>() + " (the " +
                         model_class_name<S>() + "'s frames); given " + text(frames_obj.get_type().attr("__name__")));
  FramesHandle<S>& fh = frames_obj.cast<FramesHandle<S>&>();
  OperationalFrames<S>& frames = fh.frames;
  if (fh.owner != &h)
    value_error(std::string(call) + ": the frames were made for another model (OperationalFrames(model))");
  const bool given_q = !q.is_none();  // None: the joint transforms of the model's last call (compute_all_terms)
  const VectorIn<S> qm = given_q ? vector_in<S>(call, "q", q, h.model.nq(), "model.nq") : VectorIn<S>(nullptr, 0, Eigen::InnerStride<>(1));
  const py::ssize_t m = frames.rows();
  py::array_t<S> result = output<S>(call, out, {m, m}, "frames.rows, frames.rows");
  S* dst = result.mutable_data();
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(h.mutex);
    const auto& M = given_q ? kernel(h.model, h.data, frames, qm) : kernel(h.model, h.data, frames);
    std::copy(M.data(), M.data() + m * m, dst);  // symmetric: column-major equals row-major
    h.last_status = frames.status;
  }
  return result;
}

template <class S>
void Operational<S>::bind_frames(py::module_& m) {
  using F = FramesHandle<S>;
  py::class_<F>(m, frames_class_name<S>(),
                (std::string("The operational frames of a ") + model_class_name<S>() +
                 " (made empty for it, then add()): the rows of J whose\n"
                 "operational-space matrices oscm and osim compute. Frame a contributes row_count(a) rows starting at\n"
                 "row_offset(a), its selected rows of [w; v] in its LOCAL axes (frame_jacobian(..., 'local')). The\n"
                 "frames keep their model alive and hold the workspace of oscm and osim.")
                    .c_str())
      .def(py::init([](const H& h) { return new F(h); }), py::arg("model"), py::keep_alive<1, 2>())
      .def(
          "add",
          [](F& fh, const py::object& frame, const std::string& rows) {
            const FrameRows selection = rows_arg(rows);
            const auto f = frame_arg<S>("OperationalFrames.add", fh.owner->model, frame);
            const std::string name = py::isinstance<py::str>(frame) ? frame.cast<std::string>() : std::string();
            return fh.frames.add(f.first, f.second, selection, name);  // std::invalid_argument -> ValueError
          },
          py::arg("frame"), py::arg("rows") = "all",
          "add(frame, rows='all') -> index\n\n"
          "Adds a named frame of the model (frame: str) or body `frame` (int, its body axes) with the rows\n"
          "'all' ([w; v], 6 rows), 'angular' (w, 3) or 'linear' (v, 3: a contact point). ValueError for a frame\n"
          "fixed on the base (it has no operational-space dynamics) or a duplicate name.")
      .def("__len__", [](const F& f) { return f.frames.size(); }, "number of frames")
      .def_property_readonly("rows", [](const F& f) { return f.frames.rows(); }, "rows of the operational-space matrices (sum of row_count)")
      .def_property_readonly("names", [](const F& fh) {
        py::list names;
        for (int a = 0; a < fh.frames.size(); ++a) names.append(fh.frames.name(a));
        return names;
      }, "frame names in order")
      .def("body", [](const F& f, int a) { return f.frames.body(at(f.frames, a)); }, py::arg("a"), "body of frame a")
      .def("row_offset", [](const F& f, int a) { return f.frames.row_offset(at(f.frames, a)); }, py::arg("a"), "first row of frame a")
      .def("row_count", [](const F& f, int a) { return f.frames.row_count(at(f.frames, a)); }, py::arg("a"), "rows of frame a")
      .def_property_readonly("status", [](const F& f) { return f.frames.status; }, "FactorStatus of the last oscm or osim")
      .def("__repr__", [](const F& fh) {
        const OperationalFrames<S>& f = fh.frames;
        return std::string(frames_class_name<S>()) + "(" + std::to_string(f.size()) + " frames, " + std::to_string(f.rows()) + " rows)";
      });

}

template <class S>
py::array_t<S> Operational<S>::oscm(H& h, Obj frames, Obj q, Obj out) {
  return operational_call<S>("oscm", h, frames, q, out,
                             [](auto&&... a) -> const auto& { return treedyn::oscm(std::forward<decltype(a)>(a)...); });
}

template <class S>
py::array_t<S> Operational<S>::osim(H& h, Obj frames, Obj q, Obj out) {
  return operational_call<S>("osim", h, frames, q, out,
                             [](auto&&... a) -> const auto& { return treedyn::osim(std::forward<decltype(a)>(a)...); });
}

void bind_operational(py::module_& m) {
  using D = Operational<double>;
  using F = Operational<float>;
  D::bind_frames(m);
  F::bind_frames(m);
  const auto def = [&](const char* name, auto f64, auto f32, const char* text) {
    def_by_model(m, name, f64, f32, std::string(text) + "\nframes: the model's OperationalFrames (float64) or OperationalFramesF32.",
                 py::arg("model"), py::arg("frames"), py::arg("q") = py::none(), py::kw_only(), py::arg("out") = py::none());
  };
  def("oscm", &D::oscm, &F::oscm,
      "oscm(model, frames, q=None, *, out=None) -> Lambda_inv\n\n"
      "The operational-space compliance J H(q)^-1 J^T = Lambda^-1 (frames.rows, frames.rows), symmetric,\n"
      "J the frames' selected rows in their local axes, by Jain's O(N + n_c d + n_c^2) recursion (never forms\n"
      "H). model.last_status and frames.status: non_positive_pivot naming the BODY whose joint pivot is not\n"
      "positive definite, or invalid_configuration; the result is then NaN. q=None: at the q of the model's last\n"
      "call that formed its joint transforms (compute_all_terms, crba, ...), which it reuses.");
  def("osim", &D::osim, &F::osim,
      "osim(model, frames, q=None, *, out=None) -> Lambda\n\n"
      "The operational-space inertia Lambda = (J H(q)^-1 J^T)^-1, Khatib's and Pinocchio's Lambda (frames.rows,\n"
      "frames.rows), symmetric: oscm, then a dense LTDL factorization. frames.status (and model.last_status): as in oscm, or non_positive_pivot\n"
      "naming the ROW of the compliance where it is singular to working precision (J without full row rank,\n"
      "e.g. 6 rows on a body with fewer than 6 DoFs below it); the result is then NaN. q=None: as in oscm, after\n"
      "compute_all_terms (its joint transforms are reused).");
}

}  // namespace treedyn::python
