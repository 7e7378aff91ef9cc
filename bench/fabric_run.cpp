#include "fabric_run.h"

#include <fmt/format.h>

#include "fabric/core_status.h"

namespace nnfab::bench {

Result<compiler::Program> compileMain(const Model& model, const std::vector<TensorValue>& inputs) {
  auto program = compiler::compile(model, compiler::wholeMainStep(model), compiler::dimensionsOf(inputs));
  if (!program.isOk()) return std::move(program).takeStatus().withContext("compiling the benchmark model");
  return program;
}

Result<FabricRun> FabricRun::load(fabric::FabricBackend& backend, compiler::Program program,
                                  const std::vector<TensorValue>& inputs) {
  if (inputs.size() != program.inputs.size()) {
    return invalidArgument(fmt::format("{} inputs for a program with {}", inputs.size(), program.inputs.size()));
  }
  auto device = fabric::DeviceProgram::load(backend, program.code, program.dataImage, program.dataBytes);
  if (!device.isOk()) return std::move(device).takeStatus();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const compiler::IoSlot& slot = program.inputs[i];
    if (inputs[i].data.size() != slot.bytes) {
      return invalidArgument(fmt::format("input {} has {} bytes, its slot {}", i, inputs[i].data.size(), slot.bytes));
    }
    if (Status s = device->writeData(slot.offset, inputs[i].data.data(), slot.bytes); !s.isOk()) return s;
  }
  return FabricRun(backend, std::move(program), std::move(device).value());
}

Result<fabric::RunReport> FabricRun::run(const fabric::RunLimits& limits, bool resume) {
  fabric::CoreDriver driver(*backend_);
  return driver.run(resume ? device_.resumed() : device_.loaded(), limits);
}

Result<std::vector<TensorValue>> FabricRun::outputs() const {
  std::vector<TensorValue> out;
  for (const compiler::IoSlot& slot : program_.outputs) {
    TensorValue v;
    v.type = slot.type;
    v.dimensions = slot.dimensions;
    v.data.resize(slot.bytes);
    if (Status s = device_.readData(slot.offset, v.data.data(), slot.bytes); !s.isOk()) return s;
    out.push_back(std::move(v));
  }
  return out;
}

Result<std::array<uint32_t, isa::kCONTEXT_BYTES / sizeof(uint32_t)>> FabricRun::savedContext() const {
  std::array<uint32_t, isa::kCONTEXT_BYTES / sizeof(uint32_t)> words{};
  if (Status s = backend_->copyFromDevice(words.data(), device_.loaded().context, isa::kCONTEXT_BYTES); !s.isOk()) {
    return std::move(s).withContext("reading the saved context");
  }
  return words;
}

Result<CompletedRun> runToCompletion(fabric::FabricBackend& backend, const Model& model,
                                     const std::vector<TensorValue>& inputs) {
  auto program = compileMain(model, inputs);
  if (!program.isOk()) return std::move(program).takeStatus();
  auto run = FabricRun::load(backend, std::move(program).value(), inputs);
  if (!run.isOk()) return std::move(run).takeStatus();
  fabric::RunLimits limits;  // loopTimeout 0: no loop watchdog
  auto report = run->run(limits);
  if (!report.isOk()) return std::move(report).takeStatus();
  if (!report->completed()) {
    Status s = report->status.isOk() ? generalFailure("the core stopped before the program finished") : report->status;
    return std::move(s).withContext(
        fmt::format("the core stopped with {}", fabric::coreStatusName(report->coreStatus)));
  }
  auto outputs = run->outputs();
  if (!outputs.isOk()) return std::move(outputs).takeStatus();
  return CompletedRun{*report, std::move(outputs).value()};
}

}  // namespace nnfab::bench
