#include "runtime/cpu_device.h"
#include "runtime/device.h"
#ifdef NNFAB_HAS_HLS_DEVICE
#include "runtime/hls_device.h"
#endif
#ifdef NNFAB_HAS_SIM_DEVICE
#include "runtime/sim_device.h"
#endif
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
#include "runtime/xrt_device.h"
#endif

namespace nnfab {

const std::vector<const Device*>& allDevices() {
  // Most hardware-like first; each fabric device exists where its backend is built.
  // The XRT devices (xrt:N, xrt-emu) are not in this list, which tests
  // iterate: they load an xclbin (~10 s under emulation) and change the
  // process's XRT environment; findDevice and `nnfab devices` name them
  // (runtime/xrt_device.h).
  static const std::vector<const Device*> devices = {
#ifdef NNFAB_HAS_SIM_DEVICE
      &simDevice(),
#endif
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
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
  if (name == "xrt-emu") return &xrtEmuDevice();
#endif
  return nullptr;
}

// The default is the most hardware-like device built: `sim` (the RTL under
// Verilator) where Verilator is installed, else `cpu` (hls, the C-simulation
// of the same ISA, is a reference model rather than a device one picks by
// default).
const Device& defaultDevice() {
#ifdef NNFAB_HAS_SIM_DEVICE
  return simDevice();
#else
  return cpuDevice();
#endif
}

}  // namespace nnfab
