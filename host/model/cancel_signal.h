// A request to stop one execution, set by whoever owns the execution (the
// client API's cancel) and read by whatever runs it: the CPU interpreter at
// its clock checks, the plan executor between steps, the fabric scheduler
// while the execution waits for or holds the core. Waiters that sleep
// (the scheduler's queue) subscribe so that a cancel wakes them at once
// instead of at their next timeout.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "model/status.h"

namespace nnfab {

class CancelSignal {
 public:
  // Idempotent; wakes every current subscriber once. Subscribers run under
  // this signal's lock, so that unsubscribe() is a barrier: never hold a lock
  // a subscriber takes while calling subscribe() or unsubscribe().
  void cancel() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_.exchange(true)) return;
    for (auto& [id, fn] : subscribers_) fn();
  }
  bool cancelled() const { return cancelled_.load(std::memory_order_acquire); }

  // Calls `fn` when cancel() is called while the returned id is subscribed.
  // `fn` must not call back into this signal.
  uint64_t subscribe(std::function<void()> fn) {
    std::lock_guard<std::mutex> lock(mutex_);
    subscribers_.emplace(++nextId_, std::move(fn));
    return nextId_;
  }
  // After it returns, the subscriber is not called any more.
  void unsubscribe(uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    subscribers_.erase(id);
  }

 private:
  std::atomic<bool> cancelled_{false};
  std::mutex mutex_;
  uint64_t nextId_ = 0;
  std::map<uint64_t, std::function<void()>> subscribers_;
};

// The one status every device reports for a cancelled execution: HAL 1.3
// has no code for it, so it is GENERAL_FAILURE with this recognisable
// message; the client API reports the state CANCELLED besides (docs/qos.md).
inline constexpr const char* kCancelledMessage = "the execution was cancelled by its client";
inline Status cancelledStatus(const std::string& where = {}) {
  return generalFailure(where.empty() ? std::string(kCancelledMessage)
                                      : std::string(kCancelledMessage) + " (" + where + ")");
}

}  // namespace nnfab
