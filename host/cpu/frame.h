// Run-time state of one execution: a Frame per subgraph instance, reused
// every time that instance is entered again (each loop iteration, each
// re-entry of a nested IF/WHILE), so steady-state iterations allocate nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/kernels/kernel.h"
#include "cpu/program.h"
#include "model/execution.h"
#include "model/model.h"

namespace nnfab::cpu {

// An operand's current value. `data` points into `storage` when an operation
// of this frame wrote it, or aliases a constant, a request input or a value of
// the enclosing frame (IF/WHILE inputs are bound, never copied).
struct Slot {
  OperandType type = OperandType::TENSOR_FLOAT32;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  Dimensions dims;
  const uint8_t* data = nullptr;
  size_t bytes = 0;
  bool hasValue = false;
  uint32_t shapeVersion = 0;  // bumped whenever dims change: invalidates kernels
  std::vector<uint8_t> storage;
};

struct Frame;

// Loop state of one WHILE instance; `carried` holds the last body outputs so
// that the next body run can write into the body's own buffers (double
// buffering by swapping vectors, never copying).
struct WhileState {
  Frame* cond = nullptr;
  Frame* body = nullptr;
  std::vector<std::vector<uint8_t>> carried;
  uint64_t iteration = 0;
  Clock::time_point start;
  bool inBody = false;
};

struct OpState {
  // KERNEL
  std::unique_ptr<PreparedKernel> kernel;
  std::vector<uint32_t> inputVersions;
  std::vector<uint8_t> parameterValues;  // the bytes prepareKernel read
  std::vector<const uint8_t*> inputPointers;
  std::vector<uint8_t*> outputPointers;
  uint64_t cost = 1;  // clock-budget units charged per run (grows with size)
  // IF: the two branch frames (created on first use).
  Frame* branch[2] = {nullptr, nullptr};
  uint8_t takenBranch = 0;
  // WHILE
  std::unique_ptr<WhileState> loop;
  // WHILE run as a ScalarLoop: its registers, allocated on first entry.
  std::vector<uint32_t> registers;
};

struct Frame {
  const ProgramSubgraph* program = nullptr;
  uint32_t subgraphIndex = 0;
  std::vector<Slot> slots;  // one per operand
  std::vector<OpState> ops;
  size_t pc = 0;
};

}  // namespace nnfab::cpu
