// The scalar types a templated test runs for, so that a heavy test file can be compiled once per scalar.
//
// A test file lists TREEDYN_TEST_SCALARS where it would list `float, double`, and puts its untemplated
// test cases under `#if TREEDYN_TEST_UNTEMPLATED`. Built as an ordinary source, it runs both scalars and
// every case. Listed under PER_SCALAR in tests/CMakeLists.txt, it is compiled twice, with
// TREEDYN_TEST_SCALAR=float and =double: each translation unit then instantiates the algorithms for one
// scalar only (halving its compile time and memory), and the untemplated cases and any long double
// instantiation (TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE) run in the double unit.
#pragma once

#ifdef TREEDYN_TEST_SCALAR
#ifndef TREEDYN_TEST_UNTEMPLATED
#define TREEDYN_TEST_UNTEMPLATED 0
#endif
#define TREEDYN_TEST_SCALARS TREEDYN_TEST_SCALAR
#if TREEDYN_TEST_UNTEMPLATED
#define TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE TREEDYN_TEST_SCALAR, long double
#else
#define TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE TREEDYN_TEST_SCALAR
#endif
#else
#define TREEDYN_TEST_SCALARS float, double
#define TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE float, double, long double
#define TREEDYN_TEST_UNTEMPLATED 1
#endif
