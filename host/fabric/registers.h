// The register protocol of docs/register-map.md on top of FabricBackend's
// 32-bit window: 64-bit registers are two words, low word first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "fabric/fabric_backend.h"
#include "nnfab_isa.h"

namespace nnfab::fabric {

inline constexpr uint32_t kRegisterHighWord = 4;  // byte offset of a 64-bit register's high word

inline void writeRegister64(FabricBackend& backend, uint32_t offset, uint64_t value) {
  backend.writeRegister(offset, static_cast<uint32_t>(value));
  backend.writeRegister(offset + kRegisterHighWord, static_cast<uint32_t>(value >> 32));
}

// Two reads: while the core runs, the halves may come from different cycles.
inline uint64_t readRegister64(FabricBackend& backend, uint32_t offset) {
  const uint64_t low = backend.readRegister(offset);
  const uint64_t high = backend.readRegister(offset + kRegisterHighWord);
  return (high << 32) | low;
}

// Register accesses collected and done in one FabricBackend::accessRegisters
// call (one hand-off on sim instead of one per word), in the order added.
class RegisterBatch {
 public:
  static constexpr size_t kCapacity = 32;

  void write(uint32_t offset, uint32_t value) { add(RegisterAccess::Kind::WRITE, offset, value); }
  void write64(uint32_t offset, uint64_t value) {
    write(offset, static_cast<uint32_t>(value));
    write(offset + kRegisterHighWord, static_cast<uint32_t>(value >> 32));
  }
  // Where the value will be: pass to value() / value64() after run().
  size_t read(uint32_t offset) { return add(RegisterAccess::Kind::READ, offset, 0); }
  size_t read64(uint32_t offset) {
    const size_t low = read(offset);
    read(offset + kRegisterHighWord);
    return low;
  }
  void run(FabricBackend& backend) {
    backend.accessRegisters(std::span<RegisterAccess>(accesses_.data(), size_));
  }
  uint32_t value(size_t at) const { return accesses_[at].value; }
  uint64_t value64(size_t at) const { return (uint64_t{accesses_[at + 1].value} << 32) | accesses_[at].value; }

 private:
  size_t add(RegisterAccess::Kind kind, uint32_t offset, uint32_t value) {
    // The driver's batches are fixed lists well under the capacity.
    if (size_ == kCapacity) throw std::length_error("RegisterBatch: more than 32 accesses");
    accesses_[size_] = RegisterAccess{kind, offset, value};
    return size_++;
  }
  std::array<RegisterAccess, kCapacity> accesses_{};
  size_t size_ = 0;
};

// WATCHDOG_STATE: bit 31 armed, bits 30:0 the WDARM count.
inline constexpr uint32_t kWatchdogArmedBit = 31;
inline constexpr bool watchdogArmed(uint32_t state) { return (state >> kWatchdogArmedBit) != 0; }
inline constexpr uint32_t watchdogArms(uint32_t state) { return state & ((1u << kWatchdogArmedBit) - 1u); }

}  // namespace nnfab::fabric
