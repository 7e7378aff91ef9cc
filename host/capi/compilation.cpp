#include "capi/compilation.h"

#include <algorithm>

#include "api/client.h"
#include "capi/result_code.h"

namespace nnfab::capi {
namespace {

// NNAPI priorities are per application; the process using the C API is one
// application, so it is one client of the client API.
api::Client& processClient() {
  static const std::shared_ptr<api::Client> client = api::Client::create("libneuralnetworks");
  return *client;
}

bool supportsAll(const DeviceEntry& entry, const Model& model) {
  const std::vector<bool> supported = entry.device->getSupportedOperations(model, nullptr);
  return std::all_of(supported.begin(), supported.end(), [](bool b) { return b; });
}

}  // namespace

std::optional<Clock::time_point> deadlineAfter(Clock::time_point start, uint64_t duration) {
  if (duration == 0) return std::nullopt;
  const auto room = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::time_point::max() - start);
  if (duration >= static_cast<uint64_t>(room.count())) return Clock::time_point::max();
  return start + std::chrono::nanoseconds(duration);
}

Compilation::Compilation(const Model& model, std::vector<const DeviceEntry*> devices)
    : model_(model), devices_(std::move(devices)) {}

int Compilation::setPreference(int32_t preference) {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;
  // Android rejects only values above 2; negative ones are no preference either.
  if (preference < ANEURALNETWORKS_PREFER_LOW_POWER || preference > ANEURALNETWORKS_PREFER_SUSTAINED_SPEED) {
    return ANEURALNETWORKS_BAD_DATA;
  }
  return ANEURALNETWORKS_NO_ERROR;  // nnfab's devices have one way to run a model
}

int Compilation::setPriority(int priority) {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;
  switch (priority) {
    case ANEURALNETWORKS_PRIORITY_LOW:
      priority_ = Priority::LOW;
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_PRIORITY_MEDIUM:
      priority_ = Priority::MEDIUM;
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_PRIORITY_HIGH:
      priority_ = Priority::HIGH;
      return ANEURALNETWORKS_NO_ERROR;
    default:
      return ANEURALNETWORKS_BAD_DATA;
  }
}

int Compilation::setTimeout(uint64_t duration) {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;  // before the device rule (CTS order)
  if (!singleDevice()) return ANEURALNETWORKS_BAD_DATA;
  timeout_ = duration;
  return ANEURALNETWORKS_NO_ERROR;
}

int Compilation::setCaching(const char* cacheDir, const uint8_t* token) {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;
  // The fabric devices keep their plan and programs there
  // (runtime/compilation_cache.h); a directory that cannot be used only
  // means preparing from scratch, as NNAPI treats caching as a hint.
  CacheLocation location;
  location.directory = cacheDir;
  std::copy(token, token + ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN, location.token.begin());
  cache_ = std::move(location);
  return ANEURALNETWORKS_NO_ERROR;
}

int Compilation::prepareOn(const DeviceEntry& entry, const std::optional<Clock::time_point>& deadline) {
  api::PrepareRequest request;
  request.priority = priority_;
  request.deadline = deadline;
  request.cache = cache_;
  auto prepared = processClient().prepare(*entry.device, model_, request);
  if (!prepared.isOk()) return toResultCode(prepared.status());
  prepared_ = std::move(prepared).value();
  chosen_ = &entry;
  return ANEURALNETWORKS_NO_ERROR;
}

int Compilation::finish() {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;
  finished_ = true;  // also when preparing fails: the compilation is then invalid
  const auto deadline = deadlineAfter(Clock::now(), timeout_);
  if (!devices_.empty()) {
    // Explicit devices, no fallback: the first that runs every operation.
    // (nnfab does not split one model across several listed devices.)
    for (const DeviceEntry* entry : devices_) {
      if (supportsAll(*entry, model_)) return prepareOn(*entry, deadline);
    }
    return ANEURALNETWORKS_BAD_DATA;
  }
  // Any device: the default one (sim where built) when it runs the whole
  // model, with the CPU device as the fallback Android's runtime has.
  const DeviceEntry& cpu = cpuEntry();
  for (const DeviceEntry& entry : deviceTable()) {
    if (entry.device != &defaultDevice() || &entry == &cpu || !supportsAll(entry, model_)) continue;
    const int rc = prepareOn(entry, deadline);
    if (rc == ANEURALNETWORKS_NO_ERROR || rc == ANEURALNETWORKS_BAD_DATA ||
        rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT || rc == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT) {
      return rc;
    }
  }
  return prepareOn(cpu, deadline);
}

}  // namespace nnfab::capi
