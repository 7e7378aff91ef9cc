#include "platform_backend.h"

#include <fmt/format.h>

#include "nnfab_isa.h"

namespace nnfab::sim {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

sc_time simulated(std::chrono::nanoseconds d) {
  return sc_time(static_cast<double>(d.count()), sc_core::SC_NS);
}

}  // namespace

PlatformBackend::PlatformBackend(PlatformBackendOptions options, fabric::DeviceMemory& memory, HostInterface& host)
    : options_(std::move(options)), memory_(memory), host_(host) {}

Result<fabric::DeviceAddress> PlatformBackend::allocateWindow(uint64_t bytes, fabric::DataWindow window) {
  const uint64_t k = static_cast<uint64_t>(window);
  const uint64_t from = k * options_.channelBytes;
  // Window A, a card with fewer channels than windows, or a channel beyond
  // the modelled memory: the windows share a channel, as on a card whose
  // ports share a bank.
  if (k == 0 || options_.channelBytes == 0 || k >= options_.channels ||
      from >= fabric::DeviceMemory::kBase + memory_.size()) {
    return memory_.allocate(bytes);
  }
  Result<fabric::DeviceAddress> placed = memory_.allocateFrom(bytes, from);
  if (placed.isOk()) return placed;
  return memory_.allocate(bytes);
}

Status PlatformBackend::copyToDevice(fabric::DeviceAddress dst, const void* src, uint64_t bytes) {
  // DeviceMemory checks the range against the allocations and stores the
  // bytes; the transfer through the link carries the same bytes and the time.
  if (Status s = memory_.copyTo(dst, src, bytes); !s.isOk()) return s;
  const sc_time begin = sc_time_stamp();
  if (!host_.copyToDevice(dst, src, bytes)) {
    return generalFailure(fmt::format("the modelled DMA to 0x{:x} ({} bytes) failed", dst, bytes));
  }
  ledger_.copyIn += sc_time_stamp() - begin;
  ledger_.bytesIn += bytes;
  ++ledger_.copiesIn;
  return Status::ok();
}

Status PlatformBackend::copyFromDevice(void* dst, fabric::DeviceAddress src, uint64_t bytes) {
  if (Status s = memory_.copyFrom(dst, src, bytes); !s.isOk()) return s;
  const sc_time begin = sc_time_stamp();
  if (!host_.copyFromDevice(dst, src, bytes)) {
    return generalFailure(fmt::format("the modelled DMA from 0x{:x} ({} bytes) failed", src, bytes));
  }
  ledger_.copyOut += sc_time_stamp() - begin;
  ledger_.bytesOut += bytes;
  ++ledger_.copiesOut;
  return Status::ok();
}

void PlatformBackend::rawWrite(uint32_t offset, uint32_t value) {
  const sc_time begin = sc_time_stamp();
  if (!host_.writeRegister(offset, value)) ++registerErrors_;
  ledger_.registers += sc_time_stamp() - begin;
  ++ledger_.registerWrites;
}

uint32_t PlatformBackend::rawRead(uint32_t offset) {
  const sc_time begin = sc_time_stamp();
  uint32_t value = 0;
  // A failed read reads as all ones, as a PCIe read of a dead device does.
  if (!host_.readRegister(offset, &value)) {
    ++registerErrors_;
    value = ~0u;
  }
  ledger_.registers += sc_time_stamp() - begin;
  ++ledger_.registerReads;
  return value;
}

void PlatformBackend::enableInterrupt() {
  if (interruptEnabled_) return;
  interruptEnabled_ = true;
  rawWrite(isa::kRegGIE, 1);
  rawWrite(isa::kRegIER, 1);  // bit 0: done
}

void PlatformBackend::writeRegister(uint32_t offset, uint32_t value) {
  enableInterrupt();
  rawWrite(offset, value);
  if (offset == isa::kRegAP_CTRL && (value & isa::kAP_START) != 0) {
    ledger_.kernelStart = sc_time_stamp();
    ledger_.kernelEnded = false;
  }
}

uint32_t PlatformBackend::readRegister(uint32_t offset) {
  enableInterrupt();
  return rawRead(offset);
}

void PlatformBackend::acknowledgeDone() {
  if (!ledger_.kernelEnded) {
    ledger_.kernelEnd = host_.lastInterruptRise();
    ledger_.kernelEnded = true;
  }
  rawWrite(isa::kRegISR, 1);
}

fabric::WaitOutcome PlatformBackend::waitDone(std::chrono::nanoseconds timeout) {
  enableInterrupt();
  const sc_time begin = sc_time_stamp();
  const sc_time until = begin + simulated(timeout);
  fabric::WaitOutcome outcome = fabric::WaitOutcome::TIMED_OUT;
  if (options_.useInterrupt) {
    if (host_.waitInterrupt(simulated(timeout))) {
      sc_core::wait(options_.interruptLatency);
      outcome = fabric::WaitOutcome::DONE;
    }
  } else {
    // AP_DONE clears on read: seeing it once is the stop.
    for (;;) {
      if ((rawRead(isa::kRegAP_CTRL) & isa::kAP_DONE) != 0) {
        outcome = fabric::WaitOutcome::DONE;
        break;
      }
      if (sc_time_stamp() + options_.pollInterval > until) break;
      sc_core::wait(options_.pollInterval);
    }
  }
  if (outcome == fabric::WaitOutcome::DONE) acknowledgeDone();
  ledger_.waiting += sc_time_stamp() - begin;
  return outcome;
}

void PlatformBackend::reset() {
  host_.pulseReset(HostInterface::kResetCycles);
  interruptEnabled_ = false;
}

}  // namespace nnfab::sim
