#include "backends/xrt_completion.h"

#include <algorithm>
#include <thread>

namespace nnfab::backends {

fabric::WaitOutcome waitForCompletion(const CompletionHooks& hooks, const CompletionTiming& timing,
                                      std::chrono::nanoseconds timeout, const std::atomic<uint64_t>& wakeups) {
  using namespace std::chrono;
  const uint64_t woken = wakeups.load();
  const auto deadline = steady_clock::now() + std::min<nanoseconds>(timeout, hours(24));
  for (;;) {
    if (hooks.done()) return fabric::WaitOutcome::DONE;
    const auto now = steady_clock::now();
    if (now >= deadline || wakeups.load() != woken) return fabric::WaitOutcome::TIMED_OUT;
    const nanoseconds left = deadline - now;
    if (hooks.waitInterrupt) {
      // XRT waits in whole milliseconds: round up, so a short remainder
      // still waits instead of spinning.
      const milliseconds slice = std::min(timing.interruptRecheck, ceil<milliseconds>(left));
      if (hooks.waitInterrupt(std::max(slice, milliseconds(1)))) hooks.acknowledgeInterrupt();
    } else {
      std::this_thread::sleep_for(std::min(timing.pollInterval, left));
    }
  }
}

}  // namespace nnfab::backends
