// The one way the host brings a hung or faulted core back to idle: the
// register soft reset of docs/register-map.md "Soft reset" (SOFT_RESET_KEY
// written to PREEMPT, then AP_IDLE awaited), the same on every fabric device;
// and only when that does not complete within its bound (a memory that never
// answers holds the core to AXI transactions it cannot finish) the
// backend's own last resort, FabricBackend::reset().
#pragma once

#include <chrono>

#include "fabric/fabric_backend.h"

namespace nnfab::fabric {

// How long the host waits for a soft reset. The core completes it within
// SOFT_RESET_SETTLE_CYCLES of the last response it was owed, microseconds on
// a card; the bound is wall time for simulated devices (hw_emu answers a
// register read in about a millisecond) and for a memory that answers late.
inline constexpr std::chrono::milliseconds kSoftResetTimeout{500};

enum class ResetOutcome {
  SOFT,      // the soft reset completed: the core is idle, STATUS IDLE
  FALLBACK,  // it did not within the bound: FabricBackend::reset() was used
};

// Requests a soft reset and polls AP_IDLE every `poll` until it completes or
// `timeout` passes; then FabricBackend::reset(). Never blocks longer than
// timeout plus one register access and the backend's reset.
ResetOutcome resetCore(FabricBackend& backend, std::chrono::nanoseconds timeout = kSoftResetTimeout,
                       std::chrono::nanoseconds poll = std::chrono::microseconds(200));

// Only the soft reset: true when it completed within `timeout`.
bool softReset(FabricBackend& backend, std::chrono::nanoseconds timeout,
               std::chrono::nanoseconds poll = std::chrono::microseconds(200));

}  // namespace nnfab::fabric
