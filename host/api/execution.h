// One asynchronous execution (client API, docs/qos.md): a future and an
// event at once. It completes exactly once, with the device's result, with
// the status of a failure, or cancelled; a failed or cancelled execution
// never carries outputs.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>

#include "model/execution.h"

namespace nnfab::api {

enum class ExecutionState {
  QUEUED,     // waiting for a worker thread
  RUNNING,    // on its device (including waiting for or parked off a fabric core)
  DONE,       // completed with a result or a failure status
  CANCELLED,  // cancel() took effect: status GENERAL_FAILURE, kCancelledMessage
};
std::string_view toString(ExecutionState state);

class Execution {
 public:
  using Callback = std::function<void(const ExecutionResult&)>;
  // `urgentWaiters`: a HIGH request's execution, whose wait()/waitFor()
  // callers run at real-time priority while they wait and through the
  // result's hand-off (fabric/urgent_thread.h, docs/qos.md).
  Execution(uint64_t id, Callback onDone, bool urgentWaiters = false);
  ~Execution();
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  uint64_t id() const { return id_; }
  ExecutionState state() const;

  // Blocks until it completed.
  const ExecutionResult& wait();
  // False if it is still not complete after `timeout`.
  bool waitFor(std::chrono::nanoseconds timeout);
  // A thread blocked on the future is not raised (the future's wait is not
  // nnfab's code): for a HIGH request's bound, wait() or waitFor().
  std::shared_future<ExecutionResult> future() const { return future_; }

  // A queued execution is removed and completes CANCELLED at once; a running
  // one stops at the next instruction boundary on a fabric core (or while it
  // waits for one), at the CPU executor's next clock check, or between plan
  // steps, and completes CANCELLED. False when it had already completed
  // (the cancel has no effect then).
  bool cancel();

  // --- for the API's own runners ---
  const std::shared_ptr<CancelSignal>& cancelSignal() const { return cancel_; }
  // QUEUED -> RUNNING; false if it was cancelled while queued.
  bool start();
  // The one completion. A cancel that was requested turns any failure into
  // CANCELLED; a result that arrived anyway is still a result.
  void complete(ExecutionResult result);
  // Hook for a queued execution's removal (set by the worker pool).
  void setRemover(std::function<bool()> remover);

  // Completions that were attempted on an execution already complete: must
  // stay 0 (the load tests check it).
  static uint64_t duplicateCompletions();

 private:
  bool isFinished() const;  // takes the lock
  bool finished() const { return state_ == ExecutionState::DONE || state_ == ExecutionState::CANCELLED; }

  const uint64_t id_;
  Callback onDone_;
  const bool urgentWaiters_;
  std::shared_ptr<CancelSignal> cancel_ = std::make_shared<CancelSignal>();
  // The lock and the waiters' wake-up (execution.cpp): priority inheritance
  // and a direct wake-up, so that a HIGH execution's raised waiter is not
  // held up (docs/qos.md). Kept out of this installed header: they are the
  // fabric layer's, which is not installed.
  struct Sync;
  std::unique_ptr<Sync> sync_;
  ExecutionState state_ = ExecutionState::QUEUED;
  bool completing_ = false;  // complete() was called: result_ is final
  std::function<bool()> remover_;
  std::promise<ExecutionResult> promise_;
  std::shared_future<ExecutionResult> future_ = promise_.get_future().share();
  ExecutionResult result_;
};

}  // namespace nnfab::api
