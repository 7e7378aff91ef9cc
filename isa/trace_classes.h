// The instruction classes of the per-class cycle counters (CLASS_CYCLES_*,
// docs/isa.md "Trace ring") and which branches go into the trace ring: one
// definition for the HLS core, the host and the tests (the RTL decides the
// same from nnfab_isa.svh in rtl/nnfab_seq.sv). C++14, no vendor headers.
#pragma once

#include <stdint.h>

#include "nnfab_isa.h"

namespace nnfab {
namespace isa {

// In register order: CLASS_CYCLES_<class> is at kRegCLASS_CYCLES_CTRL + 8 * class.
enum TraceClass : uint32_t {
  kTraceClassCtrl = 0,    // NOP, HALT, LI, SWAP, WDARM, WDOFF
  kTraceClassMem = 1,     // LDW, STW, LDB, STB
  kTraceClassSalu = 2,    // SALU (DIV included)
  kTraceClassBranch = 3,  // JMP, BNZ, BZ, BRCMP
  kTraceClassTensor = 4,  // TENSOR
};
static constexpr uint32_t kNumTraceClasses = 5;
static constexpr uint32_t kClassCyclesStride = 8;  // bytes between the 64-bit counters

constexpr uint32_t traceClassOf(uint32_t opcode) {
  switch (opcode & kClassMask) {
    case kClassSALU: return kTraceClassSalu;
    case kClassBRCMP: return kTraceClassBranch;
    case kClassTENSOR: return kTraceClassTensor;
    default: break;
  }
  switch (opcode) {
    case kOpJMP:
    case kOpBNZ:
    case kOpBZ: return kTraceClassBranch;
    case kOpLDW:
    case kOpSTW:
    case kOpLDB:
    case kOpSTB: return kTraceClassMem;
    default: return kTraceClassCtrl;
  }
}

// Whether a retiring branch goes into the trace ring: every conditional
// branch (BNZ, BZ, BRCMP) and a JMP marked BACKEDGE.
constexpr bool traceBranch(uint32_t opcode, uint32_t backedge) {
  return (opcode & kClassMask) == kClassBRCMP || opcode == kOpBNZ || opcode == kOpBZ ||
         (opcode == kOpJMP && backedge != 0);
}

inline uint64_t traceEntry(uint64_t cycle, uint32_t pc, bool taken, uint32_t backedge) {
  const uint64_t cycleMask = (uint64_t{1} << kTraceCYCLEWidth) - 1u;
  const uint64_t pcMask = (uint64_t{1} << kTracePCWidth) - 1u;
  return (cycle & cycleMask) | ((uint64_t{pc} & pcMask) << kTracePCLsb) |
         (uint64_t{taken ? 1u : 0u} << kTraceTAKENLsb) | (uint64_t{backedge != 0 ? 1u : 0u} << kTraceBACKEDGELsb);
}

// The trace area's header beat (FEATURE_TRACE_HEADER, isa.json
// trace_header_words) as TRACE_HEADER_BYTES / 8 little-endian 64-bit words:
// what the HLS core and the hls backend write at TRACE_ADDR and the host
// reads back instead of the trace registers. classCycles in TraceClass order.
static constexpr uint32_t kTraceHeaderWords64 = kTRACE_HEADER_BYTES / 8u;
inline void traceHeader(uint64_t out[kTraceHeaderWords64], uint32_t count, uint32_t dropped,
                        const uint64_t classCycles[kNumTraceClasses]) {
  uint32_t w[kTRACE_HEADER_BYTES / 4u] = {};
  w[kTraceHdrCOUNT] = count;
  w[kTraceHdrDROPPED] = dropped;
  for (uint32_t k = 0; k < kNumTraceClasses; ++k) {
    w[kTraceHdrCLASS_CYCLES + 2u * k] = static_cast<uint32_t>(classCycles[k]);
    w[kTraceHdrCLASS_CYCLES + 2u * k + 1u] = static_cast<uint32_t>(classCycles[k] >> 32);
  }
  for (uint32_t i = 0; i < kTraceHeaderWords64; ++i) out[i] = (uint64_t{w[2u * i + 1u]} << 32) | w[2u * i];
}

}  // namespace isa
}  // namespace nnfab
