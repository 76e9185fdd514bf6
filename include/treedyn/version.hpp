// treedyn version: the single source of the version number (CMake parses these three lines).
#pragma once

#define TREEDYN_VERSION_MAJOR 0
#define TREEDYN_VERSION_MINOR 3
#define TREEDYN_VERSION_PATCH 0

#define TREEDYN_VERSION_STRING "0.3.0"
