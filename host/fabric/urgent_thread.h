// Real-time scheduling for the short, bounded windows of the preemption path
// (docs/qos.md "Threads on the preemption path"). On a loaded host a thread
// that becomes runnable can wait milliseconds for a CPU; the hand-offs that
// deliver a HIGH step to the core (the holder's driver writing PREEMPT, the
// hls worker reaching its instruction boundary, the holder giving the core
// up, the HIGH thread taking it) each pay that wait. A thread in SCHED_FIFO
// runs as soon as it is runnable, ahead of every ordinary thread. It is used
// only where the thread's CPU work until it drops back is bounded (one
// instruction of a simulated core, a register batch, the inline part of an
// hls start): a real-time thread that computed for long would starve the
// host's other work.
//
// Where the process may not use SCHED_FIFO (no CAP_SYS_NICE, RLIMIT_RTPRIO
// 0) nothing changes and nothing fails: urgentThreadsPermitted() says so,
// and `nnfab bench --qos` prints it. NNFAB_URGENT_THREADS=0 in the
// environment turns the boost off (for comparison runs).
#pragma once

#include <pthread.h>

#include <chrono>
#include <string>

namespace nnfab::fabric {

// Whether raiseToUrgent can work in this process (probed once, on the
// calling thread, which goes to SCHED_FIFO and back).
bool urgentThreadsPermitted();
// One line for reports: permitted, or why not.
std::string urgentThreadsDescription();

// Puts `thread` into SCHED_FIFO at the lowest real-time priority. False,
// and nothing changed, when not permitted or when the thread's policy is not
// SCHED_OTHER (its owner chose one: it is left alone). A true answer
// obliges the caller to restoreOrdinary the thread once its window ends.
bool raiseToUrgent(pthread_t thread);
// Back to SCHED_OTHER (its nice value is kept).
void restoreOrdinary(pthread_t thread);

// The calling thread raising itself, and undoing that: what UrgentScope
// and UrgentExecution use. The thread remembers that it raised itself, so
// that OrdinaryWhileWaiting can tell its own urgency from one another
// thread gave it (a nudge, a PREEMPT request) or its owner chose.
bool raiseSelf();
void restoreSelf();

// The calling thread, urgent for the scope's lifetime (when permitted).
class UrgentScope {
 public:
  explicit UrgentScope(bool wanted = true) : raised_(wanted && raiseSelf()) {}
  ~UrgentScope() {
    if (raised_) restoreSelf();
  }
  UrgentScope(const UrgentScope&) = delete;
  UrgentScope& operator=(const UrgentScope&) = delete;

 private:
  bool raised_;
};

// For a wait whose end nobody hurries (a core that runs on after its start,
// a long fabric step): a thread that raised itself is ordinary while it
// waits and urgent again afterwards. A real-time thread that wakes every
// poll interval would otherwise take the CPU from the very thread that runs
// the core (the hls worker) each time. A raise by another thread is kept:
// a holder the scheduler nudged must see its stop at once.
class OrdinaryWhileWaiting {
 public:
  OrdinaryWhileWaiting();
  ~OrdinaryWhileWaiting();
  OrdinaryWhileWaiting(const OrdinaryWhileWaiting&) = delete;
  OrdinaryWhileWaiting& operator=(const OrdinaryWhileWaiting&) = delete;

 private:
  bool dropped_ = false;
};

// A mutex with priority inheritance (PTHREAD_PRIO_INHERIT): an ordinary
// thread that holds it while an urgent one waits runs at the waiter's
// priority until it unlocks, instead of leaving the urgent thread behind
// every ordinary thread on the host. For the locks the preemption path
// shares with ordinary threads (the scheduler's, the hls core's); with
// std::condition_variable_any. Where the protocol cannot be set, a plain
// mutex.
class PiMutex {
 public:
  PiMutex();
  ~PiMutex();
  PiMutex(const PiMutex&) = delete;
  PiMutex& operator=(const PiMutex&) = delete;
  void lock();
  void unlock();
  bool try_lock();

 private:
  pthread_mutex_t mutex_;
};

// A HIGH execution's thread, urgent from the start of its plan to its
// result, except while it runs CPU-executor work (a CPU step's length is
// the model's: unbounded), and for at most `budget` of its own CPU time in
// all: past that it drops back for good, so that a long host-interpreted
// loop cannot hold a CPU at real-time priority. Fabric steps raise the
// thread again for their own bounded window (UrgentScope).
class UrgentExecution {
 public:
  static constexpr std::chrono::milliseconds kDefaultBudget{2};
  explicit UrgentExecution(bool wanted, std::chrono::nanoseconds budget = kDefaultBudget);
  ~UrgentExecution();
  UrgentExecution(const UrgentExecution&) = delete;
  UrgentExecution& operator=(const UrgentExecution&) = delete;

  // Between steps: drops back for good once the budget is spent.
  void checkBudget();

  // Ordinary priority for its lifetime (CPU-executor work), then urgent
  // again if the execution still is.
  class Pause {
   public:
    explicit Pause(UrgentExecution* execution);
    ~Pause();
    Pause(const Pause&) = delete;
    Pause& operator=(const Pause&) = delete;

   private:
    UrgentExecution* execution_;
    bool paused_ = false;
  };

 private:
  void drop();
  bool raised_ = false;
  bool spent_ = false;
  std::chrono::nanoseconds budget_;
  std::chrono::nanoseconds cpuAtStart_{0};
};

}  // namespace nnfab::fabric
