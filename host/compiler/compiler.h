// Lowers a fabric step (a piece of one subgraph, with every IF/WHILE in it and
// everything they reference) to an nnfab program plus a data-region plan.
// Scalars (shape-1 TENSOR_INT32 / TENSOR_BOOL8) live in registers, tensors in
// planned regions of the data region; the host moves a step's inputs and
// outputs through IoSlots. See docs/compiler.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/features.h"
#include "isa/data_windows.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::compiler {

// A contiguous run of operations of one subgraph, executed as one program.
struct StepSpec {
  uint32_t subgraph = 0;               // 0 = main, i + 1 = referenced[i]
  std::vector<uint32_t> operations;    // operation indexes, in execution order
  std::vector<uint32_t> inputs;        // operand indexes whose values the host supplies
  std::vector<uint32_t> outputs;       // operand indexes the host reads back
};

// Where one step input or output lives in the data region.
struct IoSlot {
  uint32_t operand = 0;                // operand index in the step's subgraph
  OperandType type = OperandType::TENSOR_INT32;
  Dimensions dimensions;               // fully specified
  uint64_t offset = 0;                 // byte offset in the data region
  uint64_t bytes = 0;
};

struct Program {
  std::vector<uint64_t> code;          // instructions, pc 0 first
  std::vector<uint8_t> dataImage;      // initial bytes of the data region (constants, descriptors)
  uint64_t dataBytes = 0;              // size of the data region the program needs (>= dataImage.size())
  // The region's windows (docs/isa.md "Memory model", docs/compiler.md
  // "Data windows"): [A][B][D], B from srcbStart, D from dstStart (multiples
  // of 64); an empty window's start is isa::kNoWindowStart (the registers'
  // reset value). The data image lies in window A, and reaches into window
  // B when constants only the vector engine reads as B operands sit there.
  uint32_t srcbStart = isa::kNoWindowStart;
  uint32_t dstStart = isa::kNoWindowStart;
  std::vector<IoSlot> inputs;          // StepSpec::inputs order
  std::vector<IoSlot> outputs;         // StepSpec::outputs order
};

// Whether the fabric can run this operation for any input shapes: operand
// types, parameters and, for IF/WHILE, every operation of every subgraph they
// reference, recursively. `why` (may be null) gets the reason when not.
// Without features: a core with the base ISA only (no FLOAT32).
bool isOperationSupported(const Model& model, uint32_t subgraph, uint32_t operation, std::string* why);
bool isOperationSupported(const Model& model, uint32_t subgraph, uint32_t operation, std::string* why,
                          const FabricFeatures& features);

// Compiles with the step inputs' actual dimensions (inputDimensions[i] for
// step.inputs[i]). Fails — and the runtime runs the step on the CPU instead —
// when a shape stays unknown or dynamic (IF branches of different shapes), an
// element count or the data region overflows, the program exceeds
// MAX_PROGRAM_INSTRUCTIONS, or scalars outnumber the registers.
Result<Program> compile(const Model& model, const StepSpec& step,
                        const std::vector<Dimensions>& inputDimensions);

// The whole main subgraph as one step (main inputs and outputs as the step's):
// what `nnfab disasm`, the benchmarks and the platform model run.
StepSpec wholeMainStep(const Model& model);
// The dimensions of actual input values, in order, for compile().
std::vector<Dimensions> dimensionsOf(const std::vector<TensorValue>& values);
// compile(model, wholeMainStep(model), dimensionsOf(inputs)).
Result<Program> compileMain(const Model& model, const std::vector<TensorValue>& inputs);

}  // namespace nnfab::compiler
