// The one ALU the SALU, BRCMP and TENSOR classes share (docs/isa.md, "ALU
// functions"). Operands arrive as 32-bit values: INT32 as two's complement,
// BOOL8 as a zero-extended byte, so one signed comparison serves both types
// (bytes 0..255 order the same signed and unsigned).
#pragma once

#include <stdint.h>

#include "isa/int32_semantics.h"
#include "nnfab_isa.h"

namespace nnfab {
namespace hls {

static inline int32_t asInt(uint32_t v) { return static_cast<int32_t>(v); }
static inline uint32_t asWord(int32_t v) { return static_cast<uint32_t>(v); }
static inline uint32_t truth(bool v) { return v ? 1u : 0u; }

// fn must be below isa::kNumAluFns (the decoder guarantees it).
static inline uint32_t aluApply(uint32_t fn, uint32_t a, uint32_t b, uint32_t c) {
  switch (fn) {
    case isa::kFnADD: return asWord(int32_math::wrapAdd(asInt(a), asInt(b)));
    case isa::kFnSUB: return asWord(int32_math::wrapSub(asInt(a), asInt(b)));
    case isa::kFnMUL: return asWord(int32_math::wrapMul(asInt(a), asInt(b)));
    case isa::kFnDIV: return asWord(int32_math::floorDiv(asInt(a), asInt(b)));
    case isa::kFnMAX: return asInt(a) < asInt(b) ? b : a;
    case isa::kFnMIN: return asInt(b) < asInt(a) ? b : a;
    case isa::kFnABS: return asWord(int32_math::wrapAbs(asInt(a)));
    case isa::kFnNEG: return asWord(int32_math::wrapNeg(asInt(a)));
    case isa::kFnEQ: return truth(a == b);
    case isa::kFnNE: return truth(a != b);
    case isa::kFnLT: return truth(asInt(a) < asInt(b));
    case isa::kFnLE: return truth(asInt(a) <= asInt(b));
    case isa::kFnGT: return truth(asInt(a) > asInt(b));
    case isa::kFnGE: return truth(asInt(a) >= asInt(b));
    case isa::kFnAND: return truth(a != 0 && b != 0);
    case isa::kFnOR: return truth(a != 0 || b != 0);
    case isa::kFnNOT: return truth(a == 0);
    case isa::kFnSEL: return a != 0 ? b : c;
    case isa::kFnMOV: return a;
    default: return 0;
  }
}

}  // namespace hls
}  // namespace nnfab
