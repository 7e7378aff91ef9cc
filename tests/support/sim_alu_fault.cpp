#include "support/sim_alu_fault.h"

#include "backends/sim_backend.h"
#include "runtime/fabric_device.h"
#include "runtime/fabric_performance.h"

namespace nnfab::test {

void SimAluFault::beforeEdge(sim::TapCycle& cycle) {
  if (fired_.load(std::memory_order_relaxed)) return;
  // The instruction starts: the sequencer holds it while its earlier
  // occurrences have all retired.
  if (!armed_ && cycle.opcode == opcode_ && retired_.load(std::memory_order_relaxed) + 1 == occurrence_) {
    armed_ = true;
  }
  // The vector engine's results go out on m_axi_dst, the others' on
  // m_axi_data; an instruction writes through one of them.
  const bool onDst = cycle.dst->wvalid && cycle.dstSlave->wready;
  sim::AxiMasterOut& out = onDst ? *cycle.dst : *cycle.data;
  if (armed_ && out.wvalid && (onDst || cycle.dataSlave->wready)) {
    // The words of this beat the memory stores, in address order: the
    // destination is written contiguously, lowest address first.
    for (uint32_t lane = 0; lane < sim::kBeatWords; ++lane) {
      if (((out.wstrb >> (4 * lane)) & 0xFu) != 0xFu) continue;
      if (wordsSeen_++ != word_) continue;
      out.wdata[lane] ^= uint32_t{1} << bit_;
      fired_.store(true);
      break;
    }
  }
  if (cycle.retired && cycle.opcode == opcode_) retired_.fetch_add(1, std::memory_order_relaxed);
}

std::unique_ptr<Device> makeTappedSimDevice(std::shared_ptr<sim::SimTap> tap) {
  return std::make_unique<FabricDevice>(
      "sim", "RTL core under Verilator with a test's tap", isa::kNOMINAL_CLOCK_MHZ,
      [tap] {
        backends::SimBackendOptions options;
        options.tap = tap;
        return std::make_unique<backends::SimBackend>(options);
      },
      runtime::EngineOptions{}, runtime::handoffCosts(runtime::kSimFabricStepNs),
      [] { return backends::SimBackend(backends::SimBackendOptions{}).readRegister(isa::kRegFEATURES); });
}

}  // namespace nnfab::test
