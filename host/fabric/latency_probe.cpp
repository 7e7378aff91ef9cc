#include "fabric/latency_probe.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string_view>

namespace nnfab::fabric::latency_probe {
namespace {

bool enabledByEnvironment() {
  const char* value = std::getenv("NNFAB_LATENCY_PROBE");
  return value != nullptr && std::string_view(value) == "1";
}

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::atomic<bool> gOpen{false};
std::atomic<int64_t> gOpenedAt{0};
std::array<std::atomic<int64_t>, kMarks> gStamps{};

}  // namespace

const bool kEnabled = enabledByEnvironment();

const char* name(Mark mark) {
  switch (mark) {
    case Mark::EXECUTION_RAISED: return "HIGH execution started, raised";
    case Mark::SCHEDULER_LOCKED: return "scheduler lock taken";
    case Mark::NUDGE: return "nudge";
    case Mark::PREEMPT_WRITTEN: return "PREEMPT written";
    case Mark::CORE_STOPPED: return "core stopped";
    case Mark::HOLDER_RELEASED: return "holder released";
    case Mark::GRANTED: return "HIGH granted";
    case Mark::LOADED: return "HIGH step loaded";
    case Mark::TO_WORKER: return "start continued on the hls worker";
    case Mark::CORE_DONE: return "HIGH run ended";
    case Mark::CORE_RELEASED: return "HIGH released the core";
    case Mark::OUTPUTS_READ: return "HIGH outputs read back";
    case Mark::STEP_DONE: return "HIGH step done";
    case Mark::RESULT_BUILT: return "result built";
    case Mark::API_RETURN: return "API returns";
    case Mark::kCount: break;
  }
  return "?";
}

void markSlow(Mark mark) {
  if (!gOpen.load(std::memory_order_acquire)) return;
  int64_t unset = 0;
  gStamps[static_cast<int>(mark)].compare_exchange_strong(unset, nowNs());
}

void open() {
  for (auto& stamp : gStamps) stamp.store(0);
  gOpenedAt.store(nowNs());
  gOpen.store(true, std::memory_order_release);
}

std::array<int64_t, kMarks> close() {
  gOpen.store(false);
  std::array<int64_t, kMarks> out{};
  const int64_t at = gOpenedAt.load();
  for (int k = 0; k < kMarks; ++k) {
    const int64_t stamp = gStamps[k].load();
    out[k] = stamp == 0 ? -1 : stamp - at;
  }
  return out;
}

}  // namespace nnfab::fabric::latency_probe
