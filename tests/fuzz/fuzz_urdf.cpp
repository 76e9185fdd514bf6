// libFuzzer target for treedyn::urdf::build_model: any input either builds a model or throws
// std::invalid_argument; anything else (a crash, an ASan report, another exception) is a bug.
// Build and run: cmake --workflow --preset fuzz, then build/fuzz/tests/fuzz/fuzz_urdf <corpus copy> -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <console_bridge/console.h>

#include "treedyn/urdf/build_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool quiet = [] {  // urdfdom's log is captured by build_model; keep the rest off stderr
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
    return true;
  }();
  (void)quiet;
  const std::string xml(reinterpret_cast<const char*>(data), size);
  treedyn::urdf::Options options;
  options.floating_base = size % 2 == 1;
  try {
    const treedyn::Model<double> model = treedyn::urdf::build_model_from_string<double>(xml, options);
    (void)model.cast<float>();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
