// A WHILE whose cond and body hold only one-element values, compiled once at
// preparation into a compact register program: every loop value, constant
// and intermediate result is one 32-bit register, every operation one
// instruction. The interpreter (interpreter.cpp) runs such a loop without
// frames, slots, kernels or shape checks on the per-iteration path; a loop
// that does not qualify, or whose values turn out not to be one-element
// tensors when it is entered, runs on frames as before. Each instruction
// computes with the kernels' own element operations (kernels/elementwise.h),
// so results are bit-exact with the frame path.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "model/model.h"

namespace nnfab::cpu {

enum class ScalarOp : uint8_t {
  // TENSOR_INT32 (activation NONE)
  ADD_I, SUB_I, MUL_I, DIV_I, MAX_I, MIN_I, ABS_I, NEG_I,
  // TENSOR_FLOAT32; a fused activation is a RELU*_F on the result
  ADD_F, SUB_F, MUL_F, DIV_F, MAX_F, MIN_F, ABS_F, NEG_F, RELU_F, RELU1_F, RELU6_F,
  // comparisons to TENSOR_BOOL8, on INT32, FLOAT32 and BOOL8 operands
  LT_I, LE_I, GT_I, GE_I, EQ_I, NE_I,
  LT_F, LE_F, GT_F, GE_F, EQ_F, NE_F,
  LT_B, LE_B, GT_B, GE_B, EQ_B, NE_B,
  AND_B, OR_B, NOT_B,
  SELECT,         // dst = a (mask) != 0 ? b : c, as bit patterns
  F_TO_I, I_TO_F,  // CAST
  MOVE,           // identity CAST, and loop values carried to the next iteration
  // Control: leave the loop unless register a (the cond output, BOOL8) is
  // true; the fused forms test a comparison of two INT32 registers instead
  // of a stored result. A true test is where the clock is consulted.
  EXIT_UNLESS,
  EXIT_UNLESS_LT_I, EXIT_UNLESS_LE_I, EXIT_UNLESS_GT_I, EXIT_UNLESS_GE_I, EXIT_UNLESS_EQ_I, EXIT_UNLESS_NE_I,
  BACKEDGE,  // one iteration done: back to the first instruction
};

struct ScalarInstr {
  ScalarOp op = ScalarOp::MOVE;
  uint32_t dst = 0;
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t c = 0;
};

// One WHILE, ready to run: registers [0, values.size()) hold the loop values
// (the m + k carried ones, then the input-only ones), in the WHILE's order.
// The code is one stream: the cond, its EXIT_UNLESS* test at condEnd, the
// body, the moves of carried values, BACKEDGE.
struct ScalarLoop {
  uint32_t registerCount = 0;
  std::vector<std::pair<uint32_t, uint32_t>> constants;  // register, bit pattern
  std::vector<OperandType> valueTypes;                    // per loop value
  std::vector<ScalarInstr> code;
  uint32_t condEnd = 0;  // index of the exit test
  uint32_t carried = 0;    // m + k
  uint32_t outputs = 0;    // m
  // Iterations between two clock reads: ~kInstructionsPerClockRead
  // instructions, so a timeout or deadline is seen well within 1 ms.
  uint64_t iterationsPerClockRead = 1;
  // Bytes the frame path holds for this loop (each cond and body result,
  // body results twice for double buffering, the WHILE's outputs among
  // them): charged to the execution's memory limit as the frames would be.
  uint64_t footprintBytes = 0;
};

// Instructions between clock reads: at a few ns per instruction (a DIV is
// the slowest, tens of ns at worst) the clock is read every ~20-200 us, and
// a read costs ~26 ns.
inline constexpr uint64_t kInstructionsPerClockRead = 8192;

// Compiles `whileOp` of `parent` (an operation of `model`) if its cond and
// body qualify: every operand a TENSOR_INT32, TENSOR_FLOAT32 or TENSOR_BOOL8
// declared with dimensions [1] (constants included) or a constant INT32
// activation, operations among those ops above with the operand types the
// kernels accept, no nested IF/WHILE, the WHILE's outputs declared so that a
// [1] value fits them. nullopt otherwise.
std::optional<ScalarLoop> compileScalarLoop(const Model& model, const Subgraph& parent,
                                            const Operation& whileOp);

// What the clock check of a running loop decides.
class ScalarLoopClock {
 public:
  virtual ~ScalarLoopClock() = default;
  // Called before the body of a true condition whenever
  // iterationsPerClockRead iterations have passed (and before the first
  // body); `iterations` counts completed iterations. False ends the loop.
  virtual bool keepGoing(uint64_t iterations) = 0;
};

// Runs the loop on `registers` (registerCount of them, loop values and
// constants loaded) until its condition is false (true; the loop values are
// the results) or `clock` says stop (false). `iterations` counts completed
// iterations either way.
bool runScalarLoop(const ScalarLoop& loop, uint32_t* registers, ScalarLoopClock& clock,
                   uint64_t* iterations);

}  // namespace nnfab::cpu
