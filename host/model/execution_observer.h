// Where an observed execution (`nnfab diff`, docs/runtime.md "Observed
// execution") reports each operation's results as it runs: the operation,
// the host-interpreted IF branches and WHILE iterations around it, and its
// output values. Null in ExecutionOptions by default: a normal execution
// pays one pointer test per step.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "model/model.h"

namespace nnfab {

// One host-interpreted IF or WHILE an operation runs inside, outermost first.
struct ControlPathEntry {
  enum class Part : uint8_t { THEN, ELSE, COND, BODY };
  uint32_t subgraph = 0;   // where the IF/WHILE is
  uint32_t operation = 0;  // its index there
  OperationType type = OperationType::IF;
  Part part = Part::THEN;  // which of its subgraphs is running
  uint32_t child = 0;      // that subgraph (Model::subgraph index)
  // WHILE: the iteration, from 0; the condition test k precedes body k.
  uint64_t iteration = 0;
};

// "then", "else", "cond", "body".
inline std::string_view toString(ControlPathEntry::Part part) {
  switch (part) {
    case ControlPathEntry::Part::THEN: return "then";
    case ControlPathEntry::Part::ELSE: return "else";
    case ControlPathEntry::Part::COND: return "cond";
    case ControlPathEntry::Part::BODY: return "body";
  }
  return "?";
}

// An output value of an observed operation. The bytes are shared with the
// execution, immutable: keeping them costs no copy.
struct ObservedOutput {
  uint32_t operand = 0;  // in the operation's subgraph
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dimensions dimensions;
  std::shared_ptr<const std::vector<uint8_t>> bytes;
};

struct Observation {
  uint32_t subgraph = 0;
  // The step's operations: exactly one in an observed plan (an IF/WHILE the
  // host interpreted is observed when it finishes, with its outputs).
  std::vector<uint32_t> operations;
  // "fabric", "cpu" (a CPU step, or a fabric step that fell back to the
  // CPU), or "host" (an IF/WHILE the host interpreted).
  std::string_view ranOn;
  std::vector<ControlPathEntry> path;
  // The step's outputs that anything reads later (or the subgraph outputs).
  std::vector<ObservedOutput> outputs;
};

class ExecutionObserver {
 public:
  virtual ~ExecutionObserver() = default;
  // Called on the thread that runs the execution, after each step; the
  // execution goes on when it returns (time spent here does not count
  // against loop timeouts). To stop the execution, cancel its CancelSignal.
  virtual void observe(const Observation& observation) = 0;
};

}  // namespace nnfab
