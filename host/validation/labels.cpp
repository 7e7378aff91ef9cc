// Labels and sizes shared by every validation message, so that all of them
// name places the same way ("subgraph 2 (referenced[1]), operation 0 (WHILE), ...").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "validation/validate_internal.h"

namespace nnfab::validation {

std::string subgraphLabel(size_t subgraphIndex) {
  if (subgraphIndex == 0) return "subgraph 0 (main)";
  return fmt::format("subgraph {} (referenced[{}])", subgraphIndex, subgraphIndex - 1);
}

std::string operationLabel(size_t operationIndex, OperationType type) {
  return fmt::format("operation {} ({})", operationIndex, toString(type));
}

std::string dimensionsToString(const Dimensions& dims) {
  // A hostile rank must not turn one message into megabytes.
  constexpr size_t kShown = 16;
  if (dims.size() <= kShown) return fmt::format("[{}]", fmt::join(dims, ", "));
  return fmt::format("[{}, ... ({} dimensions)]",
                     fmt::join(dims.begin(), dims.begin() + kShown, ", "), dims.size());
}

std::string operandSummary(const Operand& operand) {
  if (isScalarType(operand.type) && operand.dimensions.empty()) {
    return std::string(toString(operand.type));
  }
  return fmt::format("{} {}", toString(operand.type), dimensionsToString(operand.dimensions));
}

std::optional<uint64_t> operandByteSize(OperandType type, const Dimensions& dims) {
  const uint64_t elementSize = sizeOfElement(type);
  if (isScalarType(type)) return elementSize;
  if (dims.empty()) return 0;
  // Multiply in 64 bits and stop multiplying once past the uint32 limit: a
  // factor <= UINT32_MAX times a product <= UINT32_MAX cannot wrap, whatever
  // the rank. A 0 dimension still wins (unknown size, not overflow).
  uint64_t bytes = elementSize;
  bool overflow = false;
  for (uint32_t d : dims) {
    if (d == 0) return 0;
    if (overflow) continue;
    bytes *= d;
    overflow = bytes > UINT32_MAX;
  }
  if (overflow) return std::nullopt;
  return bytes;
}

bool hasKnownSize(const Operand& operand) {
  const auto bytes = operandByteSize(operand.type, operand.dimensions);
  // An overflowing size is not "unknown"; operand validation rejects it.
  return !bytes.has_value() || *bytes != 0;
}

OperationView::OperationView(const Model& model, size_t subgraphIndex, size_t operationIndex,
                             ValidationMode mode)
    : model_(model),
      subgraphIndex_(subgraphIndex),
      operationIndex_(operationIndex),
      subgraph_(model.subgraph(subgraphIndex)),
      operation_(subgraph_.operations[operationIndex]),
      mode_(mode) {}

std::string OperationView::prefix() const {
  return subgraphLabel(subgraphIndex_) + ", " + operationLabel(operationIndex_, operation_.type);
}

Status OperationView::error(const std::string& message) const {
  return invalidArgument(prefix() + ": " + message);
}

Status OperationView::inputError(size_t i, const std::string& message) const {
  return invalidArgument(
      fmt::format("{}, input {} (operand {}): {}", prefix(), i, operation_.inputs[i], message));
}

Status OperationView::outputError(size_t i, const std::string& message) const {
  return invalidArgument(
      fmt::format("{}, output {} (operand {}): {}", prefix(), i, operation_.outputs[i], message));
}

}  // namespace nnfab::validation
