// The ONNX import of a build without libonnx-dev: the interface exists, every
// call says why it cannot work.
#include "onnx/onnx_import.h"

namespace nnfab::onnx_import {

bool available() { return false; }

Result<ImportedModel> importModel(std::string_view, ImportFailure* failure) {
  if (failure != nullptr) *failure = ImportFailure::UNSUPPORTED;
  return invalidArgument(std::string(kUnavailableMessage));
}

Result<TensorValue> readTensor(std::string_view) { return invalidArgument(std::string(kUnavailableMessage)); }

}  // namespace nnfab::onnx_import
