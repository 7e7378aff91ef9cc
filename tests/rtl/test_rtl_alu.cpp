// The RTL's ALU (nnfab_alu, 32-bit and BOOL8 lanes) and floor divider
// (nnfab_divider), Verilated alone, against nnfab's INT32 semantics
// (isa/int32_semantics.h through the ISA reference of the tensor tests):
// every function on every pair of edge values plus random operands (the
// plain ALU, the sequencer's LATE_LAST structure and the vector engine's
// DECODED one, whose BOOL8 lane is checked against the plain BOOL8 lane),
// and the divider's latency.
#include <gtest/gtest.h>
#include <verilated.h>

#include <random>
#include <vector>

#include "unit_context.h"
#include "Vnnfab_alu.h"
#include "Vnnfab_alu8.h"
#include "Vnnfab_alu_decoded.h"
#include "Vnnfab_alu_decoded8.h"
#include "Vnnfab_alu_late.h"
#include "Vnnfab_divider.h"
#include "hls/tensor_test_util.h"

namespace nnfab::fabric::test {
namespace {

const std::vector<uint32_t>& edgeValues() {
  static const std::vector<uint32_t> v = {0u, 1u, 2u, 3u, 7u, 255u, 256u, 0x7FFFFFFFu, 0x80000000u, 0x80000001u,
                                          0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFF9u, 12345678u, 0xDEADBEEFu};
  return v;
}

// The context outlives the model. A DECODED model takes the function as
// `onehot` (1 << fn), the others as `fn`.
template <typename Model, bool kDecoded = false>
struct Alu {
  nnfab::rtl_test::UnitContext context;
  Model model{&context};
  uint32_t operator()(uint32_t fn, uint32_t a, uint32_t b, uint32_t c) {
    model.fn = kDecoded ? 0 : fn;
    model.onehot = kDecoded ? 1u << fn : 0;
    model.a = a;
    model.b = b;
    model.c = c;
    model.eval();
    return model.y;
  }
};

struct Divider {
  nnfab::rtl_test::UnitContext context;
  Vnnfab_divider model{&context};
  Divider() {
    model.rst = 1;
    tick();
    model.rst = 0;
  }
  void tick() {
    model.clk = 0;
    model.eval();
    model.clk = 1;
    model.eval();
  }
  // Quotient and the cycle (after the start cycle) it came out in.
  std::pair<uint32_t, int> divide(uint32_t a, uint32_t b) {
    model.a = a;
    model.b = b;
    model.start = 1;
    tick();
    model.start = 0;
    for (int cycle = 1; cycle < 100; ++cycle) {
      model.clk = 0;
      model.eval();
      if (model.done) {
        const uint32_t q = model.q;
        tick();
        return {q, cycle};
      }
      model.clk = 1;
      model.eval();
    }
    return {0, -1};
  }
};

template <typename Model, bool kDecoded = false>
void checkEveryFunction() {
  Alu<Model, kDecoded> alu;
  std::mt19937 rng(5);
  for (uint32_t fn = 0; fn < isa::kNumAluFns; ++fn) {
    if (fn == isa::kFnDIV) continue;  // the divider's job
    if (isa::fnTensorOnly(fn)) continue;  // CVT, FC: FLOAT32 units, not this ALU
    auto check = [&](uint32_t a, uint32_t b, uint32_t c) {
      ASSERT_EQ(alu(fn, a, b, c), isaFunction(fn, a, b, c)) << "fn " << fn << " a " << a << " b " << b << " c " << c;
    };
    for (uint32_t a : edgeValues())
      for (uint32_t b : edgeValues()) check(a, b, edgeValues()[(a + b) % edgeValues().size()]);
    for (int i = 0; i < 20000; ++i) check(rng(), rng(), rng());
  }
}

TEST(RtlAlu, EveryFunctionOnEdgeValuesAndRandomOperands) { checkEveryFunction<Vnnfab_alu>(); }

// The sequencer's instance: one shared adder, late results in a final level.
TEST(RtlAlu, LateLastVariantComputesTheSameFunctions) { checkEveryFunction<Vnnfab_alu_late>(); }

// The vector engine's lanes: the function as a registered one-hot select.
TEST(RtlAlu, DecodedVariantComputesTheSameFunctions) { checkEveryFunction<Vnnfab_alu_decoded, true>(); }

// The BOOL8 byte lane: the DECODED lane gives the plain lane's byte for
// every function (also those a byte lane does not compute: 0) and every
// pair of bytes.
TEST(RtlAlu, DecodedByteLaneMatchesThePlainByteLane) {
  Alu<Vnnfab_alu8> plain;
  Alu<Vnnfab_alu_decoded8, true> decoded;
  for (uint32_t fn = 0; fn < isa::kNumAluFns; ++fn)
    for (uint32_t a = 0; a < 256; ++a)
      for (uint32_t b = 0; b < 256; b += (b < 4 || b > 250) ? 1 : 7) {
        const uint32_t c = (a * 31 + b) & 0xFF;
        ASSERT_EQ(decoded(fn, a, b, c), plain(fn, a, b, c)) << "fn " << fn << " a " << a << " b " << b;
      }
}

TEST(RtlDivider, FloorDivisionWithNnfabEdgeCasesIn34Cycles) {
  Divider div;
  std::mt19937 rng(6);
  auto check = [&](uint32_t a, uint32_t b) {
    const auto [q, cycle] = div.divide(a, b);
    ASSERT_EQ(q, isaFunction(isa::kFnDIV, a, b, 0)) << static_cast<int32_t>(a) << " / " << static_cast<int32_t>(b);
    // Issue cycle + 32 steps + fix-up: done in the 34th cycle (index 33).
    ASSERT_EQ(cycle + 1, static_cast<int>(isa::fnScalarCycles(isa::kFnDIV)));
  };
  for (uint32_t a : edgeValues())
    for (uint32_t b : edgeValues()) check(a, b);
  for (int i = 0; i < 20000; ++i) check(rng(), i % 3 == 0 ? rng() % 17 - 8 : rng());
  EXPECT_EQ(div.divide(0x80000000u, 0xFFFFFFFFu).first, 0x80000000u);  // INT32_MIN / -1
  EXPECT_EQ(div.divide(7u, 0u).first, 0u);                              // x / 0
  EXPECT_EQ(div.divide(static_cast<uint32_t>(-7), 2u).first, static_cast<uint32_t>(-4));  // floor
}

}  // namespace
}  // namespace nnfab::fabric::test
