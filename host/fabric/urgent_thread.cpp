#include "fabric/urgent_thread.h"

#include <sched.h>
#include <time.h>

#include <cerrno>
#include <cstdlib>
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

bool raiseToUrgent(pthread_t thread) {
  if (!urgentThreadsPermitted()) return false;
  int policy = 0;
  sched_param current{};
  // Only an ordinary thread: restoreOrdinary puts it back exactly, and a
  // policy its owner chose (real-time, batch, idle) is left alone.
  if (pthread_getschedparam(thread, &policy, &current) != 0 || policy != SCHED_OTHER) return false;
  sched_param fifo{};
  fifo.sched_priority = sched_get_priority_min(SCHED_FIFO);
  return pthread_setschedparam(thread, SCHED_FIFO, &fifo) == 0;
}

void restoreOrdinary(pthread_t thread) {
  sched_param ordinary{};
  ordinary.sched_priority = 0;
  pthread_setschedparam(thread, SCHED_OTHER, &ordinary);
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
  return pthread_setschedparam(pthread_self(), policy, &param) == 0;
}

}  // namespace

bool raiseSelf() {
  const bool raised = raiseToUrgent(pthread_self());
  if (raised) tSelfRaised = true;
  return raised;
}

void restoreSelf() {
  restoreOrdinary(pthread_self());
  tSelfRaised = false;
}

OrdinaryWhileWaiting::OrdinaryWhileWaiting() {
  if (tSelfRaised && sched_getscheduler(0) == SCHED_FIFO) dropped_ = setPolicy(SCHED_OTHER);
}

OrdinaryWhileWaiting::~OrdinaryWhileWaiting() {
  // Still owed its urgency (nothing restored it meanwhile): raised again.
  if (dropped_ && tSelfRaised && sched_getscheduler(0) == SCHED_OTHER) setPolicy(SCHED_FIFO);
}

namespace {

std::chrono::nanoseconds threadCpuTime() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

}  // namespace

UrgentExecution::UrgentExecution(bool wanted, std::chrono::nanoseconds budget) : budget_(budget) {
  if (!wanted) return;
  raised_ = raiseSelf();
  if (raised_) cpuAtStart_ = threadCpuTime();
}

UrgentExecution::~UrgentExecution() { drop(); }

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
