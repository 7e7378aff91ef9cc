// Elementwise operations: NNAPI's run-time shape checks for the concrete
// shapes, then one scalar ALU instruction (one-element results) or one
// tensor instruction.
#include "compiler/builder_internal.h"

#include <algorithm>

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
  const OperandType declaredOut = in.sg->operands[op.outputs[0]].type;
  // compile() takes every type of the ISA; the devices' support rules
  // (isOperationSupported with their FEATURES) decide what reaches it.
  const FabricFeatures all = FabricFeatures::all();
  if (!elementwiseTypesSupported(info, op.type, types, declaredOut, &why, all)) {
    return failure(at + ": " + why);
  }
  uint32_t act = 0;
  if (info.family == OpFamily::ARITHMETIC && types[0] == OperandType::TENSOR_FLOAT32) {
    const auto a = constantActivation(in.sg->operands[op.inputs[2]]);
    if (!a) return failure(at + ": the fused activation is not a constant 0..3");
    act = *a;
  } else if (info.family == OpFamily::ARITHMETIC && !isConstantZeroActivation(in.sg->operands[op.inputs[2]])) {
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
  } else if (info.family == OpFamily::CAST) {
    outElem = *elemOf(declaredOut);
  }
  const auto count = checkedCount(outDims, ir::elemBytes(outElem));
  if (!count) return failure(fmt::format("{}: the output shape {} is too large", at, dimsString(outDims)));
  if (*count * ir::elemBytes(outElem) > kMaxTensorBytes) {
    return failure(fmt::format("{}: the output shape {} exceeds {} bytes", at, dimsString(outDims), kMaxTensorBytes));
  }
  if (Status s = checkDeclared(in, op.outputs[0], outElem, outDims, at); !s) return s;
  auto dst = define(in, op.outputs[0], outElem, outDims, *count);
  if (!dst) return std::move(dst).takeStatus();

  const bool convert = info.family == OpFamily::CAST && outElem != fn_.values[src[0]].elem;
  if (info.family == OpFamily::CAST && !convert) return emitMove(*dst, src[0]);
  // The scalar ALU takes one-element INT32/BOOL8 operands; anything with a
  // FLOAT32 side is a tensor instruction, whose one-element INT32/BOOL8
  // result goes through memory into its register.
  bool scalarOp = *count == 1 && outElem != Elem::FLOAT32 && !convert;
  for (uint32_t v : src) scalarOp = scalarOp && fn_.values[v].elem != Elem::FLOAT32;
  Inst inst;
  inst.kind = Kind::OP;
  inst.fn = convert ? isa::kFnCVT : info.fn;
  inst.act = act;
  inst.dst = *dst;
  if (!scalarOp && fn_.values[*dst].scalar()) inst.dst = memoryTemp(outElem, outDims);
  for (size_t i = 0; i < src.size(); ++i) {
    if (scalarOp) {
      auto r = inRegister(src[i]);
      if (!r) return std::move(r).takeStatus();
      inst.src[i] = *r;
    } else {
      inst.src[i] = src[i];
    }
  }
  if (Status s = emit(inst); !s) return s;
  return inst.dst == *dst ? Status::ok() : emitMove(*dst, inst.dst);
}

Status Builder::buildFullyConnected(Instance& in, uint32_t opIndex) {
  const Operation& op = in.sg->operations[opIndex];
  const std::string at = where(in, opIndex);
  if (op.inputs.size() != 4 || op.outputs.size() != 1) return failure(at + ": expects 4 inputs and 1 output");
  for (uint32_t index : op.inputs) {
    if (index >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
  }
  if (op.outputs[0] >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
  const auto act = constantActivation(in.sg->operands[op.inputs[3]]);
  if (!act) return failure(at + ": the fused activation is not a constant 0..3");
  uint32_t src[3];
  for (int i = 0; i < 3; ++i) {
    auto v = read(in, op.inputs[i]);
    if (!v) return std::move(v).takeStatus().withContext(at);
    if (fn_.values[*v].elem != Elem::FLOAT32) return failure(fmt::format("{}: input {} is not TENSOR_FLOAT32", at, i));
    src[i] = *v;
  }
  const Dimensions& x = fn_.values[src[0]].dims;
  const Dimensions& w = fn_.values[src[1]].dims;
  const Dimensions& bias = fn_.values[src[2]].dims;
  // The CPU executor's shape rules (host/cpu/kernels/fully_connected.cpp).
  if (x.size() < 2 || x.size() > 4) return failure(fmt::format("{}: the input must have rank 2 to 4, got {}", at, dimsString(x)));
  if (w.size() != 2 || w[0] == 0 || w[1] == 0) {
    return failure(fmt::format("{}: the weights must be a non-empty rank-2 tensor, got {}", at, dimsString(w)));
  }
  const uint32_t units = w[0], inputSize = w[1];
  if (bias.size() != 1 || bias[0] != units) {
    return failure(fmt::format("{}: the bias must be [{}], got {}", at, units, dimsString(bias)));
  }
  const uint64_t elements = fn_.values[src[0]].count;
  if (elements % inputSize != 0) {
    return failure(fmt::format("{}: the input {} does not flatten to rows of {}", at, dimsString(x), inputSize));
  }
  const uint64_t batch = elements / inputSize;
  const Dimensions outDims = {static_cast<uint32_t>(batch), units};
  const auto count = checkedCount(outDims, 4);
  if (!count || *count * 4 > kMaxTensorBytes) return failure(fmt::format("{}: the output is too large", at));
  if (Status s = checkDeclared(in, op.outputs[0], Elem::FLOAT32, outDims, at); !s) return s;
  auto dst = define(in, op.outputs[0], Elem::FLOAT32, outDims, *count);
  if (!dst) return std::move(dst).takeStatus();
  Inst inst;
  inst.kind = Kind::OP;
  inst.fn = isa::kFnFC;
  inst.act = *act;
  inst.dst = *dst;
  // The input as [batch, input_size] (a view: same storage, row-major).
  inst.src[0] = shapedValue(Elem::FLOAT32, {static_cast<uint32_t>(batch), inputSize}, elements,
                            fn_.values[src[0]].storage);
  inst.src[1] = src[1];
  inst.src[2] = src[2];
  return emit(inst);
}

Status Builder::buildReshape(Instance& in, uint32_t opIndex) {
  const Operation& op = in.sg->operations[opIndex];
  const std::string at = where(in, opIndex);
  if (op.inputs.size() != 2 || op.outputs.size() != 1) return failure(at + ": expects 2 inputs and 1 output");
  for (uint32_t index : op.inputs) {
    if (index >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
  }
  if (op.outputs[0] >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
  auto v = read(in, op.inputs[0]);
  if (!v) return std::move(v).takeStatus().withContext(at);
  const ir::Value source = fn_.values[*v];
  const Operand& shape = in.sg->operands[op.inputs[1]];
  if (shape.type != OperandType::TENSOR_INT32 || shape.dimensions.size() != 1 ||
      shape.value.size() != 4u * shape.dimensions[0] ||
      (shape.lifetime != OperandLifeTime::CONSTANT_COPY && shape.lifetime != OperandLifeTime::CONSTANT_REFERENCE)) {
    return failure(at + ": the shape is not a constant 1-D TENSOR_INT32");
  }
  if (hasZeroDimension(source.dims) || source.dims.size() > 4) {
    return failure(fmt::format("{}: RESHAPE does not take the input {} (NNAPI's reference fails it)", at,
                               dimsString(source.dims)));
  }
  // The CPU executor's rule (host/cpu/kernels/reshape.cpp): at most one -1.
  const size_t rank = shape.dimensions[0];
  Dimensions dims(rank);
  size_t inferred = rank;
  uint64_t known = 1;
  for (size_t i = 0; i < rank; ++i) {
    int32_t d = 0;
    for (size_t b = 0; b < 4; ++b) d |= static_cast<int32_t>(uint32_t{shape.value[4 * i + b]} << (8 * b));
    if (d == -1 && inferred == rank) {
      inferred = i;
      continue;
    }
    if (d < 0) return failure(fmt::format("{}: shape entry {} is {}", at, i, d));
    dims[i] = static_cast<uint32_t>(d);
    known = std::min<uint64_t>(known * dims[i], uint64_t{UINT32_MAX} + 1);
  }
  if (inferred != rank) {
    if (known == 0 || source.count % known != 0) return failure(at + ": cannot infer the -1 of the shape");
    dims[inferred] = static_cast<uint32_t>(source.count / known);
  } else if (known != source.count) {
    return failure(fmt::format("{}: the shape does not match the input's {} elements", at, source.count));
  }
  if (Status s = checkDeclared(in, op.outputs[0], source.elem, dims, at); !s) return s;
  auto dst = define(in, op.outputs[0], source.elem, dims, source.count);
  if (!dst) return std::move(dst).takeStatus();
  // A copy into the output's storage; the source seen with the new shape
  // (same storage, row-major) so the copy is elementwise.
  const uint32_t view = shapedValue(source.elem, dims, source.count, source.storage);
  return emitMove(*dst, view);
}

}  // namespace nnfab::compiler::lowering
