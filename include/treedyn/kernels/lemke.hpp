// lemke: Lemke's complementary pivoting method for the linear complementarity problem LCP(q, M),
//   find z ∈ ℝⁿ with  w = M z + q ≥ 0,  z ≥ 0,  wᵀ z = 0,
// with lexicographic degeneracy resolution, on any dense M (not only the operational-space matrices of the
// contact layer), so it can be used and tested on its own.
//
// Reference: Cottle, Pang, Stone (1992), §4.4 (Lemke's method, "Scheme I" with covering vector d = 1) and
// §4.9 (lexicographic degeneracy resolution); docs/references.md.
//
// Tableau. The augmented system  w − M z − d z₀ = q  in the 2n + 1 variables (w, z, z₀) is kept as
//   T = B⁻¹ [ I | −M | −d | q ]        columns: w_1 … w_n | z_1 … z_n | z₀ | right-hand side,
// B the current basis (initially the columns of w, B = I); basis[r] is the variable of row r. Columns
// 0 … n−1 of T hold B⁻¹ itself, which the lexicographic rule reads. Variable v's complement is v ± n.
//   L1  if q ≥ 0, z = 0 solves it (w = q): stop with no pivot.
//   L2  z₀ enters at the smallest value making every basic variable ≥ 0: the leaving row r minimises
//       (q_i, e_iᵀ) lexicographically (d = 1), i.e. the most negative q_i, ties to the largest i. After
//       the pivot every row (rhs_i, B⁻¹_i·) is lexicographically positive, and every later pivot keeps it so.
//   L3  the entering variable is the complement of the one that just left the basis.
//   L4  ratio test on the entering column c: among rows with T_ic > tol choose r minimising
//       (rhs_i, B⁻¹_i·) / T_ic lexicographically; when z₀'s row ties on the first component it is taken,
//       which ends the method. No row with T_ic > tol: the ray termination (no solution found; for a
//       copositive-plus M, e.g. positive semi-definite, it proves the LCP infeasible).
//   L5  Gauss–Jordan pivot on (r, c): basis[r] = c; the leaving variable is the old basis[r].
//   L6  when z₀ has left the basis, the basic solution is complementary with z₀ = 0: read z off the
//       rows of z_i, stop; otherwise go to L3.
// The lexicographic rule makes the sequence of bases strictly monotone, so no basis repeats and the method
// ends after finitely many pivots even on degenerate problems (a plain minimum-ratio rule with an arbitrary
// tie-break may cycle: see the tests). The cap on pivots (`max_pivots`, default 50 + 20n) is a guard
// against round-off, not part of the method.
//
// Tolerances. Pivot candidates need T_ic > tol = 1e3·ε·max(1, max|M_ij|) (scaled, as every tableau entry
// is a ratio of sums of products of M's entries). Two ratios a, b of the lexicographic comparison tie when
// they differ by at most 1e3·ε·max(|a|, |b|, floor), floor = max|q| / max(1, max|M|) (the scale of z) for
// the right-hand side and 1 / max(1, max|M|) (the scale of B⁻¹) for the others: without the tolerance a
// one-ulp difference between two ratios that are equal in exact arithmetic picks the wrong row, and the
// method can cycle as if it had no degeneracy rule.
//
// Why not projected Gauss–Seidel: PGS sweeps z_i ← max(0, z_i − w_i / M_ii), so it needs M_ii > 0 and
// converges for symmetric positive (semi-)definite M. The frictional contact LCP of the contact layer
// (Stewart and Trinkle 1996) has a zero diagonal block: the rows of the
// friction-cone slack λ and of the friction coefficients pair μ p_n − Eᵀ β with λ, whose diagonal is 0,
// and the matrix is not symmetric. PGS cannot even take its first step there; Lemke's method only needs
// the LCP to have a solution of the class it is guaranteed on (copositive-plus M and a feasible LCP).
//
// After a solved return the residual max_i |min(w_i, z_i)| of w = M z + q, recomputed from M and q (not
// read off the tableau), is in ws.residual(): 0 exactly means z ≥ 0, w ≥ 0 and wᵀz = 0.
//
// Contract: LemkeWorkspace(capacity) allocates once; lemke(ws, M, q) takes a square M and q with n ≤
// capacity rows (else the check handler of detail/check.hpp, LcpStatus::invalid_argument), never
// allocates and is noexcept; non-finite entries give LcpStatus::non_finite_input, z = NaN. Cost: O(n²) per
// pivot (one Gauss–Jordan step on the n × (2n + 2) tableau), typically O(n) pivots.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "treedyn/detail/check.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/status.hpp"

namespace treedyn {

/// How an LCP solve ended (a Status, treedyn/status.hpp), how many pivots it took and the residual it checked.
/// Codes from lemke: success (z is a solution; `residual` says how exactly), ray_termination (the entering
/// column has no positive entry: for copositive-plus M the LCP has no solution), pivot_cap (max_pivots
/// reached; only round-off can cause it), non_finite_input (M or q has a NaN or an infinity),
/// invalid_argument (a size check failed and the check handler returned). contact_lcp adds
/// non_positive_pivot at `row` (its bilateral block G_bb is not positive definite).
template <class Scalar>
struct LcpStatus : Status {
  int pivots = 0;                 ///< Gauss–Jordan pivots taken (the first one brings z₀ in)
  Scalar residual = Scalar(0);    ///< max_i |min(w_i, z_i)| of w = M z + q for the z returned

  /// A status that ended with `c` before any pivot, reported by `by`.
  static LcpStatus ended(Code c, const char* by) noexcept {
    LcpStatus s;
    s.code = c;
    s.call = c == Code::success ? nullptr : by;
    s.residual = c == Code::non_finite_input ? detail::nan<Scalar>() : Scalar(0);
    return s;
  }
};

/// How lemke breaks ties in the minimum-ratio test. `lexicographic` is the method; `first_row` (the plain
/// rule: the lowest row index among ties) exists to show in tests that degenerate problems need the former.
enum class LemkeTieRule { lexicographic, first_row };

/// The tableau, basis and outputs of lemke for problems of up to `capacity` unknowns. Allocates once. A plain
/// struct like every workspace of the library: lemke writes its fields; the member functions read the last
/// problem's part of the capacity-sized buffers.
template <class Scalar>
struct LemkeWorkspace {
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

  explicit LemkeWorkspace(int capacity)
      : tableau(Matrix::Zero(capacity, 2 * capacity + 2)),
        basis(static_cast<std::size_t>(capacity), 0),
        z_values(Vector::Zero(capacity)),
        w_values(Vector::Zero(capacity)),
        max_size(capacity) {}

  [[nodiscard]] int capacity() const noexcept { return max_size; }
  /// n of the last problem solved.
  [[nodiscard]] int size() const noexcept { return n; }
  /// The solution z of the last problem (n entries).
  [[nodiscard]] auto z() const noexcept { return z_values.head(n); }
  /// w = M z + q for that z (n entries).
  [[nodiscard]] auto w() const noexcept { return w_values.head(n); }
  [[nodiscard]] const LcpStatus<Scalar>& status() const noexcept { return last_status; }
  [[nodiscard]] Scalar residual() const noexcept { return last_status.residual; }

  /// Cap on pivots; 0 (the default) means 50 + 20n.
  int max_pivots = 0;
  LemkeTieRule tie_rule = LemkeTieRule::lexicographic;

  Matrix tableau;             ///< [I, −M, −e, q] (n × 2n + 2), pivoted in place
  std::vector<int> basis;     ///< the basic variable of each row (w_i: i, z_i: n + i, z₀: 2n)
  Vector z_values, w_values;  ///< z and w (z(), w())
  LcpStatus<Scalar> last_status;  ///< status()
  int max_size = 0;           ///< capacity()
  int n = 0;                  ///< size()
};

namespace detail {

/// L5: Gauss–Jordan pivot of T on (r, c).
template <class DT>
void lemke_pivot(Eigen::MatrixBase<DT>& T, int r, int c) noexcept {
  using Scalar = typename DT::Scalar;
  const Scalar inv = Scalar(1) / T(r, c);
  T.row(r) *= inv;
  T(r, c) = Scalar(1);
  for (Eigen::Index i = 0; i < T.rows(); ++i) {
    if (i == r) continue;
    const Scalar f = T(i, c);
    if (f != Scalar(0)) {
      T.row(i) -= f * T.row(r);
      T(i, c) = Scalar(0);
    }
  }
}

/// Two ratios compared with the tie tolerance of the file comment: −1 if a < b, +1 if a > b, 0 on a tie.
template <class Scalar>
int lemke_compare(const Scalar& a, const Scalar& b, const Scalar& floor) noexcept {
  using std::abs;
  const Scalar tie = Scalar(1e3) * detail::epsilon<Scalar>() * std::max({abs(a), abs(b), floor});
  return a < b - tie ? -1 : (a > b + tie ? 1 : 0);
}

/// L4's order on candidate rows a, b for entering column c: the rows (rhs_i, B⁻¹_i·) / T_ic compared
/// lexicographically, each component with the tie tolerance (floors: scale_z for the right-hand side,
/// binv_floor for B⁻¹). The first component alone when `lexicographic` is false.
template <class DT, class Scalar>
int lemke_order(const Eigen::MatrixBase<DT>& T, int a, int b, int c, int n, const Scalar& rhs_floor,
                const Scalar& binv_floor, bool lexicographic) noexcept {
  const int rhs = 2 * n + 1;
  const int first = lemke_compare<Scalar>(T(a, rhs) / T(a, c), T(b, rhs) / T(b, c), rhs_floor);
  if (first != 0 || !lexicographic) return first;
  for (int k = 0; k < n; ++k) {
    const int next = lemke_compare<Scalar>(T(a, k) / T(a, c), T(b, k) / T(b, c), binv_floor);
    if (next != 0) return next;
  }
  return 0;  // equal rows of B⁻¹ cannot happen (B⁻¹ is nonsingular) beyond round-off
}

/// L4: the leaving row for entering column c, or −1 (ray termination). z0_row is the row of z₀.
template <class DT, class Scalar>
int lemke_ratio_test(const Eigen::MatrixBase<DT>& T, int c, int n, int z0_row, const Scalar& tol,
                     const Scalar& rhs_floor, const Scalar& binv_floor, LemkeTieRule rule) noexcept {
  const int rhs = 2 * n + 1;
  int best = -1;
  for (int i = 0; i < n; ++i) {
    if (!(T(i, c) > tol)) continue;
    if (best < 0) {
      best = i;
      continue;
    }
    const bool z0_ties = (i == z0_row || best == z0_row) &&
                         lemke_compare<Scalar>(T(i, rhs) / T(i, c), T(best, rhs) / T(best, c), rhs_floor) == 0;
    if (z0_ties) {                                                   // z₀ leaves: the method ends
      if (i == z0_row) best = i;
    } else if (lemke_order(T, i, best, c, n, rhs_floor, binv_floor, rule == LemkeTieRule::lexicographic) < 0) {
      best = i;
    }
  }
  return best;
}

}  // namespace detail

/// Solves LCP(q, M) into ws (labels L1–L6 of the file comment); returns ws.status().
template <class Scalar, class DM, class DQ>
const LcpStatus<Scalar>& lemke(LemkeWorkspace<Scalar>& ws, const Eigen::MatrixBase<DM>& M,
                               const Eigen::MatrixBase<DQ>& q) noexcept {
  using std::abs;
  using Result = LcpStatus<Scalar>;
  const int n = static_cast<int>(q.size());
  TREEDYN_CHECK(n <= ws.max_size, "lemke", "q", "q.size() <= ws.capacity()", ws.max_size, n,
                return ws.last_status = Result::ended(Result::Code::invalid_argument, "lemke"));
  TREEDYN_CHECK(M.rows() == n && M.cols() == n, "lemke", "M", "M square with q.size() rows", n, M.rows(),
                return ws.last_status = Result::ended(Result::Code::invalid_argument, "lemke"));
  ws.n = n;
  ws.last_status = Result{};
  auto z = ws.z_values.head(n);
  auto w = ws.w_values.head(n);
  if (!(M.array().isFinite().all() && q.array().isFinite().all())) {
    z.setConstant(detail::nan<Scalar>());
    w.setConstant(detail::nan<Scalar>());
    return ws.last_status = Result::ended(Result::Code::non_finite_input, "lemke");
  }
  z.setZero();
  if (n == 0 || q.minCoeff() >= Scalar(0)) {                         // L1
    w = q;
    return ws.last_status;
  }
  const Scalar m_scale = std::max(Scalar(1), M.cwiseAbs().maxCoeff());
  const Scalar tol = Scalar(1e3) * detail::epsilon<Scalar>() * m_scale;
  const Scalar rhs_floor = q.cwiseAbs().maxCoeff() / m_scale;      // the scale of z
  const Scalar binv_floor = Scalar(1) / m_scale;                    // the scale of B⁻¹
  const int z0 = 2 * n, rhs = 2 * n + 1;
  const int cap = ws.max_pivots > 0 ? ws.max_pivots : 50 + 20 * n;
  auto T = ws.tableau.topLeftCorner(n, 2 * n + 2);
  std::vector<int>& basis = ws.basis;
  T.setZero();
  T.leftCols(n).setIdentity();
  T.middleCols(n, n) = -M;
  T.col(z0).setConstant(Scalar(-1));
  T.col(rhs) = q;
  for (int i = 0; i < n; ++i) basis[static_cast<std::size_t>(i)] = i;

  int r = 0;                                                         // L2: most negative q, ties to the last
  for (int i = 1; i < n; ++i)
    if (q(i) <= q(r)) r = i;
  const int z0_row = r;                                              // z₀ keeps this row until it leaves
  detail::lemke_pivot(T, r, z0);
  int leaving = basis[static_cast<std::size_t>(r)];
  basis[static_cast<std::size_t>(r)] = z0;
  int pivots = 1;
  bool solved = false;
  while (!solved) {
    if (pivots >= cap) {
      ws.last_status.code = Result::Code::pivot_cap;
      ws.last_status.call = "lemke";
      break;
    }
    const int entering = leaving < n ? leaving + n : leaving - n;   // L3
    r = detail::lemke_ratio_test(T, entering, n, z0_row, tol, rhs_floor, binv_floor, ws.tie_rule);  // L4
    if (r < 0) {
      ws.last_status.code = Result::Code::ray_termination;
      ws.last_status.call = "lemke";
      break;
    }
    detail::lemke_pivot(T, r, entering);                             // L5
    ++pivots;
    leaving = basis[static_cast<std::size_t>(r)];
    basis[static_cast<std::size_t>(r)] = entering;
    solved = (leaving == z0);                                        // L6
  }
  for (int i = 0; i < n; ++i) {                                      // L6: read z off the basis
    const int v = basis[static_cast<std::size_t>(i)];
    if (v >= n && v < 2 * n) z(v - n) = std::max(T(i, rhs), Scalar(0));
  }
  w.noalias() = M * z;
  w += q;
  ws.last_status.pivots = pivots;
  ws.last_status.residual = w.cwiseMin(z).cwiseAbs().maxCoeff();
  return ws.last_status;
}

}  // namespace treedyn
