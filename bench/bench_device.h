// The fabric devices `nnfab bench` can measure, each opened as a fresh
// backend of its own (not the runtime's shared instance), with the extra
// views a cycle-accurate device offers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric_backend.h"
#include "model/status.h"

namespace nnfab::bench {

// Cycle stamps (ap_clk) a cycle-accurate device keeps of its last run.
struct RunEvents {
  uint64_t startAccepted = 0;
  std::optional<uint64_t> preemptWritten;  // none when the host did not request preemption
  uint64_t done = 0;
};

struct BenchDevice {
  std::string name;
  std::unique_ptr<fabric::FabricBackend> backend;
  // Only on a cycle-accurate simulation (sim): ap_clk cycles simulated so
  // far, and the stamps of the last run. Empty on hls, whose CYCLES come from
  // the cycle model.
  std::function<uint64_t()> simulatedCycles;
  std::function<std::optional<RunEvents>()> lastRunEvents;

  bool cycleAccurate() const { return static_cast<bool>(simulatedCycles); }
};

// Fabric devices this build can open, most hardware-like first.
std::vector<std::string> benchDeviceNames();
// One of benchDeviceNames(), or xrt / xrt:N where XRT is built (a card is
// opened only when measured, with --xclbin or NNFAB_XCLBIN).
bool isBenchDevice(std::string_view name);
// Opens a device that is opened once per process (xrt, xrt:N, xrt-emu) now,
// so that a missing card or a wrong xclbin stops `nnfab bench` before the
// first group; OK at once for the others.
Status prepareBenchDevice(std::string_view name);
// The runtime's default device when it is a fabric device, else hls.
std::string defaultBenchDevice();
// INVALID_ARGUMENT naming the choices when `name` is not one of them.
Result<BenchDevice> openBenchDevice(std::string_view name);

}  // namespace nnfab::bench
