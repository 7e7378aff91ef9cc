#include "cli/model_source.h"

#include "cli/file_io.h"
#include "model/json_io.h"
#include "onnx/onnx_import.h"

namespace nnfab::cli {

bool isOnnxPath(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

LoadedModel loadModel(const std::string& path) {
  LoadedModel out;
  std::string error;
  const auto bytes = readFile(path, &error);
  if (!bytes) {
    out.usageError = error;
    return out;
  }
  if (!isOnnxPath(path)) {
    auto model = parseModel(*bytes);
    if (model) out.model = std::move(*model);
    else out.status = std::move(model).takeStatus().withContext("model file " + path);
    return out;
  }
  if (!onnx_import::available()) {
    out.usageError = path + ": " + std::string(onnx_import::kUnavailableMessage);
    return out;
  }
  onnx_import::ImportFailure failure = onnx_import::ImportFailure::NONE;
  auto imported = onnx_import::importModel(*bytes, &failure);
  if (imported) {
    out.model = std::move(imported->model);
  } else if (failure == onnx_import::ImportFailure::MALFORMED) {
    out.usageError = path + ": " + imported.status().message();
  } else {
    out.status = std::move(imported).takeStatus().withContext("cannot import " + path);
  }
  return out;
}

}  // namespace nnfab::cli
