// The modelled card and its host: the Verilated RTL core (nnfab_core, built
// with verilator --sc) on its pins, wired to the AXI4 bridges, the AXI4-Lite
// master, the device memory, the PCIe link and the host running one job.
// Build one, sc_start(), then read the outcome. docs/platform-model.md.
#pragma once

#include <cstdint>
#include <memory>

#include <systemc>

#include "ddr_model.h"
#include "host_model.h"
#include "pcie_link.h"
#include "platform_backend.h"
#include "platform_params.h"

namespace nnfab::sim {

struct PlatformOptions {
  CardProfile card;
  uint64_t memoryBytes = uint64_t{1} << 30;
  // Per AXI4 bridge: axi_burst_performance ran 32 (docs/platform-model.md [S2]).
  uint32_t maxOutstanding = 32;
  bool useInterrupt = true;
  double pollNs = 1000;
  // Simulated time after which an unfinished execution is abandoned (an
  // endless loop would otherwise simulate forever: the host's loop watchdog
  // runs on wall time and is off here). 100 ms = 30 M cycles at 300 MHz.
  double limitMs = 100;
  // Place a data region's windows A, B and D one per memory channel where
  // the modelled memory spans them (HBM pseudo-channels), as the xrt backend
  // puts each in its port's bank; false: every buffer first fit, so the
  // windows share a channel (a card whose ports share one bank).
  bool windowsPerChannel = true;
};

// Counters of the pin-level traffic, for the report and the tests.
struct BusCounters {
  uint64_t progBursts = 0, dataReadBursts = 0, dataWriteBursts = 0;
  uint64_t protocolErrors = 0;
  uint64_t registerTimeouts = 0;
};

class Platform : public sc_core::sc_module {
 public:
  Platform(sc_core::sc_module_name name, const PlatformOptions& options, HostJob job);
  ~Platform() override;

  sc_core::sc_time clockPeriod() const;
  const HostModel& host() const;
  const PlatformBackend& backend() const;
  const DdrModel& memory() const;
  const PcieLink& pcie() const;
  BusCounters counters() const;

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace nnfab::sim
