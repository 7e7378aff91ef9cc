#include "runtime/plan_executor.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <new>

#include "cpu/control_flow.h"
#include "fabric/latency_probe.h"
#include "fabric/urgent_thread.h"
#include "model/execution_observer.h"
#include "model/trace_sink.h"
#include "runtime/fabric_trace.h"
#include "runtime/cycle_bound.h"
#include "runtime/partition.h"
#include "runtime/step_model.h"

namespace nnfab::runtime {

namespace control_flow = cpu::control_flow;

namespace {

// A step starts after the execution did: a deadline it finds passed was
// missed during the execution, which NNAPI reports as TRANSIENT.
Status duringExecution(Status status) {
  if (status.code() != ErrorStatus::MISSED_DEADLINE_PERSISTENT) return status;
  return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT, status.message());
}

bool allFullySpecified(const Subgraph& sg, const std::vector<uint32_t>& operands) {
  for (uint32_t k : operands) {
    const Operand& operand = sg.operands[k];
    if (!isScalarType(operand.type) && !isFullySpecified(operand)) return false;
  }
  return true;
}

uint64_t nanosSince(Clock::time_point start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

}  // namespace

struct PlanExecutor::PreparedStep {
  uint32_t index = 0;  // within its subgraph's plan
  const Step* step = nullptr;
  std::unique_ptr<ProgramCache> programs;  // FABRIC steps

  // The step's operations as a CPU sub-model: prepared eagerly for CPU
  // steps, on first need for the fallback of the others.
  mutable std::mutex cpuMutex;
  mutable bool cpuTried = false;
  mutable std::unique_ptr<cpu::CpuExecutor> cpu;
  mutable Status cpuStatus;

  std::string where() const {
    return fmt::format("subgraph {}, step {} ({})", step->subgraph, index, toString(step->kind));
  }

  // A profiled execution's span of this CPU or FABRIC step (traceStep), made
  // with the plan: the step's own time holds no formatting.
  std::shared_ptr<const TraceSink::SpanLabel> label;
};

struct PlanExecutor::Run {
  const ExecutionOptions& options;
  // Time FABRIC steps spent waiting for a shared core (queued or parked),
  // and time the observer held the execution: a loop timeout counts only
  // the loop's own time (docs/qos.md).
  std::chrono::nanoseconds waited{0};
  // Where the last CPU or FABRIC step ran ("fabric", or "cpu" also for a
  // fabric step that fell back): what the observer is told.
  std::string_view ranOn = "cpu";
  // A HIGH execution's thread at real-time priority where permitted
  // (docs/qos.md "Threads on the preemption path"); null otherwise.
  fabric::UrgentExecution* urgent = nullptr;
};


PlanExecutor::PlanExecutor(std::shared_ptr<const cpu::CpuExecutor> whole, Plan plan,
                           FabricEngine& engine)
    : whole_(std::move(whole)), plan_(std::move(plan)), engine_(engine) {
  const Model& m = model();
  steps_.resize(plan_.subgraphs.size());
  for (uint32_t s = 0; s < plan_.subgraphs.size(); ++s) {
    const auto& steps = plan_.subgraphs[s].steps;
    for (uint32_t t = 0; t < steps.size(); ++t) {
      auto prepared = std::make_unique<PreparedStep>();
      prepared->index = t;
      prepared->step = &steps[t];
      if (steps[t].kind == StepKind::CPU || steps[t].kind == StepKind::FABRIC) {
        std::string ops;
        for (uint32_t o : steps[t].operations) {
          if (!ops.empty()) ops.push_back(' ');
          ops.append(nnfab::toString(m.subgraph(steps[t].subgraph).operations[o].type));
        }
        prepared->label = std::make_shared<const TraceSink::SpanLabel>(TraceSink::SpanLabel{
            prepared->where(), "step",
            {{"runs_on", steps[t].kind == StepKind::FABRIC ? "fabric" : "cpu"}, {"operations", std::move(ops)}}});
      }
      if (steps[t].kind == StepKind::FABRIC) {
        compiler::StepSpec spec;
        spec.subgraph = s;
        spec.operations = steps[t].operations;
        spec.inputs = steps[t].inputs;
        spec.outputs = steps[t].outputs;
        prepared->programs = std::make_unique<ProgramCache>(m, std::move(spec));
      }
      steps_[s].push_back(std::move(prepared));
    }
  }
}

PlanExecutor::~PlanExecutor() = default;

std::vector<PlanExecutor::StepProgram> PlanExecutor::programs() const {
  std::vector<StepProgram> out;
  for (uint32_t s = 0; s < steps_.size(); ++s) {
    for (uint32_t t = 0; t < steps_[s].size(); ++t) {
      if (!steps_[s][t]->programs) continue;
      for (auto& [key, program] : steps_[s][t]->programs->compiled()) {
        out.push_back({s, t, key, std::move(program)});
      }
    }
  }
  return out;
}

void PlanExecutor::seed(std::vector<StepProgram> programs) {
  for (StepProgram& p : programs) {
    if (p.subgraph >= steps_.size() || p.step >= steps_[p.subgraph].size()) continue;
    const auto& prepared = steps_[p.subgraph][p.step];
    if (prepared->programs) prepared->programs->seed(std::move(p.key), std::move(p.program));
  }
}

Status PlanExecutor::prepare() {
  const Model& m = model();
  for (uint32_t s = 0; s < steps_.size(); ++s) {
    const Subgraph& sg = m.subgraph(s);
    for (const auto& prepared : steps_[s]) {
      const Step& step = *prepared->step;
      if (step.kind == StepKind::CPU) {
        auto executor = cpuExecutorFor(*prepared);
        if (!executor.isOk()) return std::move(executor).takeStatus().withContext(prepared->where());
        continue;
      }
      if (step.kind != StepKind::FABRIC || !allFullySpecified(sg, step.inputs)) continue;
      std::vector<Dimensions> dims;
      for (uint32_t k : step.inputs) dims.push_back(sg.operands[k].dimensions);
      const auto program = prepared->programs->get(dims);
      if (!program->isOk()) continue;  // the CPU will run it
      fabric::FabricBackend* backend = engine_.backend();
      const uint64_t need = FabricEngine::memoryNeed(program->value());
      if (backend && need > backend->memoryBytes()) {
        // As NNAPI falls back to the CPU when a device cannot prepare: the
        // engine refuses the step at run time and the CPU executor runs it.
        spdlog::info("{}: the program needs {} bytes of device memory, {} has {}; it runs on the CPU",
                     prepared->where(), need, backend->name(), backend->memoryBytes());
        continue;
      }
      // Every step of main runs once per execution: their bounds add up.
      if (backend && s == 0) minimumTime_ += lowerBoundTime(program->value(), backend->clockMhz());
    }
  }
  return Status::ok();
}

Result<const cpu::CpuExecutor*> PlanExecutor::cpuExecutorFor(const PreparedStep& prepared) const {
  std::lock_guard<std::mutex> lock(prepared.cpuMutex);
  if (!prepared.cpuTried) {
    prepared.cpuTried = true;
    auto executor = cpu::CpuExecutor::prepare(extractStepModel(model(), *prepared.step));
    if (executor.isOk()) {
      prepared.cpu = std::move(executor).value();
    } else {
      prepared.cpuStatus = std::move(executor).takeStatus();
    }
  }
  if (!prepared.cpu) return prepared.cpuStatus;
  return static_cast<const cpu::CpuExecutor*>(prepared.cpu.get());
}

PlanExecutor::Frame PlanExecutor::makeFrame(uint32_t subgraph) const {
  const Subgraph& sg = model().subgraph(subgraph);
  Frame frame(sg.operands.size());
  for (size_t k = 0; k < sg.operands.size(); ++k) {
    const Operand& operand = sg.operands[k];
    if (operand.lifetime == OperandLifeTime::CONSTANT_COPY ||
        operand.lifetime == OperandLifeTime::CONSTANT_REFERENCE) {
      frame[k] = constantValue(operand);
    }
  }
  return frame;
}

ExecutionResult PlanExecutor::execute(const std::vector<TensorValue>& inputs,
                                      const ExecutionOptions& options) const {
  const Clock::time_point start = Clock::now();
  fabric::UrgentExecution urgent(options.priority == Priority::HIGH);
  if (options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::EXECUTION_RAISED);
  ExecutionResult result;
  if (options.deadline && start + minimumTime_ > *options.deadline) {
    result.status = Status(
        ErrorStatus::MISSED_DEADLINE_PERSISTENT,
        fmt::format("even an idle device cannot finish in time: by the cycle model the fabric steps take at "
                    "least {} us, the deadline is {} us away (docs/qos.md)",
                    std::chrono::duration_cast<std::chrono::microseconds>(minimumTime_).count(),
                    std::chrono::duration_cast<std::chrono::microseconds>(*options.deadline - start).count()));
    return result;
  }
  try {
    const Subgraph& main = model().main;
    Frame frame = makeFrame(0);
    for (size_t i = 0; i < main.inputIndexes.size() && i < inputs.size(); ++i) {
      const TensorValue& input = inputs[i];
      if (input.omitted) continue;  // no value: an operation that reads it fails
      const Operand& declared = main.operands[main.inputIndexes[i]];
      frame[main.inputIndexes[i]] =
          makeValue(input.dimensions.empty() ? declared.dimensions : input.dimensions, input.data);
    }
    Run run{options};
    run.urgent = &urgent;
    if (Status status = runPlan(frame, run); !status.isOk()) {
      result.status = std::move(status);
      return result;
    }
    for (uint32_t k : main.outputIndexes) {
      const Value& value = frame[k];
      if (!value.present) {
        result.outputs.clear();
        result.status = generalFailure(fmt::format("main output operand {} was never written", k));
        return result;
      }
      TensorValue out;
      out.type = main.operands[k].type;
      out.dimensions = value.dims;
      out.data = *value.bytes;
      result.outputs.push_back(std::move(out));
    }
    if (options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::RESULT_BUILT);
    result.timing.onDeviceNs = nanosSince(start);
    result.timing.inDriverNs = result.timing.onDeviceNs;
  } catch (const std::bad_alloc&) {
    result = ExecutionResult{};
    result.status = Status(ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT,
                           "the host ran out of memory during the execution");
  }
  return result;
}

// One subgraph instance being run: its values and the next step. An
// activation paused at an interpreted IF/WHILE holds that operation's state
// while the branch, cond or body runs above it on the stack.
struct PlanExecutor::Activation {
  uint32_t subgraph = 0;
  Frame frame;
  size_t next = 0;  // index into steps_[subgraph]
  // The WHILE in progress at steps_[subgraph][next]: its values (input-output,
  // state-only, input-only), when it started, and whether the body runs now.
  struct Loop {
    std::vector<Value> values;
    Clock::time_point start;
    std::chrono::nanoseconds waitedBefore{0};
    uint64_t iterations = 0;
    bool inBody = false;
    Clock::time_point iterationStart;  // profiling: cond + body of this iteration
  };
  std::optional<Loop> loop;
  Clock::time_point started{};  // set when profiling: an IF branch's span
  // Which subgraph of the IF/WHILE below this activation is: IF 0 then,
  // 1 else (WHILE: the loop's inBody says), for the observer.
  uint8_t branch = 0;
};

// The one controller of a plan: a loop over an explicit stack of activations,
// never recursion, so nesting costs heap, not stack. CPU and FABRIC steps run
// in place; an interpreted IF pushes the taken branch; a WHILE alternates its
// cond and body; a finished activation hands its outputs to the operation that
// pushed it. The IF/WHILE rules are control_flow's, as in the CPU interpreter.
Status PlanExecutor::runPlan(Frame& mainFrame, Run& run) const {
  std::vector<Activation> stack;
  stack.push_back(Activation{0, std::move(mainFrame), 0, std::nullopt});
  for (;;) {
    Activation& top = stack.back();
    const auto& steps = steps_[top.subgraph];
    if (top.next == steps.size()) {
      if (stack.size() == 1) break;
      Activation finished = std::move(stack.back());
      stack.pop_back();
      const size_t parent = stack.size() - 1;
      const size_t pausedAt = stack[parent].next;
      if (Status s = returnTo(stack, finished, run); !s.isOk()) return s;
      // The IF or WHILE the host interpreted is done (its parent moved on,
      // pushing nothing): its outputs are set.
      if (run.options.observer != nullptr && stack.size() == parent + 1 && stack[parent].next != pausedAt) {
        observeStep(stack, parent, *steps_[stack[parent].subgraph][pausedAt], "host", run);
      }
      continue;
    }
    const PreparedStep& prepared = *steps[top.next];
    if (run.urgent != nullptr) run.urgent->checkBudget();
    if (run.options.deadline && Clock::now() >= *run.options.deadline) {
      return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "the execution deadline passed during the execution")
          .withContext(prepared.where());
    }
    if (isCancelled(run.options)) return cancelledStatus(prepared.where());
    Status status;
    const size_t depth = stack.size();
    const size_t at = top.next;
    const Clock::time_point stepStart = run.options.trace != nullptr ? Clock::now() : Clock::time_point{};
    switch (prepared.step->kind) {
      case StepKind::CPU:
        status = runCpu(prepared, top.frame, run);
        ++top.next;
        break;
      case StepKind::FABRIC:
        status = runFabric(prepared, top.frame, run);
        ++top.next;
        break;
      case StepKind::IF: status = enterIf(prepared, stack, run); break;
      case StepKind::WHILE: status = enterWhile(prepared, stack, run); break;
    }
    if (run.options.trace != nullptr && (prepared.step->kind == StepKind::CPU || prepared.step->kind == StepKind::FABRIC)) {
      traceStep(prepared, stepStart, run);
    }
    if (!status.isOk()) return status;
    // A CPU or FABRIC step, or an IF/WHILE run whole on the CPU, finished
    // (an IF/WHILE the host enters is observed when it returns).
    if (run.options.observer != nullptr && stack.size() == depth && stack.back().next == at + 1) {
      observeStep(stack, depth - 1, prepared, run.ranOn, run);
    }
  }
  mainFrame = std::move(stack.front().frame);
  return Status::ok();
}

void PlanExecutor::traceStep(const PreparedStep& prepared, Clock::time_point start, Run& run) const {
  run.options.trace->labelledSpan(prepared.label, start, Clock::now());
}

void PlanExecutor::observeStep(const std::vector<Activation>& stack, size_t depth, const PreparedStep& prepared,
                               std::string_view ranOn, Run& run) const {
  const Clock::time_point start = Clock::now();
  const Step& step = *prepared.step;
  const Subgraph& sg = model().subgraph(step.subgraph);
  Observation seen;
  seen.subgraph = step.subgraph;
  seen.operations = step.operations;
  seen.ranOn = ranOn;
  for (size_t j = 0; j < depth; ++j) {
    const Activation& outer = stack[j];
    const Step& control = *steps_[outer.subgraph][outer.next]->step;
    ControlPathEntry entry;
    entry.subgraph = control.subgraph;
    entry.operation = control.operations[0];
    entry.type = control.kind == StepKind::IF ? OperationType::IF : OperationType::WHILE;
    entry.child = stack[j + 1].subgraph;
    if (control.kind == StepKind::IF) {
      entry.part = stack[j + 1].branch == 0 ? ControlPathEntry::Part::THEN : ControlPathEntry::Part::ELSE;
    } else {
      entry.part = outer.loop->inBody ? ControlPathEntry::Part::BODY : ControlPathEntry::Part::COND;
      entry.iteration = outer.loop->iterations;
    }
    seen.path.push_back(entry);
  }
  const Frame& frame = stack[depth].frame;
  std::vector<uint32_t> outputs = step.outputs;
  if (step.kind == StepKind::IF || step.kind == StepKind::WHILE) {
    outputs = sg.operations[step.operations[0]].outputs;  // all of them: the IF/WHILE is one operation
  }
  for (uint32_t k : outputs) {
    const Value& value = frame[k];
    if (!value.present) continue;
    seen.outputs.push_back(ObservedOutput{k, sg.operands[k].type, value.dims, value.bytes});
  }
  run.options.observer->observe(seen);
  run.waited += Clock::now() - start;  // the observer's time is not the loop's
}

Status PlanExecutor::runCpu(const PreparedStep& prepared, Frame& frame, Run& run) const {
  const Step& step = *prepared.step;
  auto executor = cpuExecutorFor(prepared);
  if (!executor.isOk()) return std::move(executor).takeStatus().withContext(prepared.where());
  const Subgraph& sg = model().subgraph(step.subgraph);
  std::vector<TensorValue> inputs(step.inputs.size());
  for (size_t i = 0; i < step.inputs.size(); ++i) {
    const Value& value = frame[step.inputs[i]];
    if (!value.present) {
      inputs[i].omitted = true;  // the operation reading it fails as on the CPU
      continue;
    }
    inputs[i].type = sg.operands[step.inputs[i]].type;
    inputs[i].dimensions = value.dims;
    inputs[i].data = *value.bytes;
  }
  ExecutionResult result;
  {
    // The CPU executor's work is as long as the model makes it.
    const fabric::UrgentExecution::Pause ordinary(run.urgent);
    result = executor.value()->execute(inputs, run.options);
  }
  if (!result.status.isOk()) {
    return duringExecution(std::move(result.status)).withContext(prepared.where());
  }
  run.ranOn = "cpu";
  for (size_t j = 0; j < step.outputs.size(); ++j) {
    TensorValue& out = result.outputs[j];
    frame[step.outputs[j]] = makeValue(std::move(out.dimensions), std::move(out.data));
  }
  return Status::ok();
}

Status PlanExecutor::runFabric(const PreparedStep& prepared, Frame& frame, Run& run) const {
  const Step& step = *prepared.step;
  std::vector<const Value*> inputs;
  std::vector<Dimensions> dims;
  for (uint32_t k : step.inputs) {
    // A missing value fails on the CPU exactly as the cpu device fails.
    if (!frame[k].present) return runCpu(prepared, frame, run);
    inputs.push_back(&frame[k]);
    dims.push_back(frame[k].dims);
  }
  const auto program = prepared.programs->get(dims);
  if (!program->isOk()) {
    spdlog::debug("{}: not compiled for the fabric, runs on the CPU: {}", prepared.where(),
                  program->status().message());
    return runCpu(prepared, frame, run);
  }
  std::vector<Value> outputs;
  const Clock::time_point started = run.options.trace != nullptr ? Clock::now() : Clock::time_point{};
  StepRun ran = engine_.run(program->value(), inputs, run.options, &outputs);
  if (run.options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::STEP_DONE);
  run.waited += ran.waited;
  if (ran.status.isOk() && ran.trace && run.options.trace != nullptr) {
    // Placed after the time the step waited for the core (queued or parked).
    if (fabric::FabricBackend* device = engine_.backend()) {
      // The events are made when the sink needs them (after the run for
      // --profile): the step pays only for reading the trace.
      auto make = [program, trace = std::move(*ran.trace), cycles = ran.cycles, label = prepared.label] {
        auto events = fabricTraceEvents(program->value().code, trace, cycles);
        for (auto& e : events) e.args.emplace_back("step", label->name);
        return events;
      };
      run.options.trace->deferredDeviceEvents(device->name(), device->clockMhz(), started + ran.waited,
                                              std::move(make));
    }
  }
  if (ran.status.isOk()) {
    for (size_t j = 0; j < step.outputs.size(); ++j) frame[step.outputs[j]] = std::move(outputs[j]);
    run.ranOn = "fabric";
    return Status::ok();
  }
  if (!ran.cpuMayRetry || isCancelled(run.options)) {
    // A loop timeout, the deadline, a cancel, memory other executions hold
    // or a device fault is the execution's answer (docs/qos.md).
    return duringExecution(std::move(ran.status)).withContext(prepared.where());
  }
  spdlog::debug("{}: the fabric run failed ({}: {}), retrying on the CPU", prepared.where(),
                toString(ran.status.code()), ran.status.message());
  return runCpu(prepared, frame, run);
}

bool PlanExecutor::inputsPresent(const PreparedStep& prepared, const Frame& frame) const {
  const Subgraph& sg = model().subgraph(prepared.step->subgraph);
  const Operation& op = sg.operations[prepared.step->operations[0]];
  for (uint32_t k : op.inputs) {
    if (sg.operands[k].lifetime == OperandLifeTime::SUBGRAPH) continue;
    if (!frame[k].present) return false;
  }
  return true;
}

Status PlanExecutor::enterIf(const PreparedStep& prepared, std::vector<Activation>& stack, Run& run) const {
  Activation& at = stack.back();
  // Missing values: the CPU runs the IF whole, so that where and how it fails
  // is exactly the cpu device's.
  if (!inputsPresent(prepared, at.frame)) {
    ++at.next;
    return runCpu(prepared, at.frame, run);
  }
  const Step& step = *prepared.step;
  const Operation& op = model().subgraph(step.subgraph).operations[step.operations[0]];
  const Value& slot = at.frame[op.inputs[control_flow::kIfCondition]];
  const std::optional<bool> condition = control_flow::condition(slot.bytes->data(), slot.bytes->size());
  if (!condition) {
    ++at.next;
    return runCpu(prepared, at.frame, run);
  }
  const uint32_t taken = step.children[control_flow::takenBranch(*condition)];
  const Subgraph& branch = model().subgraph(taken);
  Frame inner = makeFrame(taken);
  for (size_t i = 0; i < branch.inputIndexes.size(); ++i) {
    inner[branch.inputIndexes[i]] = at.frame[op.inputs[control_flow::kIfFirstBranchInput + i]];
  }
  stack.push_back(Activation{taken, std::move(inner), 0, std::nullopt});  // `at` is stale from here
  stack.back().branch = static_cast<uint8_t>(control_flow::takenBranch(*condition));
  if (run.options.trace != nullptr) stack.back().started = Clock::now();
  return Status::ok();
}

Status PlanExecutor::enterWhile(const PreparedStep& prepared, std::vector<Activation>& stack, Run& run) const {
  Activation& at = stack.back();
  if (!inputsPresent(prepared, at.frame)) {
    ++at.next;
    return runCpu(prepared, at.frame, run);
  }
  const Step& step = *prepared.step;
  const Operation& op = model().subgraph(step.subgraph).operations[step.operations[0]];
  Activation::Loop loop;
  loop.values.resize(op.inputs.size() - control_flow::kWhileFirstLoopInput);
  for (size_t j = 0; j < loop.values.size(); ++j) {
    loop.values[j] = at.frame[op.inputs[control_flow::kWhileFirstLoopInput + j]];
  }
  // NNAPI's loop timeout is per WHILE instance, from its start, checked each
  // time the condition is true; time its fabric steps waited for the shared
  // core is other executions' time and does not count. Every iteration runs
  // at least two steps, each microseconds long, so one clock read (~26 ns)
  // per iteration is already amortised.
  loop.start = Clock::now();
  loop.iterationStart = loop.start;
  loop.waitedBefore = run.waited;
  at.loop = std::move(loop);
  pushLoopPart(stack, step.children[0]);
  return Status::ok();
}

void PlanExecutor::pushLoopPart(std::vector<Activation>& stack, uint32_t subgraph) const {
  const Activation::Loop& loop = *stack.back().loop;
  const Subgraph& sg = model().subgraph(subgraph);
  Frame frame = makeFrame(subgraph);
  for (size_t j = 0; j < sg.inputIndexes.size(); ++j) frame[sg.inputIndexes[j]] = loop.values[j];
  stack.push_back(Activation{subgraph, std::move(frame), 0, std::nullopt});
}

Status PlanExecutor::returnTo(std::vector<Activation>& stack, Activation& finished, Run& run) const {
  Activation& parent = stack.back();
  const PreparedStep& prepared = *steps_[parent.subgraph][parent.next];
  const Step& step = *prepared.step;
  const Operation& op = model().subgraph(step.subgraph).operations[step.operations[0]];
  const Subgraph& done = model().subgraph(finished.subgraph);

  if (step.kind == StepKind::IF) {
    if (run.options.trace != nullptr) {
      run.options.trace->span(fmt::format("IF: {} branch (subgraph {})", finished.subgraph == step.children[0] ? "then" : "else",
                                          finished.subgraph),
                              "if", finished.started, Clock::now(), {{"at", prepared.where()}});
    }
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      Value& produced = finished.frame[done.outputIndexes[i]];
      if (!produced.present) {
        return generalFailure(fmt::format("the branch did not produce output {}", i)).withContext(prepared.where());
      }
      parent.frame[op.outputs[i]] = std::move(produced);
    }
    ++parent.next;
    return Status::ok();
  }

  Activation::Loop& loop = *parent.loop;
  if (loop.inBody) {
    // The body's outputs are the next iteration's input-output and
    // state-only values; input-only values stay.
    for (size_t j = 0; j < done.outputIndexes.size(); ++j) {
      Value& produced = finished.frame[done.outputIndexes[j]];
      if (!produced.present) {
        return generalFailure(fmt::format("the WHILE body did not produce output {}", j))
            .withContext(prepared.where());
      }
      loop.values[j] = std::move(produced);
    }
    if (run.options.trace != nullptr) {
      const Clock::time_point now = Clock::now();
      run.options.trace->span(fmt::format("WHILE iteration {}", loop.iterations), "while", loop.iterationStart, now,
                              {{"at", prepared.where()}});
      loop.iterationStart = now;
    }
    ++loop.iterations;
    loop.inBody = false;
    pushLoopPart(stack, step.children[0]);
    return Status::ok();
  }

  const Value& decision = finished.frame[done.outputIndexes[0]];
  const std::optional<bool> condition =
      decision.present ? control_flow::condition(decision.bytes->data(), decision.bytes->size()) : std::nullopt;
  if (!condition) return control_flow::noCondition().withContext(prepared.where());
  if (!*condition) {
    if (run.options.trace != nullptr) {
      run.options.trace->span(fmt::format("WHILE ({} iterations)", loop.iterations), "while", loop.start, Clock::now(),
                              {{"at", prepared.where()}, {"iterations", std::to_string(loop.iterations)}});
    }
    for (size_t i = 0; i < op.outputs.size(); ++i) parent.frame[op.outputs[i]] = std::move(loop.values[i]);
    parent.loop.reset();
    ++parent.next;
    return Status::ok();
  }
  const auto timeout = std::min(run.options.loopTimeout, kLoopTimeoutMaximum);
  const auto elapsed = Clock::now() - loop.start - (run.waited - loop.waitedBefore);
  if (control_flow::loopTimedOut(elapsed, timeout)) {
    return control_flow::loopTimeout(elapsed, loop.iterations, timeout).withContext(prepared.where());
  }
  loop.inBody = true;
  pushLoopPart(stack, step.children[1]);
  return Status::ok();
}

}  // namespace nnfab::runtime
