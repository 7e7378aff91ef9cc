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

inline void execute(const ScalarInstr* p, const ScalarInstr* end, uint32_t* r) {
  using S = ScalarOp;
  for (; p != end; ++p) {
    uint32_t& d = r[p->dst];
    switch (p->op) {
      case S::ADD_I: d = bits(ops::Add::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::SUB_I: d = bits(ops::Sub::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::MUL_I: d = bits(ops::Mul::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::DIV_I: d = bits(ops::Div::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::MAX_I: d = bits(ops::Max::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::MIN_I: d = bits(ops::Min::apply(i32(r[p->a]), i32(r[p->b]))); break;
      case S::ABS_I: d = bits(ops::Abs::apply(i32(r[p->a]))); break;
      case S::NEG_I: d = bits(ops::Neg::apply(i32(r[p->a]))); break;
      case S::ADD_F: d = bits(ops::Add::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::SUB_F: d = bits(ops::Sub::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::MUL_F: d = bits(ops::Mul::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::DIV_F: d = bits(ops::Div::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::MAX_F: d = bits(ops::Max::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::MIN_F: d = bits(ops::Min::apply(f32(r[p->a]), f32(r[p->b]))); break;
      case S::ABS_F: d = bits(ops::Abs::apply(f32(r[p->a]))); break;
      case S::NEG_F: d = bits(ops::Neg::apply(f32(r[p->a]))); break;
      case S::RELU_F: d = bits(ops::ActRelu::apply(f32(r[p->a]))); break;
      case S::RELU1_F: d = bits(ops::ActRelu1::apply(f32(r[p->a]))); break;
      case S::RELU6_F: d = bits(ops::ActRelu6::apply(f32(r[p->a]))); break;
      case S::LT_I: d = ops::Less::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::LE_I: d = ops::LessEqual::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::GT_I: d = ops::Greater::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::GE_I: d = ops::GreaterEqual::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::EQ_I: d = ops::Equal::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::NE_I: d = ops::NotEqual::apply(i32(r[p->a]), i32(r[p->b])); break;
      case S::LT_F: d = ops::Less::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::LE_F: d = ops::LessEqual::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::GT_F: d = ops::Greater::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::GE_F: d = ops::GreaterEqual::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::EQ_F: d = ops::Equal::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::NE_F: d = ops::NotEqual::apply(f32(r[p->a]), f32(r[p->b])); break;
      case S::LT_B: d = ops::Less::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::LE_B: d = ops::LessEqual::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::GT_B: d = ops::Greater::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::GE_B: d = ops::GreaterEqual::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::EQ_B: d = ops::Equal::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::NE_B: d = ops::NotEqual::apply(b8(r[p->a]), b8(r[p->b])); break;
      case S::AND_B: d = bits(ops::LogicalAnd::apply(b8(r[p->a]), b8(r[p->b]))); break;
      case S::OR_B: d = bits(ops::LogicalOr::apply(b8(r[p->a]), b8(r[p->b]))); break;
      case S::NOT_B: d = bits(ops::LogicalNot::apply(b8(r[p->a]))); break;
      case S::SELECT: d = b8(r[p->a]) != 0 ? r[p->b] : r[p->c]; break;  // as SelectKernel
      case S::F_TO_I: d = bits(ops::FloatToInt32::apply(f32(r[p->a]))); break;
      case S::I_TO_F: d = bits(ops::Int32ToFloat::apply(i32(r[p->a]))); break;
      case S::MOVE: d = r[p->a]; break;
    }
  }
}

}  // namespace

bool runScalarLoop(const ScalarLoop& loop, uint32_t* registers, ScalarLoopClock& clock, uint64_t* iterations) {
  const ScalarInstr* const cond = loop.code.data();
  const ScalarInstr* const body = cond + loop.condEnd;
  const ScalarInstr* const end = cond + loop.code.size();
  uint64_t done = *iterations;
  uint64_t untilClock = 0;  // the first true condition consults the clock
  for (;;) {
    execute(cond, body, registers);
    const uint8_t decision = b8(registers[loop.condition]);
    if (!*control_flow::condition(&decision, 1)) break;
    if (untilClock == 0) {
      if (!clock.keepGoing(done)) {
        *iterations = done;
        return false;
      }
      untilClock = loop.iterationsPerClockRead;
    }
    --untilClock;
    execute(body, end, registers);
    ++done;
  }
  *iterations = done;
  return true;
}

}  // namespace nnfab::cpu
