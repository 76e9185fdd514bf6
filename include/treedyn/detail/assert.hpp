// treedyn debug assertions: precondition checks that vanish under NDEBUG.
//
// Hot kernels are noexcept and never throw; in debug builds a violated precondition (wrong sizes,
// a pattern that does not fit the parent array) stops the program with a message naming it.
#pragma once

#include <cassert>

#ifndef TREEDYN_ASSERT
#define TREEDYN_ASSERT(condition, message) assert((condition) && (message))
#endif
