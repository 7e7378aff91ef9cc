#include "api/run_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/client.h"
#include "api/prepared_model.h"
#include "model/trace_sink.h"
#include "runtime/plan.h"

namespace nnfab {

ExecutionResult runModel(const Model& model, const std::vector<TensorValue>& inputs,
                         const RunOptions& options) {
  const Device& device = options.device ? *options.device : defaultDevice();
  // The deadline covers preparation and execution: it starts with the run.
  std::optional<Clock::time_point> deadline;
  if (options.timeoutMs > 0) {
    const uint64_t ms = std::min<uint64_t>(options.timeoutMs, uint64_t{1} << 40);  // no overflow
    deadline = Clock::now() + std::chrono::milliseconds(ms);
  }

  // One run is one client: nothing else of its own to be ordered against.
  auto client = api::Client::create("nnfab run");
  api::PrepareRequest prepare;
  prepare.priority = options.priority;
  prepare.deadline = deadline;
  prepare.profiled = options.trace != nullptr;
  const Clock::time_point prepareStart = Clock::now();
  auto prepared = client->prepare(device, model, prepare);
  if (options.trace != nullptr) {
    options.trace->span("prepare (validate, partition, compile)", "prepare", prepareStart, Clock::now(),
                        {{"device", std::string(device.name())}});
  }
  if (!prepared.isOk()) {
    ExecutionResult result;
    result.status = std::move(prepared).takeStatus();
    return result;
  }
  if (options.strictDevice || options.onFallback) {
    // The model is valid now (prepare checked it): its plan is well defined.
    const auto off = runtime::offFabricOperations(model, device.partition(model));
    if (!off.empty()) {
      const std::string what =
          fmt::format("{} of the model's operations would not run on {}: {} (reasons: nnfab partition --device {})",
                      off.size(), device.name(), runtime::summarizeOffFabric(off, 4), device.name());
      if (options.strictDevice) {
        ExecutionResult result;
        result.status = invalidArgument("--strict-device: " + what);
        return result;
      }
      options.onFallback(what);
    }
  }
  api::ExecuteRequest request;
  request.deadline = deadline;
  request.loopTimeout = std::chrono::milliseconds(std::min<uint64_t>(options.loopTimeoutMs, 15000));
  request.memoryLimitBytes = options.memoryLimitBytes;
  request.trace = options.trace;
  const Clock::time_point executeStart = Clock::now();
  ExecutionResult result = prepared.value()->execute(inputs, request);
  if (options.trace != nullptr) {
    options.trace->span("execute", "execute", executeStart, Clock::now(),
                        {{"device", std::string(device.name())}, {"status", std::string(toString(result.status.code()))}});
  }
  return result;
}

}  // namespace nnfab
