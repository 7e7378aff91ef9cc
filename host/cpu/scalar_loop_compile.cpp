// compileScalarLoop (scalar_loop.h): cond and body lowered to register code.
// Anything the compiler does not recognise makes the loop ineligible, never
// an error: the frame path then runs it and reports whatever is wrong.
#include <algorithm>
#include <cstring>

#include "cpu/control_flow.h"
#include "cpu/scalar_loop.h"

namespace nnfab::cpu {
namespace {

using T = OperandType;

constexpr uint32_t kUnassigned = UINT32_MAX;

bool isRegisterType(T t) { return t == T::TENSOR_INT32 || t == T::TENSOR_FLOAT32 || t == T::TENSOR_BOOL8; }

bool isOneElement(const Operand& operand) {
  return isRegisterType(operand.type) && operand.dimensions.size() == 1 && operand.dimensions[0] == 1;
}

class Compiler {
 public:
  explicit Compiler(ScalarLoop& loop) : loop_(loop) {}

  // Lowers one subgraph whose inputs are the loop values (registers 0..n-1);
  // false if it does not qualify. regs() then maps its operands.
  bool lower(const Subgraph& sg) {
    sg_ = &sg;
    regs_.assign(sg.operands.size(), kUnassigned);
    if (sg.inputIndexes.size() != loop_.valueTypes.size()) return false;
    for (size_t j = 0; j < sg.inputIndexes.size(); ++j) {
      const uint32_t index = sg.inputIndexes[j];
      const Operand& operand = sg.operands[index];
      if (!isOneElement(operand) || operand.type != loop_.valueTypes[j]) return false;
      if (regs_[index] != kUnassigned) return false;  // the same operand twice
      regs_[index] = static_cast<uint32_t>(j);
    }
    for (const Operation& operation : sg.operations) {
      if (!lowerOperation(operation)) return false;
    }
    for (uint32_t index : sg.outputIndexes) {
      if (index >= regs_.size() || regs_[index] == kUnassigned || !isOneElement(sg.operands[index])) return false;
    }
    return true;
  }
  uint32_t reg(uint32_t operand) const { return regs_[operand]; }
  uint64_t resultBytes() const { return resultBytes_; }

 private:
  // The register holding input operand `index` (a value already computed, an
  // input, or a one-element constant); kUnassigned if none qualifies.
  uint32_t source(uint32_t index, T want) {
    if (index >= sg_->operands.size()) return kUnassigned;
    const Operand& operand = sg_->operands[index];
    if (operand.type != want) return kUnassigned;
    if (regs_[index] != kUnassigned) return regs_[index];
    if ((operand.lifetime == OperandLifeTime::CONSTANT_COPY ||
         operand.lifetime == OperandLifeTime::CONSTANT_REFERENCE) &&
        isOneElement(operand) && operand.value.size() == sizeOfElement(operand.type)) {
      uint32_t bits = 0;
      std::memcpy(&bits, operand.value.data(), operand.value.size());  // little-endian: the low bytes
      regs_[index] = loop_.registerCount++;
      loop_.constants.emplace_back(regs_[index], bits);
      return regs_[index];
    }
    return kUnassigned;
  }

  // A new register for the result operand `index` of type `want`.
  uint32_t result(uint32_t index, T want) {
    if (index >= sg_->operands.size()) return kUnassigned;
    const Operand& operand = sg_->operands[index];
    if (operand.type != want || !isOneElement(operand) || regs_[index] != kUnassigned) return kUnassigned;
    if (operand.lifetime != OperandLifeTime::TEMPORARY_VARIABLE &&
        operand.lifetime != OperandLifeTime::SUBGRAPH_OUTPUT) {
      return kUnassigned;
    }
    regs_[index] = loop_.registerCount++;
    resultBytes_ += sizeOfElement(want);
    return regs_[index];
  }

  // The constant INT32 activation of ADD/SUB/MUL/DIV, or nullopt.
  std::optional<FusedActivation> activation(uint32_t index) const {
    if (index >= sg_->operands.size()) return std::nullopt;
    const Operand& operand = sg_->operands[index];
    if (operand.type != T::INT32 || operand.value.size() != sizeof(int32_t) ||
        (operand.lifetime != OperandLifeTime::CONSTANT_COPY &&
         operand.lifetime != OperandLifeTime::CONSTANT_REFERENCE)) {
      return std::nullopt;
    }
    int32_t code = 0;
    std::memcpy(&code, operand.value.data(), sizeof(code));
    if (code < 0 || code > 3) return std::nullopt;
    return static_cast<FusedActivation>(code);
  }

  bool emit(ScalarOp op, uint32_t dst, uint32_t a, uint32_t b = 0, uint32_t c = 0) {
    if (dst == kUnassigned || a == kUnassigned || b == kUnassigned || c == kUnassigned) return false;
    loop_.code.push_back(ScalarInstr{op, dst, a, b, c});
    return true;
  }

  // Binary operation with operands of type `in` and result of type `out`.
  bool binary(const Operation& operation, ScalarOp op, T in, T out) {
    const uint32_t a = source(operation.inputs[0], in);
    const uint32_t b = source(operation.inputs[1], in);
    if (a == kUnassigned || b == kUnassigned) return false;
    return emit(op, result(operation.outputs[0], out), a, b);
  }
  bool unary(const Operation& operation, ScalarOp op, T in, T out) {
    const uint32_t a = source(operation.inputs[0], in);
    if (a == kUnassigned) return false;
    return emit(op, result(operation.outputs[0], out), a);
  }

  // Picks the variant of a family by operand type (INT32, FLOAT32, BOOL8).
  static ScalarOp pick(T t, ScalarOp i, ScalarOp f, ScalarOp b) {
    return t == T::TENSOR_INT32 ? i : t == T::TENSOR_FLOAT32 ? f : b;
  }

  bool arithmetic(const Operation& operation, ScalarOp intOp, ScalarOp floatOp) {
    if (operation.inputs.size() != 3) return false;
    const T t = sg_->operands[operation.inputs[0]].type;
    const std::optional<FusedActivation> act = activation(operation.inputs[2]);
    if (!act) return false;
    if (t == T::TENSOR_INT32) return *act == FusedActivation::NONE && binary(operation, intOp, t, t);
    if (t != T::TENSOR_FLOAT32 || !binary(operation, floatOp, t, t)) return false;
    const uint32_t dst = loop_.code.back().dst;
    switch (*act) {
      case FusedActivation::NONE:
        return true;
      case FusedActivation::RELU:
        return emit(ScalarOp::RELU_F, dst, dst);
      case FusedActivation::RELU1:
        return emit(ScalarOp::RELU1_F, dst, dst);
      case FusedActivation::RELU6:
        return emit(ScalarOp::RELU6_F, dst, dst);
    }
    return false;
  }

  bool comparison(const Operation& operation, ScalarOp i, ScalarOp f, ScalarOp b) {
    if (operation.inputs.size() != 2) return false;
    const T t = sg_->operands[operation.inputs[0]].type;
    return binary(operation, pick(t, i, f, b), t, T::TENSOR_BOOL8);
  }

  bool lowerOperation(const Operation& operation) {
    for (uint32_t index : operation.inputs) {
      if (index >= sg_->operands.size()) return false;
    }
    if (operation.outputs.size() != 1 || operation.outputs[0] >= sg_->operands.size()) return false;
    const size_t arity = operation.inputs.size();
    const T t0 = arity > 0 ? sg_->operands[operation.inputs[0]].type : T::SUBGRAPH;
    using O = OperationType;
    switch (operation.type) {
      case O::ADD:
        return arithmetic(operation, ScalarOp::ADD_I, ScalarOp::ADD_F);
      case O::SUB:
        return arithmetic(operation, ScalarOp::SUB_I, ScalarOp::SUB_F);
      case O::MUL:
        return arithmetic(operation, ScalarOp::MUL_I, ScalarOp::MUL_F);
      case O::DIV:
        return arithmetic(operation, ScalarOp::DIV_I, ScalarOp::DIV_F);
      case O::MAXIMUM:
      case O::MINIMUM: {
        if (arity != 2 || (t0 != T::TENSOR_INT32 && t0 != T::TENSOR_FLOAT32)) return false;
        const bool max = operation.type == O::MAXIMUM;
        const ScalarOp op = t0 == T::TENSOR_INT32 ? (max ? ScalarOp::MAX_I : ScalarOp::MIN_I)
                                                  : (max ? ScalarOp::MAX_F : ScalarOp::MIN_F);
        return binary(operation, op, t0, t0);
      }
      case O::ABS:
      case O::NEG: {
        if (arity != 1 || (t0 != T::TENSOR_INT32 && t0 != T::TENSOR_FLOAT32)) return false;
        const bool abs = operation.type == O::ABS;
        const ScalarOp op = t0 == T::TENSOR_INT32 ? (abs ? ScalarOp::ABS_I : ScalarOp::NEG_I)
                                                  : (abs ? ScalarOp::ABS_F : ScalarOp::NEG_F);
        return unary(operation, op, t0, t0);
      }
      case O::LESS:
        return comparison(operation, ScalarOp::LT_I, ScalarOp::LT_F, ScalarOp::LT_B);
      case O::LESS_EQUAL:
        return comparison(operation, ScalarOp::LE_I, ScalarOp::LE_F, ScalarOp::LE_B);
      case O::GREATER:
        return comparison(operation, ScalarOp::GT_I, ScalarOp::GT_F, ScalarOp::GT_B);
      case O::GREATER_EQUAL:
        return comparison(operation, ScalarOp::GE_I, ScalarOp::GE_F, ScalarOp::GE_B);
      case O::EQUAL:
        return comparison(operation, ScalarOp::EQ_I, ScalarOp::EQ_F, ScalarOp::EQ_B);
      case O::NOT_EQUAL:
        return comparison(operation, ScalarOp::NE_I, ScalarOp::NE_F, ScalarOp::NE_B);
      case O::LOGICAL_AND:
      case O::LOGICAL_OR:
        if (arity != 2) return false;
        return binary(operation, operation.type == O::LOGICAL_AND ? ScalarOp::AND_B : ScalarOp::OR_B,
                      T::TENSOR_BOOL8, T::TENSOR_BOOL8);
      case O::LOGICAL_NOT:
        return arity == 1 && unary(operation, ScalarOp::NOT_B, T::TENSOR_BOOL8, T::TENSOR_BOOL8);
      case O::SELECT: {
        if (arity != 3) return false;
        const T t = sg_->operands[operation.inputs[1]].type;
        if (t != T::TENSOR_INT32 && t != T::TENSOR_FLOAT32) return false;
        const uint32_t mask = source(operation.inputs[0], T::TENSOR_BOOL8);
        const uint32_t x = source(operation.inputs[1], t);
        const uint32_t y = source(operation.inputs[2], t);
        if (mask == kUnassigned || x == kUnassigned || y == kUnassigned) return false;
        return emit(ScalarOp::SELECT, result(operation.outputs[0], t), mask, x, y);
      }
      case O::CAST: {
        if (arity != 1) return false;
        const T to = sg_->operands[operation.outputs[0]].type;
        if (!isRegisterType(t0) || !isRegisterType(to)) return false;
        if (t0 == to) return unary(operation, ScalarOp::MOVE, t0, to);
        if (t0 == T::TENSOR_FLOAT32 && to == T::TENSOR_INT32) return unary(operation, ScalarOp::F_TO_I, t0, to);
        if (t0 == T::TENSOR_INT32 && to == T::TENSOR_FLOAT32) return unary(operation, ScalarOp::I_TO_F, t0, to);
        return false;  // BOOL8 <-> number: the kernel refuses it, let the frame path say so
      }
      default:
        return false;  // IF, WHILE, RESHAPE, FULLY_CONNECTED, anything else
    }
  }

  ScalarLoop& loop_;
  const Subgraph* sg_ = nullptr;
  std::vector<uint32_t> regs_;
  uint64_t resultBytes_ = 0;
};

// How many of a, b, c an instruction reads.
int sourceCount(ScalarOp op) {
  switch (op) {
    case ScalarOp::ABS_I: case ScalarOp::NEG_I: case ScalarOp::ABS_F: case ScalarOp::NEG_F:
    case ScalarOp::RELU_F: case ScalarOp::RELU1_F: case ScalarOp::RELU6_F: case ScalarOp::NOT_B:
    case ScalarOp::F_TO_I: case ScalarOp::I_TO_F: case ScalarOp::MOVE: case ScalarOp::EXIT_UNLESS:
      return 1;
    case ScalarOp::BACKEDGE:
      return 0;
    case ScalarOp::SELECT:
      return 3;
    default:
      return 2;
  }
}

bool reads(const ScalarInstr& in, uint32_t reg) {
  const int n = sourceCount(in.op);
  return (n > 0 && in.a == reg) || (n > 1 && in.b == reg) || (n > 2 && in.c == reg);
}

// The loop's exit test on the cond output `condition`: when the cond's last
// instruction is the INT32 comparison that computes it, the test compares
// directly (the stored BOOL8 is read by nothing else: it is the cond's
// output, and the cond ends there).
void emitExitTest(ScalarLoop& loop, uint32_t condition) {
  static constexpr std::pair<ScalarOp, ScalarOp> kFused[] = {
      {ScalarOp::LT_I, ScalarOp::EXIT_UNLESS_LT_I}, {ScalarOp::LE_I, ScalarOp::EXIT_UNLESS_LE_I},
      {ScalarOp::GT_I, ScalarOp::EXIT_UNLESS_GT_I}, {ScalarOp::GE_I, ScalarOp::EXIT_UNLESS_GE_I},
      {ScalarOp::EQ_I, ScalarOp::EXIT_UNLESS_EQ_I}, {ScalarOp::NE_I, ScalarOp::EXIT_UNLESS_NE_I},
  };
  if (!loop.code.empty() && loop.code.back().dst == condition) {
    ScalarInstr& last = loop.code.back();
    for (const auto& [compare, exit] : kFused) {
      if (last.op == compare) {
        last.op = exit;
        last.dst = 0;
        return;
      }
    }
  }
  loop.code.push_back(ScalarInstr{ScalarOp::EXIT_UNLESS, 0, condition, 0, 0});
}

// When a later body instruction still reads the old value of loop value j,
// moves the single instruction producing its next value (`from`) to just
// after the last such reader, if nothing in between depends on it or
// changes its sources. Then writeInPlace can succeed.
bool sinkProducer(ScalarLoop& loop, uint32_t j, uint32_t from) {
  size_t first = loop.code.size();
  for (size_t k = loop.condEnd + 1; k < loop.code.size(); ++k) {
    if (loop.code[k].dst == from) {
      first = k;
      break;
    }
  }
  if (first == loop.code.size()) return false;
  size_t lastReader = first;
  for (size_t k = first + 1; k < loop.code.size(); ++k) {
    if (reads(loop.code[k], j)) lastReader = k;
  }
  if (lastReader == first) return false;
  const ScalarInstr producer = loop.code[first];
  const int sources = sourceCount(producer.op);
  for (size_t k = first + 1; k <= lastReader; ++k) {
    const ScalarInstr& in = loop.code[k];
    if (reads(in, from) || in.dst == from || in.dst == j) return false;
    if (in.dst == producer.a || (sources > 1 && in.dst == producer.b) || (sources > 2 && in.dst == producer.c)) {
      return false;
    }
  }
  loop.code.erase(loop.code.begin() + static_cast<std::ptrdiff_t>(first));
  loop.code.insert(loop.code.begin() + static_cast<std::ptrdiff_t>(lastReader), producer);
  return true;
}

// Writes the body's result for loop value j straight into register j, instead
// of into a temporary moved there after the body, when nothing after its
// first writer still needs the old value of j. `from` is the temporary.
bool writeInPlace(ScalarLoop& loop, uint32_t j, uint32_t from) {
  size_t first = loop.code.size();
  for (size_t k = loop.condEnd + 1; k < loop.code.size(); ++k) {
    if (loop.code[k].dst == from) {
      first = k;
      break;
    }
  }
  if (first == loop.code.size()) return false;
  for (size_t k = first + 1; k < loop.code.size(); ++k) {
    if (reads(loop.code[k], j) || loop.code[k].dst == j) return false;
  }
  for (size_t k = first; k < loop.code.size(); ++k) {
    ScalarInstr& in = loop.code[k];
    if (in.dst == from) in.dst = j;
    if (in.a == from) in.a = j;
    if (in.b == from) in.b = j;
    if (in.c == from) in.c = j;
  }
  return true;
}

}  // namespace

std::optional<ScalarLoop> compileScalarLoop(const Model& model, const Subgraph& parent, const Operation& whileOp) {
  using namespace control_flow;
  if (whileOp.inputs.size() < kWhileFirstLoopInput) return std::nullopt;
  const Operand& condRef = parent.operands[whileOp.inputs[kWhileCond]];
  const Operand& bodyRef = parent.operands[whileOp.inputs[kWhileBody]];
  if (condRef.subgraph >= model.referenced.size() || bodyRef.subgraph >= model.referenced.size()) return std::nullopt;
  const Subgraph& cond = model.referenced[condRef.subgraph];
  const Subgraph& body = model.referenced[bodyRef.subgraph];

  ScalarLoop loop;
  const size_t values = whileOp.inputs.size() - kWhileFirstLoopInput;
  loop.carried = static_cast<uint32_t>(body.outputIndexes.size());
  loop.outputs = static_cast<uint32_t>(whileOp.outputs.size());
  if (loop.carried > values || loop.outputs > loop.carried || cond.outputIndexes.size() != 1) return std::nullopt;
  for (size_t j = 0; j < values; ++j) {
    const uint32_t index = whileOp.inputs[kWhileFirstLoopInput + j];
    if (index >= parent.operands.size()) return std::nullopt;
    if (cond.inputIndexes.size() != values) return std::nullopt;
    loop.valueTypes.push_back(cond.operands[cond.inputIndexes[j]].type);
  }
  // The WHILE's outputs receive [1] values: their declarations must allow it
  // (else the frame path reports the conflict).
  for (uint32_t index : whileOp.outputs) {
    if (index >= parent.operands.size()) return std::nullopt;
    const Dimensions& declared = parent.operands[index].dimensions;
    if (!declared.empty() && (declared.size() != 1 || (declared[0] != 0 && declared[0] != 1))) return std::nullopt;
  }
  loop.registerCount = static_cast<uint32_t>(values);

  Compiler condCompiler(loop);
  if (!condCompiler.lower(cond)) return std::nullopt;
  if (cond.operands[cond.outputIndexes[0]].type != T::TENSOR_BOOL8) return std::nullopt;
  emitExitTest(loop, condCompiler.reg(cond.outputIndexes[0]));
  loop.condEnd = static_cast<uint32_t>(loop.code.size() - 1);

  Compiler bodyCompiler(loop);
  if (!bodyCompiler.lower(body)) return std::nullopt;
  std::vector<uint32_t> carriedFrom(loop.carried);
  for (uint32_t j = 0; j < loop.carried; ++j) {
    if (body.operands[body.outputIndexes[j]].type != loop.valueTypes[j]) return std::nullopt;
    carriedFrom[j] = bodyCompiler.reg(body.outputIndexes[j]);
    if (carriedFrom[j] < values) return std::nullopt;  // an output that is an input: not a valid body
  }
  // Results written in place need no move; the others are moved after the
  // body. Move sources are body temporaries, never loop registers, so the
  // moves cannot overwrite one another's sources. A result carried into two
  // loop values stays a temporary.
  for (uint32_t j = 0; j < loop.carried; ++j) {
    const uint32_t from = carriedFrom[j];
    if (std::count(carriedFrom.begin(), carriedFrom.end(), from) != 1) continue;
    if (writeInPlace(loop, j, from) || (sinkProducer(loop, j, from) && writeInPlace(loop, j, from))) {
      carriedFrom[j] = j;
    }
  }
  for (uint32_t j = 0; j < loop.carried; ++j) {
    if (carriedFrom[j] != j) loop.code.push_back(ScalarInstr{ScalarOp::MOVE, j, carriedFrom[j], 0, 0});
  }
  loop.code.push_back(ScalarInstr{ScalarOp::BACKEDGE, 0, 0, 0, 0});
  const uint64_t perIteration = std::max<uint64_t>(1, loop.code.size());
  loop.iterationsPerClockRead = std::max<uint64_t>(1, kInstructionsPerClockRead / perIteration);
  loop.footprintBytes = condCompiler.resultBytes() + 2 * bodyCompiler.resultBytes();
  return loop;
}

}  // namespace nnfab::cpu
