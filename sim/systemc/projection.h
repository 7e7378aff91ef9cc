// Where the time of one execution on the modelled card goes: PCIe copies in,
// the kernel (AP_START accepted on the pins -> interrupt line up), PCIe
// copies out, and the host's overhead (everything else: register accesses,
// interrupt service, the host's polls), with the kernel in cycles of the
// kernel clock, both as measured on the pins and as the core's CYCLES
// register reports it.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "platform.h"

namespace nnfab::sim {

struct Projection {
  std::string card;
  double clockMhz = 0;
  double pcieInUs = 0, kernelUs = 0, pcieOutUs = 0, hostOverheadUs = 0, totalUs = 0;
  uint64_t kernelCycles = 0;      // measured on the pins
  uint64_t coreCycles = 0;        // CYCLES register
  uint64_t iterations = 0, instret = 0;
  uint64_t bytesIn = 0, bytesOut = 0, copiesIn = 0, copiesOut = 0;
  uint64_t registerReads = 0, registerWrites = 0;
  double registersUs = 0;         // part of host overhead: the register accesses
  double waitingUs = 0;           // time in waitDone (kernel + detection)
  uint64_t memoryBytesRead = 0, memoryBytesWritten = 0;
  BusCounters bus;
  double wallSeconds = 0;         // host time the simulation took
  double simulatedCyclesPerSecond = 0;
};

Projection project(const Platform& platform, const std::string& card, double clockMhz, double wallSeconds);

nlohmann::json toJson(const Projection& p);
// A few lines for people, on stderr.
std::string describe(const Projection& p);

}  // namespace nnfab::sim
