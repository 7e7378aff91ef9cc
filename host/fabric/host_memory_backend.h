// A fabric backend whose device memory is an image in host memory, as on the
// simulated devices (hls, sim): allocation and host<->device copies are the
// image's own, so each such backend only adds its core and its registers.
#pragma once

#include <cstdint>

#include "fabric/device_memory.h"
#include "fabric/fabric_backend.h"

namespace nnfab::fabric {

class HostMemoryBackend : public FabricBackend {
 public:
  uint64_t memoryBytes() const override { return memory_.size(); }
  Result<DeviceAddress> allocate(uint64_t bytes) override { return memory_.allocate(bytes); }
  Result<DeviceAddress> allocateHigh(uint64_t bytes) override { return memory_.allocateHigh(bytes); }
  // One memory, but windows B and D from the top down: their device
  // addresses are then never DATA_ADDR + their start, so that every run
  // here exercises the translation of offsets in windows (docs/isa.md
  // "Memory model") as a card with a bank per port does.
  Result<DeviceAddress> allocateWindow(uint64_t bytes, DataWindow window) override {
    return window == DataWindow::A ? memory_.allocate(bytes) : memory_.allocateHigh(bytes);
  }
  void release(DeviceAddress address) override { memory_.release(address); }
  Status copyToDevice(DeviceAddress dst, const void* src, uint64_t bytes) override {
    return memory_.copyTo(dst, src, bytes);
  }
  Status copyFromDevice(void* dst, DeviceAddress src, uint64_t bytes) override {
    return memory_.copyFrom(dst, src, bytes);
  }

 protected:
  explicit HostMemoryBackend(uint64_t memoryBytes) : memory_(memoryBytes) {}

  // The core of a derived backend reads and writes the image directly.
  DeviceMemory memory_;
};

}  // namespace nnfab::fabric
