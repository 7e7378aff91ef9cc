// How the xrt backend waits for the core's AP_DONE: on the core's interrupt
// where XRT delivers one (a card's xocl driver), else by polling AP_CTRL (XRT
// 2.13's noop and hw_emu shims refuse IP interrupts). Kept apart from the
// XRT calls so that both ways, missed and spurious interrupts included, are
// tested without a card (tests/xrt/test_xrt_completion.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

#include "fabric/fabric_backend.h"

namespace nnfab::backends {

struct CompletionHooks {
  // Reads AP_CTRL once: true when AP_DONE was set (it is clear-on-read).
  std::function<bool()> done;
  // Empty: no interrupt, poll. Else blocks until the core's interrupt or the
  // timeout; true when the interrupt arrived.
  std::function<bool(std::chrono::milliseconds)> waitInterrupt;
  // Clears the core's pending done interrupt (ISR is toggle-on-write).
  std::function<void()> acknowledgeInterrupt;
};

struct CompletionTiming {
  std::chrono::nanoseconds pollInterval{std::chrono::microseconds(50)};
  // With interrupts, AP_CTRL is read again at least this often: a lost or
  // late interrupt (or a wake request) costs at most this long.
  std::chrono::milliseconds interruptRecheck{1};
};

// Until AP_DONE, the timeout, or a wake request made while it waits (a
// change of `wakeups` from its value at the call: FabricBackend::wakeWaiter).
fabric::WaitOutcome waitForCompletion(const CompletionHooks& hooks, const CompletionTiming& timing,
                                      std::chrono::nanoseconds timeout, const std::atomic<uint64_t>& wakeups);

}  // namespace nnfab::backends
