#include "platform_run.h"

#include <systemc.h>  // before verilated.h, as the SystemC model needs
#include <verilated.h>

#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "rtl_assert.h"

namespace nnfab::sim {

Result<compiler::Program> compileMainStep(const Model& model, const std::vector<TensorValue>& inputs) {
  return compiler::compile(model, compiler::wholeMainStep(model), compiler::dimensionsOf(inputs));
}

PlatformRun runOnPlatform(const PlatformOptions& options, const compiler::Program& program,
                          const std::vector<TensorValue>& inputs, const fabric::RunLimits& limits) {
  PlatformRun run;
  Platform platform("card", options, HostJob{program, inputs, limits});
  const auto wallStart = std::chrono::steady_clock::now();
  sc_core::sc_start(sc_core::sc_time(options.limitMs, sc_core::SC_MS));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  const HostOutcome& outcome = platform.host().outcome();
  if (Verilated::threadContextp()->gotError()) {
    // An RTL assertion failed (the core is Verilated with --assert).
    Verilated::threadContextp()->gotError(false);
    Verilated::threadContextp()->gotFinish(false);
    run.status = generalFailure(fmt::format("RTL assertion failed: {}", takeRtlAssertionFailure()));
  } else if (!platform.host().finished()) {
    run.status = generalFailure(
        fmt::format("the execution did not finish within {} ms of simulated time", options.limitMs));
  } else {
    run.status = outcome.status;
  }
  run.outputs = outcome.outputs;
  run.report = outcome.report;
  run.projection = project(platform, options.card.name, options.card.clockMhz, wall);
  if (run.status.isOk() && run.projection.bus.protocolErrors != 0) {
    run.status = generalFailure(fmt::format("the core broke the AXI4 rules {} times", run.projection.bus.protocolErrors));
  }
  return run;
}

std::string compareOutputs(const std::vector<TensorValue>& expected, const std::vector<TensorValue>& actual) {
  if (expected.size() != actual.size()) {
    return fmt::format("{} outputs expected, {} produced", expected.size(), actual.size());
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const TensorValue& a = expected[i];
    const TensorValue& b = actual[i];
    if (a.type != b.type) return fmt::format("output {}: type {} vs {}", i, toString(a.type), toString(b.type));
    if (a.dimensions != b.dimensions) {
      return fmt::format("output {}: dimensions [{}] vs [{}]", i, fmt::join(a.dimensions, ","),
                         fmt::join(b.dimensions, ","));
    }
    if (a.data != b.data) {
      size_t at = 0;
      while (at < a.data.size() && a.data[at] == b.data[at]) ++at;
      return fmt::format("output {}: bytes differ from byte {}", i, at);
    }
  }
  return "";
}

}  // namespace nnfab::sim
