#include "runtime/cpu_device.h"
#include "runtime/device.h"
#ifdef NNFAB_HAS_HLS_DEVICE
#include "runtime/hls_device.h"
#endif

namespace nnfab {

const std::vector<const Device*>& allDevices() {
  // Most hardware-like first; each fabric device exists where its backend is built.
  static const std::vector<const Device*> devices = {
#ifdef NNFAB_HAS_HLS_DEVICE
      &hlsDevice(),
#endif
      &cpuDevice(),
  };
  return devices;
}

const Device* findDevice(std::string_view name) {
  for (const Device* device : allDevices()) {
    if (device->name() == name) return device;
  }
  return nullptr;
}

// hls is C-simulation, far slower than the CPU it is compared with: a user
// who runs a model without naming a device wants the answer, so the default
// stays `cpu` until the Verilator `sim` device takes over the demo.
const Device& defaultDevice() { return cpuDevice(); }

}  // namespace nnfab
