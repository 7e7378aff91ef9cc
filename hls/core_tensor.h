// The tensor unit: one TENSOR instruction (docs/isa.md, "TENSOR"). It reads
// the descriptor, checks every region before writing anything, then streams
// the elements in row-major output order through the shared ALU.
#pragma once

#include <stdint.h>

#include "core_alu.h"
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
};

// status is isa::kStatusDONE when the instruction completed (it does not stop
// the core), else ACCESS_FAULT with faultInfo.
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

// Whether a source with these strides stays inside the data region: the
// highest element it can supply is sum((dim_k - 1) * stride_k).
static inline bool sourceInRegion(uint32_t base, uint32_t bytes, const uint32_t* dim, const uint32_t* stride,
                                  uint32_t dataSize) {
  uint64_t last = 0;
  for (uint32_t k = 0; k < isa::kMAX_RANK; ++k) {
    const uint64_t span = dim[k] - 1u;  // dim[k] >= 1 here
    // A term beyond the region's size fails anyway; stopping here keeps the
    // sum from overflowing.
    if (span != 0 && stride[k] > dataSize / span) return false;
    last += span * stride[k];
  }
  return inRegion(base, (last + 1u) * bytes, dataSize);
}

static inline TensorOutcome executeTensor(uint32_t* data, uint32_t dataSize, const TensorOperands& op,
                                          const CycleParams& cp) {
  if (op.descriptor % isa::kDESCRIPTOR_BYTES != 0 || !inRegion(op.descriptor, isa::kDESCRIPTOR_BYTES, dataSize)) {
    return tensorFault(op.descriptor);
  }
  uint32_t desc[kDescriptorWords];
DESCRIPTOR:
  for (uint32_t w = 0; w < kDescriptorWords; ++w) {
#pragma HLS PIPELINE II=1
    desc[w] = loadWord(data, op.descriptor + w * kWordBytes);
  }
  const uint32_t* dim = desc + isa::kDescDIM;
  const uint32_t* stride[kMaxSources] = {desc + isa::kDescSTRIDE_A, desc + isa::kDescSTRIDE_B,
                                         desc + isa::kDescSTRIDE_C};
  const uint32_t sources = isa::fnOperands(op.fn);
  const uint32_t resultBytes = isa::typeBytes(isa::fnResultIsBool(op.fn) ? isa::kTypeBOOL8 : op.type);

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

  // Every region is checked before the first element is written.
  if (op.dst % resultBytes != 0 || !inRegion(op.dst, elements * resultBytes, dataSize)) return tensorFault(op.dst);
  uint64_t readBytes = 0;
  for (uint32_t s = 0; s < sources; ++s) {
    const uint32_t bytes = sourceBytes(op.fn, op.type, s);
    if (op.src[s] % bytes != 0 || !sourceInRegion(op.src[s], bytes, dim, stride[s], dataSize)) {
      return tensorFault(op.src[s]);
    }
    // A source broadcast along the innermost dimension is read once per row.
    readBytes += (stride[s][kInnermost] == 0 ? elements / dim[kInnermost] : elements) * bytes;
  }
  const uint64_t writeBytes = elements * resultBytes;

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
    for (uint32_t s = 0; s < kMaxSources; ++s) {
#pragma HLS UNROLL
      if (s < sources) v[s] = loadElement(data, op.src[s] + index[s] * srcBytes[s], srcBytes[s]);
    }
    storeElement(data, op.dst + static_cast<uint64_t>(e) * resultBytes, resultBytes,
                 aluApply(op.fn, v[0], v[1], v[2]));
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
  TensorOutcome done = {isa::kStatusDONE, 0,
                        cycleCost(cp, CycleQuery{kCycleTensor, op.fn, elements, readBytes, writeBytes})};
  return done;
}

}  // namespace hls
}  // namespace nnfab
