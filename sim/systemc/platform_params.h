// The figures of an Alveo card the platform model needs: device memory
// (channels, bandwidth, latency), the PCIe link (DMA bandwidth and
// per-transfer cost, MMIO and interrupt latency) and the kernel clock. Every
// default comes from a published source listed in docs/platform-model.md
// "Sources" (named at each value in platform_params.cpp) or is marked there
// as an assumption.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nnfab::sim {

// One kind of device memory: `channels` independent channels of
// `channelBytes` each, consecutive in the address space (an Alveo card's
// banks DDR[0], DDR[1], ...). A channel serves one transaction at a time at
// its bandwidth; latency overlaps with other transactions' transfers.
struct MemoryProfile {
  std::string kind;           // "ddr4" or "hbm"
  uint32_t channels = 1;
  uint64_t channelBytes = 0;
  double readGBps = 0;        // sustained per channel, 1e9 bytes/s
  double writeGBps = 0;
  double latencyNs = 0;       // read: request to first data
  double writeLatencyNs = 0;  // write: last data to response
};

struct PcieProfile {
  double h2dGBps = 0;         // host -> card DMA, sustained
  double d2hGBps = 0;         // card -> host DMA, sustained
  double transferUs = 0;      // fixed cost of one DMA transfer (setup, sync call)
  double mmioReadNs = 0;      // register read round trip
  double mmioWriteNs = 0;     // register write, as the host sees it
  double interruptNs = 0;     // interrupt pin -> host waiter running
};

struct CardProfile {
  std::string name;
  MemoryProfile memory;
  PcieProfile pcie;
  double clockMhz = 0;
};

// "u250", "u280" (DDR4) or "u280-hbm"; nullopt for anything else.
std::optional<CardProfile> cardProfile(std::string_view name);
std::vector<std::string> cardNames();

}  // namespace nnfab::sim
