// NNAPI capabilities of a fabric device, derived from the cycle model of
// docs/isa.md at the device's kernel clock against the CPU executor's
// measured costs (docs/runtime.md "Capabilities" shows the arithmetic).
#pragma once

#include "runtime/device.h"
#include "runtime/partition.h"

namespace nnfab::runtime {

DeviceCapabilities fabricCapabilities(double clockMhz);

// Host wall time of one fabric step beyond the core's own run, per device
// (docs/runtime.md "Hand-off cost" says how each was measured).
// hls and sim: `nnfab bench --device D --only host`, host.fabric_step_us
// (median of a one-ADD step through FabricEngine on this project's VM).
inline constexpr double kHlsFabricStepNs = 1400.0;
inline constexpr double kSimFabricStepNs = 400000.0;
// A card: one single kernel launch, the lower end of "50us~100us"
// (docs/bench.md "Launch costs"); a dependent step cannot be pipelined.
inline constexpr double kXrtFabricStepNs = 50000.0;

// The hand-off figures of a device whose fabric step costs `fabricStepNs`,
// with the CPU executor's measured costs.
HandoffCosts handoffCosts(double fabricStepNs);

}  // namespace nnfab::runtime
