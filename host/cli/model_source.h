// The model file of a command: nnfab's JSON, or an ONNX model (by its .onnx
// extension) imported on the fly (docs/onnx.md).
#pragma once

#include <string>

#include "model/model.h"
#include "model/status.h"

namespace nnfab::cli {

struct LoadedModel {
  Model model;
  Status status;           // a model that cannot be used (invalid JSON, unsupported ONNX)
  std::string usageError;  // unreadable file, malformed ONNX, ONNX support not built: exit 2
};

bool isOnnxPath(const std::string& path);
LoadedModel loadModel(const std::string& path);

}  // namespace nnfab::cli
