#include "cpu/cpu_executor.h"

#include <fmt/format.h>

#include <new>

#include "cpu/interpreter.h"
#include "cpu/kernels/kernel.h"
#include "cpu/program.h"
#include "validation/validate.h"

namespace nnfab::cpu {
namespace {

uint64_t nanosSince(Clock::time_point start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

// The first operation of `subgraphIndex` or of any subgraph it references
// (recursively) that the kernels cannot run; empty if all can. Iterative,
// visiting each subgraph once.
std::string firstUnsupported(const Model& model, uint32_t subgraphIndex) {
  if (subgraphIndex >= model.subgraphCount()) return "invalid subgraph reference";
  std::vector<uint32_t> pending{subgraphIndex};
  std::vector<bool> seen(model.subgraphCount(), false);
  seen[subgraphIndex] = true;
  while (!pending.empty()) {
    const uint32_t s = pending.back();
    pending.pop_back();
    const Subgraph& sg = model.subgraph(s);
    for (size_t i = 0; i < sg.operations.size(); ++i) {
      const Operation& operation = sg.operations[i];
      if (operation.type == OperationType::IF || operation.type == OperationType::WHILE) {
        for (uint32_t input : operation.inputs) {
          const Operand& operand = sg.operands[input];
          if (operand.lifetime != OperandLifeTime::SUBGRAPH) continue;
          const uint32_t ref = operand.subgraph + 1;
          if (ref < seen.size() && !seen[ref]) {
            seen[ref] = true;
            pending.push_back(ref);
          }
        }
        continue;
      }
      std::string why;
      if (!isSupported(sg, operation, &why)) {
        return fmt::format("subgraph {}, operation {} ({}): {}", s, i, toString(operation.type),
                           why);
      }
    }
  }
  return {};
}

}  // namespace

CpuExecutor::CpuExecutor(Model model, std::unique_ptr<PreparedProgram> program)
    : model_(std::move(model)), program_(std::move(program)) {}

CpuExecutor::~CpuExecutor() = default;

Result<std::unique_ptr<CpuExecutor>> CpuExecutor::prepare(Model model) {
  if (Status status = validateModel(model, ValidationMode::RUNTIME); !status.isOk()) {
    return status;
  }
  for (uint32_t s = 0; s < model.subgraphCount(); ++s) {
    const Subgraph& sg = model.subgraph(s);
    for (size_t i = 0; i < sg.operations.size(); ++i) {
      const Operation& operation = sg.operations[i];
      if (operation.type == OperationType::IF || operation.type == OperationType::WHILE) continue;
      if (std::string why; !isSupported(sg, operation, &why)) {
        return invalidArgument(fmt::format(
            "the CPU executor cannot run this model: subgraph {}, operation {} ({}): {}", s, i,
            toString(operation.type), why));
      }
    }
  }
  // The program points into the model: build it on the model's final home.
  std::unique_ptr<CpuExecutor> executor(new CpuExecutor(std::move(model), nullptr));
  executor->program_ = std::make_unique<PreparedProgram>(lowerModel(executor->model_));
  return executor;
}

ExecutionResult CpuExecutor::execute(const std::vector<TensorValue>& inputs,
                                     const ExecutionOptions& options) const {
  const Clock::time_point start = Clock::now();
  ExecutionResult result;
  if (options.deadline && start >= *options.deadline) {
    result.status = Status(ErrorStatus::MISSED_DEADLINE_PERSISTENT,
                           "the execution deadline passed before the execution started");
    return result;
  }
  if (Status status = validateInputs(model_, inputs); !status.isOk()) {
    result.status = std::move(status);
    return result;
  }
  try {
    Interpreter interpreter(model_, *program_, options);
    const Clock::time_point runStart = Clock::now();
    if (Status status = interpreter.run(inputs); !status.isOk()) {
      result.status = std::move(status);
      return result;
    }
    const uint64_t onDevice = nanosSince(runStart);
    auto outputs = interpreter.takeOutputs();
    if (!outputs.isOk()) {
      result.status = std::move(outputs).takeStatus();
      return result;
    }
    result.outputs = std::move(outputs).value();
    result.timing.onDeviceNs = onDevice;
    result.timing.inDriverNs = nanosSince(start);
  } catch (const std::bad_alloc&) {
    result = ExecutionResult{};
    result.status = Status(ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT,
                           "the host ran out of memory during the execution");
  }
  return result;
}

SupportReport getSupportedOperations(const Model& model) {
  SupportReport report;
  const Subgraph& main = model.main;
  report.supported.resize(main.operations.size(), false);
  report.why.resize(main.operations.size());
  for (size_t i = 0; i < main.operations.size(); ++i) {
    const Operation& operation = main.operations[i];
    std::string why;
    if (operation.type == OperationType::IF || operation.type == OperationType::WHILE) {
      for (uint32_t input : operation.inputs) {
        const Operand& operand = main.operands[input];
        if (operand.lifetime != OperandLifeTime::SUBGRAPH) continue;
        why = firstUnsupported(model, operand.subgraph + 1);
        if (!why.empty()) break;
      }
    } else if (!isSupported(main, operation, &why) && why.empty()) {
      why = "not supported";
    }
    report.supported[i] = why.empty();
    report.why[i] = std::move(why);
  }
  return report;
}

}  // namespace nnfab::cpu
