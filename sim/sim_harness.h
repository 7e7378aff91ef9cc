// The Verilated nnfab core with its surroundings, clocked one cycle at a
// time: the AXI4 memory models on m_axi_prog and the three data masters
// (m_axi_data, m_axi_srcb, m_axi_dst; one memory image, each master with its
// own slave model: latency, bandwidth, outstanding limits), an AXI4-Lite
// master for the control registers, ap_rst_n, and an optional FST waveform.
// Not thread-safe: one thread owns a harness (SimBackend's worker).
// Verilator headers stay in the .cpp, so users need no Verilator includes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "axi_memory.h"

namespace nnfab::sim {

class SimTap;  // sim_tap.h

// A SystemVerilog assertion of the RTL failed (an RTL bug, or a memory
// model breaking the AXI rules): what() names the assertion's file and line;
// Verilator has printed its message.
class RtlAssertionError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct HarnessConfig {
  AxiMemoryConfig memory;  // every port's slave, unless overridden below
  // m_axi_srcb's and m_axi_dst's own timing (tests of ordering across ports).
  std::optional<AxiMemoryConfig> srcbMemory, dstMemory;
  std::string traceFile;                 // FST waveform; empty: none
  uint32_t registerTimeoutCycles = 1000;  // an AXI4-Lite access that takes longer is an RTL bug
  // Before each edge, settle the model with the cycle's inputs (a second
  // eval()) and check that no output the harness samples changed: the
  // one-evaluation clock (docs/sim.md) relies on every output being a
  // function of registers. A change throws RtlAssertionError. For tests;
  // a trace settles anyway (its waveform shows the settled values).
  bool checkSettledOutputs = false;
};

class SimHarness {
 public:
  SimHarness(const HarnessConfig& config, AxiMemory::BeatMap map);
  ~SimHarness();
  SimHarness(const SimHarness&) = delete;
  SimHarness& operator=(const SimHarness&) = delete;

  // One ap_clk cycle. Throws RtlAssertionError when an assertion failed.
  void tick();
  // Clocks up to `cycles` cycles; stops early once the core is idle if
  // `untilIdle`. Returns the cycles clocked. Cycles in which the core runs
  // and touches no memory are clocked several to one eval() (docs/sim.md
  // "Runs of quiet cycles"); tick() clocks one per eval().
  uint64_t run(uint64_t cycles, bool untilIdle);
  uint64_t cycle() const;
  // eval() calls that clocked the core: cycle() minus this is how many
  // cycles ran inside another one's eval() (docs/sim.md "Runs of quiet
  // cycles").
  uint64_t evaluations() const;

  // One AXI4-Lite transaction each, clocked through the RTL (the core keeps
  // running meanwhile). Throws AxiProtocolError if the slave never answers.
  void writeRegister(uint32_t offset, uint32_t value);
  uint32_t readRegister(uint32_t offset);

  // ap_rst_n low for `cycles` cycles; the memory models drop every
  // transaction in flight and their injected faults.
  void reset(uint32_t cycles = 4);

  // The sequencer's idle state (AP_IDLE without reading AP_CTRL).
  bool coreIdle() const;
  // Cycle of the last start the core accepted (idle falling) and of the
  // last stop (idle rising), and how many stops there were.
  uint64_t lastStartCycle() const;
  uint64_t lastStopCycle() const;
  uint64_t stops() const;
  bool interrupt() const;

  AxiMemory& programMemory();
  AxiMemory& dataMemory();
  AxiMemory& srcbMemory();  // m_axi_srcb: the vector engine's B operand
  AxiMemory& dstMemory();   // m_axi_dst: the vector engine's result

  // Called every cycle from now on (nullptr: none), after the core's clock
  // edge and before the memory models take that edge's handshakes: how
  // tests plant faults (sim_tap.h). Not owned.
  void setTap(SimTap* tap);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nnfab::sim
