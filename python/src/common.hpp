// Shared pieces of the treedyn Python module: the model handle (a Model with its one Data), the scalar
// names, and the argument checks that turn NumPy arrays into Eigen maps without any conversion.
//
// Arrays are never converted: an input of the wrong dtype, dimension or shape raises ValueError naming
// the call, the argument and the expected dtype and shape. Inputs may be strided views (no copy);
// `out=` arrays must be C-contiguous and writeable.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <Eigen/Core>

#include "treedyn/compiled.hpp"

namespace treedyn::python {

namespace py = pybind11;

/// The NumPy name of a scalar type.
template <class S>
constexpr const char* dtype_name() noexcept {
  return sizeof(S) == 4 ? "float32" : "float64";
}

/// The Python class name of a model in scalar S.
template <class S>
constexpr const char* model_class_name() noexcept {
  return sizeof(S) == 4 ? "ModelF32" : "Model";
}

/// A type passed as a value (to choose a workspace type in a generic lambda).
template <class T>
struct Tag {
  using type = T;
};

/// What a batched call reported (parallel/batch.hpp's BatchStatus, kept here so this header stays light).
struct BatchReport {
  int failures = 0;
  int first_failed = -1;
  FactorStatus first_status;
};

/// A Model and the one Data every call on it uses. Calls release the GIL and take `mutex`, so two
/// Python threads may share a model (their calls then run one after the other). The workspaces of the
/// mass-matrix inverses and the batch runner are made on first use and kept (type-erased so that only the
/// translation units that use them include their headers).
template <class S>
struct ModelHandle {
  explicit ModelHandle(Model<S> m) : model(std::move(m)), data(model) {}
  ModelHandle(const ModelHandle&) = delete;
  ModelHandle& operator=(const ModelHandle&) = delete;

  Model<S> model;
  Data<S> data;
  FactorStatus last_status;        ///< status of the last algorithm called on this model
  BatchReport last_batch_status;   ///< status of the last batched call
  std::shared_ptr<void> minverse_ltdl_ws, minverse_aba_ws, batch;
  int batch_threads = 0;
  std::mutex mutex;
};

/// ValueError with `message`.
[[noreturn]] inline void value_error(const std::string& message) { throw py::value_error(message); }

/// str(obj).
inline std::string text(const py::handle& obj) { return std::string(py::str(py::reinterpret_borrow<py::object>(obj))); }

/// A NumPy-style shape: "(7,)", "(3, 4)".
inline std::string shape_string(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t k = 0; k < a.ndim(); ++k) s += (k > 0 ? ", " : "") + std::to_string(a.shape(k));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

/// The array `obj` when it is an ndarray of dtype S with dims.size() dimensions of the given extents;
/// otherwise ValueError "<call>: argument '<name>' must be a numpy.ndarray of dtype <S> and shape (<dims>)
/// (<labels>); given …", labels naming the extents (e.g. "model.nq"). The message is formed only on failure.
template <class S>
py::array checked_array(const char* call, const char* name, const py::handle& obj, std::initializer_list<py::ssize_t> dims,
                        const char* labels) {
  const bool is_array = py::isinstance<py::array>(obj);
  bool ok = is_array && py::isinstance<py::array_t<S>>(obj);
  py::array a = is_array ? py::reinterpret_borrow<py::array>(obj) : py::array();
  if (ok && a.ndim() == static_cast<py::ssize_t>(dims.size())) {
    py::ssize_t k = 0;
    for (py::ssize_t d : dims) {
      if (a.shape(k) != d || a.strides(k) % static_cast<py::ssize_t>(sizeof(S)) != 0) ok = false;
      ++k;
    }
  } else {
    ok = false;
  }
  if (ok) return a;
  std::string expected = "(";
  for (const py::ssize_t d : dims) expected += (expected.size() > 1 ? ", " : "") + std::to_string(d);
  expected += std::string(dims.size() == 1 ? ",)" : ")") + " (" + labels + ")";
  const std::string prefix = std::string(call) + ": argument '" + name + "' must be a numpy.ndarray of dtype " +
                             dtype_name<S>() + " and shape " + expected + "; given ";
  if (!is_array) value_error(prefix + text(obj.get_type().attr("__name__")));
  value_error(prefix + "dtype " + text(a.dtype()) + " and shape " + shape_string(a));
}

/// A 1-D input: the strided map the compiled component is instantiated for (treedyn/compiled.hpp).
template <class S>
using VectorIn = StridedVectorMap<S>;
template <class S>
using MatrixIn = Eigen::Map<const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>, 0,
                            Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;

/// A 1-D input of n entries of dtype S, as a strided map (no copy).
template <class S>
VectorIn<S> vector_in(const char* call, const char* name, const py::handle& obj, Eigen::Index n, const char* what) {
  const py::array a = checked_array<S>(call, name, obj, {static_cast<py::ssize_t>(n)}, what);
  return VectorIn<S>(static_cast<const S*>(a.data()), n, Eigen::InnerStride<>(a.strides(0) / static_cast<py::ssize_t>(sizeof(S))));
}

/// A 2-D input (rows × cols in NumPy), mapped TRANSPOSED as a cols × rows column-major matrix (row k of
/// the array is column k of the map: one state per row in Python, one per column in C++). No copy.
template <class S>
MatrixIn<S> rows_as_columns(const char* call, const char* name, const py::handle& obj, py::ssize_t rows, py::ssize_t cols,
                            const char* labels) {
  const py::array a = checked_array<S>(call, name, obj, {rows, cols}, labels);
  const auto item = static_cast<py::ssize_t>(sizeof(S));
  return MatrixIn<S>(static_cast<const S*>(a.data()), a.shape(1), a.shape(0),
                     Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(a.strides(0) / item, a.strides(1) / item));
}

/// An output array: `out` checked (dtype S, the given shape, C-contiguous, writeable) or a new one.
template <class S>
py::array_t<S> output(const char* call, const py::handle& out, std::initializer_list<py::ssize_t> dims,
                      const char* labels) {
  if (out.is_none()) return py::array_t<S>(std::vector<py::ssize_t>(dims));
  const py::array a = checked_array<S>(call, "out", out, dims, labels);
  if (!(a.flags() & py::array::c_style) || !a.writeable())
    value_error(std::string(call) + ": argument 'out' must be C-contiguous and writeable");
  return py::reinterpret_borrow<py::array_t<S>>(out);
}

/// External forces: an (nbodies, 6) array of the model's dtype, row i = the force [n; f] (angular first) on
/// body i in body-i coordinates, or None (no forces), as the library's ForceRows view (no copy; the f_ext
/// type the compiled component is instantiated for with strided maps).
template <class S>
ForceRows<S> forces_in(const char* call, const py::handle& obj, int nbodies) {
  ForceRows<S> out;
  out.rows = nbodies;
  if (obj.is_none()) return out;
  const py::array a = checked_array<S>(call, "f_ext", obj, {nbodies, 6}, "model.nbodies, 6");
  const auto item = static_cast<py::ssize_t>(sizeof(S));
  out.data = static_cast<const S*>(a.data());
  out.row_stride = a.strides(0) / item;
  out.col_stride = a.strides(1) / item;
  return out;
}

/// The frame named by `frame` (a str; its body is no_parent when it is fixed on the base) or body `frame`
/// (an int, placement identity) of the model: (body, ^frame X_body).
template <class S>
std::pair<int, Transform<S>> frame_arg(const char* call, const Model<S>& model, const py::handle& frame) {
  if (py::isinstance<py::str>(frame)) {
    const Frame<S>& f = model.frame(frame.cast<std::string>());
    return {f.body, f.placement};  // body no_parent: a frame fixed on the base
  }
  if (!py::isinstance<py::int_>(frame)) value_error(std::string(call) + ": argument 'frame' must be a frame name or a body index");
  const int body = frame.cast<int>();
  if (body < 0 || body >= model.nbodies())
    value_error(std::string(call) + ": body " + std::to_string(body) + " is not below model.nbodies = " +
                std::to_string(model.nbodies()));
  return {body, Transform<S>::identity()};
}

/// The axes named by `reference` (docs/frame-motion.md#three-reference-frames), ValueError otherwise.
inline ReferenceFrame reference_arg(const char* call, const std::string& reference) {
  if (reference == "local") return ReferenceFrame::local;
  if (reference == "world_aligned") return ReferenceFrame::world_aligned;
  if (reference == "world_origin") return ReferenceFrame::world_origin;
  value_error(std::string(call) + ": reference must be 'local', 'world_aligned' or 'world_origin'; given '" + reference + "'");
}

/// The handle `obj` holds when it is a ModelHandle<S> (a Model for double, a ModelF32 for float, or a
/// Python subclass of either), else null. Public pybind11 API only: the class object is looked up once, an
/// object of another class is refused on a type comparison, and the cast reads the held value.
template <class S>
ModelHandle<S>* model_handle(const py::handle& obj) {
  static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(py::type::of<ModelHandle<S>>().ptr());
  if (Py_TYPE(obj.ptr()) != type && !PyType_IsSubtype(Py_TYPE(obj.ptr()), type)) return nullptr;
  return &obj.cast<ModelHandle<S>&>();
}

/// ValueError "<call>: argument '<name>' must be a treedyn.Model (float64) or treedyn.ModelF32 (float32); given <type>".
[[noreturn]] void model_type_error(const char* call, const char* name, const py::handle& obj);

/// One Python entry point over a function's two scalar forms f64 and f32, whose first argument is the model:
/// the returned callable takes the model as an object and calls the form of its type (no overload resolution).
template <class R64, class R32, class... A>
auto by_model(const char* call, R64 (*f64)(ModelHandle<double>&, A...), R32 (*f32)(ModelHandle<float>&, A...)) {
  return [call, f64, f32](const py::handle& model, A... a) -> py::object {
    if (ModelHandle<double>* h = model_handle<double>(model)) return f64(*h, a...);
    if (ModelHandle<float>* h = model_handle<float>(model)) return f32(*h, a...);
    model_type_error(call, "model", model);
  };
}

/// The docstring sentence on model.last_status of a call whose every result is NaN on a failure.
inline constexpr const char* nan_status_doc =
    "\nmodel.last_status: invalid_configuration (body) for a zero quaternion, non_finite_input (argument, "
    "row) for a NaN or an inf in an input (the results are NaN).";

/// The sentence every docstring of a by_model function ends with.
inline constexpr const char* both_dtypes_doc =
    "\n\nmodel: a Model (float64: every array argument and result float64) or a ModelF32 (float32: every array\n"
    "float32); any other first argument raises ValueError.";

/// Registers `name` as ONE Python function over the scalar forms f64 and f32 (by_model) with the arguments
/// `extra` (py::arg, py::kw_only) and the docstring `doc` followed by both_dtypes_doc.
template <class F64, class F32, class... Extra>
void def_by_model(py::module_& m, const char* name, F64 f64, F32 f32, const std::string& doc, const Extra&... extra) {
  m.def(name, by_model(name, f64, f32), extra..., (doc + both_dtypes_doc).c_str());
}

/// Registration functions, one per translation unit.
void bind_model(py::module_& m);
void bind_robots(py::module_& m);
void bind_urdf(py::module_& m);
void bind_mjcf(py::module_& m);
void bind_kinematics(py::module_& m);
void bind_kernels(py::module_& m);
void bind_dynamics(py::module_& m);
void bind_inertia(py::module_& m);
void bind_operational(py::module_& m);
void bind_contact(py::module_& m);
void bind_centroidal(py::module_& m);
void bind_derivatives(py::module_& m);

/// True for float32, false for float64; ValueError for any other dtype.
bool is_float32(const py::handle& dtype);

/// A Python Model (float64) or ModelF32 (float32: `model` cast once, Model::cast) for `dtype`.
py::object wrap_model(const Model<double>& model, const py::handle& dtype);

/// Setup-time numbers (builder arguments, gravity): any sequence or array of real numbers, read as float64.
Vector3<double> vector3_arg(const char* call, const char* name, const py::handle& obj);
Matrix3<double> matrix3_arg(const char* call, const char* name, const py::handle& obj);

}  // namespace treedyn::python
