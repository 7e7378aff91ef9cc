// The one narrow interface every fabric backend implements (hls C-simulation,
// Verilator RTL, an XRT card): device memory, the core's control
// registers, and waiting. The compiler and the runtime only ever talk to this interface,
// usually through CoreDriver (core_driver.h), which knows the register
// protocol of docs/register-map.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>

#include "isa/data_windows.h"
#include "model/status.h"

namespace nnfab::fabric {

using DeviceAddress = uint64_t;

enum class WaitOutcome { DONE, TIMED_OUT };

// The windows of a program's data region (docs/isa.md "Memory model"): A at
// DATA_ADDR, B at SRCB_ADDR, D at DST_ADDR. On a card each wants the memory
// bank of its port (m_axi_data, m_axi_srcb, m_axi_dst). The values are the
// window indexes of isa/data_windows.h, so an index converts with a cast.
enum class DataWindow : uint8_t {
  A = isa::kWindowA,
  B = isa::kWindowB,
  D = isa::kWindowD,
};

// One access of the AXI4-Lite control window (FabricBackend::accessRegisters).
struct RegisterAccess {
  enum class Kind : uint8_t { READ, WRITE };
  Kind kind = Kind::READ;
  uint32_t offset = 0;
  uint32_t value = 0;  // WRITE: written; READ: what was read
};

class FabricBackend {
 public:
  virtual ~FabricBackend() = default;

  virtual std::string_view name() const = 0;
  // Total device memory the backend can allocate.
  virtual uint64_t memoryBytes() const = 0;
  // Kernel clock: converts durations to cycle budgets.
  virtual double clockMhz() const = 0;

  // 64-byte aligned. RESOURCE_EXHAUSTED_PERSISTENT if bytes can never fit,
  // RESOURCE_EXHAUSTED_TRANSIENT if other allocations are in the way.
  virtual Result<DeviceAddress> allocate(uint64_t bytes) = 0;
  // The same for a driver's own long-lived buffer (CoreDriver's trace
  // area), placed where it does not move the later allocations of programs
  // and data: on a backend whose memory is a host image (HostMemoryBackend)
  // from the top down, so that a profiled run's program lands on the same
  // image page as an unprofiled one's (a fresh page would be faulted in
  // during the run). Elsewhere placement costs nothing: allocate.
  virtual Result<DeviceAddress> allocateHigh(uint64_t bytes) { return allocate(bytes); }
  // The same for one window of a data region: on a card, in the bank of
  // that window's port, reachable by all three data ports. Where there is
  // one memory, allocate.
  virtual Result<DeviceAddress> allocateWindow(uint64_t bytes, DataWindow window) {
    (void)window;
    return allocate(bytes);
  }
  virtual void release(DeviceAddress address) = 0;
  // INVALID_ARGUMENT when the range is not inside one allocation.
  virtual Status copyToDevice(DeviceAddress dst, const void* src, uint64_t bytes) = 0;
  virtual Status copyFromDevice(void* dst, DeviceAddress src, uint64_t bytes) = 0;

  // The AXI4-Lite control window (offsets of docs/register-map.md). Writing
  // AP_START to AP_CTRL starts the core; writing PREEMPT while it runs
  // requests preemption. Safe to call from any thread.
  virtual void writeRegister(uint32_t offset, uint32_t value) = 0;
  virtual uint32_t readRegister(uint32_t offset) = 0;
  // The accesses in order, each exactly as writeRegister / readRegister
  // would do it (a READ's value is filled in). A backend whose accesses each
  // cost a round trip to another thread (sim) does them all in one.
  virtual void accessRegisters(std::span<RegisterAccess> accesses) {
    for (RegisterAccess& access : accesses) {
      if (access.kind == RegisterAccess::Kind::WRITE) {
        writeRegister(access.offset, access.value);
      } else {
        access.value = readRegister(access.offset);
      }
    }
  }

  // Blocks until the core reports ap_done or the timeout passes.
  virtual WaitOutcome waitDone(std::chrono::nanoseconds timeout) = 0;
  // Makes a waitDone that is blocked now return TIMED_OUT at once (unless
  // the core is done), so that its caller polls without waiting out its
  // poll interval: how the scheduler delivers a preemption request at once.
  // A backend without it leaves the caller to its poll interval.
  virtual void wakeWaiter() {}
  // Asks the running core to stop at its next instruction boundary, as the
  // host's PREEMPT write does, from a thread other than the driver's: the
  // scheduler's preemption then reaches the core without waiting for the
  // holder's driver to wake and write it. False: not offered here (the
  // driver writes PREEMPT once wakeWaiter has woken it). Either way the
  // driver handles the stop as one it requested (grace period, reset).
  virtual bool requestPreempt() { return false; }
  // Brings a hung or faulted core back to idle (ap_rst_n); memory survives.
  virtual void reset() = 0;
  // OK while the device can run programs. A device that failed for good (a
  // failed RTL assertion on sim, a card that stopped answering on xrt)
  // says why, with DEVICE_UNAVAILABLE, from then on: its register reads
  // return 0 and its writes are dropped, and CoreDriver fails every run
  // with this status at once instead of waiting for its watchdog.
  virtual Status usable() const { return Status::ok(); }
};

}  // namespace nnfab::fabric
