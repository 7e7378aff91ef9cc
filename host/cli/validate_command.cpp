#include <fmt/format.h>

#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/file_io.h"
#include "model/json_io.h"
#include "validation/validate.h"

namespace nnfab::cli {
namespace {

struct ValidateArgs {
  std::string modelPath;
  bool driver = false;
};

int validate(const ValidateArgs& args) {
  std::string error;
  const auto text = readFile(args.modelPath, &error);
  if (!text) return usageError(error);
  ExecutionResult result;
  auto model = parseModel(*text);
  if (!model.isOk()) {
    result.status = std::move(model).takeStatus();
  } else {
    result.status = validateModel(*model, args.driver ? ValidationMode::DRIVER
                                                      : ValidationMode::RUNTIME);
  }
  // Same shape as a run result: {"status": ...} plus "message" on error.
  fmt::print("{}", writeResult(result));
  return result.status.isOk() ? kExitOk : kExitErrorStatus;
}

}  // namespace

std::function<int()> addValidateCommand(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Check a model file against the NNAPI (HAL 1.3) rules; prints a status JSON");
  cmd->add_option("model", args->modelPath, "Model file (JSON)")->required();
  cmd->add_flag("--driver", args->driver,
                "Use the HAL driver's rules (IF/WHILE operands must have known sizes)");
  return [args] { return validate(*args); };
}

}  // namespace nnfab::cli
