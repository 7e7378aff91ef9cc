#include "api/execution.h"

#include <algorithm>
#include <atomic>

#include "fabric/urgent_thread.h"

namespace nnfab::api {
namespace {
std::atomic<uint64_t> gDuplicateCompletions{0};
}  // namespace

std::string_view toString(ExecutionState state) {
  switch (state) {
    case ExecutionState::QUEUED: return "QUEUED";
    case ExecutionState::RUNNING: return "RUNNING";
    case ExecutionState::DONE: return "DONE";
    case ExecutionState::CANCELLED: return "CANCELLED";
  }
  return "UNKNOWN";
}

Execution::Execution(uint64_t id, Callback onDone, bool urgentWaiters)
    : id_(id), onDone_(std::move(onDone)), urgentWaiters_(urgentWaiters) {}

ExecutionState Execution::state() const {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  return state_;
}

const ExecutionResult& Execution::wait() {
  // Raised only for a wait that blocks: a finished execution hands over at once.
  fabric::UrgentHandOffScope urgent(urgentWaiters_ && !isFinished());
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  fabric::waitLocked(doneWake_, lock, std::nullopt, [this] { return finished(); });
  urgent.delivered();
  return result_;
}

bool Execution::waitFor(std::chrono::nanoseconds timeout) {
  fabric::UrgentHandOffScope urgent(urgentWaiters_ && !isFinished());
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  // A "forever" must not overflow the clock.
  const auto until =
      std::chrono::steady_clock::now() + std::min<std::chrono::nanoseconds>(timeout, std::chrono::hours(24));
  const bool done = fabric::waitLocked(doneWake_, lock, until, [this] { return finished(); });
  if (done) urgent.delivered();
  return done;
}

bool Execution::isFinished() const {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  return finished();
}

bool Execution::start() {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  if (state_ != ExecutionState::QUEUED) return false;
  state_ = ExecutionState::RUNNING;
  return true;
}

void Execution::setRemover(std::function<bool()> remover) {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  remover_ = std::move(remover);
}

bool Execution::cancel() {
  std::function<bool()> remover;
  {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    if (completing_) return false;
    remover = state_ == ExecutionState::QUEUED ? remover_ : nullptr;
  }
  // Signal first: a worker that takes it from the queue right now sees it.
  cancel_->cancel();
  if (remover && remover()) {
    ExecutionResult result;
    result.status = cancelledStatus("removed from the queue before it started");
    complete(std::move(result));
  }
  return true;
}

void Execution::complete(ExecutionResult result) {
  {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    if (completing_) {
      ++gDuplicateCompletions;
      return;
    }
    completing_ = true;
    if (!result.status.isOk()) {
      // No output or timing ever leaves a failed run.
      result.outputs.clear();
      result.timing = {};
    }
    result_ = std::move(result);
    remover_ = nullptr;
  }
  // Before the waiters wake: whoever waits sees the callback's effects.
  if (onDone_) onDone_(result_);
  {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    state_ = !result_.status.isOk() && cancel_->cancelled() ? ExecutionState::CANCELLED : ExecutionState::DONE;
    promise_.set_value(result_);
    onDone_ = nullptr;
  }
  doneWake_.wake();
}

uint64_t Execution::duplicateCompletions() { return gDuplicateCompletions.load(); }

}  // namespace nnfab::api
