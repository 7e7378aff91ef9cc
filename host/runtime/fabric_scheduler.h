// Who uses a fabric device's one core, and for how long (docs/qos.md
// "Scheduling"). Every fabric step of every execution takes a Ticket and
// runs only while it holds the core; the thread that runs the step drives
// the core itself, so the scheduler is a policy and a queue, not a thread.
//
// Policy: clients take TURNS in round-robin order. During its turn a client's
// best waiting step (highest priority, then oldest) holds the core; a step of
// the same client with a strictly higher priority that arrives meanwhile
// preempts it at once (the preempted step is parked with its device memory
// and context, and resumes later exactly). A turn ends when the client has
// nothing waiting, or when its quantum of wall time has passed and another
// client waits: the holder is then preempted and parked, and the next client
// in the ring gets the core. So a client that waits is served after at most
// one turn of each other waiting client, whatever their priorities.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include <pthread.h>

#include "fabric/urgent_thread.h"
#include "fabric/wake_word.h"
#include "model/execution.h"
#include "model/status.h"

namespace nnfab::runtime {

struct SchedulerOptions {
  // A client's turn when other clients wait for the core.
  std::chrono::nanoseconds quantum = std::chrono::milliseconds(4);
  // False: a step of a client runs to completion even when a higher one of
  // the same client arrives (the benchmark's baseline, docs/performance.md).
  bool preemptWithinClient = true;
};

class FabricScheduler {
 public:
  // One fabric step that wants the core, from its first acquire until it
  // finishes; parked steps keep their place (seq) in their client's order.
  struct Ticket {
    explicit Ticket(const ExecutionOptions& options)
        : client(options.client), priority(options.priority), deadline(options.deadline), cancel(options.cancel) {}
    const uint64_t client;
    const Priority priority;
    const std::optional<Clock::time_point> deadline;
    const std::shared_ptr<CancelSignal> cancel;
    // The caller acquires, drives the core and releases on one thread
    // (FabricEngine): a nudge raises that thread to real-time priority
    // until it releases (below). Off for tickets passed between threads.
    bool raiseThreadWhenNudged = false;

   private:
    friend class FabricScheduler;
    uint64_t seq = 0;     // arrival order (0: never queued)
    bool queued = false;  // in its client's queue
    // The thread that acquired the core (raiseThreadWhenNudged), and
    // whether a step it must yield to raised that thread to real-time
    // priority (fabric/urgent_thread.h) until it gives the core up: its
    // driver sees the stop and releases without waiting for a CPU behind
    // other work.
    pid_t task = 0;  // its kernel id (fabric::currentTask)
    bool urgent = false;
    // The grant, handed over directly: the thread that grants the core
    // (a release, an arrival that finds it free) sets `granted` and wakes
    // this ticket's own word, so that only the chosen step wakes, and it
    // returns without taking the scheduler's lock again (fabric/wake_word.h).
    // A cancel wakes the word too.
    std::atomic<bool> granted{false};
    fabric::WakeWord wake;
  };

  struct Stats {
    uint64_t grants = 0;
    uint64_t preemptions = 0;  // a higher-priority step of the same client took over
    uint64_t turnEnds = 0;     // the quantum passed while another client waited
    // Waits after a nudge watched on the CPU (kGrantSpin): the step's word
    // moved on meanwhile (its grant, or a cancel), or the watch ran out and
    // the step slept.
    uint64_t grantsSeenSpinning = 0;
    uint64_t grantSpinsRanOut = 0;
  };

  explicit FabricScheduler(SchedulerOptions options = {}) : options_(options) {}

  // Called when a step arrives that the holder must yield to at once, a
  // higher priority of its client or a client whose wait has already
  // outlasted the holder's quantum: the engine asks the holder's core to
  // stop and wakes the holder's driver from its wait for the core
  // (event-driven preemption instead of the next poll). Called with the
  // scheduler's lock held, so that the holder it acts on is still the
  // holder (a request cannot reach the next holder's run); it must not call
  // back into the scheduler. The holder's thread is raised to real-time
  // priority (where permitted) before the nudge, and drops back when it
  // releases the core. Set before the first acquire.
  void setNudge(std::function<void()> nudge) { nudge_ = std::move(nudge); }

  // Blocks until `ticket` holds the core: OK. MISSED_DEADLINE_TRANSIENT when
  // its deadline passes while it waits (queueing or preemption made it
  // late), the cancelled status when it is cancelled meanwhile; it is then
  // out of the queue.
  Status acquire(Ticket& ticket);

  // Polled by the holder while its core runs: whether to stop at the next
  // instruction boundary (preempted, turn over, or cancelled).
  bool shouldYield(const Ticket& ticket);

  // The holder gives the core up. `park`: it stopped resumable and queues
  // again at its old place; acquire() again to resume it.
  void release(Ticket& ticket, bool park);

  Stats stats() const;
  // Steps queued for the core now (not the holder): what an observer can
  // wait on to know that a step it handed to another thread has arrived.
  size_t waitingSteps() const;

 private:
  struct Order {
    bool operator()(const Ticket* a, const Ticket* b) const {
      if (a->priority != b->priority) return a->priority > b->priority;
      return a->seq < b->seq;
    }
  };
  using Queue = std::set<Ticket*, Order>;

  void enqueue(Ticket& ticket);  // with mutex_ held
  void dequeue(Ticket& ticket);  // with mutex_ held
  void dispatch();               // with mutex_ held: grants the core if it is free
  void grant(Ticket& ticket);    // with mutex_ held
  bool yieldDue(const Ticket& holder, Clock::time_point now) const;  // with mutex_ held
  // After a nudge, the waiter watches its word on the CPU for the grant
  // before sleeping (without mutex_): true when the word moved on.
  bool grantSpin(const Ticket& ticket, uint32_t epoch);

  const SchedulerOptions options_;
  std::function<void()> nudge_;
  mutable fabric::PiMutex mutex_;
  std::map<uint64_t, Queue> waiting_;  // client -> its waiting steps (non-empty queues only)
  std::deque<uint64_t> ring_;          // clients with waiting steps, except the one whose turn it is
  Ticket* holder_ = nullptr;
  bool turnActive_ = false;
  uint64_t turnClient_ = 0;
  Clock::time_point turnStart_{};
  uint64_t nextSeq_ = 0;
  Stats stats_;
  // A nudged holder stops at its next instruction boundary and releases;
  // the grant then follows within tens of microseconds. Asleep, the waiter
  // would be woken through the hypervisor on an idle virtual machine (tens
  // of microseconds more, fabric/wake_word.h), so it watches for the grant
  // on the CPU first, for at most kGrantSpin. A spin that ran out (a loaded
  // machine: the holder's thread did not get a CPU in time) turns the
  // spin off for the next kGrantSpinBackoff nudges.
  static constexpr std::chrono::microseconds kGrantSpin{200};
  static constexpr uint32_t kGrantSpinBackoff = 16;
  fabric::SpinBackoff grantWatch_;
  std::atomic<uint64_t> grantsSeenSpinning_{0};
  std::atomic<uint64_t> grantSpinsRanOut_{0};
};

}  // namespace nnfab::runtime
