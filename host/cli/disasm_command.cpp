// nnfab disasm MODEL.json [--inputs INPUTS.json]: compiles all of the main
// subgraph as one fabric step and prints the program listing. Exit 1 when
// the model cannot run on the fabric as one step (the reason on stderr).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/file_io.h"
#include "compiler/compiler.h"
#include "compiler/disassembler.h"
#include "model/json_io.h"
#include "validation/validate.h"

namespace nnfab::cli {
namespace {

struct DisasmArgs {
  std::string modelPath;
  std::string inputsPath;
};

int fail(const std::string& message) {
  fmt::print(stderr, "nnfab: {}\n", message);
  return kExitErrorStatus;
}

int disasm(const DisasmArgs& args) {
  std::string error;
  const auto modelText = readFile(args.modelPath, &error);
  if (!modelText) return usageError(error);
  std::optional<std::string> inputsText;
  if (!args.inputsPath.empty()) {
    inputsText = readFile(args.inputsPath, &error);
    if (!inputsText) return usageError(error);
  }

  auto model = parseModel(*modelText);
  if (!model.isOk()) return fail(fmt::format("model file {}: {}", args.modelPath, model.status().message()));
  if (Status s = validateModel(*model); !s.isOk()) return fail(fmt::format("invalid model: {}", s.message()));
  const Subgraph& main = model->main;
  // The ISA's whole instruction set (FLOAT32 included): a core whose
  // FEATURES lack a part stops on it, and devices keep such operations on
  // the CPU (nnfab partition shows where each runs).
  const compiler::FabricFeatures isa = compiler::FabricFeatures::all();
  for (uint32_t i = 0; i < main.operations.size(); ++i) {
    std::string why;
    if (!compiler::isOperationSupported(*model, 0, i, &why, isa)) {
      return fail(fmt::format("main operation {} ({}) is not supported by the fabric: {}", i,
                              toString(main.operations[i].type), why));
    }
  }

  const compiler::StepSpec step = compiler::wholeMainStep(*model);
  std::vector<Dimensions> dims;
  if (inputsText) {
    auto inputs = parseInputs(*inputsText, *model);
    if (!inputs.isOk()) return fail(fmt::format("inputs file {}: {}", args.inputsPath, inputs.status().message()));
    dims = compiler::dimensionsOf(*inputs);
  } else {
    for (size_t i = 0; i < main.inputIndexes.size(); ++i) {
      const Operand& operand = main.operands[main.inputIndexes[i]];
      if (!isFullySpecified(operand)) {
        return fail(fmt::format("main input {} (operand {}) has no fixed dimensions in the model; give them "
                                "with --inputs", i, main.inputIndexes[i]));
      }
      dims.push_back(operand.dimensions);
    }
  }

  auto program = compiler::compile(*model, step, dims);
  if (!program.isOk()) return fail(fmt::format("does not compile for the fabric: {}", program.status().message()));
  fmt::print("{}", compiler::disassemble(*program));
  return kExitOk;
}

}  // namespace

std::function<int()> addDisasmCommand(CLI::App& app) {
  auto args = std::make_shared<DisasmArgs>();
  CLI::App* cmd = app.add_subcommand(
      "disasm", "Compile the main subgraph for the fabric as one step and print the program listing");
  cmd->add_option("model", args->modelPath, "Model file (JSON)")->required();
  cmd->add_option("--inputs", args->inputsPath, "Inputs file (JSON) giving the input dimensions");
  return [args] { return disasm(*args); };
}

}  // namespace nnfab::cli
