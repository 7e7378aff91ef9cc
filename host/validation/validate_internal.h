// Internal pieces of the NNAPI validator (validate.h is the public face).
// Each check lives in its own file; this header is what they share: the
// labels every message starts with, and a view of one operation that builds
// located errors. All walks here are loops over vectors or explicit stacks:
// a hostile model may nest 100,000 subgraphs, so nothing may recurse per level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "model/model.h"
#include "model/status.h"
#include "validation/validate.h"

namespace nnfab::validation {

// "subgraph 0 (main)", "subgraph 2 (referenced[1])".
std::string subgraphLabel(size_t subgraphIndex);
// "operation 3 (ADD)".
std::string operationLabel(size_t operationIndex, OperationType type);
// "[2, 0, 3]".
std::string dimensionsToString(const Dimensions& dims);
// "TENSOR_FLOAT32 [2, 3]" (scalars: just the type).
std::string operandSummary(const Operand& operand);

// Bytes an operand of this type and these dimensions occupies, as NNAPI's
// nonExtensionOperandSizeOfData computes it: element size for scalars (0 for
// SUBGRAPH), 0 for a tensor of unknown rank or with a 0 dimension. nullopt when
// the size does not fit in uint32 (NNAPI's limit for any operand).
std::optional<uint64_t> operandByteSize(OperandType type, const Dimensions& dims);

// "Known size" in the sense of NNAPI's control-flow size check: a non-zero
// byte size (so SUBGRAPH operands and unknown shapes both fail it).
bool hasKnownSize(const Operand& operand);

// One operation of one subgraph, with index ranges already checked, and the
// located errors every operation-level check returns.
class OperationView {
 public:
  OperationView(const Model& model, size_t subgraphIndex, size_t operationIndex,
                ValidationMode mode);

  const Model& model() const { return model_; }
  const Subgraph& subgraph() const { return subgraph_; }
  const Operation& operation() const { return operation_; }
  ValidationMode mode() const { return mode_; }
  size_t inputCount() const { return operation_.inputs.size(); }
  size_t outputCount() const { return operation_.outputs.size(); }
  // Only valid once the operation's index ranges have been checked.
  const Operand& input(size_t i) const { return subgraph_.operands[operation_.inputs[i]]; }
  const Operand& output(size_t i) const { return subgraph_.operands[operation_.outputs[i]]; }

  // "subgraph S, operation O (TYPE): message".
  Status error(const std::string& message) const;
  // "subgraph S, operation O (TYPE), input I (operand K): message".
  Status inputError(size_t i, const std::string& message) const;
  Status outputError(size_t i, const std::string& message) const;

 private:
  std::string prefix() const;

  const Model& model_;
  size_t subgraphIndex_;
  size_t operationIndex_;
  const Subgraph& subgraph_;
  const Operation& operation_;
  ValidationMode mode_;
};

// §5.2: every operand of one subgraph.
Status validateOperands(const Model& model, size_t subgraphIndex);
// §5.4 first part + §2-§4: index ranges, the operation's own rules, and the
// lifetimes of what it writes; for every operation of one subgraph in order.
Status validateOperations(const Model& model, size_t subgraphIndex, ValidationMode mode);
// Operand counts and types of nnfab's non-control-flow operations (§2);
// other operation types pass (only the generic checks apply to them).
Status validateOperationSignature(const OperationView& op);
// §3.2 and §4.2.
Status validateIf(const OperationView& op);
Status validateWhile(const OperationView& op);
// §5.3.
Status validateSubgraphInputsOutputs(const Model& model, size_t subgraphIndex);
// §5.4: execution order, single writer, every operand written.
Status validateGraphOrder(const Model& model, size_t subgraphIndex);
// §5.5: no subgraph reachable from main references itself.
Status checkNoReferenceCycles(const Model& model);

}  // namespace nnfab::validation
