// treedyn debug assertions: precondition checks that vanish under NDEBUG.
//
// Hot kernels are noexcept and never throw; in debug builds a violated precondition (wrong sizes,
// a pattern that does not fit the parent array) stops the program with a message naming it.
#pragma once

#include <cassert>

#ifndef TREEDYN_ASSERT
#define TREEDYN_ASSERT(condition, message) assert((condition) && (message))
#endif

/// Keeps a function out of line where inlining it measurably slowed its caller (cited where used).
#if defined(__GNUC__) || defined(__clang__)
#define TREEDYN_NOINLINE __attribute__((noinline))
#else
#define TREEDYN_NOINLINE
#endif

/// Marks a pointer as the only way to reach its array inside a loop (the caller proves the arrays are
/// disjoint where it is used), so that the compiler vectorises without a run-time overlap check.
#if defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER)
#define TREEDYN_RESTRICT __restrict
#else
#define TREEDYN_RESTRICT
#endif

/// After a lambda's parameter list: inline it where it is called (a loop's body, so the loop can be vectorized).
#if defined(__GNUC__) || defined(__clang__)
#define TREEDYN_INLINE_LAMBDA __attribute__((always_inline))
#else
#define TREEDYN_INLINE_LAMBDA
#endif

/// Before a loop whose iterations touch disjoint data the compiler cannot prove disjoint (rows of one matrix
/// at a run-time stride): lets GCC run them in SIMD lanes without run-time overlap checks. (Clang's
/// counterpart, vectorize(assume_safety), warns wherever a loop is not vectorized, as for a scalar type with no
/// SIMD form, so Clang is left to its own checks.)
#if defined(__GNUC__) && !defined(__clang__)
#define TREEDYN_INDEPENDENT_ITERATIONS _Pragma("GCC ivdep")
#else
#define TREEDYN_INDEPENDENT_ITERATIONS
#endif
