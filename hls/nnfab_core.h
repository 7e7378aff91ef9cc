// The nnfab core as a Vitis HLS top function (docs/hls.md). Plain C++14 with
// standard integer types: g++ compiles it unchanged as the C-simulation the
// hls backend runs, Vitis HLS synthesizes it into a kernel with the AXI4-Lite
// register map of docs/register-map.md.
#pragma once

#include <stdint.h>

#include "core_mem.h"
#include "isa/cycle_model.h"
#include "isa/trace_classes.h"
#include "nnfab_isa.h"

// One start of the core (ap_start .. ap_done). Arguments in register-map
// order; the m_axi pointers are the device addresses PROG_ADDR, DATA_ADDR,
// CTX_ADDR, SRCB_ADDR and DST_ADDR, and every other argument is the register
// of the same name.
//   prog          PROG_SIZE bytes of instructions (copied on chip at start)
//   data          window A of the data region (docs/isa.md "Memory model"),
//                 word-addressed: byte offset o is bits 8*(o%4).. of
//                 data[o/4] (little-endian)
//   ctx           CONTEXT_BYTES / 4 words, read on MODE.RESUME, written on
//                 PREEMPTED and SLICE_END
//   preempt       the PREEMPT register, sampled at every instruction boundary
//   trace_mem     TRACE_ADDR: the trace area the header beat and the ring's
//                 entries are written to when the core stops (MODE.TRACE; a
//                 null pointer, as TRACE_ADDR 0: nothing is written)
//   trace         TRACE_DEPTH entries of the trace ring (read window at
//                 TRACE_RING_OFFSET), written with MODE.TRACE
//   srcb, dst     windows B and D of the data region (offset o of window B
//                 is srcb[(o - srcb_start)/4]), and the m_axi bundles of an
//                 elementwise TENSOR's B operand and result (core_mem.h
//                 DataPorts, DataRegion): every port reaches every window
//   srcb_start,   where windows B and D begin (bits 5:0 taken as zero;
//   dst_start     0xFFFFFFFF: empty)
// Outputs are written when the core stops; watchdog_state and the three
// counters also at every instruction boundary, through volatile pointers:
// they are live registers the host reads while the core runs (the host
// watchdog watches WATCHDOG_STATE and CYCLES).
extern "C" void nnfab_core(const uint64_t* prog, uint32_t* data, uint32_t* ctx, uint32_t prog_size,
                           uint32_t data_size, uint32_t mode, uint32_t insn_limit, uint64_t loop_budget,
                           uint64_t exec_budget, volatile const uint32_t* preempt, volatile uint32_t* watchdog_state,
                           uint32_t* status, uint32_t* halt_pc, uint32_t* fault_info, uint32_t* features, volatile uint64_t* cycles,
                           volatile uint64_t* iterations, volatile uint64_t* instret, uint32_t* id, uint32_t* isa_version,
                           uint32_t* trace_count, uint32_t* trace_dropped, uint64_t* class_cycles_ctrl,
                           uint64_t* class_cycles_mem, uint64_t* class_cycles_salu, uint64_t* class_cycles_branch,
                           uint64_t* class_cycles_tensor, uint64_t* trace_mem,
                           uint64_t trace[nnfab::isa::kTRACE_DEPTH], const uint32_t* srcb, uint32_t* dst,
                           uint32_t srcb_start, uint32_t dst_start);

namespace nnfab {
namespace hls {

// The FEATURES register of this core: it executes FLOAT32, CVT and FC, and
// has the trace ring and class counters (MODE.TRACE), and writes a header
// beat with the counters and the ring to TRACE_ADDR when it stops.
static constexpr uint32_t kCoreFeatures = isa::kFEATURE_FLOAT32 | isa::kFEATURE_FC | isa::kFEATURE_TRACE |
                                          isa::kFEATURE_TRACE_DMA | isa::kFEATURE_TRACE_HEADER;

// Where one start puts its trace (docs/isa.md "Trace ring"): the ring, TRACE_COUNT,
// TRACE_DROPPED and CLASS_CYCLES_* in TraceClass order. All are zeroed at
// every start and filled only with MODE.TRACE. With MODE.TRACE and a
// non-null `mem` (TRACE_ADDR), the core also writes there when it stops,
// after CYCLES stopped counting, the header beat (isa::traceHeader: the
// counters) and after it the ring's TRACE_COUNT entries (not when a soft
// reset ended the start: the RTL abandons the write then).
struct TraceOutputs {
  uint64_t* ring;  // TRACE_DEPTH entries
  uint32_t* count;
  uint32_t* dropped;
  uint64_t* classCycles[isa::kNumTraceClasses];
  uint64_t* mem;  // TRACE_ADDR's area (header + TRACE_DEPTH entries) or null
};

// The same core with the data ports apart from the other arguments and
// another memory latency in its cycle model (a device option of the hls
// backend); nnfab_core is this with kDefaultCycleParams.
void nnfab_core_ports(const uint64_t* prog, const DataPorts& ports, uint32_t srcb_start, uint32_t dst_start,
                      uint32_t* ctx, uint32_t prog_size, uint32_t data_size, uint32_t mode, uint32_t insn_limit,
                      uint64_t loop_budget, uint64_t exec_budget, volatile const uint32_t* preempt,
                      volatile uint32_t* watchdog_state, uint32_t* status, uint32_t* halt_pc, uint32_t* fault_info,
                      uint32_t* features, volatile uint64_t* cycles, volatile uint64_t* iterations,
                      volatile uint64_t* instret, uint32_t* id, uint32_t* isa_version, const TraceOutputs& trace,
                      const CycleParams& params);

}  // namespace hls
}  // namespace nnfab
