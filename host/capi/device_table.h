// The devices the C API offers: exactly those `nnfab devices` lists that can
// run without further configuration (cpu, hls, sim, xrt-emu where built), by
// the same names. ANeuralNetworksDevice handles point at these entries, which
// live for the whole process.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace nnfab::capi {

struct DeviceEntry {
  const Device* device = nullptr;
  std::string name;
  std::string version;
  int32_t type = ANEURALNETWORKS_DEVICE_ACCELERATOR;
  int64_t featureLevel = 30;  // NNAPI 1.3
};

const std::vector<DeviceEntry>& deviceTable();
// The entry a handle names, or nullptr for a pointer that is no device.
const DeviceEntry* findEntry(const ANeuralNetworksDevice* handle);
const DeviceEntry& cpuEntry();
// A caller's device list (createForDevices, getSupportedOperationsForDevices)
// as entries, with NNAPI's checks in its order: a NULL element is
// UNEXPECTED_NULL; an empty list, a repeated device or a pointer that is no
// device is BAD_DATA. ANEURALNETWORKS_NO_ERROR with *entries filled.
int resolveDevices(const ANeuralNetworksDevice* const* devices, uint32_t numDevices,
                   std::vector<const DeviceEntry*>* entries);

}  // namespace nnfab::capi
