// Scalar instructions on the hls device: every SALU function and every
// compare-and-branch on edge values against isa/int32_semantics.h and plain
// C++ comparisons, plus the control instructions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "fabric/fabric_test_util.h"
#include "isa/int32_semantics.h"
#include "nnfab_isa_names.h"

namespace nnfab::fabric::test {
namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

std::vector<int32_t> edgeValues() {
  std::vector<int32_t> v = {kMin, kMin + 1, -7, -2, -1, 0, 1, 2, 3, 7, 255, 256, kMax - 1, kMax};
  std::mt19937 rng(1234);
  for (int i = 0; i < 6; ++i) v.push_back(static_cast<int32_t>(rng()));
  return v;
}

// The ISA's definition of each function on 32-bit register values.
int32_t reference(uint32_t fn, int32_t a, int32_t b, int32_t c) {
  namespace m = int32_math;
  switch (fn) {
    case isa::kFnADD: return m::wrapAdd(a, b);
    case isa::kFnSUB: return m::wrapSub(a, b);
    case isa::kFnMUL: return m::wrapMul(a, b);
    case isa::kFnDIV: return m::floorDiv(a, b);
    case isa::kFnMAX: return std::max(a, b);
    case isa::kFnMIN: return std::min(a, b);
    case isa::kFnABS: return m::wrapAbs(a);
    case isa::kFnNEG: return m::wrapNeg(a);
    case isa::kFnEQ: return a == b;
    case isa::kFnNE: return a != b;
    case isa::kFnLT: return a < b;
    case isa::kFnLE: return a <= b;
    case isa::kFnGT: return a > b;
    case isa::kFnGE: return a >= b;
    case isa::kFnAND: return a != 0 && b != 0;
    case isa::kFnOR: return a != 0 || b != 0;
    case isa::kFnNOT: return a == 0;
    case isa::kFnSEL: return a != 0 ? b : c;
    case isa::kFnMOV: return a;
  }
  ADD_FAILURE() << "no reference for fn " << fn;
  return 0;
}

// The third operand cycles through values so SEL sees both outcomes.
struct Case {
  int32_t a, b, c;
};

std::vector<Case> cases() {
  const std::vector<int32_t> v = edgeValues();
  std::vector<Case> out;
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = 0; j < v.size(); ++j) out.push_back({v[i], v[j], v[(i + j) % v.size()]});
  }
  return out;
}

TEST(HlsScalar, EverySaluFunctionOnEdgeValues) {
  const std::vector<Case> all = cases();
  for (uint32_t fn = 0; fn < isa::kNumAluFns; ++fn) {
    if (isa::fnTensorOnly(fn)) continue;  // CVT, FC: no SALU form (test_faults, test_float)
    SCOPED_TRACE(isa::aluFnName(fn));
    const uint32_t ops = isa::fnOperands(fn);
    Asm a;
    for (size_t i = 0; i < all.size(); ++i) {
      a.emit(insn::li(1, all[i].a));
      a.emit(insn::li(2, all[i].b));
      a.emit(insn::li(3, all[i].c));
      a.emit(insn::alu(fn, 4, 1, ops >= 2 ? 2 : 0, ops >= 3 ? 3 : 0));
      a.emit(insn::stw(4, 0, static_cast<uint32_t>(4 * i)));
    }
    a.emit(insn::halt());
    const Outcome out = run(a, {}, 4 * all.size());
    EXPECT_CORE_STATUS(out, isa::kStatusDONE);
    ASSERT_EQ(out.data.size(), 4 * all.size());
    for (size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(word(out.data, 4 * i), reference(fn, all[i].a, all[i].b, all[i].c))
          << "a=" << all[i].a << " b=" << all[i].b << " c=" << all[i].c;
    }
  }
}

TEST(HlsScalar, EveryCompareAndBranchOnEdgeValues) {
  const std::vector<Case> all = cases();
  for (uint32_t fn = isa::kFnEQ; fn <= isa::kFnGE; ++fn) {
    SCOPED_TRACE(isa::aluFnName(fn));
    Asm a;
    for (size_t i = 0; i < all.size(); ++i) {
      a.emit(insn::li(1, all[i].a));
      a.emit(insn::li(2, all[i].b));
      const uint32_t branch = a.emit(0);
      a.emit(insn::li(5, 0));
      const uint32_t skip = a.emit(0);
      const uint32_t taken = a.emit(insn::li(5, 1));
      const uint32_t join = a.emit(insn::stw(5, 0, static_cast<uint32_t>(4 * i)));
      a.code[branch] = insn::brcmp(fn, 1, 2, taken);
      a.code[skip] = insn::jmp(join);
    }
    a.emit(insn::halt());
    const Outcome out = run(a, {}, 4 * all.size());
    EXPECT_CORE_STATUS(out, isa::kStatusDONE);
    for (size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(word(out.data, 4 * i), reference(fn, all[i].a, all[i].b, 0))
          << "a=" << all[i].a << " b=" << all[i].b;
    }
  }
}

TEST(HlsScalar, BnzAndBzTreatNonZeroAsTrue) {
  const std::vector<int32_t> values = {0, 1, 2, 255, 256, -1, kMin};
  Asm a;
  for (size_t i = 0; i < values.size(); ++i) {
    for (int bz = 0; bz < 2; ++bz) {
      a.emit(insn::li(1, values[i]));
      const uint32_t branch = a.emit(0);
      a.emit(insn::li(5, 0));
      const uint32_t skip = a.emit(0);
      const uint32_t taken = a.emit(insn::li(5, 1));
      const uint32_t join = a.emit(insn::stw(5, 0, static_cast<uint32_t>(8 * i + 4 * bz)));
      a.code[branch] = bz ? insn::bz(1, taken) : insn::bnz(1, taken);
      a.code[skip] = insn::jmp(join);
    }
  }
  a.emit(insn::halt());
  const Outcome out = run(a, {}, 8 * values.size());
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(word(out.data, 8 * i), values[i] != 0 ? 1 : 0) << values[i];
    EXPECT_EQ(word(out.data, 8 * i + 4), values[i] == 0 ? 1 : 0) << values[i];
  }
}

TEST(HlsScalar, LoadsStoresSwapAndR0) {
  std::vector<uint8_t> image;
  put<int32_t>(image, 0, {-5, 0x11223344, 0, 0});
  put<uint8_t>(image, 16, {0xF0, 0x01, 0x02, 0x03});
  Asm a;
  a.emit(insn::li(1, 4));
  a.emit(insn::ldw(2, 1, 0));      // r2 = word at 4
  a.emit(insn::ldw(3, 0, 0));      // r3 = -5
  a.emit(insn::ldb(4, 0, 16));     // r4 = 0xF0, zero-extended
  a.emit(insn::ldb(5, 1, 13));     // r5 = byte at 17 = 0x01
  a.emit(insn::stb(3, 0, 18));     // byte 18 = low byte of -5 = 0xFB, neighbours kept
  a.emit(insn::swap(2, 3));        // r2 = -5, r3 = 0x11223344
  a.emit(insn::li(0, 77));         // r0 ignores writes
  a.emit(insn::stw(0, 0, 8));      // word 8 = r0 = 0
  a.emit(insn::swap(6, 0));        // r6 = 0, r0 stays 0
  a.dumpRegistersAndHalt(64);
  const Outcome out = run(a, image, 256);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  EXPECT_EQ(word(out.data, 64 + 4 * 2), -5);
  EXPECT_EQ(word(out.data, 64 + 4 * 3), 0x11223344);
  EXPECT_EQ(word(out.data, 64 + 4 * 4), 0xF0);
  EXPECT_EQ(word(out.data, 64 + 4 * 5), 0x01);
  EXPECT_EQ(word(out.data, 64 + 4 * 6), 0);
  EXPECT_EQ(word(out.data, 8), 0);
  EXPECT_EQ(get<uint8_t>(out.data, 16, 4), (std::vector<uint8_t>{0xF0, 0x01, 0xFB, 0x03}));
}

TEST(HlsScalar, HaltCodes) {
  Asm done;
  done.emit(insn::halt(0));
  const Outcome ok = run(done, {}, 64);
  EXPECT_CORE_STATUS(ok, isa::kStatusDONE);
  EXPECT_TRUE(ok.report.status.isOk());
  EXPECT_TRUE(ok.report.completed());

  Asm failing;
  failing.emit(insn::nop());
  failing.emit(insn::halt(42));
  const Outcome err = run(failing, {}, 64);
  EXPECT_CORE_STATUS(err, isa::kStatusPROGRAM_ERROR);
  EXPECT_EQ(err.report.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_EQ(err.report.faultInfo, 42u);
  EXPECT_EQ(err.report.haltPc, 1u);
  EXPECT_NE(err.report.status.message().find("42"), std::string::npos) << err.report.status.message();
}

TEST(HlsScalar, CountersOfTheCounterLoop) {
  constexpr int32_t kN = 1000;
  const Asm a = counterLoop(kN);
  const Outcome out = run(a, {}, 64);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  EXPECT_EQ(word(out.data, 0), kN);
  // The body runs n times; the rotated loop's back-edge is taken n - 1 times.
  EXPECT_EQ(out.report.iterations, uint64_t{kN - 1});
  // li x3, bge, (add, blt) x n, stw, halt.
  EXPECT_EQ(out.report.instret, uint64_t{3 + 1 + 2 * kN + 2});
  EXPECT_EQ(out.report.cycles, programLoadCycles(a.code.size()) + 3 + 1 + 2 * kN + 2);
}

}  // namespace
}  // namespace nnfab::fabric::test
