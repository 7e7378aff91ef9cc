#include "fabric/urgent_thread.h"

#include <sched.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

namespace nnfab::fabric {
namespace {

struct Probe {
  bool permitted = false;
  std::string description;
};

bool disabledByEnvironment() {
  const char* value = std::getenv("NNFAB_URGENT_THREADS");
  return value != nullptr && std::string_view(value) == "0";
}

Probe probe() {
  Probe p;
  if (disabledByEnvironment()) {
    p.description = "ordinary priority: NNFAB_URGENT_THREADS=0";
    return p;
  }
  int policy = 0;
  sched_param original{};
  if (pthread_getschedparam(pthread_self(), &policy, &original) != 0) {
    p.description = "ordinary priority: the thread's policy cannot be read";
    return p;
  }
  if (policy == SCHED_FIFO || policy == SCHED_RR) {
    // The caller runs real-time already: the boost is possible, and this
    // thread is left as it is.
    p.permitted = true;
  } else {
    sched_param fifo{};
    fifo.sched_priority = sched_get_priority_min(SCHED_FIFO);
    const int error = pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo);
    if (error == 0) {
      pthread_setschedparam(pthread_self(), policy, &original);
      p.permitted = true;
    } else {
      p.description = fmt::format(
          "ordinary priority: SCHED_FIFO is not permitted here ({}); preemption hand-offs wait for a CPU like "
          "any thread",
          std::strerror(error));
      return p;
    }
  }
  p.description = fmt::format(
      "SCHED_FIFO (priority {}) for the bounded hand-offs of the preemption path (docs/qos.md)",
      sched_get_priority_min(SCHED_FIFO));
  return p;
}

const Probe& probed() {
  static const Probe p = probe();
  return p;
}

}  // namespace

bool urgentThreadsPermitted() { return probed().permitted; }

std::string urgentThreadsDescription() { return probed().description; }

pid_t currentTask() { return gettid(); }

bool raiseTaskToUrgent(pid_t task) {
  if (!urgentThreadsPermitted()) return false;
  // Only an ordinary thread: restoreTaskOrdinary puts it back exactly, and
  // a policy its owner chose (real-time, batch, idle) is left alone.
  if (sched_getscheduler(task) != SCHED_OTHER) return false;
  sched_param fifo{};
  fifo.sched_priority = sched_get_priority_min(SCHED_FIFO);
  return sched_setscheduler(task, SCHED_FIFO, &fifo) == 0;
}

void restoreTaskOrdinary(pid_t task) {
  sched_param ordinary{};
  ordinary.sched_priority = 0;
  sched_setscheduler(task, SCHED_OTHER, &ordinary);
}

PiMutex::PiMutex() {
  pthread_mutexattr_t attributes;
  pthread_mutexattr_init(&attributes);
  pthread_mutexattr_setprotocol(&attributes, PTHREAD_PRIO_INHERIT);  // else the default protocol
  pthread_mutex_init(&mutex_, &attributes);
  pthread_mutexattr_destroy(&attributes);
}

PiMutex::~PiMutex() { pthread_mutex_destroy(&mutex_); }

void PiMutex::lock() { pthread_mutex_lock(&mutex_); }

void PiMutex::unlock() { pthread_mutex_unlock(&mutex_); }

bool PiMutex::try_lock() { return pthread_mutex_trylock(&mutex_) == 0; }

namespace {

// Whether the calling thread raised itself (raiseSelf) and has not undone it.
thread_local bool tSelfRaised = false;

bool setPolicy(int policy) {
  sched_param param{};
  param.sched_priority = policy == SCHED_FIFO ? sched_get_priority_min(SCHED_FIFO) : 0;
  return sched_setscheduler(0, policy, &param) == 0;
}

}  // namespace

namespace {

// The threads in an open hand-off window (restoreSelfAfterHandOff) and the
// thread that closes the windows. It runs at real-time priority one above
// the raised threads where permitted, so that a window ends on time even
// when every CPU runs raised or loaded work. Never destroyed: a thread may
// hand off until the process exits.
class Demoter {
 public:
  static Demoter& instance() {
    static Demoter* demoter = new Demoter;
    return *demoter;
  }

  // False when the timer could not be created: windows then close at once.
  bool usable() const { return timer_ >= 0; }

  // Arms the timer (a system call) rather than waking the demoter: a wake-up
  // would hand the CPU to the demoter, one real-time priority above the
  // adding thread, which is returning a HIGH result at that moment.
  void add(pid_t thread, std::chrono::steady_clock::time_point at) {
    std::lock_guard<PiMutex> lock(mutex_);
    pending_.push_back({thread, at});
    if (!armed_ || at < armedAt_) arm(at);
  }

  // True when the thread's window was open (it is still raised). The timer
  // stays armed; an expiry with nothing due is harmless.
  bool remove(pid_t thread) {
    std::lock_guard<PiMutex> lock(mutex_);
    const auto it = std::find_if(pending_.begin(), pending_.end(),
                                 [thread](const Pending& p) { return p.thread == thread; });
    if (it == pending_.end()) return false;
    pending_.erase(it);
    return true;
  }

  bool contains(pid_t thread) {
    std::lock_guard<PiMutex> lock(mutex_);
    return std::any_of(pending_.begin(), pending_.end(),
                       [thread](const Pending& p) { return p.thread == thread; });
  }

 private:
  struct Pending {
    pid_t thread;  // kernel id
    std::chrono::steady_clock::time_point at;
  };

  Demoter() : timer_(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)) {  // the steady clock's
    if (timer_ < 0) return;
    std::thread worker([this] { loop(); });
    sched_param param{};
    param.sched_priority = sched_get_priority_min(SCHED_FIFO) + 1;
    if (pthread_setschedparam(worker.native_handle(), SCHED_FIFO, &param) != 0) {
      param.sched_priority = sched_get_priority_min(SCHED_FIFO);
      pthread_setschedparam(worker.native_handle(), SCHED_FIFO, &param);
    }
    worker.detach();
  }

  // With mutex_ held. The time is absolute; one already passed expires at once.
  void arm(std::chrono::steady_clock::time_point at) {
    const auto since = std::max(at.time_since_epoch(), std::chrono::steady_clock::duration(1));  // 0 disarms
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since);
    itimerspec spec{};
    spec.it_value.tv_sec = static_cast<time_t>(seconds.count());
    spec.it_value.tv_nsec =
        static_cast<long>(std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds).count());
    timerfd_settime(timer_, TFD_TIMER_ABSTIME, &spec, nullptr);
    armed_ = true;
    armedAt_ = at;
  }

  void loop() {
    for (;;) {
      uint64_t expirations = 0;
      if (read(timer_, &expirations, sizeof(expirations)) < 0 && errno != EINTR) {
        // Not expected of a blocking timer; never spin on it.
        std::this_thread::sleep_for(kHandOffWindow);
      }
      std::lock_guard<PiMutex> lock(mutex_);
      armed_ = false;
      const auto now = std::chrono::steady_clock::now();
      // Still listed, so still alive (a thread that exits leaves the list
      // first) and still at the priority it raised itself to.
      for (const Pending& p : pending_) {
        if (p.at <= now) restoreTaskOrdinary(p.thread);
      }
      std::erase_if(pending_, [now](const Pending& p) { return p.at <= now; });
      if (pending_.empty()) continue;
      arm(std::min_element(pending_.begin(), pending_.end(),
                           [](const Pending& x, const Pending& y) { return x.at < y.at; })
              ->at);
    }
  }

  // With inheritance: the threads that add and remove are raised ones, at
  // the end of a HIGH request.
  const int timer_;  // a timerfd on CLOCK_MONOTONIC; -1: none
  PiMutex mutex_;
  bool armed_ = false;
  std::chrono::steady_clock::time_point armedAt_{};
  std::vector<Pending> pending_;
};

// The calling thread may have an open hand-off window (the demoter's list
// is what counts; this only saves the look-up when it has none).
thread_local bool tHandOffPending = false;

// A thread that exits with an open window leaves the demoter's list first.
struct HandOffExitGuard {
  ~HandOffExitGuard() {
    if (tHandOffPending) Demoter::instance().remove(currentTask());
  }
};

// The calling thread's window, closed without restoring: true when it was
// open (the thread is still raised).
bool takeOverHandOff() {
  if (!tHandOffPending) return false;
  tHandOffPending = false;
  return Demoter::instance().remove(currentTask());
}

}  // namespace

bool raiseSelf() {
  if (takeOverHandOff()) {
    tSelfRaised = true;
    return true;
  }
  const bool raised = raiseTaskToUrgent(0);
  if (raised) tSelfRaised = true;
  return raised;
}

void restoreSelf() {
  takeOverHandOff();
  restoreTaskOrdinary(0);
  tSelfRaised = false;
}

bool selfRaised() { return tSelfRaised; }

void restoreSelfAfterHandOff() {
  if (!tSelfRaised) return;
  if (!Demoter::instance().usable()) {
    restoreSelf();  // no timer to close the window: closed at once
    return;
  }
  thread_local HandOffExitGuard guard;
  (void)guard;
  tSelfRaised = false;
  tHandOffPending = true;
  Demoter::instance().add(currentTask(), std::chrono::steady_clock::now() + kHandOffWindow);
}

void restorePendingSelf() {
  if (takeOverHandOff()) restoreTaskOrdinary(0);
}

bool selfHandOffPending() { return tHandOffPending && Demoter::instance().contains(currentTask()); }

OrdinaryWhileWaiting::OrdinaryWhileWaiting() {
  if (tSelfRaised && sched_getscheduler(0) == SCHED_FIFO) dropped_ = setPolicy(SCHED_OTHER);
}

OrdinaryWhileWaiting::~OrdinaryWhileWaiting() {
  // Still owed its urgency (nothing restored it meanwhile): raised again.
  if (dropped_ && tSelfRaised && sched_getscheduler(0) == SCHED_OTHER) setPolicy(SCHED_FIFO);
}

std::chrono::nanoseconds threadCpuTime() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

UrgentExecution::UrgentExecution(bool wanted, std::chrono::nanoseconds budget) : budget_(budget) {
  if (!wanted) {
    // Work of a lower priority does not run in a HIGH request's window.
    restorePendingSelf();
    return;
  }
  raised_ = raiseSelf();
  if (raised_) cpuAtStart_ = threadCpuTime();
}

// The result goes back to the caller still urgent, for a bounded window.
UrgentExecution::~UrgentExecution() {
  if (raised_) restoreSelfAfterHandOff();
}

void UrgentExecution::drop() {
  if (raised_) restoreSelf();
  raised_ = false;
}

void UrgentExecution::checkBudget() {
  if (!raised_ || spent_) return;
  if (threadCpuTime() - cpuAtStart_ >= budget_) {
    spent_ = true;
    drop();
  }
}

UrgentExecution::Pause::Pause(UrgentExecution* execution) : execution_(execution) {
  if (execution_ != nullptr && execution_->raised_) {
    execution_->drop();
    paused_ = true;
  }
}

UrgentExecution::Pause::~Pause() {
  if (!paused_ || execution_->spent_) return;
  // The paused work's CPU time counts against the budget too.
  if (threadCpuTime() - execution_->cpuAtStart_ >= execution_->budget_) {
    execution_->spent_ = true;
    return;
  }
  execution_->raised_ = raiseSelf();
}

}  // namespace nnfab::fabric
