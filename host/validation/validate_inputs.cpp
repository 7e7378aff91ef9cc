// validateInputs: the input half of NNAPI's request validation (§5.7) for
// nnfab's inline values. Inputs must end up fully specified: the request's
// dimensions (or the model's, when the request gives none) may not leave an
// unknown rank or a 0 dimension, and the data must hold exactly that many
// elements. Omitted inputs pass; execution fails if a value is needed.
#include <fmt/format.h>

#include "validation/validate.h"
#include "validation/validate_internal.h"

namespace nnfab {
namespace {

using validation::dimensionsToString;

Status checkInput(const Operand& operand, const TensorValue& value, const std::string& where) {
  auto fail = [&](const std::string& message) { return invalidArgument(where + ": " + message); };
  if (value.omitted) {
    // NNAPI's hasNoValue argument: no location and no dimensions.
    if (!value.dimensions.empty() || !value.data.empty()) {
      return fail("an omitted input must carry no dimensions and no data");
    }
    return Status::ok();
  }
  if (value.type != operand.type) {
    return fail(
        fmt::format("type {}, the model expects {}", toString(value.type), toString(operand.type)));
  }
  Dimensions dims = value.dimensions;
  if (isScalarType(operand.type)) {
    if (!dims.empty()) {
      return fail(fmt::format("a {} scalar has no dimensions, got {}", toString(operand.type),
                              dimensionsToString(dims)));
    }
  } else if (dims.empty()) {
    // No dimensions in the request: the model's must be complete.
    dims = operand.dimensions;
    if (dims.empty()) return fail("dimensions required: the model operand has unknown rank");
  } else {
    const Dimensions& declared = operand.dimensions;
    if (!declared.empty() && declared.size() != dims.size()) {
      return fail(fmt::format("rank {} ({}), the model operand has rank {} ({})", dims.size(),
                              dimensionsToString(dims), declared.size(),
                              dimensionsToString(declared)));
    }
    for (size_t j = 0; j < declared.size(); ++j) {
      if (declared[j] != 0 && declared[j] != dims[j]) {
        return fail(fmt::format("dimension {} is {}, the model operand has {} ({} vs {})", j,
                                dims[j], declared[j], dimensionsToString(dims),
                                dimensionsToString(declared)));
      }
    }
  }
  for (size_t j = 0; j < dims.size(); ++j) {
    if (dims[j] == 0) {
      return fail(fmt::format("dimension {} is unknown (0) in {}; inputs must be fully specified",
                              j, dimensionsToString(dims)));
    }
  }
  const auto bytes = validation::operandByteSize(operand.type, dims);
  if (!bytes.has_value()) {
    return fail(fmt::format("byte size of {} {} overflows uint32", toString(operand.type),
                            dimensionsToString(dims)));
  }
  if (value.data.size() != *bytes) {
    return fail(fmt::format("data has {} bytes, {} {} needs {}", value.data.size(),
                            toString(operand.type), dimensionsToString(dims), *bytes));
  }
  return Status::ok();
}

}  // namespace

Status validateInputs(const Model& model, const std::vector<TensorValue>& inputs) {
  const Subgraph& main = model.main;
  if (inputs.size() != main.inputIndexes.size()) {
    return invalidArgument(fmt::format("request has {} inputs, the model has {}", inputs.size(),
                                       main.inputIndexes.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const uint32_t k = main.inputIndexes[i];
    // The model is meant to be valid already; stay safe if it is not.
    if (k >= main.operands.size()) {
      return invalidArgument(
          fmt::format("request input {}: model input index {} out of range", i, k));
    }
    const std::string where = fmt::format("request input {} (operand {})", i, k);
    if (Status s = checkInput(main.operands[k], inputs[i], where); !s) return s;
  }
  return Status::ok();
}

}  // namespace nnfab
