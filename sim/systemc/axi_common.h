// What both AXI4 bridges share: the 512-bit beat as the Verilated model's
// sc_bv, the burst rules of the core's masters (docs in
// docs/platform-model.md: INCR, 64-byte beats, aligned, 1..64 beats, never
// across 4 KiB), and the TLM-status to RRESP/BRESP mapping.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>

#include "nnfab_isa.h"

namespace nnfab::sim {

inline constexpr uint32_t kAxiBeatBytes = isa::kMEM_BEAT_BYTES;
using BeatBits = sc_dt::sc_bv<kAxiBeatBytes * 8>;

inline constexpr uint32_t kAxiOkay = 0;
inline constexpr uint32_t kAxiSlvErr = 2;
inline constexpr uint32_t kAxiDecErr = 3;
inline constexpr uint32_t kAxiBurstIncr = 1;
inline constexpr uint64_t kAxiBoundary = 4096;  // AXI4: no burst crosses a 4 KiB boundary
inline constexpr uint32_t kAxiMaxBeats = 64;    // the core's longest burst (4 KiB / 64 B)

struct AxiBridgeConfig {
  sc_core::sc_time clockPeriod;
  uint32_t maxOutstanding = 32;  // bursts accepted and not yet answered
};

// Byte i of the beat is bits [8i+7:8i] (little-endian, as the core sees it).
void bytesToBeat(const uint8_t* bytes, BeatBits* beat);
void beatToBytes(const BeatBits& beat, uint8_t* bytes);

// "" when an AXI4 address phase follows the rules, else what it breaks.
std::string checkBurst(uint64_t address, uint32_t len, uint32_t size, uint32_t burst);

uint32_t axiResp(tlm::tlm_response_status status);

}  // namespace nnfab::sim
