// Splits a valid model between a fabric device and the CPU
// (docs/nnapi-semantics.md §6.3): maximal runs of fabric-supported operations are
// FABRIC steps, the rest CPU steps; an IF/WHILE goes to the fabric whole when
// the fabric supports it and is cheaper by the cost rule, runs whole on the
// CPU when an operand has an unknown size, and is otherwise interpreted by
// the host with its subgraphs partitioned in turn. See docs/runtime.md.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "model/model.h"
#include "compiler/features.h"
#include "runtime/device.h"
#include "runtime/plan.h"

namespace nnfab::runtime {

// Host-interpreted IF/WHILE nest at most this deep; deeper control flow runs
// whole on the CPU executor, which handles any depth without recursion.
inline constexpr uint32_t kMaxInterpretedDepth = 64;

// The figures the hand-off rule weighs (docs/runtime.md "Hand-off cost"),
// in nanoseconds of host wall time. A host-interpreted IF/WHILE pays, per
// pass through its subgraphs, one hand-off per FABRIC step and one CPU-step
// call per CPU step; running it whole on the CPU pays neither.
struct HandoffCosts {
  double fabricStepNs = 0;      // one fabric step beyond its device time: measured per device
  double cpuStepNs = 0;         // one CPU step (sub-model call) beyond its operations: measured
  double cpuOperationNs = 0;    // the CPU executor's fixed cost per operation on frames: measured
  // ... per operation of a WHILE it runs as register code (one-element
  // values): measured. What a whole-CPU scalar loop costs per pass.
  double cpuScalarOperationNs = 0;
  double cpuNsPerElement = 0;   // and per output element: measured
};

struct FabricTarget {
  std::string name;  // "hls": how plans and reasons name the fabric
  // Whether the fabric runs operation `operation` of `subgraph` (for IF/WHILE:
  // with everything it references); `why` gets the reason when not.
  std::function<bool(const Model&, uint32_t subgraph, uint32_t operation, std::string* why)>
      supports;
  DeviceCapabilities capabilities;
  // The core's FEATURES: with FLOAT32, a TENSOR_FLOAT32 operand is a type the
  // fabric takes (for the reason codes).
  compiler::FabricFeatures features;
  // Set: an IF/WHILE the host would interpret runs whole on the CPU unless
  // its fabric steps save more than their hand-offs cost (a fabric
  // operation costs the CPU's times tensorPerformance). Unset: interpreted
  // whenever a part of it runs on the fabric.
  std::optional<HandoffCosts> handoffs;
};

// `model` must be valid (validateModel, RUNTIME mode).
Plan partition(const Model& model, const FabricTarget& fabric);

// The observed plan of `model` (`nnfab diff`, docs/runtime.md "Observed
// execution"): every operation its own step (FABRIC where the fabric
// supports it, else CPU) and every IF/WHILE interpreted by the host, so
// that the plan executor reports each operation's results inside every
// branch and iteration. Exceptions, as in partition(): an IF/WHILE with an
// operand of unknown size, or nested deeper than kMaxInterpretedDepth, is
// one CPU step. Costs play no part.
Plan partitionObserved(const Model& model, const FabricTarget& fabric);

// §6.3 rule 1: an IF/WHILE with an operand of unknown size (its own inputs
// and outputs, or the inputs and outputs of the subgraphs it references).
bool hasOperandOfUnknownSize(const Model& model, uint32_t subgraph, uint32_t operation);

// §6.2: the cost of running an IF/WHILE whole on a device whose capabilities
// are `caps`, every operation inside costing tensorPerformance (the CPU: all
// 1.0). Iterative: any nesting depth.
double controlFlowCost(const Model& model, uint32_t subgraph, uint32_t operation,
                       const DeviceCapabilities& caps);

}  // namespace nnfab::runtime
