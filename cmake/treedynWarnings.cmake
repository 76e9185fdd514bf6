# Warning and sanitizer flags for treedyn's own tests, examples and benchmarks. This target is never
# installed or exported: consumers of treedyn::treedyn get no flags from us.
add_library(treedyn_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(treedyn_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wdouble-promotion -Wfloat-conversion
    -Wold-style-cast)
  if(TREEDYN_WARNINGS_AS_ERRORS)
    target_compile_options(treedyn_warnings INTERFACE -Werror)
  endif()
  if(TREEDYN_SANITIZE)
    target_compile_options(treedyn_warnings INTERFACE
      -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(treedyn_warnings INTERFACE -fsanitize=address,undefined)
  endif()
endif()
