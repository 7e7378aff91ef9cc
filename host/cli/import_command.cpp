// nnfab import MODEL.onnx [-o MODEL.json]: the ONNX model as nnfab's JSON model
// (docs/onnx.md). The inputs and outputs keep the ONNX graph's order, which
// stderr lists, so an inputs file can be written for it.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/file_io.h"
#include "model/json_io.h"
#include "onnx/onnx_import.h"
#include "validation/validate.h"

namespace nnfab::cli {
namespace {

struct ImportArgs {
  std::string modelPath;
  std::string outputPath;
};

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

int importOnnx(const ImportArgs& args) {
  if (!onnx_import::available()) return usageError(std::string(onnx_import::kUnavailableMessage));
  std::string error;
  if (!args.outputPath.empty() && !checkWritable(args.outputPath, &error)) return usageError("-o: " + error);
  const auto bytes = readFile(args.modelPath, &error);
  if (!bytes) return usageError(error);
  onnx_import::ImportFailure failure = onnx_import::ImportFailure::NONE;
  auto imported = onnx_import::importModel(*bytes, &failure);
  if (!imported) {
    if (failure == onnx_import::ImportFailure::MALFORMED) {
      return usageError(args.modelPath + ": " + imported.status().message());
    }
    fmt::print(stderr, "nnfab: cannot import {}: {}\n", args.modelPath, imported.status().message());
    return kExitErrorStatus;
  }
  // The same rules as a JSON model: an import that breaks them is a bug in
  // the importer, reported rather than written out.
  if (Status s = validateModel(imported->model); !s) {
    fmt::print(stderr, "nnfab: the model imported from {} is not a valid NNAPI model (an importer bug): {}\n",
               args.modelPath, s.message());
    return kExitErrorStatus;
  }
  fmt::print(stderr, "nnfab: inputs (in this order): {}\nnnfab: outputs: {}\n", joined(imported->inputNames),
             joined(imported->outputNames));
  const std::string json = writeModel(imported->model);
  if (args.outputPath.empty()) {
    fmt::print("{}", json);
    return kExitOk;
  }
  std::ofstream out(args.outputPath, std::ios::binary | std::ios::trunc);
  out << json;
  out.close();
  if (!out) return usageError("-o: writing " + args.outputPath + " failed");
  return kExitOk;
}

}  // namespace

std::function<int()> addImportCommand(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand("import", "Convert an ONNX model to nnfab's JSON model (docs/onnx.md)");
  cmd->add_option("model", args->modelPath, "ONNX model file (.onnx)")->required();
  cmd->add_option("-o,--output", args->outputPath, "Write the JSON model here (default: standard output)");
  return [args] { return importOnnx(*args); };
}

}  // namespace nnfab::cli
