// The Builder's core: values and storages, reading and defining operands,
// constants in registers, the declared-shape checks, and the step itself
// (inputs, operations, outputs).
#include "compiler/builder_internal.h"

#include <algorithm>

namespace nnfab::compiler::lowering {

uint32_t Builder::zeroValue(Elem elem) {
  uint32_t& v = zero_[elem == Elem::INT32 ? 0 : 1];
  if (v == kNone) {
    ir::Storage s;
    s.kind = StorageKind::ZERO;
    v = shapedValue(elem, {1}, 1, newStorage(s));
  }
  return v;
}

Result<Instance> Builder::newInstance(uint32_t subgraph) {
  Instance in;
  in.subgraph = subgraph;
  in.sg = &model_.subgraph(subgraph);
  boundOperands_ += in.sg->operands.size();
  if (boundOperands_ > kMaxBoundOperands) {
    return failure("the step inlines too many subgraph operands");
  }
  in.binding.assign(in.sg->operands.size(), kNone);
  in.state.assign(in.sg->operands.size(), 0);
  return in;
}

Result<uint32_t> Builder::read(Instance& in, uint32_t operand) {
  if (operand >= in.sg->operands.size()) {
    return failure(fmt::format("{}: operand {} does not exist", subgraphLabel(in.subgraph), operand));
  }
  if (in.binding[operand] != kNone) {
    if (in.state[operand] & Instance::kTarget) {
      return failure(fmt::format("{}: operand {} is read before it is written", subgraphLabel(in.subgraph), operand));
    }
    return in.binding[operand];
  }
  const Operand& o = in.sg->operands[operand];
  const std::string name = fmt::format("{}: operand {}", subgraphLabel(in.subgraph), operand);
  if (o.lifetime == OperandLifeTime::CONSTANT_COPY || o.lifetime == OperandLifeTime::CONSTANT_REFERENCE) {
    const uint64_t key = (uint64_t{in.subgraph} << 32) | operand;
    if (auto it = constants_.find(key); it != constants_.end()) {
      in.binding[operand] = it->second;
      return it->second;
    }
    const auto elem = elemOf(o.type);
    if (!elem) return failure(fmt::format("{} is a {} constant, not a fabric tensor", name, toString(o.type)));
    if (o.dimensions.empty() || hasZeroDimension(o.dimensions)) {
      return failure(fmt::format("{}: a constant needs fully specified dimensions", name));
    }
    const auto count = checkedCount(o.dimensions, ir::elemBytes(*elem));
    if (!count || o.value.size() != *count * ir::elemBytes(*elem)) {
      return failure(fmt::format("{}: the constant's value does not match its shape {}", name,
                                 dimsString(o.dimensions)));
    }
    ir::Storage s;
    s.kind = StorageKind::CONST;
    s.bytes = o.value.size();
    s.value = &o.value;
    const uint32_t v = shapedValue(*elem, o.dimensions, *count, newStorage(s));
    constants_.emplace(key, v);
    in.binding[operand] = v;
    return v;
  }
  if (o.lifetime == OperandLifeTime::NO_VALUE) {
    return failure(fmt::format("{} has no value (NNAPI's reference fails the operation that reads it)", name));
  }
  return failure(fmt::format("{} is read before it is written and is not a step input", name));
}

Result<uint32_t> Builder::define(Instance& in, uint32_t operand, Elem elem, const Dimensions& dims,
                                 uint64_t count) {
  uint32_t v = in.binding[operand];
  if (v != kNone && !(in.state[operand] & Instance::kTarget)) {
    return failure(fmt::format("{}: operand {} is written twice or is not an operation output",
                               subgraphLabel(in.subgraph), operand));
  }
  if (v == kNone) {
    v = shapedValue(elem, dims, count, defaultStorage(elem, count));
  } else {
    ir::Value& value = fn_.values[v];
    if (!value.shaped) {
      value.elem = elem;
      value.dims = dims;
      value.count = count;
      value.shaped = true;
      if (value.storage == kNone) value.storage = defaultStorage(elem, count);
    } else if (value.dims != dims || value.elem != elem) {
      const char* why = roles_[v] == TargetRole::IF_OUTPUT
                            ? "the IF branches produce different shapes (a dynamic shape)"
                            : "the WHILE body changes the shape of a loop-carried operand";
      return failure(fmt::format("{}: operand {} has shape {} here but {} elsewhere: {}",
                                 subgraphLabel(in.subgraph), operand, dimsString(dims),
                                 dimsString(value.dims), why));
    }
  }
  fn_.values[v].defs++;
  in.binding[operand] = v;
  in.state[operand] = Instance::kDefined;
  return v;
}

Result<uint32_t> Builder::inRegister(uint32_t value) {
  const ir::Value& v = fn_.values[value];
  const ir::Storage& s = fn_.storages[v.storage];
  if (s.kind != StorageKind::CONST) return value;
  uint32_t bits = 0;
  for (uint32_t b = 0; b < ir::elemBytes(v.elem); ++b) bits |= uint32_t{(*s.value)[b]} << (8 * b);
  if (bits == 0) return zeroValue(v.elem);
  const Elem elem = v.elem;
  auto materialize = [&](std::vector<Inst>* into) {
    ir::Storage reg;
    reg.kind = StorageKind::REG;
    const uint32_t r = shapedValue(elem, {1}, 1, newStorage(reg));
    Inst i;
    i.kind = Kind::MOVE;
    i.dst = r;
    i.src[0] = value;
    into->push_back(i);
    return r;
  };
  if (scopes_.empty() || !hoistConstants_) {
    if (++emitted_ > kMaxIrInstructions) return failure("the step expands to too many instructions");
    return materialize(out_);
  }
  // Loaded once before the innermost enclosing loop, unless an enclosing
  // loop already holds the same constant in a register.
  const auto key = std::make_pair(elem, bits);
  for (const LoopScope* scope : scopes_) {
    if (auto it = scope->registers.find(key); it != scope->registers.end()) return it->second;
  }
  LoopScope& scope = *scopes_.back();
  if (++emitted_ > kMaxIrInstructions) return failure("the step expands to too many instructions");
  const uint32_t r = materialize(&scope.preheader);
  scope.registers.emplace(key, r);
  return r;
}

Status Builder::checkDeclared(const Instance& in, uint32_t operand, Elem elem, const Dimensions& dims,
                              const std::string& what) {
  const Operand& o = in.sg->operands[operand];
  const auto declared = elemOf(o.type);
  if (!declared || *declared != elem) {
    return failure(fmt::format("{}: operand {} is declared {} but receives {}", what, operand,
                               toString(o.type), toString(ir::operandType(elem))));
  }
  if (!matchesDeclared(dims, o.dimensions)) {
    return failure(fmt::format("{}: operand {} is declared {} but receives {} (NNAPI's reference fails this)",
                               what, operand, dimsString(o.dimensions), dimsString(dims)));
  }
  // The reference also compares an output's scale and zero point with the
  // ones the operation produces (0 for INT32 and BOOL8).
  if (o.lifetime == OperandLifeTime::SUBGRAPH_OUTPUT && (o.scale != 0.0f || o.zeroPoint != 0)) {
    return failure(fmt::format("{}: output operand {} declares scale {} / zero point {}, which NNAPI's "
                               "reference rejects", what, operand, o.scale, o.zeroPoint));
  }
  return Status::ok();
}

Result<uint32_t> Builder::subgraphRef(const Instance& in, uint32_t operand, const char* what) {
  if (operand >= in.sg->operands.size()) return failure(fmt::format("{} operand {} does not exist", what, operand));
  const Operand& o = in.sg->operands[operand];
  if (o.type != OperandType::SUBGRAPH || o.subgraph >= model_.referenced.size()) {
    return failure(fmt::format("{} (operand {}) is not a valid subgraph reference", what, operand));
  }
  return o.subgraph + 1;
}

Status Builder::buildOps(Instance& in, const std::vector<uint32_t>& ops, uint32_t depth) {
  for (uint32_t opIndex : ops) {
    if (opIndex >= in.sg->operations.size()) {
      return failure(fmt::format("{} has no operation {}", subgraphLabel(in.subgraph), opIndex));
    }
    const Operation& op = in.sg->operations[opIndex];
    Status s;
    if (op.type == OperationType::IF) {
      s = buildIf(in, opIndex, depth);
    } else if (op.type == OperationType::WHILE) {
      s = buildWhile(in, opIndex, depth);
    } else if (op.type == OperationType::FULLY_CONNECTED) {
      s = buildFullyConnected(in, opIndex);
    } else if (op.type == OperationType::RESHAPE) {
      s = buildReshape(in, opIndex);
    } else if (auto info = elementwiseInfo(op.type)) {
      s = buildElementwise(in, opIndex, *info);
    } else {
      s = failure(fmt::format("{}: not supported by the fabric", where(in, opIndex)));
    }
    if (!s.isOk()) return s;
  }
  return Status::ok();
}

Status Builder::buildInstance(Instance& in, uint32_t depth, std::vector<Inst>* out) {
  std::vector<Inst>* saved = out_;
  out_ = out;
  std::vector<uint32_t> all(in.sg->operations.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  Status s = buildOps(in, all, depth);
  out_ = saved;
  return s;
}

Status Builder::build(const StepSpec& step, const std::vector<Dimensions>& inputDims) {
  if (step.subgraph >= model_.subgraphCount()) return failure(fmt::format("there is no subgraph {}", step.subgraph));
  if (inputDims.size() != step.inputs.size()) {
    return failure(fmt::format("the step has {} inputs but {} input shapes were given", step.inputs.size(),
                               inputDims.size()));
  }
  auto top = newInstance(step.subgraph);
  if (!top) return std::move(top).takeStatus();
  Instance& in = *top;
  out_ = &fn_.code;

  for (size_t i = 0; i < step.inputs.size(); ++i) {
    const uint32_t operand = step.inputs[i];
    const std::string name = fmt::format("step input {} (operand {})", i, operand);
    if (operand >= in.sg->operands.size()) return failure(name + " does not exist");
    if (in.binding[operand] != kNone) return failure(name + " is listed twice");
    const OperandType type = in.sg->operands[operand].type;
    const auto elem = elemOf(type);
    if (!elem) return failure(fmt::format("{} is {}; the fabric takes only TENSOR_INT32, TENSOR_BOOL8 and TENSOR_FLOAT32", name, toString(type)));
    if (inputDims[i].empty()) {
      return failure(fmt::format("{} has unknown rank: the fabric needs every shape at compile time", name));
    }
    const auto count = checkedCount(inputDims[i], ir::elemBytes(*elem));
    if (!count || *count * ir::elemBytes(*elem) > kMaxTensorBytes) {
      return failure(fmt::format("{} of shape {} is too large", name, dimsString(inputDims[i])));
    }
    ir::Storage slot;
    slot.kind = StorageKind::REGION;
    slot.bytes = *count * ir::elemBytes(*elem);
    slot.inputSlot = static_cast<int32_t>(i);
    const uint32_t slotStorage = newStorage(slot);
    Inst def;
    uint32_t v;
    if (*count == 1 && *elem != Elem::FLOAT32) {
      ir::Storage reg;
      reg.kind = StorageKind::REG;
      v = shapedValue(*elem, inputDims[i], 1, newStorage(reg));
      def.kind = Kind::LOAD;
      def.storage = slotStorage;
    } else {
      v = shapedValue(*elem, inputDims[i], *count, slotStorage);
      def.kind = Kind::DEFINE_INPUT;
    }
    def.dst = v;
    if (Status s = emit(def); !s) return s;
    in.binding[operand] = v;
    in.state[operand] = Instance::kDefined;
    fn_.inputs.push_back({operand, type, inputDims[i], slotStorage});
  }

  if (Status s = buildOps(in, step.operations, 0); !s) return s;

  for (size_t k = 0; k < step.outputs.size(); ++k) {
    const uint32_t operand = step.outputs[k];
    const std::string name = fmt::format("step output {} (operand {})", k, operand);
    if (operand >= in.sg->operands.size()) return failure(name + " does not exist");
    uint32_t v = in.binding[operand];
    if (v == kNone) {
      const OperandLifeTime life = in.sg->operands[operand].lifetime;
      if (life != OperandLifeTime::CONSTANT_COPY && life != OperandLifeTime::CONSTANT_REFERENCE) {
        return failure(name + " is not computed by the step");
      }
      auto c = read(in, operand);
      if (!c) return std::move(c).takeStatus();
      v = *c;
    }
    const ir::Value value = fn_.values[v];
    const OperandType type = ir::operandType(value.elem);
    ir::Storage& current = fn_.storages[value.storage];
    uint32_t slotStorage;
    if (!value.scalar() && current.kind == StorageKind::REGION && current.inputSlot < 0 && current.outputSlot < 0) {
      // Computed straight into its slot.
      current.outputSlot = static_cast<int32_t>(k);
      slotStorage = value.storage;
    } else {
      ir::Storage slot;
      slot.kind = StorageKind::REGION;
      slot.bytes = value.count * ir::elemBytes(value.elem);
      slot.outputSlot = static_cast<int32_t>(k);
      slotStorage = newStorage(slot);
      Inst inst;
      if (value.scalar()) {
        inst.kind = Kind::STORE;
        inst.storage = slotStorage;
        inst.src[0] = v;
      } else {
        inst.kind = Kind::MOVE;
        inst.dst = shapedValue(value.elem, value.dims, value.count, slotStorage);
        inst.src[0] = v;
      }
      if (Status s = emit(inst); !s) return s;
    }
    fn_.outputs.push_back({operand, type, value.dims, slotStorage});
  }
  return Status::ok();
}

}  // namespace nnfab::compiler::lowering

namespace nnfab::compiler {

Result<ir::Function> buildStep(const Model& model, const StepSpec& step,
                               const std::vector<Dimensions>& inputDimensions, const BuildOptions& options) {
  ir::Function fn;
  lowering::Builder builder(model, fn, options);
  if (Status s = builder.build(step, inputDimensions); !s) return s;
  return fn;
}

}  // namespace nnfab::compiler
