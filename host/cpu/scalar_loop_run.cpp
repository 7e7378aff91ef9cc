// runScalarLoop (scalar_loop.h): the per-iteration path of a compiled scalar
// WHILE. One switch per instruction over a flat register array; nothing
// allocates, nothing checks shapes, the clock is consulted every
// iterationsPerClockRead iterations.
#include <bit>

#include "cpu/control_flow.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/scalar_loop.h"

namespace nnfab::cpu {
namespace {

// Loop values enter and leave the registers by memcpy of their first bytes.
static_assert(std::endian::native == std::endian::little, "registers assume a little-endian host");

// Registers hold INT32 values, FLOAT32 bit patterns and BOOL8 bytes
// (zero-extended), each as the kernels would have stored them.
inline int32_t i32(uint32_t r) { return static_cast<int32_t>(r); }
inline float f32(uint32_t r) { return std::bit_cast<float>(r); }
inline uint8_t b8(uint32_t r) { return static_cast<uint8_t>(r); }
inline uint32_t bits(int32_t v) { return static_cast<uint32_t>(v); }
inline uint32_t bits(float v) { return std::bit_cast<uint32_t>(v); }
inline uint32_t bits(uint8_t v) { return v; }

// What an exit test decides.
enum class Exit { STAY, LEAVE, STOP };

// The loop's exit test: leave on a false condition; on a true one, consult
// the clock when its countdown runs out (at once the first time).
inline Exit exitTest(bool condition, uint64_t& untilClock, const ScalarLoop& loop, ScalarLoopClock& clock,
                     uint64_t done) {
  const uint8_t decision = condition ? 1 : 0;
  if (!*control_flow::condition(&decision, 1)) return Exit::LEAVE;
  if (--untilClock == 0) {
    if (!clock.keepGoing(done)) return Exit::STOP;
    untilClock = loop.iterationsPerClockRead;
  }
  return Exit::STAY;
}

}  // namespace

bool runScalarLoop(const ScalarLoop& loop, uint32_t* r, ScalarLoopClock& clock, uint64_t* iterations) {
  using S = ScalarOp;
  const ScalarInstr* const code = loop.code.data();
  const ScalarInstr* p = code;
  uint64_t done = *iterations;
  uint64_t untilClock = 1;  // the first true condition consults the clock
  Exit outcome = Exit::STAY;
  const auto test = [&](bool condition) { return exitTest(condition, untilClock, loop, clock, done); };
  for (;;) {
    switch (p->op) {
      case S::ADD_I: r[p->dst] = bits(ops::Add::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::SUB_I: r[p->dst] = bits(ops::Sub::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::MUL_I: r[p->dst] = bits(ops::Mul::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::DIV_I: r[p->dst] = bits(ops::Div::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::MAX_I: r[p->dst] = bits(ops::Max::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::MIN_I: r[p->dst] = bits(ops::Min::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::ABS_I: r[p->dst] = bits(ops::Abs::apply(i32(r[p->a]))); break;
      case S::NEG_I: r[p->dst] = bits(ops::Neg::apply(i32(r[p->a]))); break;
      case S::ADD_F: r[p->dst] = bits(ops::Add::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::SUB_F: r[p->dst] = bits(ops::Sub::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::MUL_F: r[p->dst] = bits(ops::Mul::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::DIV_F: r[p->dst] = bits(ops::Div::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::MAX_F: r[p->dst] = bits(ops::Max::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::MIN_F: r[p->dst] = bits(ops::Min::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::ABS_F: r[p->dst] = bits(ops::Abs::apply(f32(r[p->a]))); break;
      case S::NEG_F: r[p->dst] = bits(ops::Neg::apply(f32(r[p->a]))); break;
      case S::RELU_F: r[p->dst] = bits(ops::ActRelu::apply(f32(r[p->a]))); break;
      case S::RELU1_F: r[p->dst] = bits(ops::ActRelu1::apply(f32(r[p->a]))); break;
      case S::RELU6_F: r[p->dst] = bits(ops::ActRelu6::apply(f32(r[p->a]))); break;
      case S::LT_I: r[p->dst] = ops::Less::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::LE_I: r[p->dst] = ops::LessEqual::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::GT_I: r[p->dst] = ops::Greater::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::GE_I: r[p->dst] = ops::GreaterEqual::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::EQ_I: r[p->dst] = ops::Equal::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::NE_I: r[p->dst] = ops::NotEqual::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::LT_F: r[p->dst] = ops::Less::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::LE_F: r[p->dst] = ops::LessEqual::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::GT_F: r[p->dst] = ops::Greater::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::GE_F: r[p->dst] = ops::GreaterEqual::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::EQ_F: r[p->dst] = ops::Equal::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::NE_F: r[p->dst] = ops::NotEqual::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::LT_B: r[p->dst] = ops::Less::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::LE_B: r[p->dst] = ops::LessEqual::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::GT_B: r[p->dst] = ops::Greater::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::GE_B: r[p->dst] = ops::GreaterEqual::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::EQ_B: r[p->dst] = ops::Equal::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::NE_B: r[p->dst] = ops::NotEqual::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::AND_B: r[p->dst] = bits(ops::LogicalAnd::apply(b8(r[p->a]), b8(r[p->b]))); break;
      case S::OR_B: r[p->dst] = bits(ops::LogicalOr::apply(b8(r[p->a]), b8(r[p->b]))); break;
      case S::NOT_B: r[p->dst] = bits(ops::LogicalNot::apply(b8(r[p->a]))); break;
      case S::SELECT: r[p->dst] = b8(r[p->a]) != 0 ? r[p->b] : r[p->c]; break;  // as SelectKernel
      case S::F_TO_I: r[p->dst] = bits(ops::FloatToInt32::apply(f32(r[p->a]))); break;
      case S::I_TO_F: r[p->dst] = bits(ops::Int32ToFloat::apply(i32(r[p->a]))); break;
      case S::MOVE: r[p->dst] = r[p->a]; break;
      case S::EXIT_UNLESS:
        if ((outcome = test(b8(r[p->a]) != 0)) != Exit::STAY) goto finished;
        break;
      case S::EXIT_UNLESS_LT_I:
        if ((outcome = test(ops::Less::apply(i32(r[p->a]), i32(r[p->b])) != 0)) != Exit::STAY) goto finished;
        break;
      case S::EXIT_UNLESS_LE_I:
        if ((outcome = test(ops::LessEqual::apply(i32(r[p->a]), i32(r[p->b])) != 0)) != Exit::STAY) goto finished;
        break;
      case S::EXIT_UNLESS_GT_I:
        if ((outcome = test(ops::Greater::apply(i32(r[p->a]), i32(r[p->b])) != 0)) != Exit::STAY) goto finished;
        break;
      case S::EXIT_UNLESS_GE_I:
        if ((outcome = test(ops::GreaterEqual::apply(i32(r[p->a]), i32(r[p->b])) != 0)) != Exit::STAY) goto finished;
        break;
      case S::EXIT_UNLESS_EQ_I:
        if ((outcome = test(ops::Equal::apply(i32(r[p->a]), i32(r[p->b])) != 0)) != Exit::STAY) goto finished;
        break;
      case S::EXIT_UNLESS_NE_I:
        if ((outcome = test(ops::NotEqual::apply(i32(r[p->a]), i32(r[p->b])) != 0)) != Exit::STAY) goto finished;
        break;
      case S::BACKEDGE:
        ++done;
        p = code;
        continue;
    }
    ++p;
  }
finished:
  *iterations = done;
  return outcome == Exit::LEAVE;
}

}  // namespace nnfab::cpu
