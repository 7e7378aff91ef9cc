#include "cpu/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "cpu/control_flow.h"

namespace nnfab::cpu {
namespace {

// Clock budget units between two clock reads (one unit per small operation,
// more for large ones; see OpState::cost). Reading steady_clock costs about
// 26 ns here, a scalar loop iteration about as much: read it every ~32
// iterations, and before any large operation.
constexpr int64_t kClockBudget = 64;
constexpr size_t kBytesPerBudgetUnit = 256;

// Non-null address for zero-byte values, so that no kernel or memcpy ever
// sees a null pointer for a value that exists.
alignas(16) uint8_t gEmpty[16];

uint8_t* dataOf(std::vector<uint8_t>& storage) {
  return storage.empty() ? gEmpty : storage.data();
}

std::string subgraphName(uint32_t index) {
  return index == 0 ? std::string("main") : fmt::format("referenced[{}]", index - 1);
}

void setDims(Slot& slot, const Dimensions& dims) {
  if (slot.dims != dims) {
    slot.dims = dims;
    ++slot.shapeVersion;
  }
}

// Binds `dst` to the value of `src` without copying (IF/WHILE inputs).
void bindAlias(Slot& dst, const Slot& src) {
  dst.data = src.data;
  dst.bytes = src.bytes;
  dst.hasValue = src.hasValue;
  setDims(dst, src.dims);
}

// Run-time dimensions merged with a declaration: known declared dimensions
// must match (NNAPI: a conflict is OP_FAILED).
bool matchesDeclared(const Dimensions& actual, const Dimensions& declared) {
  if (declared.empty()) return true;  // unknown rank (or scalar)
  if (declared.size() != actual.size()) return false;
  for (size_t i = 0; i < declared.size(); ++i) {
    if (declared[i] != 0 && declared[i] != actual[i]) return false;
  }
  return true;
}

std::string dimsToString(const Dimensions& dims) { return fmt::format("[{}]", fmt::join(dims, ", ")); }

}  // namespace

Interpreter::Interpreter(const Model& model, const PreparedProgram& program,
                         const ExecutionOptions& options)
    : model_(model), program_(program), options_(options) {
  options_.loopTimeout = std::min(options_.loopTimeout, kLoopTimeoutMaximum);
  stack_.reserve(16);
}

Interpreter::~Interpreter() = default;

Frame* Interpreter::newFrame(uint32_t subgraphIndex) {
  auto frame = std::make_unique<Frame>();
  frame->program = &program_.subgraphs[subgraphIndex];
  frame->subgraphIndex = subgraphIndex;
  const Subgraph& sg = *frame->program->subgraph;
  frame->slots.resize(sg.operands.size());
  for (size_t i = 0; i < sg.operands.size(); ++i) {
    const Operand& operand = sg.operands[i];
    Slot& slot = frame->slots[i];
    slot.type = operand.type;
    slot.scale = operand.scale;
    slot.zeroPoint = operand.zeroPoint;
    slot.dims = operand.dimensions;
    if (operand.lifetime == OperandLifeTime::CONSTANT_COPY ||
        operand.lifetime == OperandLifeTime::CONSTANT_REFERENCE) {
      slot.data = operand.value.empty() ? gEmpty : operand.value.data();
      slot.bytes = operand.value.size();
      slot.hasValue = true;
    }
  }
  frame->ops.resize(sg.operations.size());
  for (size_t i = 0; i < frame->program->ops.size(); ++i) {
    const ProgramOp& op = frame->program->ops[i];
    OpState& state = frame->ops[i];
    if (op.kind == OpKind::KERNEL) {
      state.inputPointers.resize(op.inputs.size());
      state.outputPointers.resize(op.outputs.size());
      state.inputVersions.resize(op.inputs.size());
    }
  }
  arena_.push_back(std::move(frame));
  return arena_.back().get();
}

bool Interpreter::fail(const Frame& frame, Status status) {
  const ProgramOp& op = frame.program->ops[frame.pc];
  error_ = std::move(status).withContext(fmt::format("subgraph {} ({}), operation {} ({})",
                                                     frame.subgraphIndex,
                                                     subgraphName(frame.subgraphIndex), frame.pc,
                                                     toString(op.type)));
  return false;
}

Status Interpreter::run(const std::vector<TensorValue>& inputs) {
  main_ = newFrame(0);
  const Subgraph& mainGraph = model_.main;
  for (size_t i = 0; i < mainGraph.inputIndexes.size() && i < inputs.size(); ++i) {
    Slot& slot = main_->slots[mainGraph.inputIndexes[i]];
    const TensorValue& input = inputs[i];
    if (input.omitted) continue;  // no value: an operation that reads it fails
    slot.data = input.data.empty() ? gEmpty : input.data.data();
    slot.bytes = input.data.size();
    slot.hasValue = true;
    setDims(slot, input.dimensions);
  }

  push(main_);
  while (!stack_.empty()) {
    Frame& frame = *stack_.back();
    if (frame.pc == frame.program->ops.size()) {
      stack_.pop_back();
      if (stack_.empty()) break;
      Frame& parent = *stack_.back();
      const ProgramOp& op = parent.program->ops[parent.pc];
      OpState& state = parent.ops[parent.pc];
      const bool ok = op.kind == OpKind::IF ? finishIf(parent, op, state, frame)
                                            : resumeWhile(parent, op, state);
      if (!ok) return std::move(error_);
      continue;
    }
    if (budget_ <= 0 && !tick(frame)) return std::move(error_);
    const ProgramOp& op = frame.program->ops[frame.pc];
    OpState& state = frame.ops[frame.pc];
    bool ok = true;
    switch (op.kind) {
      case OpKind::KERNEL:
        ok = runKernel(frame, op, state);
        budget_ -= static_cast<int64_t>(state.cost);
        ++frame.pc;
        break;
      case OpKind::IF:
        ok = startIf(frame, op, state);
        budget_ -= 1;
        break;
      case OpKind::WHILE:
        ok = startWhile(frame, op, state);
        budget_ -= 1;
        break;
    }
    if (!ok) return std::move(error_);
  }
  return Status::ok();
}

void Interpreter::push(Frame* frame) {
  frame->pc = 0;
  stack_.push_back(frame);
}

bool Interpreter::tick(const Frame& frame) {
  now_ = Clock::now();
  budget_ = kClockBudget;
  if (options_.deadline && now_ >= *options_.deadline) {
    return fail(frame, Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                              "the execution deadline passed during the execution"));
  }
  if (isCancelled(options_)) return fail(frame, cancelledStatus());
  return true;
}

bool Interpreter::runKernel(Frame& frame, const ProgramOp& op, OpState& state) {
  bool stale = !state.kernel;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const Slot& in = frame.slots[op.inputs[i]];
    if (!in.hasValue) {
      return fail(frame, generalFailure(fmt::format("input {} (operand {}) has no value", i,
                                                    op.inputs[i])));
    }
    stale |= in.shapeVersion != state.inputVersions[i];
    state.inputPointers[i] = in.data;
  }
  if (!stale && !op.parameterInputs.empty()) {
    // Parameters (activation, target shape) may be computed in a loop:
    // compare the bytes the kernel was prepared with.
    size_t offset = 0;
    for (uint32_t p : op.parameterInputs) {
      const Slot& in = frame.slots[op.inputs[p]];
      if (offset + in.bytes > state.parameterValues.size() ||
          std::memcmp(state.parameterValues.data() + offset, in.data, in.bytes) != 0) {
        stale = true;
        break;
      }
      offset += in.bytes;
    }
  }
  if (stale && !prepareKernelFor(frame, op, state)) return false;

  for (size_t o = 0; o < op.outputs.size(); ++o) {
    Slot& out = frame.slots[op.outputs[o]];
    if (out.storage.size() != out.bytes && !resizeStorage(frame, out.storage, out.bytes)) return false;
    out.data = dataOf(out.storage);
    out.hasValue = true;
    state.outputPointers[o] = dataOf(out.storage);
  }
  state.kernel->run(state.inputPointers.data(), state.outputPointers.data());
  return true;
}

bool Interpreter::prepareKernelFor(Frame& frame, const ProgramOp& op, OpState& state) {
  const Subgraph& sg = *frame.program->subgraph;
  std::vector<TensorArg> args(op.inputs.size());
  size_t touchedBytes = 0;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const Slot& in = frame.slots[op.inputs[i]];
    args[i] = TensorArg{in.type, in.dims, in.scale, in.zeroPoint, in.data, in.bytes};
    touchedBytes += in.bytes;
  }
  std::vector<OutputShape> shapes(op.outputs.size());
  for (size_t o = 0; o < op.outputs.size(); ++o) {
    const Operand& declared = sg.operands[op.outputs[o]];
    shapes[o] = OutputShape{declared.type, declared.dimensions, declared.scale, declared.zeroPoint};
  }
  state.kernel.reset();
  Status status = prepareKernel(op.type, args, shapes, &state.kernel);
  if (!status.isOk()) return fail(frame, std::move(status));
  if (!state.kernel) return fail(frame, generalFailure("kernel preparation produced no kernel"));

  for (size_t o = 0; o < op.outputs.size(); ++o) {
    const Operand& declared = sg.operands[op.outputs[o]];
    const OutputShape& shape = shapes[o];
    if (shape.type != declared.type ||
        (declared.lifetime == OperandLifeTime::SUBGRAPH_OUTPUT &&
         (shape.scale != declared.scale || shape.zeroPoint != declared.zeroPoint))) {
      state.kernel.reset();
      return fail(frame, generalFailure(fmt::format(
                             "output {} (operand {}) is declared {} but the operation produces {}",
                             o, op.outputs[o], toString(declared.type), toString(shape.type))));
    }
    if (!matchesDeclared(shape.dims, declared.dimensions)) {
      state.kernel.reset();
      return fail(frame, generalFailure(fmt::format(
                             "output {} (operand {}) is declared {} but the operation produces {}",
                             o, op.outputs[o], dimsToString(declared.dimensions),
                             dimsToString(shape.dims))));
    }
    const auto count = elementCount(shape.dims);
    const size_t bytes = count ? *count * sizeOfElement(shape.type) : SIZE_MAX;
    if (bytes > kMaxTensorBytes) {
      state.kernel.reset();
      return fail(frame, Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                                fmt::format("output {} (operand {}) of shape {} exceeds the CPU "
                                            "executor's limit of {} bytes per tensor",
                                            o, op.outputs[o], dimsToString(shape.dims),
                                            kMaxTensorBytes)));
    }
    Slot& out = frame.slots[op.outputs[o]];
    out.type = shape.type;
    out.scale = shape.scale;
    out.zeroPoint = shape.zeroPoint;
    setDims(out, shape.dims);
    out.bytes = bytes;
    touchedBytes += bytes;
  }

  for (size_t i = 0; i < op.inputs.size(); ++i) {
    state.inputVersions[i] = frame.slots[op.inputs[i]].shapeVersion;
  }
  state.parameterValues.clear();
  for (uint32_t p : op.parameterInputs) {
    const Slot& in = frame.slots[op.inputs[p]];
    state.parameterValues.insert(state.parameterValues.end(), in.data, in.data + in.bytes);
  }
  state.cost = 1 + touchedBytes / kBytesPerBudgetUnit;
  return true;
}

bool Interpreter::startIf(Frame& frame, const ProgramOp& op, OpState& state) {
  const Slot& slot = frame.slots[op.inputs[control_flow::kIfCondition]];
  const std::optional<bool> condition =
      control_flow::condition(slot.hasValue ? slot.data : nullptr, slot.bytes);
  if (!condition) {
    return fail(frame, generalFailure(fmt::format("the condition (operand {}) has no value",
                                                  op.inputs[control_flow::kIfCondition])));
  }
  const uint32_t taken = control_flow::takenBranch(*condition);
  if (state.branch[taken] == nullptr) state.branch[taken] = newFrame(op.branch[taken]);
  state.takenBranch = static_cast<uint8_t>(taken);
  Frame& branch = *state.branch[taken];
  const Subgraph& branchGraph = *branch.program->subgraph;
  for (size_t i = 0; i < branchGraph.inputIndexes.size(); ++i) {
    bindAlias(branch.slots[branchGraph.inputIndexes[i]],
              frame.slots[op.inputs[control_flow::kIfFirstBranchInput + i]]);
  }
  push(&branch);
  return true;
}

bool Interpreter::resizeStorage(const Frame& frame, std::vector<uint8_t>& storage, size_t bytes) {
  const uint64_t before = storage.capacity();
  const uint64_t others = liveBytes_ - before;
  if (bytes > before && others + bytes > options_.memoryLimitBytes) {
    return fail(frame, Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                              fmt::format("the execution would hold {} bytes of tensors, more than its "
                                          "memory limit of {} bytes",
                                          others + bytes, options_.memoryLimitBytes)));
  }
  storage.resize(bytes);
  liveBytes_ = others + storage.capacity();
  return true;
}

// Moves a value produced by a child frame into the enclosing frame's operand:
// the buffers trade places, nothing is copied.
bool Interpreter::adopt(Frame& frame, uint32_t operandIndex, Slot& produced) {
  const Operand& declared = frame.program->subgraph->operands[operandIndex];
  if (!matchesDeclared(produced.dims, declared.dimensions)) {
    return fail(frame, generalFailure(fmt::format(
                           "operand {} is declared {} but the subgraph produced {}", operandIndex,
                           dimsToString(declared.dimensions), dimsToString(produced.dims))));
  }
  Slot& out = frame.slots[operandIndex];
  out.storage.swap(produced.storage);
  produced.data = dataOf(produced.storage);
  out.data = dataOf(out.storage);
  out.bytes = produced.bytes;
  out.hasValue = true;
  setDims(out, produced.dims);
  return true;
}

bool Interpreter::finishIf(Frame& frame, const ProgramOp& op, OpState& state, Frame& branch) {
  const Subgraph& branchGraph = *branch.program->subgraph;
  (void)state;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    if (!adopt(frame, op.outputs[i], branch.slots[branchGraph.outputIndexes[i]])) return false;
  }
  ++frame.pc;
  return true;
}

// The clock of a running ScalarLoop: the same deadline, cancel and loop
// timeout checks as tick() and resumeWhile(), made every
// iterationsPerClockRead iterations.
class Interpreter::ScalarClock final : public ScalarLoopClock {
 public:
  ScalarClock(Interpreter& interpreter, const Frame& frame, Clock::time_point start)
      : interpreter_(interpreter), frame_(frame), start_(start) {}

  bool keepGoing(uint64_t iterations) override {
    Interpreter& in = interpreter_;
    if (iterations == 0) {
      // Before the first body: the loop was entered just now (startWhile's
      // reading), as on the frame path.
      in.now_ = std::max(in.now_, start_);
    } else {
      in.now_ = Clock::now();
      if (in.options_.deadline && in.now_ >= *in.options_.deadline) {
        return in.fail(frame_, Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                                      "the execution deadline passed during the execution"));
      }
      if (isCancelled(in.options_)) return in.fail(frame_, cancelledStatus());
    }
    const auto elapsed = in.now_ > start_ ? in.now_ - start_ : std::chrono::nanoseconds::zero();
    if (control_flow::loopTimedOut(elapsed, in.options_.loopTimeout)) {
      return in.fail(frame_, control_flow::loopTimeout(elapsed, iterations, in.options_.loopTimeout));
    }
    return true;
  }

 private:
  Interpreter& interpreter_;
  const Frame& frame_;
  Clock::time_point start_;
};

Interpreter::ScalarRun Interpreter::runScalarWhile(Frame& frame, const ProgramOp& op, OpState& state) {
  const ScalarLoop& loop = *op.scalarLoop;
  const size_t values = loop.valueTypes.size();
  uint64_t outputBytes = 0;
  for (uint32_t i = 0; i < loop.outputs; ++i) outputBytes += sizeOfElement(loop.valueTypes[i]);
  // The frames would hold footprintBytes from the first entry on, the
  // outputs among them; past the limit they report it, so let them.
  const uint64_t footprint = state.registers.empty() ? loop.footprintBytes : 0;
  if (liveBytes_ + footprint > options_.memoryLimitBytes) return ScalarRun::NOT_TAKEN;
  for (size_t j = 0; j < values; ++j) {
    const Slot& value = frame.slots[op.inputs[control_flow::kWhileFirstLoopInput + j]];
    if (!value.hasValue || value.bytes != sizeOfElement(loop.valueTypes[j]) || value.dims.size() != 1 ||
        value.dims[0] != 1) {
      return ScalarRun::NOT_TAKEN;
    }
  }
  if (state.registers.empty()) {
    state.registers.resize(loop.registerCount);
    for (const auto& [reg, bits] : loop.constants) state.registers[reg] = bits;
    // The outputs are counted when they are stored (a value carried into
    // several outputs can make them more than the footprint).
    liveBytes_ += footprint > outputBytes ? footprint - outputBytes : 0;
  }
  uint32_t* registers = state.registers.data();
  for (size_t j = 0; j < values; ++j) {
    const Slot& value = frame.slots[op.inputs[control_flow::kWhileFirstLoopInput + j]];
    uint32_t bits = 0;
    std::memcpy(&bits, value.data, value.bytes);  // little-endian: a BOOL8 is the low byte
    registers[j] = bits;
  }
  ++scalarLoopRuns_;
  const Clock::time_point start = Clock::now();
  ScalarClock clock(*this, frame, start);
  uint64_t iterations = 0;
  if (!runScalarLoop(loop, registers, clock, &iterations)) return ScalarRun::FAILED;

  static const Dimensions kOneElement{1};
  for (uint32_t i = 0; i < loop.outputs; ++i) {
    Slot& out = frame.slots[op.outputs[i]];
    const size_t bytes = sizeOfElement(loop.valueTypes[i]);
    if (out.storage.size() != bytes && !resizeStorage(frame, out.storage, bytes)) return ScalarRun::FAILED;
    std::memcpy(out.storage.data(), &registers[i], bytes);
    out.data = out.storage.data();
    out.bytes = bytes;
    out.hasValue = true;
    setDims(out, kOneElement);
  }
  ++frame.pc;
  return ScalarRun::DONE;
}

bool Interpreter::startWhile(Frame& frame, const ProgramOp& op, OpState& state) {
  if (op.scalarLoop) {
    switch (runScalarWhile(frame, op, state)) {
      case ScalarRun::DONE:
        return true;
      case ScalarRun::FAILED:
        return false;
      case ScalarRun::NOT_TAKEN:
        break;
    }
  }
  if (!state.loop) {
    state.loop = std::make_unique<WhileState>();
    state.loop->cond = newFrame(op.branch[0]);
    state.loop->body = newFrame(op.branch[1]);
    state.loop->carried.resize(op.whileCarried);
  }
  WhileState& loop = *state.loop;
  loop.iteration = 0;
  loop.inBody = false;
  loop.start = Clock::now();
  now_ = std::max(now_, loop.start);

  const Subgraph& condGraph = *loop.cond->program->subgraph;
  const Subgraph& bodyGraph = *loop.body->program->subgraph;
  for (size_t j = 0; j < condGraph.inputIndexes.size(); ++j) {
    bindAlias(loop.cond->slots[condGraph.inputIndexes[j]],
              frame.slots[op.inputs[control_flow::kWhileFirstLoopInput + j]]);
  }
  // Input-only values never change during the loop: bind them once.
  for (size_t j = op.whileCarried; j < bodyGraph.inputIndexes.size(); ++j) {
    bindAlias(loop.body->slots[bodyGraph.inputIndexes[j]],
              frame.slots[op.inputs[control_flow::kWhileFirstLoopInput + j]]);
  }
  push(loop.cond);
  return true;
}

bool Interpreter::resumeWhile(Frame& frame, const ProgramOp& op, OpState& state) {
  WhileState& loop = *state.loop;
  Frame& cond = *loop.cond;
  Frame& body = *loop.body;
  const Subgraph& condGraph = *cond.program->subgraph;
  const Subgraph& bodyGraph = *body.program->subgraph;

  if (loop.inBody) {
    // The body's outputs become the next iteration's inputs; the body will
    // write its next outputs into the buffers that held the previous ones.
    for (uint32_t j = 0; j < op.whileCarried; ++j) {
      Slot& produced = body.slots[bodyGraph.outputIndexes[j]];
      produced.storage.swap(loop.carried[j]);
      bindAlias(cond.slots[condGraph.inputIndexes[j]], produced);
    }
    ++loop.iteration;
    loop.inBody = false;
    push(&cond);
    return true;
  }

  const Slot& decision = cond.slots[condGraph.outputIndexes[0]];
  const std::optional<bool> condition =
      control_flow::condition(decision.hasValue ? decision.data : nullptr, decision.bytes);
  if (!condition) return fail(frame, control_flow::noCondition());
  if (!*condition) {
    for (uint32_t i = 0; i < op.whileOutputs; ++i) {
      Slot& last = cond.slots[condGraph.inputIndexes[i]];
      if (loop.iteration == 0) {
        // Zero iterations: the outputs are copies of the initial values.
        Slot& out = frame.slots[op.outputs[i]];
        const Operand& declared = frame.program->subgraph->operands[op.outputs[i]];
        if (!matchesDeclared(last.dims, declared.dimensions)) {
          return fail(frame, generalFailure(fmt::format(
                                 "output {} is declared {} but the loop produced {}", i,
                                 dimsToString(declared.dimensions), dimsToString(last.dims))));
        }
        if (!resizeStorage(frame, out.storage, last.bytes)) return false;
        if (last.bytes != 0) std::memcpy(out.storage.data(), last.data, last.bytes);
        out.data = dataOf(out.storage);
        out.bytes = last.bytes;
        out.hasValue = true;
        setDims(out, last.dims);
      } else {
        Slot carried;
        carried.storage.swap(loop.carried[i]);
        carried.bytes = last.bytes;
        carried.dims = last.dims;
        const bool ok = adopt(frame, op.outputs[i], carried);
        loop.carried[i].swap(carried.storage);
        if (!ok) return false;
      }
    }
    ++frame.pc;
    return true;
  }

  // now_ is the last clock reading (at most kClockBudget units old).
  const auto elapsed = now_ > loop.start ? now_ - loop.start : std::chrono::nanoseconds::zero();
  if (control_flow::loopTimedOut(elapsed, options_.loopTimeout)) {
    return fail(frame, control_flow::loopTimeout(elapsed, loop.iteration, options_.loopTimeout));
  }
  for (uint32_t j = 0; j < op.whileCarried; ++j) {
    bindAlias(body.slots[bodyGraph.inputIndexes[j]], cond.slots[condGraph.inputIndexes[j]]);
  }
  loop.inBody = true;
  push(&body);
  return true;
}

Result<std::vector<TensorValue>> Interpreter::takeOutputs() {
  std::vector<TensorValue> outputs;
  outputs.reserve(model_.main.outputIndexes.size());
  for (uint32_t index : model_.main.outputIndexes) {
    const Slot& slot = main_->slots[index];
    if (!slot.hasValue) {
      return generalFailure(fmt::format("main output operand {} was never written", index));
    }
    TensorValue value;
    value.type = slot.type;
    value.dimensions = slot.dims;
    value.data.assign(slot.data, slot.data + slot.bytes);
    outputs.push_back(std::move(value));
  }
  return outputs;
}

}  // namespace nnfab::cpu
