#include "api/prepared_model.h"

#include <algorithm>
#include <atomic>

#include "api/worker_pool.h"
#include "fabric/latency_probe.h"

namespace nnfab::api {

Result<ExecutionOptions> PreparedModel::optionsFor(const ExecuteRequest& request,
                                                   std::shared_ptr<CancelSignal> cancel) const {
  if (request.loopTimeout < std::chrono::nanoseconds::zero()) {
    return invalidArgument("the loop timeout must not be negative");
  }
  ExecutionOptions options;
  options.deadline = request.deadline;
  options.loopTimeout = std::min(request.loopTimeout, kLoopTimeoutMaximum);
  options.memoryLimitBytes = request.memoryLimitBytes;
  options.trace = request.trace;
  options.client = client_->id();
  options.priority = priority_;
  options.cancel = std::move(cancel);
  return options;
}

ExecutionResult PreparedModel::execute(const std::vector<TensorValue>& inputs, const ExecuteRequest& request) const {
  auto options = optionsFor(request, nullptr);
  if (!options.isOk()) {
    ExecutionResult result;
    result.status = std::move(options).takeStatus();
    return result;
  }
  ExecutionResult result = prepared_->execute(inputs, *options);
  if (!result.status.isOk()) {
    result.outputs.clear();
    result.timing = {};
  }
  if (priority_ == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::API_RETURN);
  return result;
}

std::shared_ptr<Execution> PreparedModel::executeAsync(std::vector<TensorValue> inputs, const ExecuteRequest& request,
                                                       Execution::Callback onDone) const {
  static std::atomic<uint64_t> nextId{0};
  auto execution = std::make_shared<Execution>(++nextId, std::move(onDone), priority_ == Priority::HIGH);
  auto options = optionsFor(request, execution->cancelSignal());
  if (!options.isOk()) {
    execution->start();
    ExecutionResult result;
    result.status = std::move(options).takeStatus();
    execution->complete(std::move(result));
    return execution;
  }
  WorkerPool& pool = WorkerPool::instance();
  // The task holds what the execution needs, so that it may outlive this handle.
  const uint64_t ticket = pool.submit(
      client_->id(), priority_,
      [execution, prepared = prepared_, inputs = std::move(inputs), options = std::move(options).value()] {
        if (!execution->start()) return;  // cancelled while queued: already complete
        if (isCancelled(options)) {
          ExecutionResult result;
          result.status = cancelledStatus("before it started");
          execution->complete(std::move(result));
          return;
        }
        execution->complete(prepared->execute(inputs, options));
      });
  execution->setRemover([&pool, ticket] { return pool.remove(ticket); });
  return execution;
}

}  // namespace nnfab::api
