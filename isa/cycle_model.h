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
  kCycleTensor,         // the vector engine: a = fn, b = elements, c = read bytes, d = write bytes
  kCycleTensorElement,  // the element engine, integer ALU or divider: a = fn, b = elements, c = read beats
  kCycleTensorFloat,    // the element engine, FP pipe: a = fn, b = elements, c = read beats
  kCycleFc,           // FC: a = batch, b = units, c = input_size
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

// FC's outputs in waves of one batch row and up to FC_LANES * FC_INTERLEAVE
// units (docs/isa.md "Cycle model", fc).
static constexpr uint64_t kFcWaveUnits = uint64_t{isa::kFC_LANES} * isa::kFC_INTERLEAVE;
static constexpr uint64_t fcWaves(uint64_t batch, uint64_t units) { return batch * ceilDiv(units, kFcWaveUnits); }
static constexpr uint64_t fcReadBytes(uint64_t batch, uint64_t units, uint64_t inputSize) {
  return 4u * (fcWaves(batch, units) * inputSize + batch * units * (inputSize + 1u));
}

// Every formula of the model. A tensor instruction's read bytes count each
// source once per element it supplies, or once per row when the source's
// innermost stride is 0 (the caller computes them: see tensorReadBytes in
// core_tensor.h).
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
      // Streams one beat per cycle on the read and write ports in parallel.
      return kTensorFixedCycles + p.mem_latency + maxU64(ceilBeats(q.c), ceilBeats(q.d));
    case kCycleTensorElement:
      // INT32 DIV: the element engine waits for the iterative divider.
      if (q.a == isa::kFnDIV) return kTensorFixedCycles + p.mem_latency + uint64_t{isa::kCycle_scalar_div} * q.b;
      return kTensorFixedCycles + p.mem_latency + elementStreamCycles(p, q.b, q.c);
    case kCycleTensorFloat:
      return kTensorFixedCycles + p.mem_latency +
             (q.a == isa::kFnDIV ? isa::kCycle_fp_div_latency : isa::kCycle_fp_latency) +
             elementStreamCycles(p, q.b, q.c);
    case kCycleFc:
      if (q.a == 0 || q.b == 0 || q.c == 0) return kTensorFixedCycles + p.mem_latency;
      return kTensorFixedCycles + p.mem_latency + isa::kCycle_fc_latency +
             maxU64(maxU64(ceilBeats(fcReadBytes(q.a, q.b, q.c)), ceilBeats(4u * q.a * q.b)),
                    fcWaves(q.a, q.b) * q.c * isa::kFC_INTERLEAVE);
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

}  // namespace hls
}  // namespace nnfab
