// The FLOAT32 side of the ALU (docs/isa.md, "FLOAT32 numerics"): IEEE-754
// binary32 with the CPU executor's exact expressions, so cpu and hls agree
// bit for bit. The library is built with -ffp-contract=off (no fused
// multiply-add) and without -ffast-math (subnormals computed, no FTZ/DAZ).
// Operands and results travel as their 32-bit patterns.
#pragma once

#include <stdint.h>
#include <string.h>

#include "isa/int32_semantics.h"
#include "nnfab_isa.h"

namespace nnfab {
namespace hls {

static inline float asFloat(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
static inline uint32_t floatBits(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

static constexpr uint32_t kSignBit = 0x80000000u;

// NNAPI's fused activation codes (the RC field of FLOAT32 ADD/SUB/MUL/DIV,
// DIM[3] of FC).
enum FloatActivation : uint32_t { kActNone = 0, kActRelu = 1, kActRelu1 = 2, kActRelu6 = 3, kNumActivations = 4 };

// max/min in std::max / std::min argument order, as the CPU kernels
// (host/cpu/kernels/elementwise.h): max(x, lo) = (x < lo) ? lo : x.
static inline float fmaxStd(float a, float b) { return (a < b) ? b : a; }
static inline float fminStd(float a, float b) { return (b < a) ? b : a; }

static inline float applyActivation(uint32_t act, float x) {
  switch (act) {
    case kActRelu: return fmaxStd(x, 0.0f);
    case kActRelu1: return fminStd(fmaxStd(x, -1.0f), 1.0f);
    case kActRelu6: return fminStd(fmaxStd(x, 0.0f), 6.0f);
    default: return x;
  }
}

static inline uint32_t truthF(bool v) { return v ? 1u : 0u; }

// One element of a TYPE FLOAT32 tensor instruction. `act` is RC for the
// functions with a fused activation (0 otherwise). SEL's a is the mask byte.
static inline uint32_t floatApply(uint32_t fn, uint32_t a, uint32_t b, uint32_t c, uint32_t act) {
  const float x = asFloat(a);
  const float y = asFloat(b);
  switch (fn) {
    case isa::kFnADD: return floatBits(applyActivation(act, x + y));
    case isa::kFnSUB: return floatBits(applyActivation(act, x - y));
    case isa::kFnMUL: return floatBits(applyActivation(act, x * y));
    case isa::kFnDIV: return floatBits(applyActivation(act, x / y));
    case isa::kFnMAX: return floatBits(fmaxStd(x, y));
    case isa::kFnMIN: return floatBits(fminStd(x, y));
    case isa::kFnABS: return a & ~kSignBit;
    case isa::kFnNEG: return a ^ kSignBit;
    case isa::kFnEQ: return truthF(x == y);
    case isa::kFnNE: return truthF(x != y);
    case isa::kFnLT: return truthF(x < y);
    case isa::kFnLE: return truthF(x <= y);
    case isa::kFnGT: return truthF(x > y);
    case isa::kFnGE: return truthF(x >= y);
    case isa::kFnSEL: return a != 0 ? b : c;
    case isa::kFnMOV: return a;
    case isa::kFnCVT: return static_cast<uint32_t>(int32_math::saturatingFloatToInt32(x));
    default: return 0;
  }
}

// CVT with TYPE INT32: round to nearest even.
static inline uint32_t intToFloatBits(uint32_t a) { return floatBits(static_cast<float>(static_cast<int32_t>(a))); }

}  // namespace hls
}  // namespace nnfab
