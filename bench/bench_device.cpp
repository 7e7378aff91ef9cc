#include "bench_device.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "runtime/device.h"
#ifdef NNFAB_BENCH_HAS_HLS
#include "backends/hls_backend.h"
#endif
#ifdef NNFAB_BENCH_HAS_SIM
#include "backends/sim_backend.h"
#endif

namespace nnfab::bench {

std::vector<std::string> benchDeviceNames() {
  return {
#ifdef NNFAB_BENCH_HAS_SIM
      "sim",
#endif
#ifdef NNFAB_BENCH_HAS_HLS
      "hls",
#endif
  };
}

std::string defaultBenchDevice() {
  const std::vector<std::string> names = benchDeviceNames();
  const std::string fallback =
      std::find(names.begin(), names.end(), "hls") != names.end() || names.empty() ? std::string("hls") : names.front();
  const std::string runtimeDefault(defaultDevice().name());
  return std::find(names.begin(), names.end(), runtimeDefault) != names.end() ? runtimeDefault : fallback;
}

Result<BenchDevice> openBenchDevice(std::string_view name) {
  BenchDevice device;
  device.name = std::string(name);
#ifdef NNFAB_BENCH_HAS_HLS
  if (name == "hls") {
    device.backend = std::make_unique<backends::HlsBackend>();
    return device;
  }
#endif
#ifdef NNFAB_BENCH_HAS_SIM
  if (name == "sim") {
    auto sim = std::make_unique<backends::SimBackend>();
    backends::SimBackend* raw = sim.get();
    device.simulatedCycles = [raw] { return raw->simulatedCycles(); };
    device.lastRunEvents = [raw]() -> std::optional<RunEvents> {
      const auto e = raw->lastRunEvents();
      RunEvents events;
      events.startAccepted = e.startAccepted;
      events.preemptWritten = e.preemptWritten;
      events.done = e.done;
      return events;
    };
    device.backend = std::move(sim);
    return device;
  }
#endif
  const std::vector<std::string> names = benchDeviceNames();
  return invalidArgument(fmt::format("'{}' is not a fabric device of this build (choose from: {})", name,
                                     names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

}  // namespace nnfab::bench
