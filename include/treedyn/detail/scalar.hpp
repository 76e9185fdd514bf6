// treedyn::detail scalar policy: the few places where an algorithm must treat a numeric Scalar and a
// symbolic one differently, gathered behind one small interface.
//
// Every algorithm is a template on its Scalar, which is of one of two kinds:
//   numeric   float, double, long double, Eigen::AutoDiffScalar, boost::multiprecision numbers, …: a type
//             with a std::numeric_limits specialisation whose comparisons return bool. For these the
//             helpers below are exactly the bool comparison, the `if` or the std::numeric_limits constant
//             they replace: same operations, same order, same results, no extra cost.
//   symbolic  an expression type (CasADi-like) that records a computation instead of carrying a number: its
//             comparisons return an expression, not a bool, and it has no std::numeric_limits. An algorithm
//             run on it builds the expression of its result, so it can never look at a value: nothing may
//             branch on one, and no check on a value can be made.
// is_numeric<Scalar> tells the kinds apart. By default it is std::numeric_limits<Scalar>::is_specialized;
// users may specialise it either way, e.g. for an expression type that does specialise numeric_limits:
//     template <> struct treedyn::detail::is_numeric<MyExpression> : std::false_type {};
// A type declared numeric must have bool comparisons and std::numeric_limits epsilon() and quiet_NaN().
//
// The helpers, for each kind:
//   epsilon<Scalar>()   the tolerance of a check on a computed value. Numeric: numeric_limits epsilon.
//                       Symbolic: Scalar(0): a tolerance absorbs rounding in a check, and a symbolic value
//                       cannot be checked; zero keeps any expression built from it exact (k·ε·x is 0).
//   evaluation_epsilon<Scalar>()  the precision the numbers will finally have, to place the switch
//                       between two formulas that agree in exact arithmetic (a series near a removable
//                       singularity and a closed form away from it). This threshold must stay > 0 for every
//                       scalar, since at the singularity only the series is finite. Numeric: numeric_limits
//                       epsilon, as epsilon(). Symbolic: Eigen::NumTraits<Scalar>::epsilon(), which the
//                       type's NumTraits specialisation (required by Eigen anyway) gives as the epsilon of
//                       the arithmetic its expressions are evaluated in (double's for CasADi).
//   nan<Scalar>()       the "no result" fill of a failed factorisation. Numeric: numeric_limits quiet NaN.
//                       Symbolic: the constant expression Scalar(0) / Scalar(0), which needs nothing of the
//                       type beyond division and evaluates to NaN in IEEE arithmetic. A symbolic run never
//                       writes it in practice, since pivot_ok() lets every symbolic factorisation through.
//   select(c, a, b)     a value chosen by the condition c. When c is a bool (always, for a numeric scalar):
//                       c ? a : b. Otherwise c is a symbolic comparison and the result is if_else(c, a, b),
//                       a customisation point found by argument-dependent lookup in the scalar's namespace
//                       (CasADi's name and argument order); Eigen matrices are selected coefficient by
//                       coefficient. if_else must select, not blend as c·a + (1 − c)·b: the branch not taken
//                       may hold inf or NaN (sin(t)/t at t = 0 next to its series).
//   select_branch(c, then_fn, else_fn)  the form to use for `if (c) x = …; else x = …;`. With a bool c
//                       it is that `if`: only the branch taken runs, with the same operations as before.
//                       Otherwise both functions run (then_fn first) and select() chooses. The functions
//                       take no arguments and return the same concrete type (a Scalar or a fixed-size Eigen
//                       matrix, not an expression template); several results travel packed in one vector.
//   pivot_ok(x)         the pivot check of a factorisation, a bool. Numeric: x > 0 (false for zero, negative
//                       and NaN pivots). Symbolic: true. A symbolic pivot has no value to test, so the
//                       factorisation goes on and divides by the pivot's expression; positive definiteness is
//                       then the caller's to ensure, and a bad pivot shows as inf or NaN when the expression
//                       is evaluated.
//   quaternion_ok(n2)   a joint quaternion's squared norm admits a rotation. Numeric: 0 < n2 < ∞ (false on
//                       NaN). Symbolic: true, for the same reason as pivot_ok.
//   nan_unless_positive(x)  the lane-wise form of pivot_ok, for a symbolic Scalar that holds values in lanes
//                       (is_lanewise, true for treedyn::Lanes: docs/lanes.md#how-the-kernels-see-lanes): the
//                       lanes of x that are not > 0 become NaN, so a failing state computes NaN from its pivot
//                       on and its neighbours are untouched. Nothing for any other Scalar (a numeric one has
//                       stopped on pivot_ok, a symbolic one cannot be checked).
//   nan_whole_failed_lanes(x, …)  the lane-wise form of "a failed call fills its outputs with NaN": for a lane
//                       Scalar, every lane in which some entry of the matrices x, … is not finite becomes NaN in
//                       every entry of all of them (a zero quaternion or a non-finite input reaches only some
//                       entries through the arithmetic). Nothing for any other Scalar (a numeric one is checked and filled by the
//                       call itself).
// Nothing here allocates or throws for a numeric scalar.
#pragma once

#include <limits>
#include <type_traits>

#include <Eigen/Core>

namespace treedyn::detail {

/// True for a numeric Scalar, false for a symbolic one (see the header comment); users may specialise it.
template <class Scalar>
struct is_numeric : std::integral_constant<bool, std::numeric_limits<Scalar>::is_specialized> {};

/// The scalar type of T: T itself, or T::Scalar for an Eigen dense object.
template <class T, bool = std::is_base_of<Eigen::DenseBase<T>, T>::value>
struct scalar_of {
  using type = T;
};
template <class T>
struct scalar_of<T, true> {
  using type = typename T::Scalar;
};

/// Tolerance of a check on a computed value: numeric_limits epsilon, or 0 for a symbolic Scalar.
template <class Scalar>
Scalar epsilon() {
  if constexpr (is_numeric<Scalar>::value) return Scalar(std::numeric_limits<Scalar>::epsilon());
  else return Scalar(0);
}

/// Epsilon of the arithmetic the numbers are finally computed in: numeric_limits epsilon, or the
/// Eigen::NumTraits epsilon of a symbolic Scalar. For thresholds that must stay positive.
template <class Scalar>
Scalar evaluation_epsilon() {
  if constexpr (is_numeric<Scalar>::value) return Scalar(std::numeric_limits<Scalar>::epsilon());
  else return Scalar(Eigen::NumTraits<Scalar>::epsilon());
}

/// The fill value of a failed computation: a quiet NaN, or the expression 0 / 0 for a symbolic Scalar.
template <class Scalar>
Scalar nan() {
  if constexpr (is_numeric<Scalar>::value) return Scalar(std::numeric_limits<Scalar>::quiet_NaN());
  else return Scalar(0) / Scalar(0);
}

/// cond ? a : b for a bool condition; if_else(cond, a, b) (found by ADL) for a symbolic one, coefficient by
/// coefficient for an Eigen matrix.
template <class Cond, class T>
T select(const Cond& cond, const T& a, const T& b) {
  if constexpr (std::is_same<Cond, bool>::value) {
    return cond ? a : b;
  } else {
    static_assert(!is_numeric<typename scalar_of<T>::type>::value,
                  "treedyn: the comparisons of a numeric Scalar must return bool (or declare it symbolic: "
                  "specialise treedyn::detail::is_numeric)");
    if constexpr (std::is_base_of<Eigen::DenseBase<T>, T>::value) {
      T out = a;
      for (Eigen::Index j = 0; j < a.cols(); ++j)
        for (Eigen::Index i = 0; i < a.rows(); ++i) out(i, j) = detail::select(cond, a.coeff(i, j), b.coeff(i, j));
      return out;
    } else {
      return if_else(cond, a, b);
    }
  }
}

/// `if (cond) return then_fn(); else return else_fn();` for a bool condition (only one branch runs); for a
/// symbolic one both run and select() chooses.
template <class Cond, class Then, class Else>
auto select_branch(const Cond& cond, const Then& then_fn, const Else& else_fn) {
  if constexpr (std::is_same<Cond, bool>::value) {
    if (cond) return then_fn();
    return else_fn();
  } else {
    const auto a = then_fn();
    const auto b = else_fn();
    return detail::select(cond, a, b);
  }
}

/// A factorisation's pivot check: x > 0 for a numeric Scalar (false on NaN), true for a symbolic one.
template <class Scalar>
bool pivot_ok(const Scalar& x) noexcept {
  if constexpr (is_numeric<Scalar>::value) {
    return x > Scalar(0);
  } else {
    static_cast<void>(x);
    return true;
  }
}

/// A quaternion's squared norm n2 admits a rotation: 0 < n2 < ∞ for a numeric Scalar (false on NaN), true
/// for a symbolic one (as pivot_ok).
template <class Scalar>
bool quaternion_ok(const Scalar& n2) noexcept {
  if constexpr (is_numeric<Scalar>::value) {
    return n2 > Scalar(0) && n2 - n2 == Scalar(0);  // positive and finite (∞ − ∞ and NaN − NaN are NaN)
  } else {
    static_cast<void>(n2);
    return true;
  }
}

/// True for a symbolic Scalar whose comparisons give a mask of values held in lanes (treedyn::Lanes
/// specialises it), so that a failed check can be applied lane by lane with select(). False by default.
template <class Scalar>
struct is_lanewise : std::false_type {};

/// The lane-wise pivot check (see the header comment): for a lane Scalar, x ← NaN in the lanes where x is not
/// > 0 (zero, negative or NaN); a no-op for every other Scalar.
template <class Scalar>
void nan_unless_positive(Scalar& x) noexcept {
  if constexpr (is_lanewise<Scalar>::value) x = detail::select(x > Scalar(0), x, nan<Scalar>());
  else static_cast<void>(x);
}

/// The lanes in which some entry of x is not finite (x·0 is NaN for a NaN or an infinity), as a lane mask.
template <class Derived>
auto non_finite_lanes_of(const Eigen::MatrixBase<Derived>& x) noexcept {
  using Scalar = typename Derived::Scalar;
  auto failed = Scalar(0) != Scalar(0);
  for (Eigen::Index k = 0; k < x.size(); ++k) failed = failed || x(k) * Scalar(0) != Scalar(0);
  return failed;
}

/// The lane-wise NaN fill of a failed call (see the header comment), over all the call's outputs x…: a lane
/// that is not finite somewhere in one of them is NaN throughout all of them. A no-op for every non-lane Scalar.
template <class Derived, class... More>
void nan_whole_failed_lanes(Eigen::MatrixBase<Derived>& x, Eigen::MatrixBase<More>&... more) noexcept {
  using Scalar = typename Derived::Scalar;
  if constexpr (is_lanewise<Scalar>::value) {
    auto failed = non_finite_lanes_of(x);
    ((failed = failed || non_finite_lanes_of(more)), ...);
    const auto fill = [&](auto& y) {
      for (Eigen::Index k = 0; k < y.size(); ++k) y(k) = detail::select(failed, nan<Scalar>(), Scalar(y(k)));
    };
    fill(x);
    (fill(more), ...);
  } else {
    static_cast<void>(x);
    (static_cast<void>(more), ...);
  }
}

}  // namespace treedyn::detail
