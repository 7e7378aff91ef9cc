#include "axi_common.h"

#include <fmt/format.h>

namespace nnfab::sim {

namespace {
constexpr uint32_t kWordBytes = sizeof(sc_dt::sc_digit);
constexpr uint32_t kBeatSize = 6;  // AxSIZE: log2(64 bytes)
}  // namespace

void bytesToBeat(const uint8_t* bytes, BeatBits* beat) {
  for (uint32_t w = 0; w < kAxiBeatBytes / kWordBytes; ++w) {
    sc_dt::sc_digit word = 0;
    for (uint32_t b = 0; b < kWordBytes; ++b) word |= sc_dt::sc_digit{bytes[w * kWordBytes + b]} << (8 * b);
    beat->set_word(static_cast<int>(w), word);
  }
}

void beatToBytes(const BeatBits& beat, uint8_t* bytes) {
  for (uint32_t w = 0; w < kAxiBeatBytes / kWordBytes; ++w) {
    const sc_dt::sc_digit word = beat.get_word(static_cast<int>(w));
    for (uint32_t b = 0; b < kWordBytes; ++b) bytes[w * kWordBytes + b] = static_cast<uint8_t>(word >> (8 * b));
  }
}

std::string checkBurst(uint64_t address, uint32_t len, uint32_t size, uint32_t burst) {
  const uint64_t beats = uint64_t{len} + 1;
  if (size != kBeatSize) return fmt::format("size {} (the core moves 64-byte beats, size 6)", size);
  if (burst != kAxiBurstIncr) return fmt::format("burst type {} (only INCR)", burst);
  if (address % kAxiBeatBytes != 0) return fmt::format("address 0x{:x} not 64-byte aligned", address);
  if (beats > kAxiMaxBeats) return fmt::format("{} beats (at most {})", beats, kAxiMaxBeats);
  if (address % kAxiBoundary + beats * kAxiBeatBytes > kAxiBoundary) {
    return fmt::format("{} beats from 0x{:x} cross a 4 KiB boundary", beats, address);
  }
  return "";
}

uint32_t axiResp(tlm::tlm_response_status status) {
  if (status == tlm::TLM_OK_RESPONSE) return kAxiOkay;
  return status == tlm::TLM_ADDRESS_ERROR_RESPONSE ? kAxiDecErr : kAxiSlvErr;
}

}  // namespace nnfab::sim
