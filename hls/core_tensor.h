// The tensor unit: one TENSOR instruction (docs/isa.md, "TENSOR"). It reads
// the descriptor, checks every region before writing anything, then streams
// the elements in row-major output order through the shared ALU.
#pragma once

#include <stdint.h>

#include "core_alu.h"
#include "core_float.h"
#include "core_mem.h"
#include "isa/cycle_model.h"
#include "nnfab_isa.h"

namespace nnfab {
namespace hls {

static constexpr uint32_t kDescriptorWords = isa::kDESCRIPTOR_BYTES / kWordBytes;
static constexpr uint32_t kMaxSources = 3;  // A, B, C
static constexpr uint32_t kInnermost = isa::kMAX_RANK - 1;
static_assert(isa::kMAX_RANK == 4, "the element loop's carry chain is written out for rank 4");

// The instruction's operands: byte offsets from rd, ra, rb, rc and imm.
struct TensorOperands {
  uint32_t fn;
  uint32_t type;
  uint32_t dst;
  uint32_t src[kMaxSources];
  uint32_t descriptor;
  uint32_t act;  // FLOAT32 ADD/SUB/MUL/DIV: the fused activation code from RC; else 0
};

// status is isa::kStatusDONE when the instruction completed (it does not stop
// the core), else ACCESS_FAULT with faultInfo, or ILLEGAL_INSTRUCTION (an FC
// descriptor with strides or an unknown activation; the caller supplies
// FAULT_INFO).
struct TensorOutcome {
  uint32_t status;
  uint32_t faultInfo;
  uint64_t cycles;
};

static inline TensorOutcome tensorFault(uint32_t offset) {
  TensorOutcome r = {isa::kStatusACCESS_FAULT, offset, 0};
  return r;
}

// Bytes of source `s`'s elements: SEL's A is a BOOL8 mask whatever TYPE is.
static inline uint32_t sourceBytes(uint32_t fn, uint32_t type, uint32_t s) {
  return (fn == isa::kFnSEL && s == 0) ? isa::typeBytes(isa::kTypeBOOL8) : isa::typeBytes(type);
}

// Whether a source with these strides stays inside [0, end) (the end of
// its first byte's window): the highest element it can supply is
// sum((dim_k - 1) * stride_k).
static inline bool sourceInRegion(uint32_t base, uint32_t bytes, const uint32_t* dim, const uint32_t* stride,
                                  uint32_t end) {
  uint64_t last = 0;
  for (uint32_t k = 0; k < isa::kMAX_RANK; ++k) {
    const uint64_t span = dim[k] - 1u;  // dim[k] >= 1 here
    // A term beyond the window's end fails anyway; stopping here keeps the
    // sum from overflowing.
    if (span != 0 && stride[k] > end / span) return false;
    last += span * stride[k];
  }
  return inRegion(base, (last + 1u) * bytes, end);
}

// Reads the 16-word descriptor at `offset` through the data port: window A
// only (docs/isa.md "Memory model"), 64-byte aligned. False: ACCESS_FAULT.
static inline bool readDescriptor(const DataRegion& region, uint32_t offset, uint32_t* desc) {
  if (offset % isa::kDESCRIPTOR_BYTES != 0 ||
      !inRegion(offset, isa::kDESCRIPTOR_BYTES, region.windows.end[isa::kWindowA])) {
    return false;
  }
  const ReadView view = readView(region, kPortData, isa::kWindowA);
DESCRIPTOR:
  for (uint32_t w = 0; w < kDescriptorWords; ++w) {
#pragma HLS PIPELINE II=1
    desc[w] = loadElement(view, offset + w * kWordBytes, kWordBytes);
  }
  return true;
}

static inline TensorOutcome executeTensor(const DataRegion& region, const TensorOperands& op,
                                          const CycleParams& cp) {
  const uint32_t dataSize = region.dataSize;
  uint32_t desc[kDescriptorWords];
  if (!readDescriptor(region, op.descriptor, desc)) return tensorFault(op.descriptor);
  const uint32_t* dim = desc + isa::kDescDIM;
  const uint32_t* stride[kMaxSources] = {desc + isa::kDescSTRIDE_A, desc + isa::kDescSTRIDE_B,
                                         desc + isa::kDescSTRIDE_C};
  const uint32_t sources = isa::fnOperands(op.fn);
  const uint32_t resultBytes = isa::typeBytes(isa::fnResultType(op.fn, op.type));
  // FLOAT32 sources, or CVT from INT32: the FP side of the ALU.
  const bool floatPath = op.type == isa::kTypeFLOAT32 || op.fn == isa::kFnCVT;
  // The cycle model follows the RTL's engines: FLOAT32 functions but SEL and
  // MOV (bit copies) go through the FP pipe of the element engine.
  const bool fpPipe = op.fn == isa::kFnCVT ||
                      (op.type == isa::kTypeFLOAT32 && op.fn != isa::kFnSEL && op.fn != isa::kFnMOV);

  // Elements, stopping once the destination cannot fit (dims are < 2^32, so
  // the product of two factors never overflows 64 bits).
  uint64_t elements = 1;
  for (uint32_t k = 0; k < isa::kMAX_RANK; ++k) {
    elements *= dim[k];
    if (elements > dataSize) break;
  }
  bool empty = false;
  for (uint32_t k = 0; k < isa::kMAX_RANK; ++k) empty = empty || dim[k] == 0;
  if (empty) {
    TensorOutcome noop = {isa::kStatusDONE, 0, cycleCost(cp, CycleQuery{kCycleTensor, op.fn, 0, 0, 0})};
    return noop;
  }

  // Every region is checked before the first element is written, each
  // against the end of its first byte's window.
  const uint32_t dstWindow = isa::windowOf(region.windows, op.dst);
  if (op.dst % resultBytes != 0 || !inRegion(op.dst, elements * resultBytes, region.windows.end[dstWindow])) {
    return tensorFault(op.dst);
  }
  // B through m_axi_srcb, A and C through m_axi_data, the result through
  // m_axi_dst (docs/isa.md "Memory model"), whichever window each lies in;
  // and the bytes read per port, for the cycle model.
  ReadView srcView[kMaxSources];
  for (uint32_t s = 0; s < kMaxSources; ++s) srcView[s] = readView(region, kPortData, isa::kWindowA);
  uint64_t srcbReadBytes = 0, dataReadBytes = 0;
  for (uint32_t s = 0; s < sources; ++s) {
    const uint32_t bytes = sourceBytes(op.fn, op.type, s);
    const uint32_t window = isa::windowOf(region.windows, op.src[s]);
    if (op.src[s] % bytes != 0 || !sourceInRegion(op.src[s], bytes, dim, stride[s], region.windows.end[window])) {
      return tensorFault(op.src[s]);
    }
    srcView[s] = readView(region, s == 1 ? kPortSrcb : kPortData, window);
    (s == 1 ? srcbReadBytes : dataReadBytes) += elements * bytes;
  }
  const WriteView dstView = writeView(region, kPortDst, dstWindow);
  // The vector engine takes the instruction when every source is contiguous
  // (row-major over DIM, dimensions of extent 1 excepted) and of the result's
  // element size, and the function is neither DIV nor one of the FP pipe.
  const bool vectorPath = takesVectorEngine(op.fn, op.type, desc);
  const uint64_t writeBytes = elements * resultBytes;
  // The element engine's walk (tensor_elem): each source keeps the 64-byte
  // beat its last element came from and reads a new one when an element
  // lies in another.
  uint64_t readBeats = 0;
  uint64_t lastBeat[kMaxSources] = {0, 0, 0};
  bool haveBeat[kMaxSources] = {false, false, false};
  // Wide mode (elem_lanes, elem_burst): an integer function but DIV on
  // 4-byte elements whose innermost strides are 1 or 0 goes in groups of up
  // to elem_lanes elements of one row lying in one beat of the result and
  // of each source; a new beat of a stride-1 source is read in a burst of
  // up to elem_burst beats (to its row's last beat, within a 4 KB page)
  // that the source's next new beats then take.
  // FLOAT32 wide mode (elem_fp_lanes): the same for a function of the FP
  // pipe but DIV and CVT with a FLOAT32 result, in groups of up to
  // elem_fp_lanes elements that also end where the result reaches a
  // multiple of elem_fp_lanes words.
  bool wide = (!fpPipe || op.fn != isa::kFnCVT) && op.fn != isa::kFnDIV && resultBytes == 4u;
  const uint32_t lanes = fpPipe ? isa::kCycle_elem_fp_lanes : isa::kCycle_elem_lanes;
  const uint64_t groupSpanBytes = fpPipe ? 4u * isa::kCycle_elem_fp_lanes : isa::kMEM_BEAT_BYTES;
  for (uint32_t s = 0; s < sources; ++s) {
    wide = wide && sourceBytes(op.fn, op.type, s) == 4u && stride[s][kInnermost] <= 1u;
  }
  uint64_t groups = 0;     // wide: the consumer's cycles (one per group)
  uint64_t reads = 0;      // wide: bursts
  uint32_t inGroup = 0;    // elements in the current group
  uint32_t pending[kMaxSources] = {0, 0, 0};  // beats of a burst still to be taken

  // Element indexes of each source, advanced incrementally in row-major
  // order; unsigned wrap-around in the carry terms cancels out.
  uint64_t index[kMaxSources] = {0, 0, 0};
  uint64_t carry[kMaxSources][isa::kMAX_RANK];
  uint32_t srcBytes[kMaxSources];
  for (uint32_t s = 0; s < kMaxSources; ++s) {
    srcBytes[s] = sourceBytes(op.fn, op.type, s);
    carry[s][0] = 0;
    for (uint32_t k = 1; k < isa::kMAX_RANK; ++k) {
      carry[s][k] = static_cast<uint64_t>(stride[s][k - 1]) - static_cast<uint64_t>(dim[k]) * stride[s][k];
    }
  }
  uint32_t i1 = 0, i2 = 0, i3 = 0;
  const uint32_t count = static_cast<uint32_t>(elements);  // <= dataSize < 2^32
ELEMENTS:
  for (uint32_t e = 0; e < count; ++e) {
#pragma HLS PIPELINE II=1
    uint32_t v[kMaxSources] = {0, 0, 0};
    bool newGroup = inGroup == lanes || i3 == 0 ||
                    (op.dst + static_cast<uint64_t>(e) * resultBytes) % groupSpanBytes == 0;
    for (uint32_t s = 0; s < kMaxSources; ++s) {
#pragma HLS UNROLL
      if (s < sources) {
        const uint64_t at = op.src[s] + index[s] * srcBytes[s];
        v[s] = loadElement(srcView[s], at, srcBytes[s]);
        const uint64_t beat = at / isa::kMEM_BEAT_BYTES;
        if (!haveBeat[s] || beat != lastBeat[s]) {
          ++readBeats;
          newGroup = true;
          // The one-element path reads single beats (readBeats counts them).
          if (wide && pending[s] != 0) {
            --pending[s];
          } else if (wide) {
            uint64_t len = 1;
            if (stride[s][kInnermost] == 1u) {
              const uint64_t rowLast = (at + static_cast<uint64_t>(dim[kInnermost] - 1u - i3) * 4u) / isa::kMEM_BEAT_BYTES;
              const uint64_t pageBeats = 4096u / isa::kMEM_BEAT_BYTES;  // AXI: no burst crosses 4 KB
              const uint64_t pageLeft = pageBeats - beat % pageBeats;
              len = isa::kCycle_elem_burst;
              if (rowLast - beat + 1u < len) len = rowLast - beat + 1u;
              if (pageLeft < len) len = pageLeft;
            }
            ++reads;
            pending[s] = static_cast<uint32_t>(len - 1u);
          }
        }
        haveBeat[s] = true;
        lastBeat[s] = beat;
      }
    }
    if (newGroup) {
      ++groups;
      inGroup = 0;
    }
    ++inGroup;
    uint32_t result;
    if (!floatPath) {
      result = aluApply(op.fn, v[0], v[1], v[2]);
    } else if (op.type == isa::kTypeINT32) {
      result = intToFloatBits(v[0]);  // CVT INT32 -> FLOAT32
    } else {
      result = floatApply(op.fn, v[0], v[1], v[2], op.act);
    }
    storeElement(dstView, op.dst + static_cast<uint64_t>(e) * resultBytes, resultBytes, result);
    for (uint32_t s = 0; s < kMaxSources; ++s) {
#pragma HLS UNROLL
      index[s] += stride[s][kInnermost];
    }
    if (++i3 == dim[kInnermost]) {
      i3 = 0;
      for (uint32_t s = 0; s < kMaxSources; ++s) index[s] += carry[s][kInnermost];
      if (++i2 == dim[2]) {
        i2 = 0;
        for (uint32_t s = 0; s < kMaxSources; ++s) index[s] += carry[s][2];
        if (++i1 == dim[1]) {
          i1 = 0;
          for (uint32_t s = 0; s < kMaxSources; ++s) index[s] += carry[s][1];
        }
      }
    }
  }
  const CycleQuery cost = vectorPath ? CycleQuery{kCycleTensor, op.fn, srcbReadBytes, dataReadBytes, writeBytes}
                          : wide     ? CycleQuery{fpPipe ? kCycleTensorFloatWide : kCycleTensorWide, groups, readBeats,
                                                  reads, 0}
                                     : CycleQuery{fpPipe ? kCycleTensorFloat : kCycleTensorElement, op.fn, elements,
                                                  readBeats, 0};
  TensorOutcome done = {isa::kStatusDONE, 0, cycleCost(cp, cost)};
  return done;
}

// FC (FULLY_CONNECTED): out[b][u] = act(acc + bias[u]), acc summed from +0
// over i in increasing order with each product rounded first — the CPU
// executor's order. The hardware interleaves independent (b, u) sums in its
// adder pipelines; the C-simulation computes them one after another, which
// gives the same bits because each sum's order is the same.
static inline TensorOutcome executeFc(const DataRegion& region, const TensorOperands& op, const CycleParams& cp) {
  uint32_t desc[kDescriptorWords];
  if (!readDescriptor(region, op.descriptor, desc)) return tensorFault(op.descriptor);
  bool stridesZero = true;
  for (uint32_t w = isa::kDescSTRIDE_A; w < kDescriptorWords; ++w) stridesZero = stridesZero && desc[w] == 0;
  const uint32_t batch = desc[isa::kDescDIM + 0], units = desc[isa::kDescDIM + 1];
  const uint32_t inputSize = desc[isa::kDescDIM + 2], act = desc[isa::kDescDIM + 3];
  if (!stridesZero || act >= kNumActivations) {
    TensorOutcome illegal = {isa::kStatusILLEGAL_INSTRUCTION, 0, 0};
    return illegal;
  }
  if (batch == 0 || units == 0 || inputSize == 0) {
    TensorOutcome noop = {isa::kStatusDONE, 0, cycleCost(cp, CycleQuery{kCycleFc, 0, 0, 0, 0})};
    return noop;
  }
  const uint64_t word = kWordBytes;
  const uint64_t outs = static_cast<uint64_t>(batch) * units;
  // Everything of FC goes through the data port, from whichever window.
  const uint32_t dstWindow = isa::windowOf(region.windows, op.dst);
  if (op.dst % word != 0 || !inRegion(op.dst, outs * word, region.windows.end[dstWindow])) {
    return tensorFault(op.dst);
  }
  const WriteView out = writeView(region, kPortData, dstWindow);
  const uint64_t sizes[kMaxSources] = {static_cast<uint64_t>(batch) * inputSize * word,
                                       static_cast<uint64_t>(units) * inputSize * word,
                                       static_cast<uint64_t>(units) * word};
  ReadView in[kMaxSources];
  for (uint32_t s = 0; s < kMaxSources; ++s) {
    const uint32_t window = isa::windowOf(region.windows, op.src[s]);
    if (op.src[s] % word != 0 || !inRegion(op.src[s], sizes[s], region.windows.end[window])) {
      return tensorFault(op.src[s]);
    }
    in[s] = readView(region, kPortData, window);
  }
FC_OUTPUTS:
  for (uint32_t b = 0; b < batch; ++b) {
    for (uint32_t u = 0; u < units; ++u) {
      float acc = 0.0f;
    FC_DOT:
      for (uint32_t i = 0; i < inputSize; ++i) {
        const uint64_t xAt = op.src[0] + (static_cast<uint64_t>(b) * inputSize + i) * word;
        const uint64_t wAt = op.src[1] + (static_cast<uint64_t>(u) * inputSize + i) * word;
        const float x = asFloat(loadElement(in[0], xAt, kWordBytes));
        const float w = asFloat(loadElement(in[1], wAt, kWordBytes));
        const float product = x * w;  // rounded before it is added (no contraction)
        acc = acc + product;
      }
      const float bias = asFloat(loadElement(in[2], op.src[2] + static_cast<uint64_t>(u) * word, kWordBytes));
      storeElement(out, op.dst + (static_cast<uint64_t>(b) * units + u) * word, kWordBytes,
                   floatBits(applyActivation(act, acc + bias)));
    }
  }
  TensorOutcome done = {isa::kStatusDONE, 0, cycleCost(cp, CycleQuery{kCycleFc, batch, units, inputSize,
                                                                  fcAlignment(op.src[0], op.src[1], op.src[2], op.dst)})};
  return done;
}

}  // namespace hls
}  // namespace nnfab
