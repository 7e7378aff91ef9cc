// First-divergence diff between two devices (`nnfab diff`, docs/runtime.md
// "Observed execution"): both run the model prepared for observation, in
// lockstep, and the first operation whose result differs is named — its
// subgraph, index and type, the host-interpreted IF branches and WHILE
// iterations around it, the element and both values. Only the current
// operation of each side is held, whatever the length of the run.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/execution.h"
#include "model/execution_observer.h"
#include "model/model.h"
#include "model/status.h"
#include "runtime/device.h"

namespace nnfab::runtime {

struct DiffOptions {
  std::chrono::nanoseconds loopTimeout = kLoopTimeoutDefault;  // per WHILE, as for a run
  uint64_t memoryLimitBytes = kExecutionMemoryLimitDefault;
};

enum class DivergenceKind : uint8_t {
  VALUE,       // the same operation, an element of an output differs
  DIMENSIONS,  // the same operation, an output's dimensions differ
  OUTPUTS,     // the same operation, different outputs present
  OPERATION,   // the two runs reached different operations
  STATUS,      // one run ended (or failed) where the other went on, or the statuses differ
};
// "value", "dimensions", "outputs", "operation", "status": stable strings.
std::string_view toString(DivergenceKind kind);

// An operation as one side reached it.
struct ObservedAt {
  uint32_t subgraph = 0;
  uint32_t operation = 0;
  OperationType type = OperationType::ADD;
  std::vector<ControlPathEntry> path;
  std::string ranOn;  // "fabric", "cpu" or "host"
};

struct Divergence {
  DivergenceKind kind = DivergenceKind::VALUE;
  // Where each side was; nullopt for a side that had ended (kind STATUS).
  std::optional<ObservedAt> a, b;
  // VALUE and DIMENSIONS: the output (its position among the operation's
  // outputs), its operand and type, and both dimensions.
  uint32_t output = 0;
  uint32_t operand = 0;
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dimensions dimsA, dimsB;
  // VALUE: the first differing element, flat (row-major) and per dimension,
  // and its bytes on each side (elementText makes them readable).
  uint64_t element = 0;
  std::vector<uint32_t> index;
  std::vector<uint8_t> elementA, elementB;
};

// One element of `type` as people read it: "7", "-1.5", "NaN" (BOOL8: its byte).
std::string elementText(OperandType type, const std::vector<uint8_t>& bytes);

struct DiffSide {
  std::string device;
  // Set when the run ended by itself (not stopped at the divergence).
  std::optional<Status> status;
};

struct DiffReport {
  DiffSide a, b;
  // Operations both runs observed with equal results, before any divergence.
  uint64_t operationsCompared = 0;
  std::optional<Divergence> divergence;  // none: the devices agree
  bool agree() const { return !divergence.has_value(); }
};

// Prepares `model` on both devices for observation and runs them in
// lockstep on `inputs` (already parsed; each side validates them). A
// preparation failure on either device is the error (nothing ran); every
// execution outcome, failures included, is part of the report.
Result<DiffReport> diffDevices(const Model& model, const std::vector<TensorValue>& inputs, const Device& a,
                               const Device& b, const DiffOptions& options = {});

// The report for people: one line when they agree; else where, the
// enclosing IF/WHILE, the element and both values.
std::string formatDiff(const DiffReport& report);
// The report as one JSON document (docs/runtime.md "Diff JSON").
std::string formatDiffJson(const DiffReport& report);

}  // namespace nnfab::runtime
