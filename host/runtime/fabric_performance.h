// NNAPI capabilities of a fabric device, derived from the cycle model of
// docs/isa.md at the device's kernel clock against the CPU executor's
// measured costs (docs/runtime.md "Capabilities" shows the arithmetic).
#pragma once

#include "runtime/device.h"
#include "runtime/partition.h"

namespace nnfab::runtime {

// The CPU executor's cost per iteration of the counter loop (LESS i n;
// ADD i 1), measured on the project's machines (Release build; the command
// and the runs are in docs/runtime.md "Capabilities"). The executor has two
// paths for a WHILE: one whose values all have one element runs as
// register code (docs/cpu-executor.md "Scalar loops"), every other on
// frames. `nnfab bench --only cpu`:
// cpu.counter_loop.marginal_ns_per_iteration (register code) and
// cpu.counter_loop_frames.marginal_ns_per_iteration (frames).
inline constexpr double kCpuScalarWhileIterationNs = 2.7;
inline constexpr double kCpuFrameWhileIterationNs = 54.0;

DeviceCapabilities fabricCapabilities(double clockMhz);

// Host wall time of one fabric step beyond the core's own run, per device
// (docs/runtime.md "Hand-off cost" says how each was measured).
// hls and sim: `nnfab bench --device D --only host`, host.fabric_step_us
// (median of a one-ADD step through FabricEngine on this project's VM).
inline constexpr double kHlsFabricStepNs = 1400.0;
inline constexpr double kSimFabricStepNs = 130000.0;
// A card: one single kernel launch, the lower end of "50us~100us"
// (docs/bench.md "Launch costs"); a dependent step cannot be pipelined.
inline constexpr double kXrtFabricStepNs = 50000.0;

// The hand-off figures of a device whose fabric step costs `fabricStepNs`,
// with the CPU executor's measured costs.
HandoffCosts handoffCosts(double fabricStepNs);

}  // namespace nnfab::runtime
