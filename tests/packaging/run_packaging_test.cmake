# Configures, builds and runs tests/packaging/consumer against treedyn, either installed into a
# staging prefix (MODE=find_package) or pulled in as a subdirectory (MODE=add_subdirectory).
# Invoked by CTest with -DMODE -DSOURCE_DIR -DWORK_DIR -DCXX_COMPILER -DGENERATOR.
cmake_minimum_required(VERSION 3.16)

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(consumer "${SOURCE_DIR}/tests/packaging/consumer")

if(MODE STREQUAL "find_package")
  set(stage "${WORK_DIR}/stage")
  run_step(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/treedyn-build" -G "${GENERATOR}"
           -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_INSTALL_PREFIX=${stage}
           -DTREEDYN_BUILD_TESTS=OFF -DTREEDYN_BUILD_EXAMPLES=OFF -DTREEDYN_BUILD_BENCHMARKS=OFF
           -DTREEDYN_BUILD_COMPILED=OFF -DTREEDYN_BUILD_PYTHON=OFF)
  # The header-only package installs without a build step (the compiled component and the Python module,
  # which need one, are off here; tests/compiled covers the former).
  run_step(${CMAKE_COMMAND} --install "${WORK_DIR}/treedyn-build")
  if(NOT EXISTS "${stage}/share/cmake/treedyn/treedynConfig.cmake")
    message(FATAL_ERROR "install did not produce treedynConfig.cmake")
  endif()
  run_step(${CMAKE_COMMAND} -S "${consumer}" -B "${WORK_DIR}/consumer-build" -G "${GENERATOR}"
           -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${stage}
           -DTREEDYN_CONSUMER_MODE=find_package)
elseif(MODE STREQUAL "install_after_demo")
  # The Python module configured, not built; the compiled component present (the demo builds it).
  set(stage "${WORK_DIR}/stage")
  run_step(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/treedyn-build" -G "${GENERATOR}"
           -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_INSTALL_PREFIX=${stage} -DCMAKE_BUILD_TYPE=Release
           -DTREEDYN_BUILD_TESTS=OFF -DTREEDYN_BUILD_EXAMPLES=OFF -DTREEDYN_BUILD_BENCHMARKS=OFF
           -DTREEDYN_BUILD_COMPILED=ON -DTREEDYN_BUILD_PYTHON=ON -DPython3_EXECUTABLE=${PYTHON})
  file(COPY "${COMPILED_ARCHIVE}" DESTINATION "${WORK_DIR}/treedyn-build")
  execute_process(COMMAND ${CMAKE_COMMAND} --install "${WORK_DIR}/treedyn-build"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed with the Python module unbuilt (${rc}):\n${out}\n${err}")
  endif()
  if(NOT out MATCHES "the Python module was not built, so it is not installed")
    message(FATAL_ERROR "cmake --install did not say the Python module was skipped:\n${out}")
  endif()
  file(GLOB modules "${stage}/lib/python3/dist-packages/treedyn*")
  if(modules OR NOT EXISTS "${stage}/include/treedyn/treedyn.hpp" OR NOT EXISTS "${stage}/share/cmake/treedyn/treedynConfig.cmake")
    message(FATAL_ERROR "unexpected install tree (modules: '${modules}'):\n${out}")
  endif()
  file(GLOB archive "${stage}/lib*/libtreedyn_compiled.a")
  if(NOT archive)
    message(FATAL_ERROR "the compiled component was not installed:\n${out}")
  endif()
  message(STATUS "install_after_demo: installed without the Python module, and said so")
  return()
elseif(MODE STREQUAL "add_subdirectory")
  run_step(${CMAKE_COMMAND} -S "${consumer}" -B "${WORK_DIR}/consumer-build" -G "${GENERATOR}"
           -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
           -DTREEDYN_CONSUMER_MODE=add_subdirectory -DTREEDYN_SOURCE_DIR=${SOURCE_DIR})
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()

run_step(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer-build")
execute_process(COMMAND "${WORK_DIR}/consumer-build/consumer" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "consumer ok")
  message(FATAL_ERROR "consumer failed (${rc}): ${out}")
endif()
message(STATUS "${MODE}: ${out}")
