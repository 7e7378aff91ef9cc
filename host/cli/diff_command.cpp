// `nnfab diff`: runs a model on two devices in lockstep, one observed
// operation at a time, and names the first operation whose result differs
// (runtime/divergence.h, docs/runtime.md "Observed execution").
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/file_io.h"
#include "cli/model_source.h"
#include "model/json_io.h"
#include "runtime/device.h"
#include "runtime/divergence.h"
#include "validation/validate.h"

namespace nnfab::cli {
namespace {

// 0: the devices agree; 1: they disagree (the divergence is printed);
// 2: usage error; 3: nothing could be compared (the model or the inputs
// are invalid, or a device could not prepare the model).
constexpr int kExitDisagree = 1;
constexpr int kExitCannotCompare = 3;

struct DiffArgs {
  std::string modelPath;
  std::string inputsPath;
  std::vector<std::string> devices;
  // Observed runs are far slower than normal ones (one hand-off per
  // operation): the maximum, so that the observation itself rarely trips it.
  int64_t loopTimeoutMs = static_cast<int64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(kLoopTimeoutMaximum).count());
  bool json = false;
};

int cannotCompare(const std::string& message) {
  fmt::print(stderr, "nnfab diff: nothing compared: {}\n", message);
  return kExitCannotCompare;
}

int diff(const DiffArgs& args) {
  if (args.devices.size() != 2) {
    return usageError(fmt::format("diff compares two devices: give --device exactly twice (got {})",
                                  args.devices.size()));
  }
  const Device* devices[2] = {nullptr, nullptr};
  for (int i = 0; i < 2; ++i) {
    std::string error;
    Status unavailable;
    devices[i] = resolveDevice(args.devices[i], defaultDevice(), &error, &unavailable);
    if (!unavailable.isOk()) return cannotCompare(unavailable.message());
    if (!devices[i]) return usageError(error);
  }
  LoadedModel loaded = loadModel(args.modelPath);
  if (!loaded.usageError.empty()) return usageError(loaded.usageError);
  std::string error;
  const auto inputsText = readFile(args.inputsPath, &error);
  if (!inputsText) return usageError(error);
  if (!loaded.status.isOk()) return cannotCompare(loaded.status.message());
  const Model& model = loaded.model;
  if (Status status = validateModel(model); !status.isOk()) return cannotCompare("invalid model: " + status.message());
  auto inputs = parseInputs(*inputsText, model);
  if (!inputs.isOk()) return cannotCompare("inputs file " + args.inputsPath + ": " + inputs.status().message());

  runtime::DiffOptions options;
  options.loopTimeout = std::min<std::chrono::nanoseconds>(std::chrono::milliseconds(args.loopTimeoutMs),
                                                           kLoopTimeoutMaximum);
  auto report = runtime::diffDevices(model, inputs.value(), *devices[0], *devices[1], options);
  if (!report.isOk()) return cannotCompare(report.status().message());
  fmt::print("{}", args.json ? runtime::formatDiffJson(report.value()) : runtime::formatDiff(report.value()));
  std::fflush(stdout);
  return report.value().agree() ? kExitOk : kExitDisagree;
}

}  // namespace

std::function<int()> addDiffCommand(CLI::App& app) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "Run a model on two devices and name the first operation whose result differs");
  cmd->add_option("model", args->modelPath, "Model file (JSON, docs/file-formats.md; or .onnx, docs/onnx.md)")
      ->required();
  cmd->add_option("--inputs", args->inputsPath, "Inputs file (JSON)")->required();
  cmd->add_option("--device", args->devices, "A device to compare (see 'nnfab devices'): give it twice, A then B")
      ->required();
  cmd->add_option("--loop-timeout-ms", args->loopTimeoutMs,
                  "Loop timeout per WHILE in ms (default and maximum 15000: observed runs are slow)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--json", args->json, "Print the report as JSON (docs/runtime.md \"Diff JSON\")");
  return [args] { return diff(*args); };
}

}  // namespace nnfab::cli
