#include <fmt/format.h>

#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/file_io.h"
#include "cli/model_source.h"
#include "model/json_io.h"
#include "runtime/cpu_device.h"
#include "runtime/device.h"
#include "validation/validate.h"

namespace nnfab::cli {
namespace {

struct PartitionArgs {
  std::string modelPath;
  std::string device;
  bool json = false;
};

int fail(const std::string& message) {
  fmt::print(stderr, "nnfab: {}\n", message);
  return kExitErrorStatus;
}

int partition(const PartitionArgs& args) {
  // Without --device: the most hardware-like device, whose plan is the
  // interesting one (where Verilator is missing, `run` defaults to cpu).
  std::string error;
  const Device* device = resolveDevice(args.device, *allDevices().front(), &error);
  if (!device) return usageError(error);
  // A .onnx model is imported first (docs/onnx.md).
  LoadedModel loaded = loadModel(args.modelPath);
  if (!loaded.usageError.empty()) return usageError(loaded.usageError);
  if (!loaded.status.isOk()) return fail(loaded.status.message());
  const Model* model = &loaded.model;
  if (Status status = validateModel(*model); !status.isOk()) {
    return fail("invalid model: " + status.message());
  }
  std::vector<std::string> why;
  const std::vector<bool> onCpu = cpuDevice().getSupportedOperations(*model, &why);
  for (size_t i = 0; i < onCpu.size(); ++i) {
    if (!onCpu[i]) {
      return fail(fmt::format("main operation {} ({}) cannot run on any device: {}", i,
                              toString(model->main.operations[i].type), why[i]));
    }
  }
  const runtime::Plan plan = device->partition(*model);
  fmt::print("{}", args.json ? runtime::formatPlanJson(*model, plan, device->name())
                             : runtime::formatPlan(*model, plan, device->name()));
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace

std::function<int()> addPartitionCommand(CLI::App& app) {
  auto args = std::make_shared<PartitionArgs>();
  CLI::App* cmd = app.add_subcommand(
      "partition", "Print how a device splits a model between the fabric and the CPU");
  cmd->add_option("model", args->modelPath, "Model file (JSON, or .onnx: docs/onnx.md)")->required();
  cmd->add_option("--device", args->device,
                  "Device name (see 'nnfab devices'); default: the most hardware-like built");
  cmd->add_flag("--json", args->json,
                "Print the plan as JSON: steps, their kind and device, a reason code and sentence for every "
                "operation not on the fabric (docs/runtime.md \"Partition JSON\")");
  return [args] { return partition(*args); };
}

}  // namespace nnfab::cli
