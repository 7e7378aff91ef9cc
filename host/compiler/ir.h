// The compiler's intermediate form: a linear list of instructions over
// values, with labels, branches and loop markers, before registers and
// regions are assigned. Values are immutable results with a shape; storages
// are where they live (a register, a heap region, one of a WHILE's two
// buffers, a constant). Several values may share one storage: the versions
// of a loop-carried operand, an IF output written by both branches.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/model.h"
#include "nnfab_isa.h"

namespace nnfab::compiler::ir {

inline constexpr uint32_t kNone = UINT32_MAX;

// FLOAT32 values always live in memory: the scalar ALU has no FLOAT32
// (docs/isa.md), so even a one-element FLOAT32 value is a tensor.
enum class Elem : uint8_t { INT32, BOOL8, FLOAT32 };
inline uint32_t elemBytes(Elem e) { return e == Elem::BOOL8 ? 1u : 4u; }
inline uint32_t isaType(Elem e) {
  return e == Elem::INT32 ? isa::kTypeINT32 : e == Elem::BOOL8 ? isa::kTypeBOOL8 : isa::kTypeFLOAT32;
}
inline OperandType operandType(Elem e) {
  return e == Elem::INT32 ? OperandType::TENSOR_INT32
                          : e == Elem::BOOL8 ? OperandType::TENSOR_BOOL8 : OperandType::TENSOR_FLOAT32;
}

enum class StorageKind : uint8_t {
  REG,     // a one-element value in a register; with `pair` set, the base offset of a loop block
  ZERO,    // r0: the constant 0
  REGION,  // a tensor in a region of the heap
  BUFFER,  // a loop-carried tensor at `offset` in the block whose base register is `base`
  CONST,   // a constant: `li` where a register needs it, the data image where memory does
};

// A WHILE keeps its loop-carried tensors in two blocks of identical layout,
// the current state and the next one; two base registers point at them and
// one `swap` per iteration exchanges them. A BUFFER is one tensor's place in
// the current or the next block.
struct Storage {
  StorageKind kind = StorageKind::REG;
  uint64_t bytes = 0;                           // REGION, BUFFER, CONST; a block base: the block's size
  const std::vector<uint8_t>* value = nullptr;  // CONST: the operand's bytes
  uint32_t pair = kNone;                        // block base: the pair of blocks (id of the first base)
  bool firstOfPair = false;                     // block base: starts at the pair's first block
  uint32_t base = kNone;                        // BUFFER: its block base storage
  uint64_t offset = 0;                          // BUFFER: byte offset in the block
  int32_t inputSlot = -1;                       // REGION: it is step input slot i
  int32_t outputSlot = -1;                      // REGION: it is step output slot i (live to the end)
};

struct Value {
  Elem elem = Elem::INT32;
  Dimensions dims;
  uint64_t count = 0;       // elements
  uint32_t storage = kNone; // kNone while a branch output waits for its first definition
  bool shaped = false;      // dims/elem/count are known
  uint32_t defs = 0;        // definitions so far (the builder checks both IF branches define outputs)
  bool inMemory = false;    // a one-element INT32/BOOL8 result of a FLOAT32 tensor instruction
  // In a register: one element, not FLOAT32, not a tensor instruction's result.
  bool scalar() const { return count == 1 && elem != Elem::FLOAT32 && !inMemory; }
};

enum class Kind : uint8_t {
  OP,           // dst = fn(src...) elementwise: scalar ALU when dst is one element, else TENSOR
  MOVE,         // dst = src (same shape)
  LOAD,         // dst (one element) = the input slot `storage`
  STORE,        // output slot `storage` = src[0] (one element)
  DEFINE_INPUT, // dst (a tensor input slot) is written by the host before the run
  INIT_BUFFER,  // block base `storage` = the address of its first block
  SWAP,         // exchange block bases `storage` and `storage2`
  LABEL,
  JUMP,         // to `label`
  BRANCH,       // if (src[0] != 0) == sense then goto label
  BRANCH_CMP,   // if fn(src[0], src[1]) then goto label
  WDARM,
  WDOFF,
  LOOP_BEGIN,   // a WHILE's repeated part starts (liveness: values from before stay live to LOOP_END)
  LOOP_END,
};

struct Inst {
  Kind kind = Kind::LABEL;
  uint32_t fn = 0;
  uint32_t act = 0;  // OP: the fused activation of FLOAT32 ADD/SUB/MUL/DIV and FC (0 = NONE)
  uint32_t dst = kNone;
  std::array<uint32_t, 3> src{kNone, kNone, kNone};
  uint32_t storage = kNone;
  uint32_t storage2 = kNone;
  uint32_t label = kNone;
  bool sense = false;
  bool backedge = false;
  uint32_t sourceCount() const {
    uint32_t n = 0;
    while (n < 3 && src[n] != kNone) ++n;
    return n;
  }
};

struct Function {
  std::vector<Value> values;
  std::vector<Storage> storages;
  std::vector<Inst> code;
  uint32_t labels = 0;
  // Step inputs / outputs in StepSpec order: the operand and the slot storage.
  struct Io {
    uint32_t operand = 0;
    OperandType type = OperandType::TENSOR_INT32;
    Dimensions dims;
    uint32_t slot = kNone;  // REGION storage
  };
  std::vector<Io> inputs;
  std::vector<Io> outputs;
};

}  // namespace nnfab::compiler::ir
