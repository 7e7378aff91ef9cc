#include "capi/event.h"

#include "api/execution.h"

namespace nnfab::capi {

Event::~Event() {
  wait();
  if (thread_.joinable()) thread_.join();
}

int Event::wait() const {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return signalled_; });
  return resultCode_;
}

void Event::signal(int resultCode) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    resultCode_ = resultCode;
    signalled_ = true;
  }
  done_.notify_all();
}

}  // namespace nnfab::capi
