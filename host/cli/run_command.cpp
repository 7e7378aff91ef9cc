#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/file_io.h"
#include "api/chrome_trace.h"
#include "cli/model_source.h"
#include "model/json_io.h"
#include "runtime/device.h"
#ifdef NNFAB_HAS_SIM_DEVICE
#include "runtime/sim_device.h"
#endif
#include "api/run_model.h"
#ifdef NNFAB_HAS_XRT_DEVICE
#include "runtime/xrt_device.h"
#endif

namespace nnfab::cli {
namespace {

struct RunArgs {
  std::string modelPath;
  std::string inputsPath;
  std::string device;
  std::string priority = "medium";
  // Signed so that CLI11 rejects "-1" instead of wrapping it to 2^64 - 1.
  int64_t timeoutMs = 0;
  int64_t loopTimeoutMs = 2000;
  int64_t memoryLimitMb = static_cast<int64_t>(kExecutionMemoryLimitDefault >> 20);
  std::string traceFile;
  std::string profileFile;
  std::string xclbin;
  bool strictDevice = false;
};

int printResult(const ExecutionResult& result) {
  fmt::print("{}", writeResult(result));
  std::fflush(stdout);
  return result.status.isOk() ? kExitOk : kExitErrorStatus;
}

int printError(Status status) {
  ExecutionResult result;
  result.status = std::move(status);
  return printResult(result);
}

int run(const RunArgs& args) {
  std::string error;
#ifdef NNFAB_HAS_XRT_DEVICE
  if (!args.xclbin.empty()) setXrtXclbin(args.xclbin);
#endif
  Status unavailable;
  const Device* device = resolveDevice(args.device, defaultDevice(), &error, &unavailable);
  if (!unavailable.isOk()) return printError(std::move(unavailable));
  if (!device) return usageError(error);
  if (args.strictDevice && device->name() == "cpu") {
    return usageError("--strict-device keeps a model on a fabric device: choose one with --device (see nnfab devices)");
  }
  const auto priority = priorityFromString(args.priority);
  if (!priority) return usageError("--priority must be low, medium or high");
  if (!args.traceFile.empty()) {
    if (device->name() != "sim") {
      return usageError(fmt::format("--trace records the RTL's waveform: it needs --device sim, not {}", device->name()));
    }
    // The waveform is written as the core runs: a path that cannot be written
    // is a usage error now, not a run whose trace silently goes nowhere.
    if (!checkWritable(args.traceFile, &error)) return usageError("--trace: " + error);
#ifdef NNFAB_HAS_SIM_DEVICE
    if (!setSimTraceFile(args.traceFile)) return usageError("--trace: the sim device is already running");
#endif
  }

  if (!args.profileFile.empty() && !checkWritable(args.profileFile, &error)) return usageError("--profile: " + error);
  api::ChromeTrace profile;
  const Clock::time_point loadStart = Clock::now();
  // A .onnx model is imported on the fly (docs/onnx.md).
  LoadedModel loaded = loadModel(args.modelPath);
  profile.span(isOnnxPath(args.modelPath) ? "read and import the ONNX model" : "read and parse the model", "prepare",
               loadStart, Clock::now());
  if (!loaded.usageError.empty()) return usageError(loaded.usageError);
  const auto inputsText = readFile(args.inputsPath, &error);
  if (!inputsText) return usageError(error);
  if (!loaded.status.isOk()) return printError(std::move(loaded.status));
  const Model* model = &loaded.model;
  const Clock::time_point inputsStart = Clock::now();
  auto inputs = parseInputs(*inputsText, *model);
  profile.span("parse the inputs", "prepare", inputsStart, Clock::now());
  if (!inputs.isOk()) {
    return printError(std::move(inputs).takeStatus().withContext("inputs file " + args.inputsPath));
  }
  spdlog::debug("running {} on device {}", args.modelPath, device->name());

  RunOptions options;
  options.device = device;
  options.priority = *priority;
  options.timeoutMs = static_cast<uint64_t>(args.timeoutMs);
  options.loopTimeoutMs = static_cast<uint64_t>(args.loopTimeoutMs);
  options.memoryLimitBytes = static_cast<uint64_t>(args.memoryLimitMb) << 20;
  options.strictDevice = args.strictDevice;
  if (device->name() != "cpu") {
    options.onFallback = [](const std::string& what) { fmt::print(stderr, "nnfab: warning: {}\n", what); };
  }
  if (!args.profileFile.empty()) options.trace = &profile;
  const ExecutionResult result = runModel(*model, *inputs, options);
  if (!args.profileFile.empty()) {
    // Written whatever the status: a failed run's timeline shows where it failed.
    std::ofstream out(args.profileFile, std::ios::binary | std::ios::trunc);
    out << profile.json();
    out.close();
    if (!out) return usageError("--profile: writing " + args.profileFile + " failed");
  }
  return printResult(result);
}

}  // namespace

std::function<int()> addRunCommand(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Run a model on a device and print the result JSON");
  cmd->add_option("model", args->modelPath, "Model file (JSON, docs/file-formats.md; or .onnx, docs/onnx.md)")->required();
  cmd->add_option("--inputs", args->inputsPath, "Inputs file (JSON)")->required();
  cmd->add_option("--device", args->device, "Device name (see 'nnfab devices'); default: the most hardware-like built");
  cmd->add_option("--priority", args->priority, "Execution priority: low, medium (default) or high")
      ->check(CLI::IsMember({"low", "medium", "high"}));
  cmd->add_option("--timeout-ms", args->timeoutMs, "Execution deadline in ms from the start of the run; 0 = none")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--loop-timeout-ms", args->loopTimeoutMs,
                  "Loop timeout per WHILE in ms (default 2000, clamped to 15000)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--memory-limit-mb", args->memoryLimitMb,
                  "Host memory the execution's tensors may hold, in MiB (default 2048); past it the run ends with "
                  "RESOURCE_EXHAUSTED_PERSISTENT")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
#ifdef NNFAB_HAS_XRT_DEVICE
  cmd->add_option("--xclbin", args->xclbin, "The xclbin --device xrt[:N] loads (default: $NNFAB_XCLBIN)");
#endif
  cmd->add_flag("--strict-device", args->strictDevice,
                "Fail (INVALID_ARGUMENT) instead of running any operation off the fabric device: on the CPU or "
                "as a host-interpreted IF/WHILE (see nnfab partition)");
  cmd->add_option("--profile", args->profileFile,
                  "Write a Chrome trace-event JSON timeline (Perfetto, chrome://tracing) of the run: preparation, "
                  "every step with its device, every host-interpreted IF branch and WHILE iteration");
  cmd->add_option("--trace", args->traceFile, "Record an FST waveform of the RTL to this file (device sim only)");
  return [args] { return run(*args); };
}

}  // namespace nnfab::cli
