#include "fabric/step_runner.h"

#include <fmt/format.h>

#include <algorithm>

#include "fabric/core_status.h"

namespace nnfab::fabric {

std::vector<StepInput> stepInputs(const std::vector<TensorValue>& values) {
  std::vector<StepInput> inputs;
  inputs.reserve(values.size());
  for (const TensorValue& v : values) inputs.push_back(StepInput{v.dimensions, v.data});
  return inputs;
}

Result<LoadedStep> LoadedStep::load(FabricBackend& backend, const compiler::Program& program,
                                    std::span<const StepInput> inputs) {
  if (inputs.size() != program.inputs.size()) {
    return generalFailure(
        fmt::format("the program has {} inputs, the step supplies {}", program.inputs.size(), inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const compiler::IoSlot& slot = program.inputs[i];
    // std::equal, not std::ranges: clang 14 (fuzz builds) cannot compile libstdc++ 12's <ranges>.
    const bool sameDims = std::equal(inputs[i].dims.begin(), inputs[i].dims.end(), slot.dimensions.begin(),
                                     slot.dimensions.end());
    if (!sameDims || inputs[i].bytes.size() != slot.bytes) {
      return generalFailure(fmt::format("input {} (operand {}) does not match its slot", i, slot.operand));
    }
  }
  // The inputs are written in full right below: not zeroed first.
  std::vector<DataRange> inputRanges;
  inputRanges.reserve(program.inputs.size());
  for (const compiler::IoSlot& slot : program.inputs) inputRanges.push_back({slot.offset, slot.bytes});
  auto device = DeviceProgram::load(backend, program.code, program.dataImage, program.dataBytes, inputRanges,
                                    WindowStarts{program.srcbStart, program.dstStart});
  if (!device.isOk()) return std::move(device).takeStatus();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const compiler::IoSlot& slot = program.inputs[i];
    if (Status s = device->writeData(slot.offset, inputs[i].bytes.data(), slot.bytes); !s.isOk()) return s;
  }
  return LoadedStep(backend, program, std::move(device).value());
}

Result<RunReport> LoadedStep::run(CoreDriver& driver, const RunLimits& limits, bool resume, bool trace) {
  // A profiled run's trace goes to the driver's trace area
  // (CoreDriver::prepareTrace), one for all steps: none is allocated here.
  LoadedProgram program = resume ? device_.resumed() : device_.loaded();
  program.trace = trace;
  return driver.run(program, limits);
}

Result<std::vector<TensorValue>> LoadedStep::outputs() const {
  std::vector<TensorValue> out;
  out.reserve(program_->outputs.size());
  for (const compiler::IoSlot& slot : program_->outputs) {
    TensorValue v;
    v.type = slot.type;
    v.dimensions = slot.dimensions;
    v.data.resize(slot.bytes);
    if (Status s = device_.readData(slot.offset, v.data.data(), slot.bytes); !s.isOk()) return s;
    out.push_back(std::move(v));
  }
  return out;
}

Result<std::array<uint32_t, isa::kCONTEXT_BYTES / sizeof(uint32_t)>> LoadedStep::savedContext() const {
  std::array<uint32_t, isa::kCONTEXT_BYTES / sizeof(uint32_t)> words{};
  if (Status s = backend_->copyFromDevice(words.data(), device_.loaded().context, isa::kCONTEXT_BYTES); !s.isOk()) {
    return std::move(s).withContext("reading the saved context");
  }
  return words;
}

Status StepOutcome::finished() const {
  if (report.completed()) return Status::ok();
  if (!report.status.isOk()) return report.status;
  return generalFailure(
      fmt::format("the core stopped with {} before the program finished", coreStatusName(report.coreStatus)));
}

Result<StepOutcome> runStep(FabricBackend& backend, const compiler::Program& program,
                            const std::vector<TensorValue>& inputs, const RunLimits& limits) {
  const std::vector<StepInput> views = stepInputs(inputs);
  auto step = LoadedStep::load(backend, program, views);
  if (!step.isOk()) return std::move(step).takeStatus();
  CoreDriver driver(backend);
  auto report = step->run(driver, limits);
  if (!report.isOk()) return std::move(report).takeStatus();
  StepOutcome outcome;
  outcome.report = std::move(report).value();
  if (outcome.report.completed()) {
    auto outputs = step->outputs();
    if (!outputs.isOk()) return std::move(outputs).takeStatus();
    outcome.outputs = std::move(outputs).value();
  }
  return outcome;
}

}  // namespace nnfab::fabric
