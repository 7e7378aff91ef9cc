// A model prepared for one client on one device (client API, docs/qos.md).
// Thread-safe: any number of threads may execute it at once.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "api/client.h"
#include "api/execution.h"
#include "model/execution.h"
#include "runtime/device.h"

namespace nnfab::api {

struct ExecuteRequest {
  // Absolute; none = no deadline. Passed before the start, or closer than an
  // idle device can finish by the cycle model: MISSED_DEADLINE_PERSISTENT.
  // Passed while queued, preempted or running: MISSED_DEADLINE_TRANSIENT.
  std::optional<Clock::time_point> deadline;
  // Per WHILE instance; negative is INVALID_ARGUMENT, above 15 s is clamped.
  std::chrono::nanoseconds loopTimeout = kLoopTimeoutDefault;
  uint64_t memoryLimitBytes = kExecutionMemoryLimitDefault;
  TraceSink* trace = nullptr;  // ExecutionOptions::trace
};

class PreparedModel {
 public:
  const Client& client() const { return *client_; }
  Priority priority() const { return priority_; }

  // Runs on the calling thread.
  ExecutionResult execute(const std::vector<TensorValue>& inputs, const ExecuteRequest& request = {}) const;

  // Runs on the API's worker pool; `onDone` (optional) is called exactly once
  // with the result, on the thread that completed it.
  std::shared_ptr<Execution> executeAsync(std::vector<TensorValue> inputs, const ExecuteRequest& request = {},
                                          Execution::Callback onDone = {}) const;

 private:
  friend class Client;
  PreparedModel(std::shared_ptr<Client> client, Priority priority, std::unique_ptr<nnfab::PreparedModel> prepared)
      : client_(std::move(client)), priority_(priority), prepared_(std::move(prepared)) {}

  // The device options of one execution, or INVALID_ARGUMENT.
  Result<ExecutionOptions> optionsFor(const ExecuteRequest& request, std::shared_ptr<CancelSignal> cancel) const;

  std::shared_ptr<Client> client_;
  Priority priority_;
  // Shared with running asynchronous executions, which may outlive this handle.
  std::shared_ptr<const nnfab::PreparedModel> prepared_;
};

}  // namespace nnfab::api
