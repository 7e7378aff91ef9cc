#include "api/worker_pool.h"

#include <algorithm>

namespace nnfab::api {

WorkerPool& WorkerPool::instance() {
  static WorkerPool pool;
  return pool;
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

uint64_t WorkerPool::submit(uint64_t client, Priority priority, std::function<void()> task) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t ticket = ++nextTicket_;
  std::deque<Task>& queue = pending_[client];
  if (queue.empty()) ring_.push_back(client);
  // Highest priority first, FIFO within a priority.
  const auto at = std::find_if(queue.begin(), queue.end(), [&](const Task& t) { return t.priority < priority; });
  queue.insert(at, Task{ticket, priority, std::move(task)});
  // An idle worker not already woken for an earlier task takes it; else a
  // new worker, up to the cap.
  if (idle_ > wakeups_) {
    ++wakeups_;
    wake_.notify_one();
  } else if (workers_.size() < maxWorkers_) {
    workers_.emplace_back([this] { workerLoop(); });
  }
  return ticket;
}

bool WorkerPool::remove(uint64_t ticket) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    auto& queue = it->second;
    const auto found = std::find_if(queue.begin(), queue.end(), [&](const Task& t) { return t.ticket == ticket; });
    if (found == queue.end()) continue;
    queue.erase(found);
    if (queue.empty()) {
      ring_.erase(std::remove(ring_.begin(), ring_.end(), it->first), ring_.end());
      pending_.erase(it);
    }
    return true;
  }
  return false;
}

bool WorkerPool::takeNext(Task* task) {
  if (ring_.empty()) return false;
  const uint64_t client = ring_.front();
  ring_.pop_front();
  std::deque<Task>& queue = pending_.at(client);
  *task = std::move(queue.front());
  queue.pop_front();
  if (queue.empty()) {
    pending_.erase(client);
  } else {
    ring_.push_back(client);  // its next task waits for the other clients' turns
  }
  return true;
}

void WorkerPool::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    Task task;
    if (takeNext(&task)) {
      lock.unlock();
      task.run();
      task.run = nullptr;  // release what it holds before sleeping
      lock.lock();
      continue;
    }
    if (shutdown_) return;
    ++idle_;
    wake_.wait(lock);
    --idle_;
    if (wakeups_ > 0) --wakeups_;
  }
}

}  // namespace nnfab::api
