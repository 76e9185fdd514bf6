// FactorStatus is treedyn::Status (treedyn/status.hpp), the library's one status type; this header is kept
// so that code written against 0.3 compiles unchanged.
#pragma once

#include "treedyn/status.hpp"
