// A look into the clocked core, once per cycle, for tests that plant faults
// (SimHarness::setTap, SimBackendOptions::tap). The harness calls it once
// per clock edge, after the core took it and before the memory models take
// its handshakes (docs/sim.md "One evaluation per cycle"), with what the
// edge took: whether an instruction retired, the opcode the sequencer held,
// and the core's m_axi_data and m_axi_dst outputs before the edge, whose
// write data a tap may change before the memory models store them (the vector engine's results go out on m_axi_dst,
// everything else's on m_axi_data). No tap is installed outside tests: the harness then pays
// one pointer test per cycle.
#pragma once

#include <cstdint>

#include "axi_memory.h"

namespace nnfab::sim {

struct TapCycle {
  uint64_t cycle = 0;
  bool retired = false;  // an instruction retired at this edge
  uint8_t opcode = 0;    // the instruction the sequencer held (the retiring one when `retired`)
  AxiMasterOut* data = nullptr;             // the core's m_axi_data outputs, as the memory will see them
  const AxiSlaveOut* dataSlave = nullptr;  // the memory's answer this cycle (wready: a W beat is taken)
  AxiMasterOut* dst = nullptr;             // the same for m_axi_dst
  const AxiSlaveOut* dstSlave = nullptr;
};

class SimTap {
 public:
  virtual ~SimTap() = default;
  // On the thread that clocks the harness.
  virtual void beforeEdge(TapCycle& cycle) = 0;
};

}  // namespace nnfab::sim
