// The scalar types a templated test runs for, so that a heavy test file can be compiled once per scalar.
//
// A test file lists TREEDYN_TEST_SCALARS where it would list `float, double`, and puts its untemplated
// test cases under `#if TREEDYN_TEST_UNTEMPLATED`. Built as an ordinary source, it runs both scalars and
// every case. Listed under PER_SCALAR in tests/CMakeLists.txt, it is compiled twice, with
// TREEDYN_TEST_SCALAR=float and =double: each translation unit then instantiates the algorithms for one
// scalar only (halving its compile time and memory), and the untemplated cases run in the double unit.
// Long double instantiations (TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE) and untemplated cases that compare
// float with long double (`#if TREEDYN_TEST_FLOAT_UNIT`) go to the float unit, which balances the two.
#pragma once

#ifdef TREEDYN_TEST_SCALAR
#ifndef TREEDYN_TEST_UNTEMPLATED
#define TREEDYN_TEST_UNTEMPLATED 0
#endif
#define TREEDYN_TEST_SCALARS TREEDYN_TEST_SCALAR
#if TREEDYN_TEST_UNTEMPLATED
#define TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE TREEDYN_TEST_SCALAR
#define TREEDYN_TEST_FLOAT_UNIT 0
#else
#define TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE TREEDYN_TEST_SCALAR, long double
#define TREEDYN_TEST_FLOAT_UNIT 1
#endif
#else
#define TREEDYN_TEST_SCALARS float, double
#define TREEDYN_TEST_SCALARS_AND_LONG_DOUBLE float, double, long double
#define TREEDYN_TEST_UNTEMPLATED 1
#define TREEDYN_TEST_FLOAT_UNIT 1
#endif
