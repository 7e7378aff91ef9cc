// A FabricBackend that passes everything to another one and watches the
// traffic, so the benchmarks can go through CoreDriver and FabricDevice
// unchanged and still know:
// - the register values the driver programmed (the LOOP_BUDGET and
//   EXEC_BUDGET a run really had);
// - how long the device was busy: from the AP_START write to the waitDone
//   that saw the run end (the "device wall time" of an execution);
// and, optionally, can report another kernel clock, so that CoreDriver turns
// a loop timeout or deadline into an exact small cycle budget while its own
// wall-clock watchdogs stay far away (a simulator runs slower than 300 MHz:
// at the real clock the host watchdog would always fire first).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>

#include "fabric/fabric_backend.h"
#include "nnfab_isa.h"

namespace nnfab::bench {

class ProbeBackend final : public fabric::FabricBackend {
 public:
  explicit ProbeBackend(std::unique_ptr<fabric::FabricBackend> inner, std::optional<double> clockMhz = {});

  fabric::FabricBackend& inner() { return *inner_; }

  // The last value the host wrote to a 64-bit register (two words).
  uint64_t written64(uint32_t offset) const;
  // Total time between AP_START writes and the ends of those runs.
  std::chrono::nanoseconds busyTime() const { return std::chrono::nanoseconds(busyNs_.load()); }
  uint64_t runs() const { return runs_.load(); }

  std::string_view name() const override { return inner_->name(); }
  uint64_t memoryBytes() const override { return inner_->memoryBytes(); }
  double clockMhz() const override { return clockMhz_ ? *clockMhz_ : inner_->clockMhz(); }
  Result<fabric::DeviceAddress> allocate(uint64_t bytes) override { return inner_->allocate(bytes); }
  void release(fabric::DeviceAddress address) override { inner_->release(address); }
  Status copyToDevice(fabric::DeviceAddress dst, const void* src, uint64_t bytes) override {
    return inner_->copyToDevice(dst, src, bytes);
  }
  Status copyFromDevice(void* dst, fabric::DeviceAddress src, uint64_t bytes) override {
    return inner_->copyFromDevice(dst, src, bytes);
  }
  void writeRegister(uint32_t offset, uint32_t value) override;
  uint32_t readRegister(uint32_t offset) override { return inner_->readRegister(offset); }
  // Passed on in batches as the driver made them, split before an AP_START
  // write so that the device's busy time starts where it did one by one.
  void accessRegisters(std::span<fabric::RegisterAccess> accesses) override;
  fabric::WaitOutcome waitDone(std::chrono::nanoseconds timeout) override;
  void wakeWaiter() override { inner_->wakeWaiter(); }
  void reset() override;

 private:
  static constexpr uint32_t kWords = isa::kRegWindowBytes / sizeof(uint32_t);

  void endRun();

  std::unique_ptr<fabric::FabricBackend> inner_;
  const std::optional<double> clockMhz_;
  std::array<std::atomic<uint32_t>, kWords> written_{};
  std::atomic<int64_t> startedNs_{-1};  // steady_clock of the running start, -1 when idle
  std::atomic<int64_t> busyNs_{0};
  std::atomic<uint64_t> runs_{0};
};

}  // namespace nnfab::bench
