// Elementwise operations: NNAPI's run-time shape checks for the concrete
// shapes, then one scalar ALU instruction (one-element results) or one
// tensor instruction.
#include "compiler/builder_internal.h"

namespace nnfab::compiler::lowering {

Status Builder::buildElementwise(Instance& in, uint32_t opIndex, const OpInfo& info) {
  const Operation& op = in.sg->operations[opIndex];
  const std::string at = where(in, opIndex);
  const std::string name(toString(op.type));
  const size_t inputCount = info.inputs + (info.family == OpFamily::ARITHMETIC ? 1 : 0);
  if (op.inputs.size() != inputCount || op.outputs.size() != 1) {
    return failure(fmt::format("{}: expects {} inputs and 1 output", at, inputCount));
  }
  for (uint32_t index : op.inputs) {
    if (index >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
  }
  if (op.outputs[0] >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
  OperandType types[3] = {OperandType::TENSOR_INT32, OperandType::TENSOR_INT32, OperandType::TENSOR_INT32};
  for (uint32_t i = 0; i < info.inputs; ++i) types[i] = in.sg->operands[op.inputs[i]].type;
  std::string why;
  if (!elementwiseTypesSupported(info, op.type, types, in.sg->operands[op.outputs[0]].type, &why)) {
    return failure(at + ": " + why);
  }
  if (info.family == OpFamily::ARITHMETIC && !isConstantZeroActivation(in.sg->operands[op.inputs[2]])) {
    return failure(at + ": the fused activation is not a constant 0");
  }

  std::vector<uint32_t> src;
  for (uint32_t i = 0; i < info.inputs; ++i) {
    auto v = read(in, op.inputs[i]);
    if (!v) return std::move(v).takeStatus().withContext(at);
    const auto elem = elemOf(types[i]);
    if (fn_.values[*v].elem != *elem) return failure(fmt::format("{}: input {} has the wrong element type", at, i));
    src.push_back(*v);
  }
  auto dims = [&](size_t i) -> const Dimensions& { return fn_.values[src[i]].dims; };

  // The run-time checks of NNAPI's reference, for these shapes.
  if (!info.zeroSizedOk) {
    for (size_t i = 0; i < src.size(); ++i) {
      if (hasZeroDimension(dims(i))) {
        return failure(fmt::format("{}: input {} is zero-sized {}, which {} does not accept (NNAPI's "
                                   "reference fails it)", at, i, dimsString(dims(i)), name));
      }
    }
  }
  if (info.family == OpFamily::ARITHMETIC && (dims(0).size() > 4 || dims(1).size() > 4)) {
    return failure(fmt::format("{}: {} supports tensors up to rank 4, got {} and {}", at, name,
                               dimsString(dims(0)), dimsString(dims(1))));
  }
  Dimensions outDims;
  switch (info.family) {
    case OpFamily::UNARY:
    case OpFamily::NOT:
    case OpFamily::CAST:
      outDims = dims(0);
      break;
    case OpFamily::SELECT:
      if (dims(0) != dims(1) || dims(1) != dims(2)) {
        return failure(fmt::format("{}: SELECT needs identical shapes, got mask {}, x {}, y {}", at,
                                   dimsString(dims(0)), dimsString(dims(1)), dimsString(dims(2))));
      }
      outDims = dims(1);
      break;
    default: {
      auto b = broadcastShape(dims(0), dims(1));
      if (!b) {
        return failure(fmt::format("{}: cannot broadcast shapes {} and {}", at, dimsString(dims(0)),
                                   dimsString(dims(1))));
      }
      outDims = std::move(*b);
    }
  }
  Elem outElem = fn_.values[src[0]].elem;
  if (info.family == OpFamily::COMPARISON || info.family == OpFamily::LOGICAL || info.family == OpFamily::NOT) {
    outElem = Elem::BOOL8;
  } else if (info.family == OpFamily::SELECT) {
    outElem = fn_.values[src[1]].elem;
  }
  const auto count = checkedCount(outDims, ir::elemBytes(outElem));
  if (!count) return failure(fmt::format("{}: the output shape {} is too large", at, dimsString(outDims)));
  if (*count * ir::elemBytes(outElem) > kMaxTensorBytes) {
    return failure(fmt::format("{}: the output shape {} exceeds {} bytes", at, dimsString(outDims), kMaxTensorBytes));
  }
  if (Status s = checkDeclared(in, op.outputs[0], outElem, outDims, at); !s) return s;
  auto dst = define(in, op.outputs[0], outElem, outDims, *count);
  if (!dst) return std::move(dst).takeStatus();

  if (info.family == OpFamily::CAST) return emitMove(*dst, src[0]);
  Inst inst;
  inst.kind = Kind::OP;
  inst.fn = info.fn;
  inst.dst = *dst;
  for (size_t i = 0; i < src.size(); ++i) {
    if (*count == 1) {
      auto r = inRegister(src[i]);
      if (!r) return std::move(r).takeStatus();
      inst.src[i] = *r;
    } else {
      inst.src[i] = src[i];
    }
  }
  return emit(inst);
}

}  // namespace nnfab::compiler::lowering
