// What one execution takes and gives back, the same for every device.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/model.h"
#include "model/status.h"

namespace nnfab {

using Clock = std::chrono::steady_clock;

inline constexpr std::chrono::nanoseconds kLoopTimeoutDefault = std::chrono::seconds(2);
inline constexpr std::chrono::nanoseconds kLoopTimeoutMaximum = std::chrono::seconds(15);

struct ExecutionOptions {
  // Absolute execution deadline; none = no deadline.
  std::optional<Clock::time_point> deadline;
  // Per-WHILE-instance loop timeout; callers clamp to kLoopTimeoutMaximum.
  std::chrono::nanoseconds loopTimeout = kLoopTimeoutDefault;
};

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
