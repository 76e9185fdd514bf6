// libFuzzer target for treedyn::mjcf::load: any input either builds a model or throws std::invalid_argument;
// anything else (a crash, an ASan report, another exception) is a bug.
// Build and run: cmake --workflow --preset fuzz, then
// build/fuzz/tests/fuzz/fuzz_mjcf <copy of tests/fuzz/corpus_mjcf> -max_total_time=30
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "treedyn/mjcf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  try {
    const treedyn::mjcf::Loaded<double> loaded = treedyn::mjcf::load_from_string<double>(xml);
    (void)loaded.model.cast<float>();
    (void)loaded.report.to_string();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
