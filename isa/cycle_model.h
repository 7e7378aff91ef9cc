// The cycle model of docs/isa.md ("Cycle model"), in one function. The HLS
// core counts CYCLES with it, the host uses it to estimate performance, and
// the RTL's measured cycles are compared with it. C++14, no vendor headers:
// Vitis HLS compiles it as part of the kernel.
#pragma once

#include <stdint.h>

#include "nnfab_isa.h"

namespace nnfab {
namespace hls {

// The model's one device-dependent parameter; the rest comes from isa.json.
struct CycleParams {
  uint32_t mem_latency;
};

static constexpr CycleParams kDefaultCycleParams = {isa::kCycle_mem_latency};

enum CycleEvent : uint32_t {
  kCycleProgramLoad,  // a = PROG_SIZE in bytes
  kCycleContextIo,    // saving or restoring the context
  kCycleInstruction,  // a = opcode of a non-TENSOR instruction
  // The vector engine, one byte count per data port: a = fn, b = bytes read
  // through m_axi_srcb (B), c = bytes read through m_axi_data (A and C), d =
  // bytes written through m_axi_dst.
  kCycleTensor,
  kCycleTensorElement,  // the element engine, integer ALU or divider: a = fn, b = elements, c = read beats
  kCycleTensorFloat,    // the element engine, FP pipe: a = fn, b = elements, c = read beats
  kCycleTensorWide,     // the element engine's wide mode: a = groups, b = read beats, c = reads (bursts)
  kCycleTensorFloatWide,  // ... FLOAT32 wide mode (elem_fp_lanes): a = groups, b = read beats, c = reads
  kCycleFc,           // FC: a = batch, b = units, c = input_size, d = fcAlignment(...)
};

struct CycleQuery {
  CycleEvent event;
  uint64_t a;
  uint64_t b;
  uint64_t c;
  uint64_t d;
};

// The constant terms of the formulas: "2 +" of tensor and tensor_div (issue
// and descriptor beat), "+ 1" of a load (issue).
static constexpr uint64_t kTensorFixedCycles = 2u;
static constexpr uint64_t kLoadIssueCycles = 1u;

static constexpr uint64_t ceilBeats(uint64_t bytes) {
  return (bytes + isa::kMEM_BEAT_BYTES - 1) / isa::kMEM_BEAT_BYTES;
}
static constexpr uint64_t maxU64(uint64_t x, uint64_t y) { return x > y ? x : y; }
static constexpr uint64_t ceilDiv(uint64_t x, uint64_t y) { return (x + y - 1) / y; }

// The element engine's cycles: one per element or, when its single-beat
// reads are bound by the memory latency, elem_read_ahead beats per
// mem_latency + 3 cycles (docs/isa.md "Cycle model", tensor_elem).
static constexpr uint64_t kElemReadTurnaround = 3u;
static constexpr uint64_t elementStreamCycles(const CycleParams& p, uint64_t elements, uint64_t readBeats) {
  return maxU64(elements, ceilDiv(readBeats * (p.mem_latency + kElemReadTurnaround), isa::kCycle_elem_read_ahead));
}
// Wide mode (tensor_elem_wide): one group per cycle, or, when its reads
// bind, the larger of the memory's elem_read_ahead read slots (each burst
// holds one mem_latency cycles plus one per beat) and the read port's one
// beat per cycle (docs/rtl.md "Wide mode"; with bursts of elem_burst = 8
// beats the RTL reaches it on sim, tests/sim
// SimPerf.ElementEngineCyclesFollowTheModel and nnfab bench --only elem).
static constexpr uint64_t wideStreamCycles(const CycleParams& p, uint64_t groups, uint64_t readBeats,
                                           uint64_t reads) {
  return maxU64(maxU64(groups, ceilDiv(reads * p.mem_latency + readBeats, isa::kCycle_elem_read_ahead)), readBeats);
}

// FC (docs/isa.md "Cycle model", fc): the engine of docs/rtl.md ("FLOAT32 in
// the tensor unit", FC) played burst by burst. Outputs go in waves of one
// batch row and up to FC_LANES * FC_INTERLEAVE units; a wave's input_size in
// chunks of kFcChunkWords words; a chunk is fetched as streams (the input's
// words, every row's words, with the wave's last chunk the bias), each in
// bursts split at 4 KB, through a memory of mem_latency and kFcReadSlots
// outstanding bursts answering one beat per cycle; the fetch runs at most
// two chunks ahead of the rounds; a chunk's rounds (FC_INTERLEAVE cycles
// each) start once its last beat is written, a wave's after the previous
// wave's writes.
static constexpr uint64_t kFcWaveUnits = uint64_t{isa::kFC_LANES} * isa::kFC_INTERLEAVE;
static constexpr uint64_t kFcChunkWords = 128u;
static constexpr uint64_t kFcBeatWords = isa::kMEM_BEAT_BYTES / 4u;
static constexpr uint64_t kFcReadSlots = 8u;  // the memory's outstanding read bursts
// The engine's fixed steps, in cycles (rtl/nnfab_tensor_fc.sv): start to
// the first burst; a stream's first burst after the previous stream's last
// (G_NEXT, G_INIT, G_ISSUE) and a chunk's (G_CHUNK too); a chunk's last
// beat to its first round (beat stage, bank write); a wave's last round to
// its first write (operand stages, the lanes' fc_latency, C_DRAIN); the
// tensor unit's steps around the engine beyond the formula's "2 +
// mem_latency" (its start and done handshakes; measured on sim, the same
// for every shape).
static constexpr uint64_t kFcFirstBurst = 2u;
static constexpr uint64_t kFcStreamStep = 3u;
static constexpr uint64_t kFcChunkStep = 4u;
static constexpr uint64_t kFcRoundGo = 2u;
static constexpr uint64_t kFcDrain = isa::kCycle_fc_latency + 4u;
static constexpr uint64_t kFcAround = 10u;

// The alignment argument of kCycleFc: the byte offsets mod 4 KB of the
// input, the weights, the bias and the output, 12 bits each from bit 0 (the
// data region starts on a 4 KB boundary).
static constexpr uint64_t fcAlignment(uint64_t x, uint64_t w, uint64_t b, uint64_t out) {
  return (x & 4095u) | (w & 4095u) << 12 | (b & 4095u) << 24 | (out & 4095u) << 36;
}

// The memory as the fetch sees it: issue times of bursts and the cycle of
// each one's last beat.
struct FcPort {
  uint64_t lastBeat[kFcReadSlots];  // of the last kFcReadSlots bursts, by burst number mod kFcReadSlots
  uint64_t bursts;
  uint64_t beatEnd;  // the last beat so far
  uint64_t issue;    // the earliest cycle of the fetcher's next burst
};
// A stream of m words at byte offset addr (mod 4 KB): its bursts, each
// issued once the fetcher and a memory slot are free.
static constexpr void fcStream(FcPort& port, uint64_t memLatency, uint64_t addr, uint64_t m) {
  uint64_t p = addr & 4095u;
  uint64_t beats = (p % isa::kMEM_BEAT_BYTES + 4u * m + isa::kMEM_BEAT_BYTES - 1u) / isa::kMEM_BEAT_BYTES;
  p -= p % isa::kMEM_BEAT_BYTES;
  uint64_t at = port.issue;
  while (beats != 0) {
    const uint64_t to4k = (4096u - p) / isa::kMEM_BEAT_BYTES;
    const uint64_t len = beats < to4k ? beats : to4k;
    if (port.bursts >= kFcReadSlots) at = maxU64(at, port.lastBeat[port.bursts % kFcReadSlots] + 1u);
    port.beatEnd = maxU64(at + memLatency, port.beatEnd + 1u) + len - 1u;
    port.lastBeat[port.bursts % kFcReadSlots] = port.beatEnd;
    ++port.bursts;
    beats -= len;
    p = (p + len * isa::kMEM_BEAT_BYTES) & 4095u;
    at += 1u;
  }
  port.issue = at - 1u + kFcStreamStep;
}

static constexpr uint64_t fcCycles(const CycleParams& p, uint64_t batch, uint64_t units, uint64_t inputSize,
                                   uint64_t align) {
  const uint64_t xAddr = align & 4095u, wAddr = (align >> 12) & 4095u, bAddr = (align >> 24) & 4095u;
  const uint64_t oAddr = (align >> 36) & 4095u;
  const uint64_t chunks = ceilDiv(inputSize, kFcChunkWords);
  const uint64_t lastWords = inputSize - (chunks - 1u) * kFcChunkWords;
  const uint64_t perRow = ceilDiv(units, kFcWaveUnits);
  const uint64_t rowBytes = 4u * inputSize;
  FcPort port = {{0, 0, 0, 0, 0, 0, 0, 0}, 0, 0, kFcFirstBurst};
  uint64_t roundsEnd = 0;   // the last round of the latest chunk
  uint64_t roundsEnd2 = 0;  // ... of the one before (the ring's other half)
  uint64_t writesEnd = 0;   // the latest wave's last write
  uint64_t chunk = 0;
  for (uint64_t w = 0; w < batch * perRow; ++w) {
    const uint64_t b = w / perRow, u0 = (w % perRow) * kFcWaveUnits;
    const uint64_t n = units - u0 < kFcWaveUnits ? units - u0 : kFcWaveUnits;
    for (uint64_t c = 0; c < chunks; ++c, ++chunk) {
      const bool last = c + 1u == chunks;
      const uint64_t m = last ? lastWords : kFcChunkWords;
      const uint64_t at = (c * kFcChunkWords * 4u) & 4095u;
      // The ring: the chunk two back has finished its rounds.
      if (chunk >= 2u) port.issue = maxU64(port.issue, roundsEnd2 + kFcChunkStep - 1u);
      fcStream(port, p.mem_latency, xAddr + ((b & 4095u) * rowBytes & 4095u) + at, m);
      for (uint64_t k = 0; k < n; ++k) fcStream(port, p.mem_latency, wAddr + (((u0 + k) & 4095u) * rowBytes & 4095u) + at, m);
      if (last) fcStream(port, p.mem_latency, bAddr + 4u * u0, n);
      port.issue += kFcChunkStep - kFcStreamStep;
      uint64_t go = maxU64(port.beatEnd + kFcRoundGo, roundsEnd + 1u);
      if (c == 0) go = maxU64(go, writesEnd);
      roundsEnd2 = roundsEnd;
      roundsEnd = go + (m + (last ? 1u : 0u)) * isa::kFC_INTERLEAVE - 1u;
    }
    // Slot s's units as one beat, or two when the output is not aligned.
    const uint64_t o = (oAddr / 4u + (b % kFcBeatWords) * (units % kFcBeatWords) + u0) % kFcBeatWords;
    writesEnd = roundsEnd + kFcDrain + ceilDiv(n, kFcBeatWords) * (o == 0 ? 1u : 2u);
  }
  return writesEnd + kFcAround;
}

// Every formula of the model. A tensor instruction's read bytes count each
// source once per element it supplies (the caller computes them per port:
// see executeTensor in hls/core_tensor.h).
static constexpr uint64_t cycleCost(const CycleParams& p, const CycleQuery& q) {
  switch (q.event) {
    case kCycleProgramLoad:
      return p.mem_latency + ceilBeats(q.a);
    case kCycleContextIo:
      return p.mem_latency + ceilBeats(isa::kCONTEXT_BYTES);
    case kCycleInstruction:
      if (q.a == isa::kOpLDW || q.a == isa::kOpLDB) return p.mem_latency + kLoadIssueCycles;
      if ((q.a & isa::kClassMask) == isa::kClassSALU) return isa::fnScalarCycles(q.a & isa::kFnMask);
      return 1u;  // every other CTRL instruction and every BRCMP
    case kCycleTensor:
      // Streams one beat per cycle on each of the three data ports in
      // parallel (docs/isa.md "Memory model").
      return kTensorFixedCycles + p.mem_latency + maxU64(maxU64(ceilBeats(q.b), ceilBeats(q.c)), ceilBeats(q.d));
    case kCycleTensorElement:
      // INT32 DIV: the element engine waits for the iterative divider.
      if (q.a == isa::kFnDIV) return kTensorFixedCycles + p.mem_latency + uint64_t{isa::kCycle_scalar_div} * q.b;
      return kTensorFixedCycles + p.mem_latency + elementStreamCycles(p, q.b, q.c);
    case kCycleTensorWide:
      return kTensorFixedCycles + p.mem_latency + wideStreamCycles(p, q.a, q.b, q.c);
    case kCycleTensorFloatWide:
      // The same stream of groups into the FP lanes, plus their fill.
      return kTensorFixedCycles + p.mem_latency + isa::kCycle_fp_latency + wideStreamCycles(p, q.a, q.b, q.c);
    case kCycleTensorFloat:
      return kTensorFixedCycles + p.mem_latency +
             (q.a == isa::kFnDIV ? isa::kCycle_fp_div_latency : isa::kCycle_fp_latency) +
             elementStreamCycles(p, q.b, q.c);
    case kCycleFc:
      if (q.a == 0 || q.b == 0 || q.c == 0) return kTensorFixedCycles + p.mem_latency;
      return kTensorFixedCycles + p.mem_latency + fcCycles(p, q.a, q.b, q.c, q.d);
  }
  return 0;
}

// What one stop and resume costs the device beyond the execution's own
// CYCLES (save, program reload, restore): for schedulers deciding whether
// preempting is worth it.
static constexpr uint64_t resumeOverheadCycles(const CycleParams& p, uint32_t progBytes) {
  return 2u * cycleCost(p, CycleQuery{kCycleContextIo, 0, 0, 0, 0}) +
         cycleCost(p, CycleQuery{kCycleProgramLoad, progBytes, 0, 0, 0});
}

// Whether a TENSOR instruction goes to the vector engine (the tensor
// formula above; docs/isa.md "Memory model"): an elementwise function on
// the integer side (no DIV; FLOAT32 SEL and MOV are bit copies and count,
// the functions of the FP pipe and CVT do not) whose sources are all
// contiguous (row-major over DIM, dimensions of extent 1 excepted) and of
// the result's element size. `desc` is the 16-word descriptor. FC is no
// elementwise function: false. The HLS core and the compiler's placement
// (docs/compiler.md "Data windows") both ask this.
static inline bool takesVectorEngine(uint32_t fn, uint32_t type, const uint32_t* desc) {
  const bool fpPipe = fn == isa::kFnCVT || (type == isa::kTypeFLOAT32 && fn != isa::kFnSEL && fn != isa::kFnMOV);
  if (fn == isa::kFnDIV || fn == isa::kFnFC || fpPipe) return false;
  const uint32_t resultBytes = isa::typeBytes(isa::fnResultType(fn, type));
  const uint32_t* dim = desc + isa::kDescDIM;
  const uint32_t sources = isa::fnOperands(fn);
  for (uint32_t s = 0; s < sources; ++s) {
    // SEL's A is a BOOL8 mask whatever TYPE is.
    const uint32_t bytes = isa::typeBytes(fn == isa::kFnSEL && s == 0 ? isa::kTypeBOOL8 : type);
    if (bytes != resultBytes) return false;
    const uint32_t* stride = desc + isa::kDescSTRIDE_A + s * (isa::kDescSTRIDE_B - isa::kDescSTRIDE_A);
    uint64_t extent = 1;  // elements of one step along dimension k in row-major order
    for (uint32_t k = isa::kMAX_RANK; k-- > 0;) {
      if (dim[k] != 1 && stride[k] != extent) return false;
      extent *= dim[k];
    }
  }
  return true;
}

}  // namespace hls
}  // namespace nnfab
