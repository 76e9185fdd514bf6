// treedyn Python module: the batched calls aba_batch, rnea_batch, crba_batch, rnea_derivatives_batch and
// aba_derivatives_batch (docs/python.md#batches): their float64 and float32 forms (Batches<S>) and one entry point
// per function that dispatches on the model's type (common.hpp, def_by_model). A call runs on the model's
// BatchRunner (treedyn/parallel/batch.hpp: one state per kernel call, bit for bit the single-state call) or, with
// lanes=True, on its LaneBatchRunner (treedyn/parallel/lane_batch.hpp: native_lane_width<S> states per kernel call,
// docs/lanes.md#the-batch-runner-on-lanes; the derivatives through its for_each_pack). The runners are made on first use and kept
// with the model (ModelHandle::batch); this unit instantiates the kernels on lanes (the compiled component holds
// the scalar ones only; the derivatives are instantiated here and in derivatives.cpp).
#include <array>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "common.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"
#include "treedyn/parallel/batch.hpp"
#if __has_include(<experimental/simd>)
#include "treedyn/parallel/lane_batch.hpp"
#define TREEDYN_PYTHON_LANES 1
#else
#define TREEDYN_PYTHON_LANES 0
#endif

namespace treedyn::python {

/// The model's batch runners, kept behind ModelHandle::batch: made on first use with `threads` threads and
/// made again when a call asks for another count.
template <class S>
struct Runners {
  int threads = 0;
  std::unique_ptr<BatchRunner<S>> scalar;
#if TREEDYN_PYTHON_LANES
  std::unique_ptr<LaneBatchRunner<S>> lanes;
#endif
};

/// aba_batch, rnea_batch and crba_batch in scalar S.
template <class S>
struct Batches {
  using H = ModelHandle<S>;
  using Obj = const py::object&;
  static py::array_t<S> aba_batch(H& h, Obj Q, Obj V, Obj T, Obj out, int threads, bool lanes);
  static py::array_t<S> rnea_batch(H& h, Obj Q, Obj V, Obj A, Obj out, int threads, bool lanes);
  static py::array_t<S> crba_batch(H& h, Obj Q, Obj out, int threads, bool lanes);
  static py::tuple rnea_derivatives_batch(H& h, Obj Q, Obj V, Obj A, int threads, bool lanes);
  static py::tuple aba_derivatives_batch(H& h, Obj Q, Obj V, Obj T, int threads, bool lanes);
};

/// The number n of states of a batched call: the rows of Q (n, model.nq); ValueError when Q is not 2-D.
template <class S>
py::ssize_t batch_rows(const char* call, const ModelHandle<S>& h, const py::handle& Q) {
  if (!py::isinstance<py::array>(Q) || py::reinterpret_borrow<py::array>(Q).ndim() != 2)
    value_error(std::string(call) + ": argument 'Q' must be a numpy.ndarray of dtype " + dtype_name<S>() +
                " and shape (n, " + std::to_string(h.model.nq()) + ") (n, model.nq)");
  return py::reinterpret_borrow<py::array>(Q).shape(0);
}

/// run(runner) -> BatchStatus on the model's BatchRunner, or its LaneBatchRunner when `lanes` (either made on
/// `threads` threads on first use or when the count changes), with the GIL released and the model's lock
/// taken; its status kept in model.last_batch_status. Both runners have the same calls, so `run` is generic.
template <class S, class Run>
void run_batch(const char* call, ModelHandle<S>& h, int threads, bool lanes, Run run) {
  if (threads < 1) value_error(std::string(call) + ": threads must be >= 1");
  if (lanes && !TREEDYN_PYTHON_LANES)
    value_error(std::string(call) + ": lanes=True needs <experimental/simd>, which this build's compiler lacks");
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(h.mutex);
  if (!h.batch) h.batch = std::make_shared<Runners<S>>();
  auto& runners = *static_cast<Runners<S>*>(h.batch.get());
  if (runners.threads != threads) {
    runners = Runners<S>{};
    runners.threads = threads;
  }
  BatchStatus s;
#if TREEDYN_PYTHON_LANES
  if constexpr (std::is_invocable_v<Run&, LaneBatchRunner<S>&>)  // a call with a lane form
    if (lanes) {
      if (!runners.lanes) runners.lanes = std::make_unique<LaneBatchRunner<S>>(h.model, threads);
      s = run(*runners.lanes);
    }
#endif
  if (!lanes) {
    if (!runners.scalar) runners.scalar = std::make_unique<BatchRunner<S>>(h.model, threads);
    s = run(*runners.scalar);
  }
  h.last_batch_status = BatchReport{s.failures, s.first_failed, s.first_status};
}

/// A batched (Q, V, X) -> (n, nv) call: method(runner, Q, V, X, OUT) runs the runner's kernel on the rows of
/// Q (n, nq), V and X (n, nv; X named x_name) as columns of nv x n maps.
template <class S, class Method>
py::array_t<S> dynamics_batch(const char* call, ModelHandle<S>& h, const py::object& Q, const py::object& V,
                              const char* x_name, const py::object& X, const py::object& out, int threads, bool lanes,
                              Method method) {
  const py::ssize_t n = batch_rows<S>(call, h, Q);
  const py::ssize_t nv = h.model.nv();
  const MatrixIn<S> Qm = rows_as_columns<S>(call, "Q", Q, n, h.model.nq(), "n, model.nq");
  const MatrixIn<S> Vm = rows_as_columns<S>(call, "V", V, n, nv, "n, model.nv");
  const MatrixIn<S> Xm = rows_as_columns<S>(call, x_name, X, n, nv, "n, model.nv");
  py::array_t<S> result = output<S>(call, out, {n, nv}, "n, model.nv");
  Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>> OUT(result.mutable_data(), nv, n);
  run_batch(call, h, threads, lanes, [&](auto& r) { return method(r, Qm, Vm, Xm, OUT); });
  return result;
}

template <class S>
py::array_t<S> Batches<S>::aba_batch(H& h, Obj Q, Obj V, Obj T, Obj out, int threads, bool lanes) {
  return dynamics_batch<S>("aba_batch", h, Q, V, "T", T, out, threads, lanes,
                           [](auto& r, const auto& Qm, const auto& Vm, const auto& Tm, auto& QDD) {
                             return r.aba(Qm, Vm, Tm, QDD);
                           });
}

template <class S>
py::array_t<S> Batches<S>::rnea_batch(H& h, Obj Q, Obj V, Obj A, Obj out, int threads, bool lanes) {
  return dynamics_batch<S>("rnea_batch", h, Q, V, "A", A, out, threads, lanes,
                           [](auto& r, const auto& Qm, const auto& Vm, const auto& Am, auto& TAU) {
                             return r.rnea(Qm, Vm, Am, TAU);
                           });
}

/// crba over the rows of Q into the full symmetric (n, nv, nv) H. H is symmetric, so the column-major map of row
/// k's row-major (nv, nv) block is exact. On the BatchRunner each state's crba is unpacked by dense_H straight into
/// its block, on its thread; on lanes the runner's packed H (one column per state) is unpacked afterwards, each
/// column's lower triangle mirrored into the block.
template <class S>
py::array_t<S> Batches<S>::crba_batch(H& h, Obj Q, Obj out, int threads, bool lanes) {
  constexpr const char* call = "crba_batch";
  const py::ssize_t n = batch_rows<S>(call, h, Q);
  const py::ssize_t nv = h.model.nv();
  const MatrixIn<S> Qm = rows_as_columns<S>(call, "Q", Q, n, h.model.nq(), "n, model.nq");
  py::array_t<S> result = output<S>(call, out, {n, nv, nv}, "n, model.nv, model.nv");
  S* dst = result.mutable_data();
  using Block = Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>>;
  run_batch(call, h, threads, lanes, [&](auto& r) {
    if constexpr (std::is_same_v<std::decay_t<decltype(r)>, BatchRunner<S>>) {
      return r.for_each(static_cast<int>(n), [&](const Model<S>& model, Data<S>& data, int k) {
        treedyn::crba(model, data, Qm.col(k));
        dense_H(model, data, Block(dst + k * nv * nv, nv, nv));
        return data.config_status;
      });
    } else {
      Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> packed(h.model.h_pattern().nonzeros(), n), lower(nv, nv);
      const BatchStatus s = r.crba(Qm, packed);
      for (py::ssize_t k = 0; k < n; ++k) {
        lower.setZero();
        h.model.h_pattern().unpack(packed.col(k), lower);
        Block(dst + k * nv * nv, nv, nv) = lower.template selfadjointView<Eigen::Lower>();
      }
      return s;
    }
  });
  return result;
}

/// A batched derivative call: `count` (n, nv, nv) arrays, block k of array c = matrices(ws)[c] after
/// kernel(model, data, ws, Q.col(k), V.col(k), X.col(k)), one workspace per thread (built per call: this path
/// may allocate). On the BatchRunner bit for bit the single-row call; with `lanes` on the LaneBatchRunner's
/// packs (for_each_pack), the failing lanes again by the scalar call, as LaneBatchRunner::aba does. A failed row
/// is NaN, as the single-row call leaves it.
template <class S, template <class, int> class Ws, std::size_t count, class Kernel, class Matrices>
py::tuple derivatives_batch(const char* call, ModelHandle<S>& h, const py::object& Q, const py::object& V,
                            const char* x_name, const py::object& X, int threads, bool lanes, const Kernel& kernel,
                            const Matrices& matrices) {
  const py::ssize_t n = batch_rows<S>(call, h, Q);
  const py::ssize_t nv = h.model.nv();
  const MatrixIn<S> Qm = rows_as_columns<S>(call, "Q", Q, n, h.model.nq(), "n, model.nq");
  const MatrixIn<S> Vm = rows_as_columns<S>(call, "V", V, n, nv, "n, model.nv");
  const MatrixIn<S> Xm = rows_as_columns<S>(call, x_name, X, n, nv, "n, model.nv");
  if (threads < 1) value_error(std::string(call) + ": threads must be >= 1");
  std::vector<std::unique_ptr<Ws<S, Dynamic>>> ws;
  for (int t = 0; t < threads; ++t) ws.push_back(std::make_unique<Ws<S, Dynamic>>(h.model));
  std::array<py::array_t<S>, count> out;
  for (py::array_t<S>& o : out) o = py::array_t<S>({n, nv, nv});
  std::array<S*, count> dst{};
  for (std::size_t c = 0; c < count; ++c) dst[c] = out[c].mutable_data();
  using Block = Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
  // Row k by the scalar call on thread t's workspace, into its blocks.
  const auto one_row = [&](const Model<S>& model, Data<S>& data, int k, int t) {
    Ws<S, Dynamic>& w = *ws[static_cast<std::size_t>(t)];
    const Status s = kernel(model, data, w, Qm.col(k), Vm.col(k), Xm.col(k));
    const auto m = matrices(w);
    for (std::size_t c = 0; c < count; ++c) Block(dst[c] + k * nv * nv, nv, nv) = *m[c];
    return s;
  };
  run_batch(call, h, threads, lanes, [&](auto& r) {
#if TREEDYN_PYTHON_LANES
    if constexpr (std::is_same_v<std::decay_t<decltype(r)>, LaneBatchRunner<S>>) {
      using Runner = LaneBatchRunner<S>;
      using LaneWs = Ws<typename Runner::Lane, Dynamic>;
      std::vector<std::unique_ptr<LaneWs>> lane_ws;
      std::vector<std::array<typename Runner::LaneVector, 3>> in(static_cast<std::size_t>(threads));
      for (int t = 0; t < threads; ++t) {
        lane_ws.push_back(std::make_unique<LaneWs>(r.lane_model()));
        auto& x = in[static_cast<std::size_t>(t)];
        x[0].resize(h.model.nq());
        x[1].resize(nv);
        x[2].resize(nv);
      }
      return r.for_each_pack(static_cast<int>(n), [&](const auto& lane_model, auto& lane_data, const Model<S>& model,
                                                      Data<S>& data, int k0, int pack_size, int t) {
        auto& x = in[static_cast<std::size_t>(t)];
        Runner::gather_lanes(Qm, x[0], k0, pack_size);
        Runner::gather_lanes(Vm, x[1], k0, pack_size);
        Runner::gather_lanes(Xm, x[2], k0, pack_size);
        LaneWs& w = *lane_ws[static_cast<std::size_t>(t)];
        kernel(lane_model, lane_data, w, x[0], x[1], x[2]);
        const auto m = matrices(w);
        const auto failed = std::apply([&](const auto*... y) { return r.failing_lanes(x[0], x[1], x[2], *y...); }, m);
        BatchStatus pack;
        for (int j = 0; j < pack_size; ++j) {
          const int k = k0 + j;
          if (failed[static_cast<std::size_t>(j)]) {
            pack.add(k, one_row(model, data, k, t));
            continue;
          }
          for (std::size_t c = 0; c < count; ++c) {
            Block b(dst[c] + k * nv * nv, nv, nv);
            for (Eigen::Index col = 0; col < nv; ++col)
              for (Eigen::Index row = 0; row < nv; ++row) b(row, col) = (*m[c])(row, col).lane(j);
          }
        }
        return pack;
      });
    } else
#endif
    {
      return r.for_each(static_cast<int>(n),
                        [&](const Model<S>& model, Data<S>& data, int k, int t) { return one_row(model, data, k, t); });
    }
  });
  return std::apply([](auto&... o) { return py::make_tuple(o...); }, out);
}

template <class S>
py::tuple Batches<S>::rnea_derivatives_batch(H& h, Obj Q, Obj V, Obj A, int threads, bool lanes) {
  return derivatives_batch<S, RneaDerivativesWorkspace, 2>(
      "rnea_derivatives_batch", h, Q, V, "A", A, threads, lanes, [](auto&&... a) { return treedyn::rnea_derivatives(a...); },
      [](const auto& ws) { return std::array{&ws.dtau_dq, &ws.dtau_dv}; });
}

template <class S>
py::tuple Batches<S>::aba_derivatives_batch(H& h, Obj Q, Obj V, Obj T, int threads, bool lanes) {
  return derivatives_batch<S, AbaDerivativesWorkspace, 3>(
      "aba_derivatives_batch", h, Q, V, "T", T, threads, lanes, [](auto&&... a) { return treedyn::aba_derivatives(a...); },
      [](const auto& ws) { return std::array{&ws.ddq_dq, &ws.ddq_dv, &ws.ddq_dtau}; });
}

void bind_batch(py::module_& m) {
  using D = Batches<double>;
  using F = Batches<float>;
  const py::object none = py::none();
  const std::string batch_note =
      "The loop runs in C++ on `threads` threads with the GIL released (threads - 1 workers kept with the\n"
      "model). lanes=False: one state per kernel call, bit for bit a loop of the single-row call. lanes=True:\n"
      "the native SIMD width of states per kernel call (LaneBatchRunner; 2 float64 or 4 float32 lanes with\n"
      "the default x86-64 flags), within a few ulps times the condition of H of the single-row call (its sin and cos are\n"
      "vectorised). Failed rows are NaN and counted in model.last_batch_status, either way with the\n"
      "single-row call's status.";
  def_by_model(m, "aba_batch", &D::aba_batch, &F::aba_batch,
               std::string("aba_batch(model, Q, V, T, *, out=None, threads=1, lanes=False) -> QDD\n\n"
                           "aba over the rows of Q (n, nq), V (n, nv), T (n, nv): QDD (n, nv); out: optional preallocated\n"
                           "C-contiguous (n, nv) array. ") + batch_note,
               py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("T"), py::kw_only(), py::arg("out") = none,
               py::arg("threads") = 1, py::arg("lanes") = false);
  def_by_model(m, "rnea_batch", &D::rnea_batch, &F::rnea_batch,
               std::string("rnea_batch(model, Q, V, A, *, out=None, threads=1, lanes=False) -> TAU\n\n"
                           "rnea (without external forces) over the rows of Q (n, nq), V (n, nv), A (n, nv): TAU (n, nv);\n"
                           "out: optional preallocated C-contiguous (n, nv) array. Row status: invalid_configuration. ") + batch_note,
               py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("A"), py::kw_only(), py::arg("out") = none,
               py::arg("threads") = 1, py::arg("lanes") = false);
  def_by_model(m, "crba_batch", &D::crba_batch, &F::crba_batch,
               std::string("crba_batch(model, Q, *, out=None, threads=1, lanes=False) -> H\n\n"
                           "crba over the rows of Q (n, nq): H (n, nv, nv), H[k] the full symmetric H(Q[k]); out: optional\n"
                           "preallocated C-contiguous (n, nv, nv) array. Row status: invalid_configuration. ") + batch_note,
               py::arg("model"), py::arg("Q"), py::kw_only(), py::arg("out") = none, py::arg("threads") = 1,
               py::arg("lanes") = false);
  const char* derivative_note =
      "\nEvery array is (n, nv, nv): block k is row k's matrix, laid out as the single-row call's. The loop runs\n"
      "in C++ on `threads` threads with the GIL released, one workspace per thread. lanes=False: bit for bit a\n"
      "loop of the single-row call; lanes=True: the native SIMD width of rows per call, within a few ulps times\n"
      "cond(H) of it. Failed rows are NaN and counted in model.last_batch_status, with the single-row call's status.";
  def_by_model(m, "rnea_derivatives_batch", &D::rnea_derivatives_batch, &F::rnea_derivatives_batch,
               std::string("rnea_derivatives_batch(model, Q, V, A, *, threads=1, lanes=False) -> (dtau_dq, dtau_dv)\n\n"
                           "rnea_derivatives (without external forces) over the rows of Q (n, nq), V (n, nv), A (n, nv).") +
                   derivative_note,
               py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("A"), py::kw_only(), py::arg("threads") = 1,
               py::arg("lanes") = false);
  def_by_model(m, "aba_derivatives_batch", &D::aba_derivatives_batch, &F::aba_derivatives_batch,
               std::string("aba_derivatives_batch(model, Q, V, T, *, threads=1, lanes=False) -> (ddq_dq, ddq_dv, ddq_dtau)\n\n"
                           "aba_derivatives (without external forces) over the rows of Q (n, nq), V (n, nv), T (n, nv).") +
                   derivative_note,
               py::arg("model"), py::arg("Q"), py::arg("V"), py::arg("T"), py::kw_only(), py::arg("threads") = 1,
               py::arg("lanes") = false);
}

}  // namespace treedyn::python
