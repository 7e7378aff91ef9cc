// What one execution takes and gives back, the same for every device.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "model/cancel_signal.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab {

class TraceSink;          // model/trace_sink.h
class ExecutionObserver;  // model/execution_observer.h

using Clock = std::chrono::steady_clock;

inline constexpr std::chrono::nanoseconds kLoopTimeoutDefault = std::chrono::seconds(2);
inline constexpr std::chrono::nanoseconds kLoopTimeoutMaximum = std::chrono::seconds(15);
// Live tensor memory one execution may hold on the host (docs/cpu-executor.md):
// past it the execution ends with RESOURCE_EXHAUSTED_PERSISTENT instead of
// driving the machine into swap.
inline constexpr uint64_t kExecutionMemoryLimitDefault = uint64_t{2} << 30;

struct ExecutionOptions {
  // Absolute execution deadline; none = no deadline.
  std::optional<Clock::time_point> deadline;
  // Per-WHILE-instance loop timeout; callers clamp to kLoopTimeoutMaximum.
  std::chrono::nanoseconds loopTimeout = kLoopTimeoutDefault;
  // Bound of the tensors the execution creates (not its inputs).
  uint64_t memoryLimitBytes = kExecutionMemoryLimitDefault;

  // Quality of service (docs/qos.md). Devices with a scheduler order work
  // by client and priority; a prepared model sets both from its own
  // preparation. 0 is the anonymous client every direct Device user shares.
  uint64_t client = 0;
  Priority priority = Priority::MEDIUM;
  // Null: the execution cannot be cancelled.
  std::shared_ptr<CancelSignal> cancel;
  // Non-null: the execution reports its steps, IF branches and WHILE
  // iterations here (nnfab run --profile); not owned.
  TraceSink* trace = nullptr;
  // Non-null: the plan executor reports every step's results here, as it
  // runs (`nnfab diff`, on a model prepared with PrepareOptions::observed);
  // not owned.
  ExecutionObserver* observer = nullptr;
};

inline bool isCancelled(const ExecutionOptions& options) {
  return options.cancel && options.cancel->cancelled();
}

struct Timing {
  std::optional<uint64_t> onDeviceNs;
  std::optional<uint64_t> inDriverNs;
};

struct ExecutionResult {
  Status status;
  std::vector<TensorValue> outputs;  // only when status is NONE
  Timing timing;                     // only when status is NONE
};

}  // namespace nnfab
