#include "capi/device_table.h"

#include <set>

#ifdef NNFAB_HAS_XRT_EMU_DEVICE
#include "runtime/xrt_device.h"
#endif

namespace nnfab::capi {
namespace {

std::vector<DeviceEntry> makeTable() {
  std::vector<const Device*> devices = allDevices();
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
  devices.push_back(&xrtEmuDevice());  // opened only when a compilation uses it
#endif
  std::vector<DeviceEntry> table;
  for (const Device* device : devices) {
    DeviceEntry entry;
    entry.device = device;
    entry.name = std::string(device->name());
    entry.version = std::string("nnfab ") + NNFAB_VERSION_STRING;
    // `cpu` is the reference executor, NNAPI's CPU device; the others drive
    // the accelerator core (as C-simulation, RTL simulation or XRT).
    entry.type = entry.name == "cpu" ? ANEURALNETWORKS_DEVICE_CPU : ANEURALNETWORKS_DEVICE_ACCELERATOR;
    table.push_back(std::move(entry));
  }
  return table;
}

}  // namespace

const std::vector<DeviceEntry>& deviceTable() {
  static const std::vector<DeviceEntry> table = makeTable();
  return table;
}

const DeviceEntry* findEntry(const ANeuralNetworksDevice* handle) {
  for (const DeviceEntry& entry : deviceTable()) {
    if (reinterpret_cast<const ANeuralNetworksDevice*>(&entry) == handle) return &entry;
  }
  return nullptr;
}

int resolveDevices(const ANeuralNetworksDevice* const* devices, uint32_t numDevices,
                   std::vector<const DeviceEntry*>* entries) {
  if (numDevices == 0) return ANEURALNETWORKS_BAD_DATA;
  std::set<const ANeuralNetworksDevice*> seen;
  entries->clear();
  for (uint32_t i = 0; i < numDevices; ++i) {
    if (devices[i] == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!seen.insert(devices[i]).second) return ANEURALNETWORKS_BAD_DATA;
    const DeviceEntry* entry = findEntry(devices[i]);
    if (entry == nullptr) return ANEURALNETWORKS_BAD_DATA;
    entries->push_back(entry);
  }
  return ANEURALNETWORKS_NO_ERROR;
}

const DeviceEntry& cpuEntry() {
  for (const DeviceEntry& entry : deviceTable()) {
    if (entry.type == ANEURALNETWORKS_DEVICE_CPU) return entry;
  }
  return deviceTable().front();
}

}  // namespace nnfab::capi
