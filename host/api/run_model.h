// One execution as `nnfab run` performs it, through the client API
// (host/api/): choose the device, prepare with the priority, execute with the
// deadline and loop timeout. The CLI and the conformance test share this path
// so that the test proves the CLI.
#pragma once

#include <cstdint>
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
  // Non-null: spans for preparation, execution and what the host runs of it.
  TraceSink* trace = nullptr;
};

ExecutionResult runModel(const Model& model, const std::vector<TensorValue>& inputs,
                         const RunOptions& options);

}  // namespace nnfab
