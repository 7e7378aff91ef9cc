// TENSOR instructions on the hls device: every function x type against the
// CPU executor's kernels where the function is an NNAPI operation (with NNAPI
// broadcasting as stride-0 dimensions), and against the ISA's definition for
// arbitrary strides, rank 4, BOOL8 destinations at unaligned offsets.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <random>

#include "hls/tensor_test_util.h"
#include "kernels/kernel_test_util.h"
#include "nnfab_isa_names.h"

namespace nnfab::fabric::test {
namespace {

namespace ct = cpu::test;
using OT = OperationType;

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

struct NnapiOp {
  OT op;
  bool activation;  // takes a fused activation scalar (NONE here)
};

std::optional<NnapiOp> nnapiOp(uint32_t fn) {
  switch (fn) {
    case isa::kFnADD: return NnapiOp{OT::ADD, true};
    case isa::kFnSUB: return NnapiOp{OT::SUB, true};
    case isa::kFnMUL: return NnapiOp{OT::MUL, true};
    case isa::kFnDIV: return NnapiOp{OT::DIV, true};
    case isa::kFnMAX: return NnapiOp{OT::MAXIMUM, false};
    case isa::kFnMIN: return NnapiOp{OT::MINIMUM, false};
    case isa::kFnABS: return NnapiOp{OT::ABS, false};
    case isa::kFnNEG: return NnapiOp{OT::NEG, false};
    case isa::kFnEQ: return NnapiOp{OT::EQUAL, false};
    case isa::kFnNE: return NnapiOp{OT::NOT_EQUAL, false};
    case isa::kFnLT: return NnapiOp{OT::LESS, false};
    case isa::kFnLE: return NnapiOp{OT::LESS_EQUAL, false};
    case isa::kFnGT: return NnapiOp{OT::GREATER, false};
    case isa::kFnGE: return NnapiOp{OT::GREATER_EQUAL, false};
    case isa::kFnAND: return NnapiOp{OT::LOGICAL_AND, false};
    case isa::kFnOR: return NnapiOp{OT::LOGICAL_OR, false};
    case isa::kFnNOT: return NnapiOp{OT::LOGICAL_NOT, false};
    case isa::kFnSEL: return NnapiOp{OT::SELECT, false};
    default: return std::nullopt;  // MOV: no NNAPI operation of its own
  }
}

OperandType operandType(uint32_t type) {
  return type == isa::kTypeBOOL8 ? OperandType::TENSOR_BOOL8 : OperandType::TENSOR_INT32;
}

uint64_t count(const Dimensions& d) {
  uint64_t n = 1;
  for (uint32_t x : d) n *= x;
  return n;
}

// Element bytes of `bytes` width: INT32 edge values, divisors with 0 and -1;
// BOOL8 bytes beyond 0/1 (any non-zero byte is true, compared unsigned).
std::vector<uint8_t> randomElements(std::mt19937& rng, uint64_t n, uint32_t bytes) {
  static const int32_t kEdges[] = {kMin, kMin + 1, -3, -1, 0, 1, 2, 7, kMax};
  static const uint8_t kBools[] = {0, 1, 0, 1, 2, 255};
  std::vector<uint8_t> out(n * bytes);
  for (uint64_t i = 0; i < n; ++i) {
    if (bytes == 1) {
      out[i] = kBools[rng() % std::size(kBools)];
    } else {
      const int32_t v = rng() % 2 ? kEdges[rng() % std::size(kEdges)] : static_cast<int32_t>(rng() % 2001) - 1000;
      std::memcpy(out.data() + i * 4, &v, 4);
    }
  }
  return out;
}

bool typeLegal(uint32_t fn, uint32_t type) { return ((isa::fnTypeMask(fn) >> type) & 1) != 0; }

// Compares one fn x type on one set of NNAPI shapes with the CPU kernel.
void checkAgainstCpu(uint32_t fn, uint32_t type, const std::vector<Dimensions>& shapes, std::mt19937& rng) {
  const NnapiOp op = *nnapiOp(fn);
  Dimensions out = shapes[0];
  for (size_t s = 1; s < shapes.size(); ++s) out = broadcastShape(out, shapes[s]);
  std::vector<std::vector<uint8_t>> sources;
  std::vector<ct::Tensor> inputs;
  for (size_t s = 0; s < shapes.size(); ++s) {
    const uint32_t bytes = sourceBytes(fn, type, static_cast<int>(s));
    sources.push_back(randomElements(rng, count(shapes[s]), bytes));
    const OperandType t = bytes == 1 ? OperandType::TENSOR_BOOL8 : OperandType::TENSOR_INT32;
    inputs.push_back(ct::Tensor{t, shapes[s], sources.back()});
  }
  if (op.activation) inputs.push_back(ct::scalar(0));
  const OperandType resultType = isa::fnResultIsBool(fn) ? OperandType::TENSOR_BOOL8 : operandType(type);
  const ct::Outcome expected = ct::run(op.op, inputs, resultType);
  ASSERT_TRUE(expected.status.isOk()) << expected.status.message();
  ASSERT_EQ(expected.shape.dims, out);

  const TensorOutcome got = runTensor(fn, type, broadcastDescriptor(out, shapes), sources);
  EXPECT_CORE_STATUS(got.run, isa::kStatusDONE);
  EXPECT_EQ(got.result, expected.bytes);
}

TEST(HlsTensor, NnapiOperationsMatchCpuKernelsWithBroadcasting) {
  const std::vector<std::vector<Dimensions>> binaryShapes = {
      {{6}, {6}},       {{2, 3}, {3}},       {{2, 1, 4}, {3, 1}},       {{1}, {2, 2, 2, 2}},
      {{2, 3, 4, 5}, {2, 3, 4, 5}}, {{4, 1}, {1, 5}}, {{3, 1, 2, 1}, {1, 4, 1, 5}}, {{2, 2}, {1}}};
  const std::vector<std::vector<Dimensions>> unaryShapes = {{{7}}, {{2, 3, 4}}, {{1, 2, 3, 4}}};
  const std::vector<std::vector<Dimensions>> selectShapes = {{{5}, {5}, {5}}, {{2, 3, 4}, {2, 3, 4}, {2, 3, 4}}};
  std::mt19937 rng(42);
  int checked = 0;
  for (uint32_t fn = 0; fn < isa::kNumAluFns; ++fn) {
    if (!nnapiOp(fn)) continue;
    for (uint32_t type : {isa::kTypeINT32, isa::kTypeBOOL8}) {
      if (!typeLegal(fn, type)) continue;
      if (fn == isa::kFnSEL && type == isa::kTypeBOOL8) continue;  // NNAPI SELECT has no BOOL8 form
      SCOPED_TRACE(std::string(isa::aluFnName(fn)) + "." + isa::typeName(type));
      const auto& shapes = fn == isa::kFnSEL ? selectShapes
                           : isa::fnOperands(fn) == 1 ? unaryShapes
                                                      : binaryShapes;
      for (const auto& s : shapes) {
        checkAgainstCpu(fn, type, s, rng);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 100);
}

TEST(HlsTensor, EveryFunctionAndTypeWithArbitraryStridesMatchesTheIsaDefinition) {
  std::mt19937 rng(7);
  for (uint32_t fn = 0; fn < isa::kNumAluFns; ++fn) {
    if (isa::fnTensorOnly(fn)) continue;  // CVT and FC: test_float.cpp
    for (uint32_t type : {isa::kTypeINT32, isa::kTypeBOOL8}) {
      if (!typeLegal(fn, type)) continue;
      SCOPED_TRACE(std::string(isa::aluFnName(fn)) + "." + isa::typeName(type));
      for (int trial = 0; trial < 12; ++trial) {
        Descriptor d;
        for (auto& x : d.dim) x = 1 + rng() % 4;
        // Strides of any kind: transposed, broadcast in any dimension, gaps.
        for (auto& s : d.stride)
          for (auto& x : s) x = rng() % 3 == 0 ? 0 : rng() % 9;
        std::vector<std::vector<uint8_t>> sources;
        for (uint32_t s = 0; s < isa::fnOperands(fn); ++s) {
          sources.push_back(randomElements(rng, d.extent(static_cast<int>(s)), sourceBytes(fn, type, s)));
        }
        const uint32_t shift = resultBytes(fn, type) == 1 ? rng() % 4 : 0;
        const TensorOutcome got = runTensor(fn, type, d, sources, shift);
        EXPECT_CORE_STATUS(got.run, isa::kStatusDONE);
        EXPECT_EQ(got.result, isaReference(fn, type, d, sources)) << "trial " << trial;
      }
    }
  }
}

TEST(HlsTensor, RankFourBroadcastOfEverySourceKind) {
  // A [2,1,3,1] + B [1,4,1,5] -> [2,4,3,5]; SEL with a scalar mask.
  std::mt19937 rng(3);
  const Dimensions out = {2, 4, 3, 5};
  const std::vector<Dimensions> shapes = {{2, 1, 3, 1}, {1, 4, 1, 5}};
  std::vector<std::vector<uint8_t>> src = {randomElements(rng, 6, 4), randomElements(rng, 20, 4)};
  const Descriptor d = broadcastDescriptor(out, shapes);
  EXPECT_EQ(d.stride[0], (std::array<uint32_t, 4>{3, 0, 1, 0}));
  EXPECT_EQ(d.stride[1], (std::array<uint32_t, 4>{0, 5, 0, 1}));
  const TensorOutcome add = runTensor(isa::kFnADD, isa::kTypeINT32, d, src);
  EXPECT_CORE_STATUS(add.run, isa::kStatusDONE);
  EXPECT_EQ(add.result, isaReference(isa::kFnADD, isa::kTypeINT32, d, src));

  const Descriptor sel = broadcastDescriptor(out, {{1}, out, {1}});
  std::vector<std::vector<uint8_t>> selSrc = {{1}, randomElements(rng, 120, 4), randomElements(rng, 1, 4)};
  const TensorOutcome picked = runTensor(isa::kFnSEL, isa::kTypeINT32, sel, selSrc);
  EXPECT_EQ(picked.result, selSrc[1]);
  selSrc[0] = {0};
  const TensorOutcome other = runTensor(isa::kFnSEL, isa::kTypeINT32, sel, selSrc);
  for (uint64_t i = 0; i < 120; ++i) {
    EXPECT_EQ(get<int32_t>(other.result, 4 * i, 1)[0], get<int32_t>(selSrc[2], 0, 1)[0]);
  }
}

TEST(HlsTensor, InPlaceElementwise) {
  // rd == ra with the same (contiguous) strides: x = x * 3.
  Descriptor d;
  d.dim = {1, 1, 2, 8};
  d.stride[0] = {0, 0, 8, 1};
  d.stride[1] = {0, 0, 0, 0};
  std::vector<uint8_t> image(256, 0);
  put(image, 0, d.words());
  std::vector<int32_t> x(16);
  for (int i = 0; i < 16; ++i) x[i] = i - 8;
  put(image, 64, x);
  put<int32_t>(image, 192, {3});
  Asm a;
  a.emit(insn::li(1, 64));
  a.emit(insn::li(2, 192));
  a.emit(insn::tensor(isa::kFnMUL, isa::kTypeINT32, 1, 1, 2, 0, 0));
  a.emit(insn::halt());
  const Outcome out = run(a, image, 256);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(word(out.data, 64 + 4 * i), 3 * (i - 8));
}

TEST(HlsTensor, ZeroDimensionIsANoOp) {
  Descriptor d;
  d.dim = {3, 0, 4, 5};
  const TensorOutcome got = runTensor(isa::kFnNEG, isa::kTypeINT32, d, {{}});
  EXPECT_CORE_STATUS(got.run, isa::kStatusDONE);
  EXPECT_TRUE(got.result.empty());
  EXPECT_TRUE(got.untouchedElsewhere);
}

}  // namespace
}  // namespace nnfab::fabric::test
