// Entry points: device introspection and the loop-timeout constants.
#include "capi/device_table.h"
#include "capi/handles.h"

using namespace nnfab::capi;

int ANeuralNetworks_getDeviceCount(uint32_t* numDevices) {
  if (numDevices == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *numDevices = static_cast<uint32_t>(deviceTable().size());
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device) {
  if (device == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  if (devIndex >= deviceTable().size()) return ANEURALNETWORKS_BAD_DATA;
  *device = reinterpret_cast<ANeuralNetworksDevice*>(const_cast<DeviceEntry*>(&deviceTable()[devIndex]));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name) {
  if (device == nullptr || name == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  const DeviceEntry* entry = findEntry(device);
  if (entry == nullptr) return ANEURALNETWORKS_BAD_DATA;
  *name = entry->name.c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type) {
  if (device == nullptr || type == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  const DeviceEntry* entry = findEntry(device);
  if (entry == nullptr) return ANEURALNETWORKS_BAD_DATA;
  *type = entry->type;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version) {
  if (device == nullptr || version == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  const DeviceEntry* entry = findEntry(device);
  if (entry == nullptr) return ANEURALNETWORKS_BAD_DATA;
  *version = entry->version.c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device, int64_t* featureLevel) {
  if (device == nullptr || featureLevel == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  const DeviceEntry* entry = findEntry(device);
  if (entry == nullptr) return ANEURALNETWORKS_BAD_DATA;
  *featureLevel = entry->featureLevel;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device) {
  if (device == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  // nnfab's devices live in this process: they never die, so they are
  // always alive when asked.
  return findEntry(device) != nullptr ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA;
}

uint64_t ANeuralNetworks_getDefaultLoopTimeout() {
  return static_cast<uint64_t>(nnfab::kLoopTimeoutDefault.count());
}

uint64_t ANeuralNetworks_getMaximumLoopTimeout() {
  return static_cast<uint64_t>(nnfab::kLoopTimeoutMaximum.count());
}
