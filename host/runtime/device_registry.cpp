#include "runtime/cpu_device.h"
#include "runtime/device.h"

namespace nnfab {

const std::vector<const Device*>& allDevices() {
  // Fabric devices are inserted before the CPU as their backends are built.
  static const std::vector<const Device*> devices = {&cpuDevice()};
  return devices;
}

const Device* findDevice(std::string_view name) {
  for (const Device* device : allDevices()) {
    if (device->name() == name) return device;
  }
  return nullptr;
}

const Device& defaultDevice() { return *allDevices().front(); }

}  // namespace nnfab
