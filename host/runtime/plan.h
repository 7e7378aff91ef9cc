// The execution plan of a model on a fabric device: per subgraph, the steps
// that run it in operation order (docs/nnapi-semantics.md §6.3). A FABRIC step is
// compiled to one program; a CPU step is a sub-model on the CPU executor; an
// interpreted IF/WHILE is run by the host, whose branch / cond / body
// subgraphs have plans of their own. See docs/runtime.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"

namespace nnfab::runtime {

enum class StepKind : uint8_t {
  FABRIC,  // operations compiled together to one program
  CPU,     // operations run by the CPU executor (IF/WHILE among them run whole)
  IF,      // one IF interpreted by the host: children = {then, else}
  WHILE,   // one WHILE interpreted by the host: children = {cond, body}
};

// Why an operation is not on the fabric: a stable code for tools (`nnfab
// partition --json`), beside the sentence for people. The strings
// (toString) are part of the CLI's interface: never rename one, only add.
enum class ReasonCode : uint8_t {
  NONE,                   // on the fabric
  UNSUPPORTED_OPERATION,  // "unsupported_operation": the fabric has no such operation
  UNSUPPORTED_TYPE,       // "unsupported_type": an operand type the fabric does not take
  UNKNOWN_SHAPE,          // "unknown_shape": IF/WHILE with an operand of unknown size (§6.3 rule 1)
  PART_UNSUPPORTED,       // "part_unsupported": IF/WHILE interpreted, a part of it is not on the fabric
  NOT_CHEAPER,            // "not_cheaper": IF/WHILE interpreted, the fabric is no cheaper whole (§6.2)
  NESTING_DEPTH,          // "nesting_depth": deeper than kMaxInterpretedDepth interpreted levels
  NOTHING_FOR_FABRIC,     // "nothing_for_fabric": no part of the IF/WHILE's subgraphs runs on the fabric
  NOT_WORTH_HANDOFFS,     // "not_worth_handoffs": its fabric parts save less than their hand-offs cost
  NO_FABRIC,              // "no_fabric": the device has no fabric (cpu); no sentence in the text plan
  OBSERVED,               // "observed": IF/WHILE interpreted by the host in an observed plan (nnfab diff)
};

struct Step {
  StepKind kind = StepKind::CPU;
  uint32_t subgraph = 0;              // as Model::subgraph() indexes it
  std::vector<uint32_t> operations;   // in execution order
  // Operands crossing the step boundary, in first-use / production order.
  // Inputs: values the step reads that an earlier step or the subgraph's
  // inputs supply (constants, NO_VALUE and subgraph references excluded).
  // Outputs: values the step writes that a later step reads or the subgraph
  // outputs.
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  // IF/WHILE: the subgraphs the host runs (plans in Plan::subgraphs).
  uint32_t children[2] = {0, 0};
  // Per operation (parallel to `operations`): why it is not on the fabric;
  // empty for operations the fabric runs. For IF/WHILE steps: why the
  // operation is not on the fabric as a whole.
  std::vector<std::string> reasons;
  // Parallel to `reasons`: the stable code of each (NONE where empty).
  std::vector<ReasonCode> codes;
};

struct SubgraphPlan {
  bool planned = false;  // only main and subgraphs of interpreted IF/WHILE are
  std::vector<Step> steps;
  // Levels of host-interpreted IF/WHILE nested in this subgraph (0: none).
  uint32_t height = 0;
  // Whether any step here or in a nested plan runs on the fabric.
  bool usesFabric = false;
};

struct Plan {
  std::vector<SubgraphPlan> subgraphs;  // indexed like Model::subgraph(); [0] = main
  const SubgraphPlan& main() const { return subgraphs.at(0); }
  bool usesFabric() const { return !subgraphs.empty() && subgraphs[0].usesFabric; }
};

std::string_view toString(StepKind kind);
// The stable string of a reason code ("unsupported_type", ...; "" for NONE).
std::string_view toString(ReasonCode code);

// The plan as `nnfab partition` prints it: steps with their device, the
// operations (index and type), interpreted IF/WHILE with their subgraphs'
// plans nested below, and the reason for every operation not on the fabric.
std::string formatPlan(const Model& model, const Plan& plan, std::string_view fabricName);

// The same plan as one JSON document (`nnfab partition --json`,
// docs/runtime.md "Partition JSON"): the device, step counts, and per
// subgraph planned its steps with kind ("fabric", "cpu", "if", "while"),
// device, operations and, for every operation not on the fabric, its reason
// code and sentence.
std::string formatPlanJson(const Model& model, const Plan& plan, std::string_view fabricName);

// One operation the plan does not run on the fabric: in a CPU step, or an
// IF/WHILE the host interprets (its control runs on the host even when its
// parts run on the fabric).
struct OffFabricOperation {
  uint32_t subgraph = 0;
  uint32_t operation = 0;
  OperationType type{};
  ReasonCode code = ReasonCode::NONE;
  std::string reason;
};

// Every such operation of the planned subgraphs, main first, in step order;
// empty when the whole model runs on the fabric (`nnfab run
// --strict-device`, and the CPU-fallback warning of a normal run).
std::vector<OffFabricOperation> offFabricOperations(const Model& model, const Plan& plan);

// "subgraph 0 operation 3 FULLY_CONNECTED (unsupported_type)" for the first
// `limit` of them, then "and N more".
std::string summarizeOffFabric(const std::vector<OffFabricOperation>& off, size_t limit);

}  // namespace nnfab::runtime
