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
#ifdef NNFAB_HAS_XRT_DEVICE
#include <map>
#include <mutex>

#include "runtime/xrt_device.h"
#include "shared_backend.h"
#endif

namespace nnfab::bench {

#ifdef NNFAB_HAS_XRT_DEVICE
namespace {

// xrt:N and xrt-emu: opened at the first group, kept for the others
// (shared_backend.h says why); a failure to open is remembered too, so the
// later groups report it without another 10 s attempt.
Result<std::unique_ptr<fabric::FabricBackend>> sharedXrtBackend(const std::string& name) {
  struct Slot {
    Status status;
    std::shared_ptr<fabric::FabricBackend> backend;
  };
  static std::mutex mutex;
  static std::map<std::string, Slot> slots;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = slots.try_emplace(name);
  Slot& slot = it->second;
  if (fresh) {
    unsigned index = 0;
    Result<std::unique_ptr<backends::XrtBackend>> opened =
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
        name == "xrt-emu" ? openXrtEmuBackend() :
#endif
                          (parseXrtDeviceName(name, &index), openXrtCardBackend(index));
    if (opened) {
      slot.backend = std::shared_ptr<fabric::FabricBackend>(std::move(*opened));
    } else {
      slot.status = opened.status();
    }
  }
  if (!slot.backend) return slot.status;
  return std::unique_ptr<fabric::FabricBackend>(std::make_unique<SharedBackend>(slot.backend));
}

}  // namespace
#endif

std::vector<std::string> benchDeviceNames() {
  return {
#ifdef NNFAB_BENCH_HAS_SIM
      "sim",
#endif
#ifdef NNFAB_BENCH_HAS_HLS
      "hls",
#endif
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
      "xrt-emu",
#endif
  };
}

bool isBenchDevice(std::string_view name) {
  const std::vector<std::string> names = benchDeviceNames();
  if (std::find(names.begin(), names.end(), name) != names.end()) return true;
#ifdef NNFAB_HAS_XRT_DEVICE
  unsigned index = 0;
  return parseXrtDeviceName(std::string(name), &index);
#else
  return false;
#endif
}

Status prepareBenchDevice(std::string_view name) {
#ifdef NNFAB_HAS_XRT_DEVICE
  unsigned index = 0;
  if (name == "xrt-emu" || parseXrtDeviceName(std::string(name), &index)) {
    auto backend = sharedXrtBackend(std::string(name));
    return backend ? Status() : backend.status();
  }
#else
  (void)name;
#endif
  return {};
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
#ifdef NNFAB_HAS_XRT_DEVICE
  unsigned index = 0;
  if (name == "xrt-emu" || parseXrtDeviceName(device.name, &index)) {
#ifndef NNFAB_HAS_XRT_EMU_DEVICE
    if (name == "xrt-emu") return invalidArgument("this build has no xrt-emu device (it needs Verilator)");
#endif
    auto backend = sharedXrtBackend(device.name);
    if (!backend) return backend.status();
    device.backend = std::move(*backend);
    return device;
  }
#endif
  const std::vector<std::string> names = benchDeviceNames();
  return invalidArgument(fmt::format("'{}' is not a fabric device of this build (choose from: {})", name,
                                     names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

}  // namespace nnfab::bench
