// Entry points: ANeuralNetworksCompilation_* and ANeuralNetworksBurst_*.
#include <new>

#include "capi/device_table.h"
#include "capi/handles.h"

using namespace nnfab::capi;

namespace {

int create(ANeuralNetworksModel* model, std::vector<const DeviceEntry*> devices,
           ANeuralNetworksCompilation** compilation) {
  const ModelBuilder& builder = *object(model);
  if (!builder.valid()) return ANEURALNETWORKS_BAD_STATE;
  auto* created = new (std::nothrow) Compilation(builder.model(), std::move(devices));
  if (created == nullptr) return ANEURALNETWORKS_OUT_OF_MEMORY;
  *compilation = handle<ANeuralNetworksCompilation>(created);
  return ANEURALNETWORKS_NO_ERROR;
}

}  // namespace

int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model, ANeuralNetworksCompilation** compilation) {
  if (model == nullptr || compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *compilation = nullptr;
  return create(model, {}, compilation);
}

int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model,
                                                const ANeuralNetworksDevice* const* devices, uint32_t numDevices,
                                                ANeuralNetworksCompilation** compilation) {
  if (model == nullptr || devices == nullptr || compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *compilation = nullptr;
  std::vector<const DeviceEntry*> entries;
  if (int r = resolveDevices(devices, numDevices, &entries); r != ANEURALNETWORKS_NO_ERROR) return r;
  return create(model, std::move(entries), compilation);
}

void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation) { delete object(compilation); }

int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation, int32_t preference) {
  if (compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(compilation)->setPreference(preference);
}

int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority) {
  if (compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(compilation)->setPriority(priority);
}

int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation, uint64_t duration) {
  if (compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(compilation)->setTimeout(duration);
}

int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation, const char* cacheDir,
                                          const uint8_t* token) {
  if (compilation == nullptr || cacheDir == nullptr || token == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(compilation)->setCaching(cacheDir, token);
}

int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation) {
  if (compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(compilation)->finish();
}

int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation, ANeuralNetworksBurst** burst) {
  if (compilation == nullptr || burst == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *burst = nullptr;
  if (!object(compilation)->valid()) return ANEURALNETWORKS_BAD_STATE;
  auto* created = new (std::nothrow) Burst(*object(compilation));
  if (created == nullptr) return ANEURALNETWORKS_OUT_OF_MEMORY;
  *burst = handle<ANeuralNetworksBurst>(created);
  return ANEURALNETWORKS_NO_ERROR;
}

void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst) { delete object(burst); }
