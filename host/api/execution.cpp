#include "api/execution.h"

#include <algorithm>
#include <atomic>

#include "fabric/urgent_thread.h"
#include "fabric/wake_word.h"

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

struct Execution::Sync {
  fabric::PiMutex mutex;
  fabric::WakeWord doneWake;
};

Execution::Execution(uint64_t id, Callback onDone, bool urgentWaiters)
    : id_(id), onDone_(std::move(onDone)), urgentWaiters_(urgentWaiters), sync_(std::make_unique<Sync>()) {}

Execution::~Execution() = default;

ExecutionState Execution::state() const {
  std::lock_guard<fabric::PiMutex> lock(sync_->mutex);
  return state_;
}

const ExecutionResult& Execution::wait() {
  // Raised only for a wait that blocks: a finished execution hands over at once.
  fabric::UrgentHandOffScope urgent(urgentWaiters_ && !isFinished());
  std::unique_lock<fabric::PiMutex> lock(sync_->mutex);
  fabric::waitLocked(sync_->doneWake, lock, std::nullopt, [this] { return finished(); });
  urgent.delivered();
  return result_;
}

bool Execution::waitFor(std::chrono::nanoseconds timeout) {
  fabric::UrgentHandOffScope urgent(urgentWaiters_ && !isFinished());
  std::unique_lock<fabric::PiMutex> lock(sync_->mutex);
  // A "forever" must not overflow the clock.
  const auto until =
      std::chrono::steady_clock::now() + std::min<std::chrono::nanoseconds>(timeout, std::chrono::hours(24));
  const bool done = fabric::waitLocked(sync_->doneWake, lock, until, [this] { return finished(); });
  if (done) urgent.delivered();
  return done;
}

bool Execution::isFinished() const {
  std::lock_guard<fabric::PiMutex> lock(sync_->mutex);
  return finished();
}

bool Execution::start() {
  std::lock_guard<fabric::PiMutex> lock(sync_->mutex);
  if (state_ != ExecutionState::QUEUED) return false;
  state_ = ExecutionState::RUNNING;
  return true;
}

void Execution::setRemover(std::function<bool()> remover) {
  std::lock_guard<fabric::PiMutex> lock(sync_->mutex);
  remover_ = std::move(remover);
}

bool Execution::cancel() {
  std::function<bool()> remover;
  {
    std::lock_guard<fabric::PiMutex> lock(sync_->mutex);
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
    std::lock_guard<fabric::PiMutex> lock(sync_->mutex);
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
    std::lock_guard<fabric::PiMutex> lock(sync_->mutex);
    state_ = !result_.status.isOk() && cancel_->cancelled() ? ExecutionState::CANCELLED : ExecutionState::DONE;
    promise_.set_value(result_);
    onDone_ = nullptr;
  }
  sync_->doneWake.wake();
}

uint64_t Execution::duplicateCompletions() { return gDuplicateCompletions.load(); }

}  // namespace nnfab::api
