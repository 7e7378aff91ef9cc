#include "runtime/fabric_performance.h"

#include "nnfab_isa.h"

namespace nnfab::runtime {
namespace {

// The CPU executor's other measured costs (docs/runtime.md "Capabilities").
constexpr double kCpuIfNs = 33.0;               // one IF entered and left in a loop body (frames)
constexpr double kCpuAddNsPerElement = 0.155;   // INT32 ADD, 1M elements, steady state

// The cycle model (docs/isa.md): one instruction per cycle from on-chip
// program memory, taken branches without a bubble.
constexpr double kFabricWhileIterationCycles = 2.0;  // ADD + fused compare-and-branch (back edge)
constexpr double kFabricIfCycles = 2.0;              // BZ to the else block + JMP over it
// A two-source INT32 elementwise operation streams 8 source bytes per
// element through the 64-byte read port: 8/64 cycle per element once the
// fixed 2 + mem_latency cycles are amortised over a large tensor.
constexpr double kFabricAddCyclesPerElement = 8.0 / isa::kMEM_BEAT_BYTES;

PerformanceInfo ratio(double fabricNs, double cpuNs) {
  const float r = static_cast<float>(fabricNs / cpuNs);
  return {r, r};  // power is not modelled: it follows time
}

// A CPU step inside interpreted control flow: one CpuExecutor::execute of
// a one-operation sub-model beyond the operation (input checks, copies in
// and out); docs/runtime.md "Hand-off cost".
constexpr double kCpuStepNs = 800.0;

}  // namespace

HandoffCosts handoffCosts(double fabricStepNs) {
  HandoffCosts costs;
  costs.fabricStepNs = fabricStepNs;
  costs.cpuStepNs = kCpuStepNs;
  // The counter loop's two operations carry its whole per-iteration cost.
  costs.cpuOperationNs = kCpuFrameWhileIterationNs / 2;
  costs.cpuScalarOperationNs = kCpuScalarWhileIterationNs / 2;
  costs.cpuNsPerElement = kCpuAddNsPerElement;
  return costs;
}

DeviceCapabilities fabricCapabilities(double clockMhz) {
  const double nsPerCycle = 1000.0 / clockMhz;
  DeviceCapabilities caps;
  caps.whilePerformance = ratio(kFabricWhileIterationCycles * nsPerCycle, kCpuFrameWhileIterationNs);
  caps.scalarWhilePerformance = ratio(kFabricWhileIterationCycles * nsPerCycle, kCpuScalarWhileIterationNs);
  caps.ifPerformance = ratio(kFabricIfCycles * nsPerCycle, kCpuIfNs);
  caps.tensorPerformance = ratio(kFabricAddCyclesPerElement * nsPerCycle, kCpuAddNsPerElement);
  return caps;
}

}  // namespace nnfab::runtime
