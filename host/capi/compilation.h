// ANeuralNetworksCompilation: a finished model, the devices it may use and
// the options of its preparation (priority, timeout); finish() prepares it
// through the client API (host/api) for the one client the C API is.
#pragma once

#include <android/NeuralNetworks.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/prepared_model.h"
#include "capi/device_table.h"
#include "model/model.h"

namespace nnfab::capi {

// A deadline `duration` ns from `start`, saturated at the clock's maximum
// (UINT64_MAX must work); none for 0.
std::optional<Clock::time_point> deadlineAfter(Clock::time_point start, uint64_t duration);

class Compilation {
 public:
  // `devices` empty: ANeuralNetworksCompilation_create (any device, CPU fallback).
  Compilation(const Model& model, std::vector<const DeviceEntry*> devices);

  int setPreference(int32_t preference);
  int setPriority(int priority);
  int setTimeout(uint64_t duration);
  int setCaching(const char* cacheDir, const uint8_t* token);
  int finish();

  bool finished() const { return finished_; }
  bool valid() const { return finished_ && prepared_ != nullptr; }
  // Timeouts, timing and fenced durations need createForDevices with one device.
  bool singleDevice() const { return devices_.size() == 1; }
  const Model& model() const { return model_; }
  const api::PreparedModel& prepared() const { return *prepared_; }
  const DeviceEntry* device() const { return chosen_; }

 private:
  int prepareOn(const DeviceEntry& entry, const std::optional<Clock::time_point>& deadline);

  Model model_;
  std::vector<const DeviceEntry*> devices_;
  Priority priority_ = Priority::MEDIUM;
  uint64_t timeout_ = 0;
  std::optional<CacheLocation> cache_;
  bool finished_ = false;
  std::shared_ptr<api::PreparedModel> prepared_;
  const DeviceEntry* chosen_ = nullptr;
};

}  // namespace nnfab::capi
