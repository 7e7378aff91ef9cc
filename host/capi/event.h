// ANeuralNetworksEvent: the completion of one execution, waited on by any
// number of threads, with the execution's result code. An event may own the
// thread that runs a fenced execution; freeing it waits for that thread.
// No event on Linux is backed by a sync fence (docs/c-api.md).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace nnfab::api {
class Execution;
}

namespace nnfab::capi {

class Event {
 public:
  ~Event();
  // Blocks until signalled; the result code of the execution.
  int wait() const;
  void signal(int resultCode);

  // Keeps what completes the event alive for as long as the event.
  void hold(std::shared_ptr<api::Execution> execution) { execution_ = std::move(execution); }
  void own(std::thread thread) { thread_ = std::move(thread); }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable done_;
  bool signalled_ = false;
  int resultCode_ = 0;
  std::shared_ptr<api::Execution> execution_;
  std::thread thread_;
};

}  // namespace nnfab::capi
