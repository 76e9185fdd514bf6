// libFuzzer target for treedyn::urdf::load: any input either builds a model or throws
// std::invalid_argument; anything else (a crash, an ASan report, another exception) is a bug, and so is
// an inertia the repair policy let through to the ModelBuilder's physical rules.
// Build and run: cmake --workflow --preset fuzz, then build/fuzz/tests/fuzz/fuzz_urdf <corpus copy> -max_total_time=60
#include <cstddef>
#include <cstdlib>
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
  // the options from the input's size, so that every policy meets every input shape: floating base or
  // not, each inertia policy (the repair path included), mimic joints loaded or rejected
  treedyn::urdf::Options options;
  options.floating_base = size % 2 == 1;
  options.inertia = static_cast<treedyn::urdf::InertiaPolicy>(size / 2 % 3);
  options.mimic = (size / 6) % 2 == 0 ? treedyn::urdf::MimicPolicy::independent : treedyn::urdf::MimicPolicy::reject;
  try {
    const treedyn::urdf::Loaded<double> loaded = treedyn::urdf::load_from_string<double>(xml, options);
    (void)loaded.model.cast<float>();
    (void)loaded.report.to_string();
  } catch (const std::invalid_argument&) {
    // repair and as_is differ only in the inertias: an input that as_is loads but repair rejects means
    // the repair handed the ModelBuilder an inertia it refuses
    if (options.inertia == treedyn::urdf::InertiaPolicy::repair) {
      options.inertia = treedyn::urdf::InertiaPolicy::as_is;
      try {
        (void)treedyn::urdf::load_from_string<double>(xml, options);
      } catch (const std::invalid_argument&) {
        return 0;
      }
      std::abort();
    }
  }
  return 0;
}
