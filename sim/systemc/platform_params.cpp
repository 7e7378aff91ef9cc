#include "platform_params.h"

#include "nnfab_isa.h"

namespace nnfab::sim {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kMiB = uint64_t{1} << 20;

// The cycle model's mem_latency (isa.json: "DDR4 on an Alveo card at 300 MHz
// is ~100 ns"), in ns: the platform and the cycle model start from the same
// latency, so that their difference is what bandwidth and contention add.
// A write is answered after the same latency (no published figure; a
// controller that acknowledges earlier makes writes cheaper, not slower).
constexpr double kMemLatencyNs = 1000.0 * isa::kCycle_mem_latency / isa::kNOMINAL_CLOCK_MHZ;

// docs/platform-model.md [S2], axi_burst_performance: one 512-bit m_axi at
// 300 MHz, 16 MB transfers, 15.2 GB/s write and 16.8 GB/s
// read against 19.2 GB/s theoretical (U200, the same DDR4 channels as U250).
MemoryProfile ddr4(uint32_t channels) {
  return MemoryProfile{"ddr4", channels, 16 * kGiB, 16.8, 15.2, kMemLatencyNs, kMemLatencyNs};
}

// docs/platform-model.md [S1]: 32 pseudo-channels of 256 MB at 14.375 GB/s
// (460 GB/s), of which [S3] measured 421.3 GB/s on a U280 (hbm_bandwidth):
// 91.6 % efficiency.
MemoryProfile hbm() {
  const double perChannel = 14.375 * 421.3 / 460.0;
  return MemoryProfile{"hbm", 32, 256 * kMiB, perChannel, perChannel, kMemLatencyNs, kMemLatencyNs};
}

// docs/platform-model.md [S4], host_global_bandwidth (U200, XDMA Gen3x16):
// 6.5-7.7 GB/s H2D and 9.7-11.6 GB/s D2H at >= 1 MB (midpoints taken);
// 4.7 MB/s with 64 B buffers, i.e. 64 B / 4.7 MB/s = 13.6 us per transfer,
// which with the midpoints reproduces the ~300 MB/s at 4 KB and ~1.1 GB/s
// at 16 KB there.
// MMIO latencies have no published source: assumptions (docs/platform-model.md).
// Interrupt: docs/platform-model.md [S5], XRT#4592: 102,492 IOPS with
// interrupts vs 213,653 polling = 9.76 vs 4.68 us per command, 5.1 us for
// the interrupt.
PcieProfile gen3x16() {
  return PcieProfile{7.1, 10.65, 64.0 / 4.7, 1000.0, 250.0, 1e9 / 102492.0 - 1e9 / 213653.0};
}

}  // namespace

std::optional<CardProfile> cardProfile(std::string_view name) {
  // docs/platform-model.md [S1]: U200/U250 4 x 16 GB DDR4; U280 2 x 16 GB DDR4
  // + 8 GB HBM. Kernel clock: NOMINAL_CLOCK_MHZ ([S6] "Target Clock: 300 MHz").
  const double mhz = isa::kNOMINAL_CLOCK_MHZ;
  if (name == "u250") return CardProfile{"u250", ddr4(4), gen3x16(), mhz};
  if (name == "u280") return CardProfile{"u280", ddr4(2), gen3x16(), mhz};
  if (name == "u280-hbm") return CardProfile{"u280-hbm", hbm(), gen3x16(), mhz};
  return std::nullopt;
}

std::vector<std::string> cardNames() { return {"u250", "u280", "u280-hbm"}; }

}  // namespace nnfab::sim
