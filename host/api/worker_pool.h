// The threads asynchronous executions run on. A worker runs one execution
// from start to end (its CPU steps, and its fabric steps driving the core
// whenever the device's scheduler grants it), so a worker is started for
// each execution submitted while none is idle, up to kMaxWorkers; beyond
// that, executions wait here in the scheduler's spirit: clients in
// round-robin order, within a client highest priority first, then oldest.
// docs/qos.md gives the bounds.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "model/types.h"

namespace nnfab::api {

class WorkerPool {
 public:
  static constexpr size_t kMaxWorkers = 64;

  // The process's pool (created on first use).
  static WorkerPool& instance();

  explicit WorkerPool(size_t maxWorkers = kMaxWorkers) : maxWorkers_(maxWorkers) {}
  ~WorkerPool();  // runs what is queued, then joins
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Returns a ticket for remove().
  uint64_t submit(uint64_t client, Priority priority, std::function<void()> task);
  // True when the task was still queued and is now gone (it will not run).
  bool remove(uint64_t ticket);

 private:
  struct Task {
    uint64_t ticket;
    Priority priority;
    std::function<void()> run;
  };
  void workerLoop();
  bool takeNext(Task* task);  // with mutex_ held

  const size_t maxWorkers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<uint64_t, std::deque<Task>> pending_;  // client -> tasks, best first
  std::deque<uint64_t> ring_;                     // clients with pending tasks, next first
  std::vector<std::thread> workers_;
  size_t idle_ = 0;     // workers waiting for a task
  size_t wakeups_ = 0;  // of them, already woken for one
  uint64_t nextTicket_ = 0;
  bool shutdown_ = false;
};

}  // namespace nnfab::api
