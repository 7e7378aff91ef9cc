// Functional coverage of the co-simulated core, summed over every SimHarness
// of the process: which opcodes retired, which stops happened, which burst
// shapes went over the data ports (m_axi_data, m_axi_srcb, m_axi_dst, summed)
// and which back-pressure patterns the channels
// saw. The sim tests print it (docs/testing.md). The retired opcodes are
// counted by the model's top (sim/nnfab_sim_top.sv, which may clock several
// cycles in one eval()) and added here by SimHarness when a run, a tick or a
// register access ends; the rest is a few atomic increments per clock.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace nnfab::sim {

struct SimCoverage {
  enum Axi : uint32_t {
    kReadBurst1,        // AR of 1 beat
    kReadBurst2To15,
    kReadBurst16To63,
    kReadBurst64,
    kWriteBurst1,       // AW of 1 beat
    kWriteBurst2To15,
    kWriteBurst16To63,
    kWriteBurst64,
    kArWaitsForSlave,   // ARVALID without ARREADY
    kAwWaitsForSlave,
    kWWaitsForSlave,
    kRWaitsForCore,     // RVALID without RREADY
    kWBeforeAw,         // a W beat while no AW of its burst was accepted yet
    kReadsAndWritesAtOnce,
    kAxiEvents
  };
  std::array<std::atomic<uint64_t>, 256> opcodes{};  // retired, by opcode byte
  std::array<std::atomic<uint64_t>, 32> stops{};     // by STATUS
  std::array<std::atomic<uint64_t>, kAxiEvents> axi{};

  static SimCoverage& process();
  static const char* axiName(uint32_t event);
};

}  // namespace nnfab::sim
