// One execution as `nnfab run` performs it, through the client API
// (host/api/): choose the device, prepare with the priority, execute with the
// deadline and loop timeout. The CLI and the conformance test share this path
// so that the test proves the CLI.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/execution.h"
#include "model/model.h"
#include "runtime/device.h"

namespace nnfab {

struct RunOptions {
  const Device* device = nullptr;  // nullptr: defaultDevice()
  Priority priority = Priority::MEDIUM;
  uint64_t timeoutMs = 0;         // 0: no deadline
  uint64_t loopTimeoutMs = 2000;  // clamped to 15000
  uint64_t memoryLimitBytes = kExecutionMemoryLimitDefault;
  // Placement on a fabric device (docs/runtime.md "Placement"): with
  // strictDevice, a model any of whose operations would run off the device
  // (on the CPU executor, or an IF/WHILE interpreted by the host) fails
  // before running with INVALID_ARGUMENT naming them and their reason codes
  // (NNAPI's createForDevices rule: the devices must support the whole
  // model). Otherwise onFallback, when set, hears one line saying what runs
  // off the device.
  bool strictDevice = false;
  std::function<void(const std::string&)> onFallback;
  // Non-null: spans for preparation, execution and what the host runs of it.
  TraceSink* trace = nullptr;
};

ExecutionResult runModel(const Model& model, const std::vector<TensorValue>& inputs,
                         const RunOptions& options);

}  // namespace nnfab
