// The lowering's shared state (builder.h is its interface): one Builder
// walks the step, inlining every referenced subgraph as an Instance. Its
// parts live in builder.cpp (values, operands, the step), lower_elementwise,
// lower_if and lower_while.
#pragma once

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/builder.h"
#include "compiler/ir.h"
#include "compiler/op_table.h"
#include "compiler/shapes.h"

namespace nnfab::compiler::lowering {

using ir::Elem;
using ir::Inst;
using ir::Kind;
using ir::kNone;
using ir::StorageKind;

// Bound operands of all inlined subgraph instances together: a guard against
// hostile models whose references multiply.
inline constexpr size_t kMaxBoundOperands = size_t{1} << 22;

inline std::string subgraphLabel(uint32_t index) {
  return index == 0 ? std::string("subgraph 0 (main)")
                    : fmt::format("subgraph {} (referenced[{}])", index, index - 1);
}

inline Status failure(std::string message) { return generalFailure(std::move(message)); }

inline std::optional<Elem> elemOf(OperandType t) {
  if (t == OperandType::TENSOR_INT32) return Elem::INT32;
  if (t == OperandType::TENSOR_BOOL8) return Elem::BOOL8;
  if (t == OperandType::TENSOR_FLOAT32) return Elem::FLOAT32;
  return std::nullopt;
}

// One inlined use of a subgraph: which value each operand is bound to.
struct Instance {
  static constexpr uint8_t kTarget = 1;   // bound to a value the instance must define
  static constexpr uint8_t kDefined = 2;  // written by an operation of the instance
  uint32_t subgraph = 0;
  const Subgraph* sg = nullptr;
  std::vector<uint32_t> binding;
  std::vector<uint8_t> state;
};

// Scalar constants a WHILE loads into registers once, before the loop.
struct LoopScope {
  std::vector<Inst> preheader;
  std::map<std::pair<Elem, uint32_t>, uint32_t> registers;
};

// Why a value awaits its definition: names the cause when two definitions
// disagree on its shape.
enum class TargetRole : uint8_t { NONE, IF_OUTPUT, LOOP_CARRIED };

class Builder {
 public:
  Builder(const Model& model, ir::Function& fn, const BuildOptions& options)
      : model_(model), fn_(fn), hoistConstants_(options.hoistConstants) {}

  Status build(const StepSpec& step, const std::vector<Dimensions>& inputDims);

 private:
  // Values and storages.
  uint32_t newStorage(ir::Storage s) {
    fn_.storages.push_back(std::move(s));
    return static_cast<uint32_t>(fn_.storages.size() - 1);
  }
  uint32_t newValue(ir::Value v) {
    fn_.values.push_back(std::move(v));
    roles_.push_back(TargetRole::NONE);
    return static_cast<uint32_t>(fn_.values.size() - 1);
  }
  // The storage a value of this shape gets by default: a register for one
  // element, a heap region otherwise.
  uint32_t defaultStorage(Elem elem, uint64_t count) {
    ir::Storage s;
    if (count == 1 && elem != Elem::FLOAT32) {
      s.kind = StorageKind::REG;
    } else {
      s.kind = StorageKind::REGION;
      s.bytes = count * ir::elemBytes(elem);
    }
    return newStorage(s);
  }
  uint32_t shapedValue(Elem elem, Dimensions dims, uint64_t count, uint32_t storage) {
    ir::Value v;
    v.elem = elem;
    v.dims = std::move(dims);
    v.count = count;
    v.storage = storage;
    v.shaped = true;
    return newValue(std::move(v));
  }
  uint32_t zeroValue(Elem elem);

  Status emit(Inst inst) {
    if (++emitted_ > kMaxIrInstructions) {
      return failure(fmt::format("the step expands to more than {} instructions", kMaxIrInstructions));
    }
    out_->push_back(inst);
    return Status::ok();
  }
  Status emitMove(uint32_t dst, uint32_t src) {
    Inst i;
    i.kind = Kind::MOVE;
    i.dst = dst;
    i.src[0] = src;
    return emit(i);
  }
  uint32_t newLabel() { return fn_.labels++; }

  Result<Instance> newInstance(uint32_t subgraph);
  std::string where(const Instance& in, uint32_t opIndex) const {
    return fmt::format("{}, operation {} ({})", subgraphLabel(in.subgraph), opIndex,
                       toString(in.sg->operations[opIndex].type));
  }

  // The value an operation reads (constants are created on first use).
  Result<uint32_t> read(Instance& in, uint32_t operand);
  // The value an operation writes: the instance's target for the operand
  // (IF output, loop buffer) or a new one.
  Result<uint32_t> define(Instance& in, uint32_t operand, Elem elem, const Dimensions& dims, uint64_t count);
  // A one-element value in a register: constants are loaded with `li`,
  // before the innermost enclosing loop (or right here without hoisting).
  Result<uint32_t> inRegister(uint32_t value);

  Status buildOps(Instance& in, const std::vector<uint32_t>& ops, uint32_t depth);
  Status buildElementwise(Instance& in, uint32_t opIndex, const OpInfo& info);
  Status buildFullyConnected(Instance& in, uint32_t opIndex);
  Status buildReshape(Instance& in, uint32_t opIndex);
  // A one-element INT32/BOOL8 result a FLOAT32 tensor instruction writes to
  // memory, moved to the register value `target` next.
  uint32_t memoryTemp(Elem elem, const Dimensions& dims) {
    ir::Storage s;
    s.kind = StorageKind::REGION;
    s.bytes = ir::elemBytes(elem);
    const uint32_t v = shapedValue(elem, dims, 1, newStorage(s));
    fn_.values[v].inMemory = true;
    return v;
  }
  Status buildIf(Instance& in, uint32_t opIndex, uint32_t depth);
  Status buildWhile(Instance& in, uint32_t opIndex, uint32_t depth);
  Status checkDeclared(const Instance& in, uint32_t operand, Elem elem, const Dimensions& dims,
                       const std::string& what);
  Result<uint32_t> subgraphRef(const Instance& in, uint32_t operand, const char* what);
  Status buildInstance(Instance& in, uint32_t depth, std::vector<Inst>* out);
  bool canCoalesce(const std::vector<Inst>& body, uint32_t carried, uint32_t bodyValue,
                   uint32_t firstBodyStorage) const;
  void mergeStorage(uint32_t from, uint32_t into);
  void scheduleForCoalescing(std::vector<Inst>& body, const std::vector<uint32_t>& state,
                             const std::vector<uint32_t>& results, const std::vector<uint32_t>& next,
                             uint32_t firstBodyStorage) const;

  const Model& model_;
  ir::Function& fn_;
  std::vector<Inst>* out_ = nullptr;
  size_t emitted_ = 0;
  size_t boundOperands_ = 0;
  uint32_t loopDepth_ = 0;
  std::vector<LoopScope*> scopes_;
  std::vector<TargetRole> roles_;
  std::unordered_map<uint64_t, uint32_t> constants_;  // (subgraph, operand) -> value
  uint32_t zero_[2] = {kNone, kNone};
  bool hoistConstants_ = true;
};

}  // namespace nnfab::compiler::lowering
