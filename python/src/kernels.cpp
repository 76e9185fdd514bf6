// treedyn Python module: the kernels on any symmetric positive-definite matrix with branch-induced sparsity
// and its parent array (expand_parent_array, ltdl, ltl, the products and solves with their factors), and
// the topology generators and cost metrics (treedyn.topology). One
// entry point per function dispatches on the matrix's dtype (float64 or float32; no overload resolution).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "common.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltl.hpp"
#include "treedyn/kernels/tree_products.hpp"
#include "treedyn/topology/cost.hpp"
#include "treedyn/topology/generators.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace treedyn::python {
namespace {

template <class S>
using RowMajorMap = Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

/// Calls run(Tag<S>{}) with S the dtype of `A` (float64 or float32); ValueError for any other.
template <class Run>
py::object by_dtype(const char* call, const py::handle& A, Run run) {
  if (py::isinstance<py::array_t<double>>(A)) return std::move(run(Tag<double>{}));
  if (py::isinstance<py::array_t<float>>(A)) return std::move(run(Tag<float>{}));
  value_error(std::string(call) + ": argument 'A' must be a numpy.ndarray of dtype float64 or float32; given " +
              (py::isinstance<py::array>(A) ? "dtype " + text(py::reinterpret_borrow<py::array>(A).dtype())
                                            : text(A.get_type().attr("__name__"))));
}

/// A copy of the (n, n) array A (n = len(parents)) in `out` (checked: C-contiguous, writeable, A's dtype and
/// shape; it may be A itself) or a new C-contiguous array.
template <class S>
py::array_t<S> square_copy(const char* call, const py::handle& A, py::ssize_t n, const py::handle& out) {
  const py::array a = checked_array<S>(call, "A", A, {n, n}, "len(parents), len(parents)");
  py::array_t<S> F = output<S>(call, out, {n, n}, "len(parents), len(parents)");
  const auto item = static_cast<py::ssize_t>(sizeof(S));
  const MatrixIn<S> in(static_cast<const S*>(a.data()), n, n,
                       Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(a.strides(1) / item, a.strides(0) / item));
  if (F.data() != a.data() || a.strides(0) != n * item || a.strides(1) != item)  // out=A: already in place
    RowMajorMap<S>(F.mutable_data(), n, n) = in.eval();  // in(r, c) = A[r, c]; eval(): out may overlap A
  return F;
}

/// The parents checked regular (ValueError naming the first irregular entry otherwise).
std::vector<int> regular(std::vector<int> lambda) {
  validate_parent_array(lambda);
  return lambda;
}

/// Binds factor(A, parents) -> (F, FactorStatus): F a copy of A factorized in place by `kernel`.
template <class Kernel>
void bind_factor(py::module_& m, const char* name, Kernel kernel, const char* doc) {
  m.def(
      name,
      [name, kernel](const py::object& A, const std::vector<int>& parents, const py::object& out) {
        return by_dtype(name, A, [&](auto tag) {
          using S = typename decltype(tag)::type;
          const auto n = static_cast<py::ssize_t>(parents.size());
          py::array_t<S> F = square_copy<S>(name, A, n, out);
          FactorStatus status;
          {
            py::gil_scoped_release release;
            RowMajorMap<S> map(F.mutable_data(), n, n);
            status = kernel(map, parents);
          }
          return py::make_tuple(F, status);
        });
      },
      py::arg("A"), py::arg("parents"), py::kw_only(), py::arg("out") = py::none(),
      (std::string(doc) + "\nout: optional C-contiguous (n, n) array of A's dtype receiving F (it may be A itself:\n"
                          "A is then factorized in place).").c_str());
}

/// Binds product(F, parents, x, *, [unit=False,] out=None) -> y: `kernel(L, parents, x_in, y, unit)` with y
/// `out` (checked) or a new vector; with_unit false: no `unit` argument (the kernel's form is fixed).
template <class Kernel>
void bind_vector_op(py::module_& m, const char* name, Kernel kernel, bool with_unit, const char* doc) {
  const auto run = [name, kernel](const py::object& F, const std::vector<int>& parents, const py::object& x, bool unit,
                                  const py::object& out) {
    const std::vector<int> lambda = regular(parents);
    return by_dtype(name, F, [&](auto tag) {
      using S = typename decltype(tag)::type;
      const auto n = static_cast<py::ssize_t>(lambda.size());
      const py::array a = checked_array<S>(name, "F", F, {n, n}, "len(parents), len(parents)");
      const auto item = static_cast<py::ssize_t>(sizeof(S));
      const MatrixIn<S> Fm(static_cast<const S*>(a.data()), n, n,
                           Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(a.strides(1) / item, a.strides(0) / item));
      const VectorIn<S> xm = vector_in<S>(name, "x", x, n, "len(parents)");
      py::array_t<S> y = output<S>(name, out, {n}, "len(parents)");
      // out=x: x is copied first (mul_lt's y must not alias its x); any other overlap is refused.
      const S* x_first = xm.data();
      const S* x_last = xm.data() + (n > 0 ? (n - 1) * xm.innerStride() : 0);
      const bool same = n > 0 && y.data() == x_first && xm.innerStride() == 1;
      if (n > 0 && !same && y.data() <= std::max(x_first, x_last) && std::min(x_first, x_last) <= y.data() + (n - 1))
        value_error(std::string(name) + ": argument 'out' overlaps x without being x itself");
      Eigen::Matrix<S, Eigen::Dynamic, 1> x_copy;
      if (same) x_copy = xm;
      const VectorIn<S> xin = same ? VectorIn<S>(x_copy.data(), n, Eigen::InnerStride<>(1)) : xm;
      Eigen::Map<Eigen::Matrix<S, Eigen::Dynamic, 1>> ym(y.mutable_data(), n);
      {
        py::gil_scoped_release release;
        kernel(Fm, lambda, xin, ym, unit);
      }
      return y;
    });
  };
  const std::string text = std::string(doc) + "\nout: optional C-contiguous (n,) array of F's dtype receiving the result" +
                           " (it may be x itself).";
  if (with_unit) {
    m.def(name, run, py::arg("F"), py::arg("parents"), py::arg("x"), py::kw_only(), py::arg("unit") = false,
          py::arg("out") = py::none(), text.c_str());
  } else {
    m.def(
        name, [run](const py::object& F, const std::vector<int>& parents, const py::object& x, const py::object& out) {
          return run(F, parents, x, false, out);
        },
        py::arg("F"), py::arg("parents"), py::arg("x"), py::kw_only(), py::arg("out") = py::none(), text.c_str());
  }
}

void bind_topology(py::module_& m) {
  py::module_ t = m.def_submodule("topology", "Parent-array generators and the cost metrics of Featherstone (2005).");
  py::class_<CostMetrics>(t, "CostMetrics",
                          "Featherstone (2005) topology costs: D0 (eq. 15, nodes not on the base), D1 (eq. 8, nonzeros\n"
                          "below H's diagonal, LTDL divisions), D2 (eq. 9, LTDL multiply-adds), n (nodes).")
      .def_readonly("D0", &CostMetrics::D0)
      .def_readonly("D1", &CostMetrics::D1)
      .def_readonly("D2", &CostMetrics::D2)
      .def_readonly("n", &CostMetrics::n)
      .def_property_readonly("nonzeros", &CostMetrics::nonzeros, "structural nonzeros of H: n + 2 D1")
      .def_property_readonly("ltdl_ops", &CostMetrics::ltdl_ops, "LTDL operation count D1 + 2 D2")
      .def("__repr__", [](const CostMetrics& c) {
        return "CostMetrics(n=" + std::to_string(c.n) + ", D0=" + std::to_string(c.D0) + ", D1=" + std::to_string(c.D1) +
               ", D2=" + std::to_string(c.D2) + ")";
      });
  t.def("cost_metrics", [](const std::vector<int>& parents) { return treedyn::cost_metrics(parents); }, py::arg("parents"),
        "cost_metrics(parents) -> CostMetrics (ValueError for an irregular array)");
  t.def("dense_cost_metrics", &treedyn::dense_cost_metrics, py::arg("n"), "The metrics of a chain of n nodes (a dense H).");
  t.def("dense_to_sparse_ratio",
        [](const std::vector<int>& parents) { return treedyn::dense_to_sparse_ratio<double>(parents); }, py::arg("parents"),
        "dense_cost_metrics(n).ltdl_ops / cost_metrics(parents).ltdl_ops (Featherstone 2005, section 4.2).");
  t.def("chain", &treedyn::topologies::chain, py::arg("n"), "An unbranched chain of n bodies: parents[i] = i - 1.");
  t.def("star", &treedyn::topologies::star, py::arg("n"), "n bodies each on the base (a diagonal H).");
  t.def("short_side_branches", &treedyn::topologies::short_side_branches, py::arg("m"),
        "A chain of m bodies, each carrying a one-body side branch (Featherstone 2005, Fig. 4(a)); 2m nodes.");
  t.def("binary_tree", &treedyn::topologies::binary_tree, py::arg("m"), "A balanced binary tree of m levels (2^m - 1 nodes).");
  t.def("grid_spanning_tree", &treedyn::topologies::grid_spanning_tree, py::arg("m"), "A shortest-path spanning tree of an m x m grid.");
  t.def("humanoid", &treedyn::topologies::humanoid, py::arg("limbs") = 4, py::arg("per_limb") = 6,
        "A torso carrying `limbs` serial limbs of `per_limb` bodies (Featherstone 2005, section 6).");
  t.def("humanoid_dofs", &treedyn::topologies::humanoid_dofs, py::arg("limbs") = 4, py::arg("per_limb") = 6, py::arg("torso_dofs") = 6,
        "DoFs per body of humanoid(limbs, per_limb), for expand_parent_array.");
  t.def("random_tree", &treedyn::topologies::random_tree, py::arg("n"), py::arg("seed"),
        "A random regular parent array of n nodes, a pure function of (n, seed).");
}

}  // namespace

void bind_kernels(py::module_& m) {
  bind_topology(m);
  m.def(
      "expand_parent_array",
      [](const std::vector<int>& parents, const std::vector<int>& dofs) { return treedyn::expand_parent_array(parents, dofs); },
      py::arg("parents"), py::arg("dofs"),
      "expand_parent_array(parents, dofs) -> list\n\n"
      "The parent array over degrees of freedom (Featherstone 2005, section 2): body i with dofs[i] DoFs becomes\n"
      "a chain of dofs[i] rows; the result is the parent array of H's rows. ValueError for an irregular array.");
  bind_factor(
      m, "ltdl", [](auto& A, const std::vector<int>& lambda) { return treedyn::ltdl(A, lambda); },
      "ltdl(A, parents, *, out=None) -> (F, status)\n\n"
      "The sparse LTDL factorization A = L^T D L (Featherstone 2005, App. A) of a symmetric positive-definite\n"
      "A (n, n) (float64 or float32; only its lower triangle is read) whose lower-triangle nonzeros lie in\n"
      "ancestor columns of the regular parent array `parents` (n,). F: a copy of A with D on the diagonal and\n"
      "L (unit diagonal implied) in the ancestor entries of the lower triangle. status: a FactorStatus naming\n"
      "the first row (from the bottom) whose pivot is not > 0 (the factorization stops there), or the first\n"
      "irregular parent (invalid_parent_array).");
  bind_factor(
      m, "ltl", [](auto& A, const std::vector<int>& lambda) { return treedyn::ltl(A, lambda); },
      "ltl(A, parents, *, out=None) -> (F, status)\n\n"
      "The sparse LTL factorization A = L^T L (Featherstone 2005, App. A): as ltdl, F holding L (diagonal\n"
      "included) in the lower triangle.");
  const auto unit_or_not = [](auto plain, auto unit_form) {
    return [plain, unit_form](const auto& L, const std::vector<int>& lambda, const auto& x, auto& y, bool unit) {
      y = x;
      if (unit) unit_form(L, lambda, y); else plain(L, lambda, y);
    };
  };
  bind_vector_op(
      m, "mul_l",
      unit_or_not([](const auto& L, const auto& l, auto& y) { treedyn::mul_l(L, l, y); },
                  [](const auto& L, const auto& l, auto& y) { treedyn::mul_l_unit(L, l, y); }),
      true,
      "mul_l(F, parents, x, *, unit=False, out=None) -> L @ x\n\n"
      "L the lower triangle of a factor F from ltl (unit=False) or ltdl (unit=True: unit diagonal implied).");
  bind_vector_op(
      m, "mul_lt",
      [](const auto& L, const std::vector<int>& lambda, const auto& x, auto& y, bool unit) {
        if (unit) treedyn::mul_lt_unit(L, lambda, x, y); else treedyn::mul_lt(L, lambda, x, y);
      },
      true,
      "mul_lt(F, parents, x, *, unit=False, out=None) -> L^T @ x\n\nL as in mul_l.");
  bind_vector_op(
      m, "solve_l",
      unit_or_not([](const auto& L, const auto& l, auto& y) { treedyn::solve_l(L, l, y); },
                  [](const auto& L, const auto& l, auto& y) { treedyn::solve_l_unit(L, l, y); }),
      true,
      "solve_l(F, parents, x, *, unit=False, out=None) -> L^-1 @ x\n\nL as in mul_l.");
  bind_vector_op(
      m, "solve_lt",
      unit_or_not([](const auto& L, const auto& l, auto& y) { treedyn::solve_lt(L, l, y); },
                  [](const auto& L, const auto& l, auto& y) { treedyn::solve_lt_unit(L, l, y); }),
      true,
      "solve_lt(F, parents, x, *, unit=False, out=None) -> L^-T @ x\n\nL as in mul_l.");
  const auto solve = [](auto kernel) {
    return [kernel](const auto& A, const std::vector<int>& lambda, const auto& x, auto& y, bool) {
      y = x;
      kernel(A, lambda, y);
    };
  };
  bind_vector_op(
      m, "ltdl_solve", solve([](const auto& A, const auto& l, auto& y) { treedyn::ltdl_solve(A, l, y); }), false,
      "ltdl_solve(F, parents, x, *, out=None) -> A^-1 @ x\n\n"
      "The solve with a factor F = ltdl(A, parents)[0] (float64 or float32 by F's dtype) in one call: x <- L^-T x,\n"
      "x_i <- x_i / D_i, x <- L^-1 x (Featherstone 2005, Table 1), i.e. solve_l(F, p, solve_lt(F, p, x, unit=True)\n"
      "/ diag(F), unit=True). Check ltdl's status first: with a failed factor the result is meaningless.");
  bind_vector_op(
      m, "ltl_solve", solve([](const auto& A, const auto& l, auto& y) { treedyn::ltl_solve(A, l, y); }), false,
      "ltl_solve(F, parents, x, *, out=None) -> A^-1 @ x\n\n"
      "The solve with a factor F = ltl(A, parents)[0] in one call: x <- L^-T x, then x <- L^-1 x. Check ltl's\n"
      "status first: with a failed factor the result is meaningless.");
}

}  // namespace treedyn::python
