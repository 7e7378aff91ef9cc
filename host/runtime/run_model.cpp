#include "runtime/run_model.h"

#include <algorithm>

namespace nnfab {

ExecutionResult runModel(const Model& model, const std::vector<TensorValue>& inputs,
                         const RunOptions& options) {
  const Device& device = options.device ? *options.device : defaultDevice();
  ExecutionOptions execution;
  execution.loopTimeout = std::min<std::chrono::nanoseconds>(
      std::chrono::milliseconds(std::min<uint64_t>(options.loopTimeoutMs, 15000)),
      kLoopTimeoutMaximum);
  // The deadline covers preparation and execution: it starts with the run.
  if (options.timeoutMs > 0) {
    const uint64_t ms = std::min<uint64_t>(options.timeoutMs, uint64_t{1} << 40);  // no overflow
    execution.deadline = Clock::now() + std::chrono::milliseconds(ms);
  }

  PrepareOptions prepare;
  prepare.priority = options.priority;
  prepare.deadline = execution.deadline;
  auto prepared = device.prepare(model, prepare);
  if (!prepared.isOk()) {
    ExecutionResult result;
    result.status = std::move(prepared).takeStatus();
    return result;
  }
  return prepared.value()->execute(inputs, execution);
}

}  // namespace nnfab
