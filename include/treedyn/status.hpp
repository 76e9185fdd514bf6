// Status: how a noexcept call ended — the library's one status type (docs/errors.md#statuses).
//
// Hot calls never throw. A call that cannot finish (a pivot that is not > 0, a joint quaternion that is zero
// or not finite, an irregular parent array, an LCP with no solution, a size check whose handler returned)
// stops, sets its outputs to NaN where it has any, and reports here: what went wrong (`code`), where (`row`,
// and what that number counts, `index`), which library call found it (`call`, a string literal, or null)
// and, for a non-finite input, which argument holds it (`argument`, e.g. "qd", with `row` its entry).
// Every feature status is this type or carries it: `FactorStatus` is another name for it, `LcpStatus` and
// `ContactStepStatus` derive from it and add their diagnostics, `BatchStatus` holds the first failing state's.
//
// Pivots are checked by detail::pivot_ok (detail/scalar.hpp): a symbolic Scalar's pivots cannot be checked,
// so for it every factorization runs to the end and reports success.
//
// This header is the base layer: it includes nothing of the library and nothing that allocates. Printing
// (`to_string`, `operator<<`) is in treedyn/status_io.hpp, which the umbrella header includes.
#pragma once

namespace treedyn {

struct Status {
  /// What went wrong. Every failure the library reports through a status is one of these.
  enum class Code {
    success,                ///< the call finished
    non_positive_pivot,     ///< a pivot (a matrix row, or a joint pivot D_i = S_iᵀ IA_i S_i of a body) is not > 0
    invalid_configuration,  ///< a spherical or free-flyer quaternion (of the body `row`) is zero (a NaN in q is
                            ///< non_finite_input, checked first)
    invalid_parent_array,   ///< entry `row` of a parent array is not regular (−1 ≤ λ(i) < i fails)
    invalid_argument,       ///< a check failed and the check handler returned (detail/check.hpp); row −1
    non_finite_input,       ///< an input matrix or vector (`argument`, entry `row`) holds a NaN or an infinity
    ray_termination,        ///< Lemke's method ended on a ray: for copositive-plus M the LCP has no solution
    pivot_cap,              ///< an iteration limit was reached (only round-off can cause it in Lemke's method)
    dynamics_failed,        ///< contact_step: its forward dynamics or OSCM failed (see ContactStepStatus::dynamics)
    lcp_failed,             ///< contact_step: one of its LCPs failed (see ContactStepStatus::lcp and ::phase)
  };
  /// What `row` counts.
  enum class Index {
    row,   ///< a row of the factored matrix: for H a DoF, for a block system the block's first scalar row;
           ///< also the kind of a status with no position (row −1)
    body,  ///< a body: its joint pivot failed, or its joint configuration is invalid
    entry,  ///< an entry of the input vector `argument` (non_finite_input): a coordinate of q, a DoF of q̇,
            ///< q̈ or τ; for f_ext (whose entries are bodies) the index is Index::body
  };

  Code code = Code::success;
  /// 0-based row or body (see `index`) where the call stopped; −1 when there is none.
  int row = -1;
  /// What `row` counts.
  Index index = Index::row;
  /// The library call that found the failure (a string literal, e.g. "ltdl", "aba"); null on success.
  const char* call = nullptr;
  /// The input argument holding a NaN or an infinity (non_finite_input; a string literal, e.g. "q", "qd",
  /// "tau", "f_ext"); null for every other code.
  const char* argument = nullptr;

  [[nodiscard]] constexpr bool ok() const noexcept { return code == Code::success; }
  constexpr explicit operator bool() const noexcept { return ok(); }
  /// True when `row` is a body (a failed joint pivot or an invalid joint configuration).
  [[nodiscard]] constexpr bool names_body() const noexcept { return index == Index::body; }
  /// The same status reported by `by` when no call is named yet (a shared step's status, named by its caller).
  [[nodiscard]] constexpr Status reported_by(const char* by) const noexcept {
    Status s = *this;
    if (!s.ok() && s.call == nullptr) s.call = by;
    return s;
  }

  static constexpr Status success() noexcept { return {}; }
  /// Row `failed_row` of the factored matrix (for H: that DoF) has a pivot that is not > 0.
  static constexpr Status non_positive_pivot(int failed_row, const char* by = nullptr) noexcept {
    return {Code::non_positive_pivot, failed_row, Index::row, by};
  }
  /// The joint pivot D_i of body `failed_body` is not positive definite.
  static constexpr Status non_positive_joint_pivot(int failed_body, const char* by = nullptr) noexcept {
    return {Code::non_positive_pivot, failed_body, Index::body, by};
  }
  /// The joint configuration of body `body` (its quaternion) is zero or not finite.
  static constexpr Status invalid_configuration(int body, const char* by = nullptr) noexcept {
    return {Code::invalid_configuration, body, Index::body, by};
  }
  /// Entry `failed_row` of the parent array is not regular (λ(row) < −1 or λ(row) ≥ row).
  static constexpr Status invalid_parent_array(int failed_row, const char* by = nullptr) noexcept {
    return {Code::invalid_parent_array, failed_row, Index::row, by};
  }
  /// Entry `entry` of the input `arg` (a string literal) is a NaN or an infinity; `kind` is Index::entry, or
  /// Index::body for a per-body input such as f_ext.
  static constexpr Status non_finite_input(const char* arg, int entry, Index kind = Index::entry,
                                           const char* by = nullptr) noexcept {
    return {Code::non_finite_input, entry, kind, by, arg};
  }
  /// A check failed and the check handler returned.
  static constexpr Status invalid_argument(const char* by = nullptr) noexcept {
    return {Code::invalid_argument, -1, Index::row, by};
  }
  /// A failure with no index (`c` one of the whole-problem codes).
  static constexpr Status failed(Code c, const char* by = nullptr) noexcept { return {c, -1, Index::row, by}; }
};

/// The name the factorizations have used since 0.1; the same type.
using FactorStatus = Status;

/// The enumerator's name, e.g. "non_positive_pivot" (a string literal; never allocates).
[[nodiscard]] constexpr const char* code_name(Status::Code c) noexcept {
  switch (c) {
    case Status::Code::success: return "success";
    case Status::Code::non_positive_pivot: return "non_positive_pivot";
    case Status::Code::invalid_configuration: return "invalid_configuration";
    case Status::Code::invalid_parent_array: return "invalid_parent_array";
    case Status::Code::invalid_argument: return "invalid_argument";
    case Status::Code::non_finite_input: return "non_finite_input";
    case Status::Code::ray_termination: return "ray_termination";
    case Status::Code::pivot_cap: return "pivot_cap";
    case Status::Code::dynamics_failed: return "dynamics_failed";
    case Status::Code::lcp_failed: return "lcp_failed";
  }
  return "unknown";
}

}  // namespace treedyn
