#include "projection.h"

#include <cmath>

#include <fmt/format.h>

namespace nnfab::sim {

namespace {
double micros(const sc_core::sc_time& t) { return t.to_seconds() * 1e6; }
}  // namespace

Projection project(const Platform& platform, const std::string& card, double clockMhz, double wallSeconds) {
  Projection p;
  p.card = card;
  p.clockMhz = clockMhz;
  const HostOutcome& outcome = platform.host().outcome();
  const HostLedger& ledger = platform.backend().ledger();
  p.pcieInUs = micros(ledger.copyIn);
  p.pcieOutUs = micros(ledger.copyOut);
  if (ledger.kernelEnded && ledger.kernelEnd >= ledger.kernelStart) {
    const sc_core::sc_time kernel = ledger.kernelEnd - ledger.kernelStart;
    p.kernelUs = micros(kernel);
    p.kernelCycles = static_cast<uint64_t>(std::llround(kernel / platform.clockPeriod()));
  }
  p.totalUs = micros(outcome.end - outcome.begin);
  p.hostOverheadUs = p.totalUs - p.pcieInUs - p.pcieOutUs - p.kernelUs;
  if (outcome.report) {
    p.coreCycles = outcome.report->cycles;
    p.iterations = outcome.report->iterations;
    p.instret = outcome.report->instret;
  }
  p.bytesIn = ledger.bytesIn;
  p.bytesOut = ledger.bytesOut;
  p.copiesIn = ledger.copiesIn;
  p.copiesOut = ledger.copiesOut;
  p.registerReads = ledger.registerReads;
  p.registerWrites = ledger.registerWrites;
  p.registersUs = micros(ledger.registers);
  p.waitingUs = micros(ledger.waiting);
  p.memoryBytesRead = platform.memory().bytesRead();
  p.memoryBytesWritten = platform.memory().bytesWritten();
  p.bus = platform.counters();
  p.wallSeconds = wallSeconds;
  const double simulatedCycles = sc_core::sc_time_stamp() / platform.clockPeriod();
  p.simulatedCyclesPerSecond = wallSeconds > 0 ? simulatedCycles / wallSeconds : 0;
  return p;
}

nlohmann::json toJson(const Projection& p) {
  return {
      {"card", p.card},
      {"clock_mhz", p.clockMhz},
      {"time_us",
       {{"pcie_in", p.pcieInUs}, {"kernel", p.kernelUs}, {"pcie_out", p.pcieOutUs},
        {"host_overhead", p.hostOverheadUs}, {"total", p.totalUs}}},
      {"kernel_cycles", {{"measured", p.kernelCycles}, {"core_register", p.coreCycles}}},
      {"iterations", p.iterations},
      {"instret", p.instret},
      {"pcie", {{"bytes_in", p.bytesIn}, {"copies_in", p.copiesIn}, {"bytes_out", p.bytesOut},
                {"copies_out", p.copiesOut}, {"register_reads", p.registerReads},
                {"register_writes", p.registerWrites}, {"register_us", p.registersUs},
                {"wait_done_us", p.waitingUs}}},
      {"memory", {{"bytes_read", p.memoryBytesRead}, {"bytes_written", p.memoryBytesWritten}}},
      {"bus", {{"prog_bursts", p.bus.progBursts}, {"data_read_bursts", p.bus.dataReadBursts},
               {"data_write_bursts", p.bus.dataWriteBursts}, {"protocol_errors", p.bus.protocolErrors},
               {"register_timeouts", p.bus.registerTimeouts}}},
      {"simulation", {{"wall_s", p.wallSeconds}, {"cycles_per_s", p.simulatedCyclesPerSecond}}},
  };
}

std::string describe(const Projection& p) {
  return fmt::format(
      "{} at {} MHz: total {:.1f} us = PCIe in {:.1f} us ({} bytes in {} copies) + kernel {:.1f} us ({} cycles; "
      "CYCLES register {}) + PCIe out {:.1f} us ({} bytes) + host overhead {:.1f} us ({} register reads, {} "
      "writes)\nsimulation: {:.2f} s wall, {:.0f} cycles/s\n",
      p.card, p.clockMhz, p.totalUs, p.pcieInUs, p.bytesIn, p.copiesIn, p.kernelUs, p.kernelCycles, p.coreCycles,
      p.pcieOutUs, p.bytesOut, p.hostOverheadUs, p.registerReads, p.registerWrites, p.wallSeconds,
      p.simulatedCyclesPerSecond);
}

}  // namespace nnfab::sim
