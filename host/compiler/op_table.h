// The elementwise NNAPI operations the fabric runs, and how each maps to an
// nnfab ALU function: shared by the support check and the lowering, so the
// two can never disagree on what the fabric takes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/features.h"
#include "model/model.h"
#include "model/types.h"
#include "nnfab_isa.h"

namespace nnfab::compiler {

enum class OpFamily : uint8_t {
  ARITHMETIC,  // ADD SUB MUL DIV: INT32 (activation constant 0) or FLOAT32 (constant activation 0..3), broadcast
  MINMAX,      // MAXIMUM MINIMUM: INT32 or FLOAT32, broadcast
  UNARY,       // ABS NEG: INT32 or FLOAT32
  COMPARISON,  // INT32, BOOL8 or FLOAT32 inputs, BOOL8 result, broadcast
  LOGICAL,     // LOGICAL_AND LOGICAL_OR: BOOL8, broadcast
  NOT,         // LOGICAL_NOT: BOOL8
  SELECT,      // BOOL8 mask, INT32 or FLOAT32 values, identical shapes
  CAST,        // identity casts (MOV), INT32 <-> FLOAT32 (CVT)
};

struct OpInfo {
  OpFamily family;
  uint32_t fn;       // isa::kFn*
  uint32_t inputs;   // data inputs (ARITHMETIC has one more: the activation)
  // NNAPI's reference accepts inputs with a 0 dimension (docs/nnapi-semantics.md §2.1) only for
  // ADD/SUB/MUL/DIV; every other operation fails on them.
  bool zeroSizedOk;
};

inline std::optional<OpInfo> elementwiseInfo(OperationType type) {
  using T = OperationType;
  using F = OpFamily;
  switch (type) {
    case T::ADD: return OpInfo{F::ARITHMETIC, isa::kFnADD, 2, true};
    case T::SUB: return OpInfo{F::ARITHMETIC, isa::kFnSUB, 2, true};
    case T::MUL: return OpInfo{F::ARITHMETIC, isa::kFnMUL, 2, true};
    case T::DIV: return OpInfo{F::ARITHMETIC, isa::kFnDIV, 2, true};
    case T::MAXIMUM: return OpInfo{F::MINMAX, isa::kFnMAX, 2, false};
    case T::MINIMUM: return OpInfo{F::MINMAX, isa::kFnMIN, 2, false};
    case T::ABS: return OpInfo{F::UNARY, isa::kFnABS, 1, false};
    case T::NEG: return OpInfo{F::UNARY, isa::kFnNEG, 1, false};
    case T::EQUAL: return OpInfo{F::COMPARISON, isa::kFnEQ, 2, false};
    case T::NOT_EQUAL: return OpInfo{F::COMPARISON, isa::kFnNE, 2, false};
    case T::LESS: return OpInfo{F::COMPARISON, isa::kFnLT, 2, false};
    case T::LESS_EQUAL: return OpInfo{F::COMPARISON, isa::kFnLE, 2, false};
    case T::GREATER: return OpInfo{F::COMPARISON, isa::kFnGT, 2, false};
    case T::GREATER_EQUAL: return OpInfo{F::COMPARISON, isa::kFnGE, 2, false};
    case T::LOGICAL_AND: return OpInfo{F::LOGICAL, isa::kFnAND, 2, false};
    case T::LOGICAL_OR: return OpInfo{F::LOGICAL, isa::kFnOR, 2, false};
    case T::LOGICAL_NOT: return OpInfo{F::NOT, isa::kFnNOT, 1, false};
    case T::SELECT: return OpInfo{F::SELECT, isa::kFnSEL, 3, false};
    case T::CAST: return OpInfo{F::CAST, isa::kFnMOV, 1, false};
    default: return std::nullopt;
  }
}

// Whether the operand types of an elementwise operation are ones the fabric
// runs: `in(i)` / `out` are the declared operand types. On false, *why says
// which. Operand count and index ranges are checked by the caller.
bool elementwiseTypesSupported(const OpInfo& info, OperationType type, const OperandType* in,
                               OperandType out, std::string* why, const FabricFeatures& features);

// The fused activation of a FLOAT32 operation (ADD/SUB/MUL/DIV,
// FULLY_CONNECTED) when it is a constant INT32 scalar of 0..3; the fabric
// needs it at compile time (it is encoded in the instruction).
std::optional<uint32_t> constantActivation(const Operand& operand);

// A constant INT32 scalar holding 0: the only fused activation the fabric
// takes for INT32 arithmetic (NNAPI's reference fails any other at run time).
bool isConstantZeroActivation(const Operand& operand);

}  // namespace nnfab::compiler
