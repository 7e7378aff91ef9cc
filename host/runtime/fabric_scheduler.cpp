#include "runtime/fabric_scheduler.h"

#include <algorithm>

#include "fabric/latency_probe.h"
#include "fabric/urgent_thread.h"

namespace nnfab::runtime {
namespace {

// Unsubscribes on every exit path, after the scheduler's lock is released
// (CancelSignal calls its subscribers under its own lock).
class CancelSubscription {
 public:
  CancelSubscription(const std::shared_ptr<CancelSignal>& signal, std::function<void()> fn) : signal_(signal) {
    if (signal_) id_ = signal_->subscribe(std::move(fn));
  }
  ~CancelSubscription() {
    if (signal_) signal_->unsubscribe(id_);
  }
  CancelSubscription(const CancelSubscription&) = delete;
  CancelSubscription& operator=(const CancelSubscription&) = delete;

 private:
  std::shared_ptr<CancelSignal> signal_;
  uint64_t id_ = 0;
};

}  // namespace

Status FabricScheduler::acquire(Ticket& ticket) {
  // The ticket outlives the subscription (declared first, ended last).
  CancelSubscription subscription(ticket.cancel, [&ticket] { ticket.wake.wake(); });
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  if (ticket.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::SCHEDULER_LOCKED);
  if (ticket.raiseThreadWhenNudged) ticket.task = fabric::currentTask();
  if (!ticket.queued && holder_ != &ticket) enqueue(ticket);
  dispatch();
  bool nudged = false;  // the grant is then expected within microseconds
  if (nudge_ && holder_ != nullptr && holder_ != &ticket && yieldDue(*holder_, Clock::now())) {
    // Under the lock: the holder cannot release meanwhile, so the raise is
    // always undone by its own release().
    if (holder_->raiseThreadWhenNudged && !holder_->urgent) {
      holder_->urgent = fabric::raiseTaskToUrgent(holder_->task);
    }
    fabric::latency_probe::mark(fabric::latency_probe::Mark::NUDGE);
    nudge_();
    nudged = true;
  }
  for (;;) {
    if (holder_ == &ticket) return Status::ok();
    if (ticket.cancel && ticket.cancel->cancelled()) {
      dequeue(ticket);
      return cancelledStatus("while it waited for the fabric core");
    }
    if (ticket.deadline && Clock::now() >= *ticket.deadline) {
      dequeue(ticket);
      return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                    "the execution deadline passed while the step waited for the fabric core (queued behind "
                    "other work or preempted)");
    }
    // Read under the lock, before it is released: a grant or a cancel
    // after this point changes the word, and the wait returns at once.
    const uint32_t epoch = ticket.wake.epoch();
    lock.unlock();
    if (!(nudged && grantSpin(ticket, epoch))) ticket.wake.waitUntil(epoch, ticket.deadline);
    nudged = false;
    // The grant is final until this thread releases: no need for the
    // lock (or to wait for whoever holds it) to see it.
    if (ticket.granted.load(std::memory_order_acquire)) return Status::ok();
    lock.lock();
  }
}

bool FabricScheduler::grantSpin(const Ticket& ticket, uint32_t epoch) {
  std::chrono::nanoseconds spin = kGrantSpin;
  if (ticket.deadline) spin = std::min<std::chrono::nanoseconds>(spin, *ticket.deadline - Clock::now());
  switch (grantWatch_.watch(ticket.wake, epoch, spin, kGrantSpinBackoff)) {
    case fabric::SpinBackoff::Outcome::SEEN: grantsSeenSpinning_.fetch_add(1, std::memory_order_relaxed); return true;
    case fabric::SpinBackoff::Outcome::RAN_OUT: grantSpinsRanOut_.fetch_add(1, std::memory_order_relaxed); return false;
    case fabric::SpinBackoff::Outcome::SKIPPED: return false;
  }
  return false;
}

bool FabricScheduler::shouldYield(const Ticket& ticket) {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  if (holder_ != &ticket) return false;
  if (ticket.cancel && ticket.cancel->cancelled()) return true;
  return yieldDue(ticket, Clock::now());
}

bool FabricScheduler::yieldDue(const Ticket& holder, Clock::time_point now) const {
  const auto mine = waiting_.find(holder.client);
  if (options_.preemptWithinClient && mine != waiting_.end() &&
      (*mine->second.begin())->priority > holder.priority) {
    return true;
  }
  return !ring_.empty() && now - turnStart_ >= options_.quantum;
}

void FabricScheduler::release(Ticket& ticket, bool park) {
  bool dropUrgency = false;
  {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    if (holder_ == &ticket) holder_ = nullptr;
    ticket.granted.store(false, std::memory_order_relaxed);
    dropUrgency = ticket.urgent;
    ticket.urgent = false;
    if (park) {
      fabric::latency_probe::mark(fabric::latency_probe::Mark::HOLDER_RELEASED);
      const auto mine = waiting_.find(ticket.client);
      if (options_.preemptWithinClient && mine != waiting_.end() &&
          (*mine->second.begin())->priority > ticket.priority) {
        ++stats_.preemptions;
      } else if (!ring_.empty()) {
        ++stats_.turnEnds;
      }
      enqueue(ticket);
    }
    dispatch();
  }
  // After the lock and the grant: an ordinary thread can be descheduled for
  // milliseconds, which it must not spend holding the lock the next holder
  // needs. The thread that acquired (raiseThreadWhenNudged) releases.
  if (dropUrgency) fabric::restoreTaskOrdinary(ticket.task);
}

FabricScheduler::Stats FabricScheduler::stats() const {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  Stats stats = stats_;
  stats.grantsSeenSpinning = grantsSeenSpinning_.load(std::memory_order_relaxed);
  stats.grantSpinsRanOut = grantSpinsRanOut_.load(std::memory_order_relaxed);
  return stats;
}

size_t FabricScheduler::waitingSteps() const {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  size_t n = 0;
  for (const auto& [client, queue] : waiting_) n += queue.size();
  return n;
}

void FabricScheduler::enqueue(Ticket& ticket) {
  if (ticket.seq == 0) ticket.seq = ++nextSeq_;
  Queue& queue = waiting_[ticket.client];
  const bool first = queue.empty();
  queue.insert(&ticket);
  ticket.queued = true;
  if (first && !(turnActive_ && turnClient_ == ticket.client)) ring_.push_back(ticket.client);
}

void FabricScheduler::dequeue(Ticket& ticket) {
  if (!ticket.queued) return;
  ticket.queued = false;
  const auto mine = waiting_.find(ticket.client);
  if (mine == waiting_.end()) return;
  mine->second.erase(&ticket);
  if (!mine->second.empty()) return;
  waiting_.erase(mine);
  ring_.erase(std::remove(ring_.begin(), ring_.end(), ticket.client), ring_.end());
}

void FabricScheduler::dispatch() {
  if (holder_ != nullptr) return;
  const Clock::time_point now = Clock::now();
  if (turnActive_) {
    const auto mine = waiting_.find(turnClient_);
    const bool hasWork = mine != waiting_.end();
    // The turn goes on while its client has work, unless its quantum is
    // over and another client waits.
    if (hasWork && (ring_.empty() || now - turnStart_ < options_.quantum)) {
      grant(**mine->second.begin());
      return;
    }
    if (hasWork) ring_.push_back(turnClient_);
    turnActive_ = false;
  }
  if (ring_.empty()) return;
  turnClient_ = ring_.front();
  ring_.pop_front();
  turnActive_ = true;
  turnStart_ = now;
  grant(**waiting_.at(turnClient_).begin());
}

void FabricScheduler::grant(Ticket& ticket) {
  dequeue(ticket);
  holder_ = &ticket;
  ++stats_.grants;
  // Only the chosen step is woken, directly. Under the lock: its thread
  // may return from acquire() as soon as `granted` is set, and the ticket
  // lives only until it releases, which needs this lock.
  ticket.granted.store(true, std::memory_order_release);
  ticket.wake.wake();
}

}  // namespace nnfab::runtime
