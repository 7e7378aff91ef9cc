// ONNX import (docs/onnx.md): an ONNX model file becomes nnfab's in-memory
// Model, which then goes through the same NNAPI validation as a JSON model.
// If/Loop/Scan become IF/WHILE; INT64 values are narrowed to TENSOR_INT32 with
// a range check; rank-0 values become [1]. Anything the mapping cannot
// express exactly is refused with a message naming the node, its operator and
// why — never a silently different model. No protobuf type crosses this
// header, so callers build without libonnx-dev.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "model/status.h"

namespace nnfab::onnx_import {

// False when nnfab was built without libonnx-dev: every import is then
// refused with kUnavailableMessage.
bool available();
inline constexpr std::string_view kUnavailableMessage =
    "this nnfab was built without ONNX support (install libonnx-dev and libprotobuf-dev, "
    "then reconfigure)";

struct ImportedModel {
  Model model;
  // The graph's inputs (initializers excluded) and outputs, in the ONNX
  // graph's order = the order of main.inputIndexes / outputIndexes.
  std::vector<std::string> inputNames;
  std::vector<std::string> outputNames;
};

enum class ImportFailure {
  NONE,
  MALFORMED,    // not a readable ONNX model: truncated, not protobuf, fails the ONNX checker
  UNSUPPORTED,  // a valid ONNX model that nnfab cannot express
};

// Imports a serialized ModelProto. On failure the status is INVALID_ARGUMENT
// and *failure (if given) says which kind.
Result<ImportedModel> importModel(std::string_view bytes, ImportFailure* failure = nullptr);

// One serialized TensorProto (a backend test's input_K.pb / output_K.pb) as
// nnfab passes it: INT64 narrowed to TENSOR_INT32 (range-checked), rank 0 as [1].
Result<TensorValue> readTensor(std::string_view bytes);

}  // namespace nnfab::onnx_import
