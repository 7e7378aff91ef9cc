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
#include <sys/types.h>

#include <chrono>
#include <mutex>
#include <string>

namespace nnfab::fabric {

// Whether raiseTaskToUrgent can work in this process (probed once, on the
// calling thread, which goes to SCHED_FIFO and back).
bool urgentThreadsPermitted();
// One line for reports: permitted, or why not.
std::string urgentThreadsDescription();

// Puts a thread, by kernel thread id (0: the calling thread), into
// SCHED_FIFO at the lowest real-time priority. False, and nothing changed,
// when not permitted or when the thread's policy is not SCHED_OTHER (its
// owner chose one: it is left alone). A true answer obliges the caller to
// restoreTaskOrdinary the thread once its window ends. A plain system
// call, not glibc's pthread_*schedparam: those take the target thread's
// descriptor lock, an ordinary lock, and a thread that has just put itself
// back to SCHED_OTHER is rescheduled on the way out of that call, holding
// its own lock until it gets a CPU again: a HIGH thread raising it then
// blocked for milliseconds on a loaded host.
pid_t currentTask();
bool raiseTaskToUrgent(pid_t task);
void restoreTaskOrdinary(pid_t task);

// The calling thread raising itself, and undoing that: what UrgentScope
// and UrgentExecution use. The thread remembers that it raised itself, so
// that OrdinaryWhileWaiting can tell its own urgency from one another
// thread gave it (a nudge, a PREEMPT request) or its owner chose.
bool raiseSelf();
void restoreSelf();
// Whether the calling thread raised itself and has not undone it (a thread
// on a HIGH request's path, not one another thread raised).
bool selfRaised();

// The end of a HIGH request on the calling thread, when it has raised
// itself: it stays urgent while the result travels to its caller (the
// return through the API, the copies, the completion signal, the caller's
// first instructions) and a demoter thread puts it back to ordinary
// kHandOffWindow of wall time later, unless the thread raises itself again
// first (the next HIGH request takes the urgency over) or restores itself
// (a request of lower priority does, at once: restorePendingSelf). Dropping
// at once instead reschedules the thread, which on a loaded host then waits
// milliseconds for its process's turn before the caller sees the result
// (docs/performance.md, issue 15). The window is a hard cap: a caller that
// computes after the result holds a real-time CPU for at most that long.
inline constexpr std::chrono::microseconds kHandOffWindow{1000};
void restoreSelfAfterHandOff();
// A hand-off window still open on the calling thread is closed now.
void restorePendingSelf();
// Whether the calling thread is in an open hand-off window (tests).
bool selfHandOffPending();

// CPU time the calling thread has used.
std::chrono::nanoseconds threadCpuTime();

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

// A thread waiting for a HIGH request's result (Execution::wait): urgent
// while it waits (blocked, that costs no CPU), so that it runs as soon as
// the result is signalled; then through the hand-off window once the result
// is delivered (delivered()), or back to ordinary at once when the wait
// ended without it (a timeout).
class UrgentHandOffScope {
 public:
  explicit UrgentHandOffScope(bool wanted) : raised_(wanted && raiseSelf()) {}
  ~UrgentHandOffScope() {
    if (!raised_) return;
    if (delivered_) {
      restoreSelfAfterHandOff();
    } else {
      restoreSelf();
    }
  }
  UrgentHandOffScope(const UrgentHandOffScope&) = delete;
  UrgentHandOffScope& operator=(const UrgentHandOffScope&) = delete;
  void delivered() { delivered_ = true; }

 private:
  bool raised_;
  bool delivered_ = false;
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
// shares with ordinary threads (the scheduler's, the backends', the
// device memory's, the driver's). Waits under it use a WakeWord
// (fabric/wake_word.h), not a condition variable. Where the protocol cannot
// be set, a plain mutex.
class PiMutex {
 public:
  PiMutex();
  ~PiMutex();
  PiMutex(const PiMutex&) = delete;
  PiMutex& operator=(const PiMutex&) = delete;
  void lock();
  void unlock();
  bool try_lock();
  pthread_mutex_t* native() { return &mutex_; }

 private:
  pthread_mutex_t mutex_;
};

// A HIGH execution's thread, urgent from the start of its plan to its
// result and through its hand-off window (restoreSelfAfterHandOff), except while it runs CPU-executor work (a CPU step's length is
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
  // Whether the thread is raised now (tests).
  bool raised() const { return raised_; }

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
