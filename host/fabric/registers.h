// The register protocol of docs/register-map.md on top of FabricBackend's
// 32-bit window: 64-bit registers are two words, low word first.
#pragma once

#include <cstdint>

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

// WATCHDOG_STATE: bit 31 armed, bits 30:0 the WDARM count.
inline constexpr uint32_t kWatchdogArmedBit = 31;
inline constexpr bool watchdogArmed(uint32_t state) { return (state >> kWatchdogArmedBit) != 0; }
inline constexpr uint32_t watchdogArms(uint32_t state) { return state & ((1u << kWatchdogArmedBit) - 1u); }

}  // namespace nnfab::fabric
