#include "fabric_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "backends/hls_backend.h"
#include "compiler/disassembler.h"
#include "cpu/cpu_executor.h"
#include "fabric/step_runner.h"

namespace nnfab::compiler::test {
namespace {

backends::HlsBackend& backend() {
  static backends::HlsBackend instance([] {
    backends::HlsBackendOptions o;
    o.memoryBytes = uint64_t{64} << 20;
    return o;
  }());
  return instance;
}

}  // namespace

FabricRun runOnFabric(const Model& model, const std::vector<TensorValue>& inputs,
                      std::chrono::nanoseconds loopTimeout) {
  FabricRun run;
  auto program = compileMain(model, inputs);
  if (!program.isOk()) {
    run.compileStatus = program.status();
    return run;
  }
  run.compiled = true;
  run.program = *program;
  fabric::RunLimits limits;
  limits.loopTimeout = loopTimeout;
  auto outcome = fabric::runStep(backend(), run.program, inputs, limits);
  if (!outcome.isOk()) {
    run.status = outcome.status();
    return run;
  }
  run.report = outcome->report;
  run.status = outcome->finished();
  run.outputs = std::move(outcome->outputs);
  return run;
}

ExecutionResult runOnCpu(const Model& model, const std::vector<TensorValue>& inputs,
                         std::chrono::nanoseconds loopTimeout) {
  auto cpu = cpu::CpuExecutor::prepare(model);
  if (!cpu.isOk()) {
    ExecutionResult r;
    r.status = cpu.status();
    return r;
  }
  ExecutionOptions options;
  options.loopTimeout = loopTimeout;
  return (*cpu)->execute(inputs, options);
}

std::string compareWithCpu(const ExecutionResult& cpu, const FabricRun& fabric) {
  if (!fabric.compiled) return "did not compile: " + fabric.compileStatus.message();
  if (cpu.status.code() != fabric.status.code()) {
    return fmt::format("cpu status {} ({}), fabric {} ({})", toString(cpu.status.code()), cpu.status.message(),
                       toString(fabric.status.code()), fabric.status.message());
  }
  if (!cpu.status.isOk()) return "";
  if (cpu.outputs.size() != fabric.outputs.size()) return "different output counts";
  for (size_t i = 0; i < cpu.outputs.size(); ++i) {
    const TensorValue& a = cpu.outputs[i];
    const TensorValue& b = fabric.outputs[i];
    if (a.type != b.type) return fmt::format("output {}: type {} vs {}", i, toString(a.type), toString(b.type));
    if (a.dimensions != b.dimensions) {
      return fmt::format("output {}: dims [{}] vs [{}]", i, fmt::join(a.dimensions, ","), fmt::join(b.dimensions, ","));
    }
    if (a.data != b.data) {
      return fmt::format("output {}: bytes differ: cpu [{}] fabric [{}]\n{}", i, fmt::join(a.data, ","),
                         fmt::join(b.data, ","), disassemble(fabric.program));
    }
  }
  return "";
}

}  // namespace nnfab::compiler::test
