// Shared by the QoS tests and the QoS benchmark: a fresh hls device whose
// backend and scheduler a test can look at, models whose run time a test
// can choose, and one-call helpers over the client API.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "api/client.h"
#include "api/prepared_model.h"
#include "backends/hls_backend.h"
#include "model/model.h"
#include "runtime/fabric_device.h"

namespace nnfab::qos {

// A FabricDevice over its own HlsBackend (not the registered `hls`), so that
// a test owns its memory size, watchdogs, faults and scheduler statistics.
class TestHls {
 public:
  explicit TestHls(backends::HlsBackendOptions backend = {}, runtime::EngineOptions engine = {});
  FabricDevice& device() { return device_; }
  // Created on the device's first fabric step.
  backends::HlsBackend* backend() const { return created_.load(); }

 private:
  std::atomic<backends::HlsBackend*> created_{nullptr};
  FabricDevice device_;
};

// Cancels and waits for asynchronous executions when it goes out of scope,
// so that a test that fails early never destroys a device under them.
// Declare it after the device.
class Drain {
 public:
  Drain() = default;
  Drain(const Drain&) = delete;
  Drain& operator=(const Drain&) = delete;
  ~Drain() {
    for (auto& e : executions_) {
      e->cancel();
      e->wait();
    }
  }
  std::shared_ptr<api::Execution> operator()(std::shared_ptr<api::Execution> e) {
    executions_.push_back(e);
    return e;
  }

 private:
  std::vector<std::shared_ptr<api::Execution>> executions_;
};

// while (i < n) { i = i + 1; t = t + 1 } from i = 0 over t (TENSOR_INT32
// [elements]): inputs n ([1]), t; outputs i, t. Its data region grows with
// `elements`, its run time with n.
Model tensorLoop(uint32_t elements);

// x_{k+1} = x_k + x_k, `count` times, on TENSOR_INT32 [elements]: straight
// line code whose cycle-model lower bound grows with both.
Model addChain(uint32_t elements, uint32_t count);

// Inputs of testing::counterLoop(true) and the (i, acc) it must return,
// wrapping as nnfab's INT32 does.
std::vector<TensorValue> counterInputs(int32_t n);
std::vector<int32_t> expectedCounter(int32_t n);

// Prepares on `device` for `client`; fails the calling test on an error.
std::shared_ptr<api::PreparedModel> prepareOrDie(api::Client& client, const Device& device, const Model& model,
                                                 Priority priority = Priority::MEDIUM);

double millisSince(std::chrono::steady_clock::time_point start);

// How late an ordinary thread of this process wakes up, measured while the
// object lives: a sibling thread sleeps 1 ms at a time and records by how
// much each wake-up overshot. On a machine shared with other work every
// hand-off between threads pays up to that; a test that bounds a host path
// in wall-clock time adds it per hand-off on that path to its margin, so
// that the bound holds for nnfab's own delays without counting the
// machine's. Idle, it is a few tens of microseconds and the bound is the
// unloaded one.
class WakeLateness {
 public:
  WakeLateness();
  ~WakeLateness();
  WakeLateness(const WakeLateness&) = delete;
  WakeLateness& operator=(const WakeLateness&) = delete;
  // The worst overshot so far (ms); stops the measurement.
  double stopWorstMs();

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> worstNs_{0};
  std::thread sleeper_;
};

}  // namespace nnfab::qos
