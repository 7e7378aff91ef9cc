// A device as the runtime sees it (NNAPI's IDevice, reduced): it reports what
// it supports, prepares a model, and executes prepared models. `cpu` (the CPU
// executor) is one; the fabric devices `hls` and `sim` (FabricDevice over a
// backend) are others, and so are `xrt:N` (an Alveo card) and `xrt-emu`.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/execution.h"
#include "model/model.h"
#include "model/status.h"
#include "runtime/plan.h"

namespace nnfab {

// NNAPI PerformanceInfo: ratios to the CPU reference (1.0), lower is better.
struct PerformanceInfo {
  float execTime = 1.0f;
  float powerUsage = 1.0f;
};

struct DeviceCapabilities {
  PerformanceInfo tensorPerformance;
  PerformanceInfo ifPerformance;
  // NNAPI's figure: against the CPU executor's general WHILE (frames).
  PerformanceInfo whilePerformance;
  // nnfab's own: against a WHILE the CPU executor runs as register code
  // (one-element values, docs/cpu-executor.md "Scalar loops"). Used where
  // the CPU would run such a loop whole (docs/runtime.md "Capabilities").
  PerformanceInfo scalarWhilePerformance;
};

// Where a preparation may keep and find its compiled form (NNAPI's
// compilation cache: setCaching, HAL prepareModelFromCache_1_3): a directory
// and the caller's 32-byte token. runtime/compilation_cache.h; devices that
// compile nothing (cpu) ignore it.
struct CacheLocation {
  std::string directory;
  std::array<uint8_t, 32> token{};
};

struct PrepareOptions {
  // LOW, MEDIUM or HIGH; any other value is INVALID_ARGUMENT.
  Priority priority = Priority::MEDIUM;
  std::optional<Clock::time_point> deadline;
  // The client (docs/qos.md) whose executions of this model are scheduled
  // together; 0 = anonymous.
  uint64_t client = 0;
  std::optional<CacheLocation> cache;
  // Prepare for an observed execution (`nnfab diff`, docs/runtime.md
  // "Observed execution"): the plan executor runs the observed plan
  // (runtime::partitionObserved: one step per operation, every IF/WHILE
  // interpreted by the host) and reports each step to
  // ExecutionOptions::observer. Slower than a normal preparation, never
  // cached; devices without a plan executor refuse it (INVALID_ARGUMENT).
  bool observed = false;
  // Prepare for profiled executions (ExecutionOptions::trace): a fabric
  // device sets up what its profiled runs read the device trace with (the
  // trace area and the host's buffer, fabric::CoreDriver::prepareTrace)
  // now, so that the first profiled execution does not pay for it. A hint:
  // without it the first profiled run sets them up.
  bool profiled = false;
};

// The preparation checks every device shares: INVALID_ARGUMENT for a
// priority that is not LOW/MEDIUM/HIGH, MISSED_DEADLINE_PERSISTENT for a
// deadline that already passed.
Status checkPrepareOptions(const PrepareOptions& options);
// After preparing: a deadline that passed meanwhile is
// MISSED_DEADLINE_TRANSIENT (preparation itself made it late).
Status checkPrepareFinishedInTime(const PrepareOptions& options);

class PreparedModel {
 public:
  virtual ~PreparedModel() = default;
  virtual ExecutionResult execute(const std::vector<TensorValue>& inputs,
                                  const ExecutionOptions& options) const = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  virtual DeviceCapabilities capabilities() const = 0;
  // Per main operation; IF/WHILE only if everything they reference is supported.
  // why[i] explains each false entry.
  virtual std::vector<bool> getSupportedOperations(const Model& model,
                                                   std::vector<std::string>* why) const = 0;
  virtual Result<std::unique_ptr<PreparedModel>> prepare(const Model& model,
                                                         const PrepareOptions& options) const = 0;
  // How this device splits a valid model between itself and the CPU executor
  // (`nnfab partition`). The default: the whole main subgraph is one CPU step.
  virtual runtime::Plan partition(const Model& model) const;
};

// Every device this build has, most hardware-like first.
const std::vector<const Device*>& allDevices();
// nullptr if no such device is built.
const Device* findDevice(std::string_view name);
// The device `nnfab run` uses without --device: `sim` (the RTL under
// Verilator) where Verilator is built, else `cpu`.
const Device& defaultDevice();

}  // namespace nnfab
