// Runs a model's main subgraph, compiled as one step, on the sim backend
// (the Verilator C++ harness) and prints its counters as JSON. A separate
// program because the harness's C++ model and the platform's SystemC model
// each carry Verilator's runtime, which cannot be linked twice.
// Usage: sim_cycles MODEL.json INPUTS.json
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/sim_backend.h"
#include "model/files.h"
#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "fabric/device_program.h"
#include "model/json_io.h"

int main(int argc, char** argv) {
  using namespace nnfab;
  if (argc != 3) {
    std::cerr << "usage: sim_cycles MODEL.json INPUTS.json\n";
    return 2;
  }
  std::string error;
  const auto modelText = readFile(argv[1], &error);
  const auto inputsText = modelText ? readFile(argv[2], &error) : std::nullopt;
  if (!inputsText) {
    std::cerr << error << "\n";
    return 2;
  }
  auto model = parseModel(*modelText);
  if (!model.isOk()) return std::cerr << model.status().message() << "\n", 1;
  auto inputs = parseInputs(*inputsText, *model);
  if (!inputs.isOk()) return std::cerr << inputs.status().message() << "\n", 1;
  auto program = compiler::compile(*model, compiler::wholeMainStep(*model), compiler::dimensionsOf(*inputs));
  if (!program.isOk()) return std::cerr << program.status().message() << "\n", 1;

  backends::SimBackendOptions options;
  options.memoryBytes = uint64_t{256} << 20;
  backends::SimBackend backend(options);
  auto loaded = fabric::DeviceProgram::load(backend, program->code, program->dataImage, program->dataBytes);
  if (!loaded.isOk()) return std::cerr << loaded.status().message() << "\n", 1;
  for (size_t i = 0; i < inputs->size(); ++i) {
    const TensorValue& v = (*inputs)[i];
    if (Status s = loaded->writeData(program->inputs[i].offset, v.data.data(), v.data.size()); !s.isOk()) {
      return std::cerr << s.message() << "\n", 1;
    }
  }
  fabric::CoreDriver driver(backend);
  auto report = driver.run(loaded->loaded(), fabric::RunLimits{});
  if (!report.isOk() || !report->completed()) {
    std::cerr << "the run failed\n";
    return 1;
  }
  const backends::SimRunEvents events = backend.lastRunEvents();
  std::cout << nlohmann::json{{"cycles", report->cycles},
                              {"instret", report->instret},
                              {"iterations", report->iterations},
                              {"start_to_done", events.done - events.startAccepted}}
                   .dump()
            << std::endl;
  return 0;
}
