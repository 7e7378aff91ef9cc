// A FabricBackend handle on a backend that is opened once per process and
// shared by every benchmark group. The groups each ask for "a fresh
// backend", which is cheap on hls and sim; an xrt device is not: XRT loads
// the xclbin once (about 10 s under hw_emu), picks its shim once per
// process, and a card has one compute unit. So on xrt devices each group
// gets one of these handles to the same opened backend; releasing a handle
// leaves the backend open for the next group.
#pragma once

#include <memory>
#include <span>
#include <utility>

#include "fabric/fabric_backend.h"

namespace nnfab::bench {

class SharedBackend final : public fabric::FabricBackend {
 public:
  explicit SharedBackend(std::shared_ptr<fabric::FabricBackend> inner) : inner_(std::move(inner)) {}

  std::string_view name() const override { return inner_->name(); }
  uint64_t memoryBytes() const override { return inner_->memoryBytes(); }
  double clockMhz() const override { return inner_->clockMhz(); }
  Result<fabric::DeviceAddress> allocate(uint64_t bytes) override { return inner_->allocate(bytes); }
  void release(fabric::DeviceAddress address) override { inner_->release(address); }
  Status copyToDevice(fabric::DeviceAddress dst, const void* src, uint64_t bytes) override {
    return inner_->copyToDevice(dst, src, bytes);
  }
  Status copyFromDevice(void* dst, fabric::DeviceAddress src, uint64_t bytes) override {
    return inner_->copyFromDevice(dst, src, bytes);
  }
  void writeRegister(uint32_t offset, uint32_t value) override { inner_->writeRegister(offset, value); }
  uint32_t readRegister(uint32_t offset) override { return inner_->readRegister(offset); }
  void accessRegisters(std::span<fabric::RegisterAccess> accesses) override { inner_->accessRegisters(accesses); }
  fabric::WaitOutcome waitDone(std::chrono::nanoseconds timeout) override { return inner_->waitDone(timeout); }
  void wakeWaiter() override { inner_->wakeWaiter(); }
  void reset() override { inner_->reset(); }

 private:
  std::shared_ptr<fabric::FabricBackend> inner_;
};

}  // namespace nnfab::bench
