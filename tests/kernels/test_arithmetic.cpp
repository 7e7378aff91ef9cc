// ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, ABS, NEG.
#include <cmath>
#include <limits>

#include "kernel_test_util.h"

namespace nnfab::cpu::test {
namespace {

using OT = OperationType;
constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::nanf("");
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

TEST(Arithmetic, FloatSameShape) {
  const Tensor a = f32({2, 2}, {1, 2, 3, 4});
  const Tensor b = f32({2, 2}, {0.5f, -2, 8, 0.25f});
  auto add = run(OT::ADD, {a, b, scalar(0)});
  EXPECT_OK(add);
  EXPECT_EQ(add.shape.type, OperandType::TENSOR_FLOAT32);
  EXPECT_EQ(add.shape.dims, (Dimensions{2, 2}));
  EXPECT_EQ(add.shape.scale, 0.0f);
  EXPECT_EQ(add.shape.zeroPoint, 0);
  EXPECT_EQ(add.f32(), (std::vector<float>{1.5f, 0, 11, 4.25f}));
  EXPECT_EQ(run(OT::SUB, {a, b, scalar(0)}).f32(), (std::vector<float>{0.5f, 4, -5, 3.75f}));
  EXPECT_EQ(run(OT::MUL, {a, b, scalar(0)}).f32(), (std::vector<float>{0.5f, -4, 24, 1}));
  EXPECT_EQ(run(OT::DIV, {a, b, scalar(0)}).f32(), (std::vector<float>{2, -1, 0.375f, 16}));
}

TEST(Arithmetic, MisalignedBuffers) {
  auto r = run(OT::SUB, {f32({5}, {1, 2, 3, 4, 5}), f32({5}, {5, 4, 3, 2, 1}), scalar(0)},
               OperandType::TENSOR_FLOAT32, /*misalign=*/true);
  EXPECT_OK(r);
  EXPECT_EQ(r.f32(), (std::vector<float>{-4, -2, 0, 2, 4}));
}

TEST(Arithmetic, FloatActivations) {
  const Tensor a = f32({7}, {-3, -1, -0.5f, 0, 0.5f, 2, 7});
  const Tensor zero = f32({1}, {0});
  EXPECT_EQ(run(OT::ADD, {a, zero, scalar(0)}).f32(),
            (std::vector<float>{-3, -1, -0.5f, 0, 0.5f, 2, 7}));
  EXPECT_EQ(run(OT::ADD, {a, zero, scalar(1)}).f32(),
            (std::vector<float>{0, 0, 0, 0, 0.5f, 2, 7}));
  EXPECT_EQ(run(OT::ADD, {a, zero, scalar(2)}).f32(),
            (std::vector<float>{-1, -1, -0.5f, 0, 0.5f, 1, 1}));
  EXPECT_EQ(run(OT::ADD, {a, zero, scalar(3)}).f32(),
            (std::vector<float>{0, 0, 0, 0, 0.5f, 2, 6}));
  // Activation after the arithmetic: 3 * 4 = 12 clamps to 6, -2 * 3 to 0.
  EXPECT_EQ(run(OT::MUL, {f32({2}, {3, -2}), f32({2}, {4, 3}), scalar(3)}).f32(),
            (std::vector<float>{6, 0}));
  EXPECT_EQ(run(OT::SUB, {f32({2}, {3, -2}), f32({2}, {4, 3}), scalar(2)}).f32(),
            (std::vector<float>{-1, -1}));
  EXPECT_EQ(run(OT::DIV, {f32({2}, {3, -2}), f32({2}, {4, 3}), scalar(1)}).f32(),
            (std::vector<float>{0.75f, 0}));
}

TEST(Arithmetic, FloatActivationSpecialValues) {
  const Tensor a = f32({4}, {kNaN, kInf, -kInf, -0.0f});
  const Tensor zero = f32({1}, {0});
  const auto none = run(OT::ADD, {a, f32({1}, {-0.0f}), scalar(0)}).f32();
  EXPECT_TRUE(std::isnan(none[0]));
  EXPECT_EQ(none[1], kInf);  // NONE is the identity: no clamp to FLT_MAX
  EXPECT_EQ(none[2], -kInf);
  EXPECT_TRUE(std::signbit(none[3]));  // -0 + -0 = -0
  const auto relu = run(OT::ADD, {a, zero, scalar(1)}).f32();
  EXPECT_TRUE(std::isnan(relu[0]));  // NaN passes through the activation
  EXPECT_EQ(relu[1], kInf);
  EXPECT_EQ(relu[2], 0.0f);
  const auto relu1 = run(OT::ADD, {a, zero, scalar(2)}).f32();
  EXPECT_TRUE(std::isnan(relu1[0]));
  EXPECT_EQ(relu1[1], 1.0f);
  EXPECT_EQ(relu1[2], -1.0f);
  const auto relu6 = run(OT::ADD, {a, zero, scalar(3)}).f32();
  EXPECT_TRUE(std::isnan(relu6[0]));
  EXPECT_EQ(relu6[1], 6.0f);
  EXPECT_EQ(relu6[2], 0.0f);
}

TEST(Arithmetic, BadActivationFails) {
  const Tensor a = f32({1}, {1});
  EXPECT_FAILS(run(OT::ADD, {a, a, scalar(4)}));
  EXPECT_FAILS(run(OT::MUL, {a, a, scalar(-1)}));
  Tensor missing = scalar(0);
  missing.noValue = true;
  EXPECT_FAILS(run(OT::ADD, {a, a, missing}));
  EXPECT_FAILS(run(OT::ADD, {a, a, f32({1}, {0})}));  // activation must be INT32
}

TEST(Arithmetic, FloatIeeeSpecials) {
  const auto div = run(OT::DIV, {f32({5}, {1, -1, 0, 1, kInf}), f32({5}, {0, 0, 0, -0.0f, kInf}),
                                 scalar(0)})
                       .f32();
  EXPECT_EQ(div[0], kInf);
  EXPECT_EQ(div[1], -kInf);
  EXPECT_TRUE(std::isnan(div[2]));
  EXPECT_EQ(div[3], -kInf);
  EXPECT_TRUE(std::isnan(div[4]));
  const auto add = run(OT::ADD, {f32({3}, {kInf, kNaN, 3e38f}), f32({3}, {-kInf, 1, 3e38f}),
                                 scalar(0)})
                       .f32();
  EXPECT_TRUE(std::isnan(add[0]));
  EXPECT_TRUE(std::isnan(add[1]));
  EXPECT_EQ(add[2], kInf);  // overflow rounds to +inf
  const auto mul = run(OT::MUL, {f32({2}, {0, -2}), f32({2}, {kInf, 0}), scalar(0)}).f32();
  EXPECT_TRUE(std::isnan(mul[0]));
  EXPECT_TRUE(std::signbit(mul[1]));  // -2 * 0 = -0
}

TEST(Arithmetic, Int32WrapAround) {
  const Tensor a = i32({4}, {kMax, kMin, kMin, 65536});
  const Tensor b = i32({4}, {1, -1, kMin, 65536});
  auto add = run(OT::ADD, {a, b, scalar(0)}, OperandType::TENSOR_INT32);
  EXPECT_OK(add);
  EXPECT_EQ(add.shape.type, OperandType::TENSOR_INT32);
  EXPECT_EQ(add.i32(), (std::vector<int32_t>{kMin, kMax, 0, 131072}));
  EXPECT_EQ(run(OT::SUB, {a, b, scalar(0)}).i32(), (std::vector<int32_t>{kMax - 1, kMin + 1, 0, 0}));
  EXPECT_EQ(run(OT::SUB, {b, a, scalar(0)}).i32(), (std::vector<int32_t>{kMin + 2, kMax, 0, 0}));
  EXPECT_EQ(run(OT::SUB, {i32({2}, {kMin, kMax}), i32({2}, {1, -1}), scalar(0)}).i32(),
            (std::vector<int32_t>{kMax, kMin}));
  EXPECT_EQ(run(OT::MUL, {a, b, scalar(0)}).i32(), (std::vector<int32_t>{kMax, kMin, 0, 0}));
  EXPECT_EQ(run(OT::MUL, {i32({3}, {kMax, -3, 46341}), i32({3}, {2, 7, 46341}), scalar(0)}).i32(),
            (std::vector<int32_t>{-2, -21, -2147479015}));
}

TEST(Arithmetic, Int32MulCts) {  // V1_3 mul_int32
  EXPECT_EQ(run(OT::MUL, {i32({1, 2, 2}, {2, -4, 8, -16}), i32({1, 2, 2}, {32, -16, -8, 4}),
                          scalar(0)})
                .i32(),
            (std::vector<int32_t>{64, 64, -64, -64}));
}

TEST(Arithmetic, Int32FloorDivisionCts) {  // V1_3 div_int32: a in -6..9, b in {-3,-2,-1,1,2,3}
  std::vector<int32_t> a, b;
  for (int32_t x = -6; x <= 9; ++x) {
    for (int32_t y : {-3, -2, -1, 1, 2, 3}) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  const std::vector<int32_t> expected = {
      2,  3,  6,  -6, -3, -2, 1,  2,  5,  -5, -3, -2, 1,  2,  4,  -4, -2, -2, 1,  1,
      3,  -3, -2, -1, 0,  1,  2,  -2, -1, -1, 0,  0,  1,  -1, -1, -1, 0,  0,  0,  0,
      0,  0,  -1, -1, -1, 1,  0,  0,  -1, -1, -2, 2,  1,  0,  -1, -2, -3, 3,  1,  1,
      -2, -2, -4, 4,  2,  1,  -2, -3, -5, 5,  2,  1,  -2, -3, -6, 6,  3,  2,  -3, -4,
      -7, 7,  3,  2,  -3, -4, -8, 8,  4,  2,  -3, -5, -9, 9,  4,  3};
  auto r = run(OT::DIV, {i32({2, 2, 4, 6}, a), i32({2, 2, 4, 6}, b), scalar(0)});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{2, 2, 4, 6}));
  EXPECT_EQ(r.i32(), expected);
}

TEST(Arithmetic, Int32DivisionEdges) {
  auto r = run(OT::DIV,
               {i32({9}, {kMin, kMin, 7, -7, 0, kMax, kMin, -7, 7}),
                i32({9}, {-1, 0, 0, 0, 0, kMin, kMax, 2, -2}), scalar(0)});
  EXPECT_OK(r);
  EXPECT_EQ(r.i32(), (std::vector<int32_t>{kMin, 0, 0, 0, 0, -1, -2, -4, -4}));
  // By a broadcast zero and by a broadcast -1.
  EXPECT_EQ(run(OT::DIV, {i32({3}, {kMin, 5, -5}), i32({1}, {0}), scalar(0)}).i32(),
            (std::vector<int32_t>{0, 0, 0}));
  EXPECT_EQ(run(OT::DIV, {i32({3}, {kMin, 5, -5}), i32({1}, {-1}), scalar(0)}).i32(),
            (std::vector<int32_t>{kMin, -5, 5}));
  EXPECT_EQ(run(OT::DIV, {i32({1}, {kMin}), i32({3}, {-1, 0, 1}), scalar(0)}).i32(),
            (std::vector<int32_t>{kMin, 0, kMin}));
}

TEST(Arithmetic, Int32RequiresActivationNone) {
  const Tensor a = i32({2}, {1, 2});
  for (int32_t act : {1, 2, 3, 4}) {
    for (OT op : {OT::ADD, OT::SUB, OT::MUL, OT::DIV}) EXPECT_FAILS(run(op, {a, a, scalar(act)}));
  }
}

TEST(Arithmetic, TypeErrors) {
  EXPECT_FAILS(run(OT::ADD, {f32({1}, {1}), i32({1}, {1}), scalar(0)}));
  EXPECT_FAILS(run(OT::ADD, {b8({1}, {1}), b8({1}, {1}), scalar(0)}));
  Tensor half{OperandType::TENSOR_FLOAT16, {1}, {0, 0x3c}};
  EXPECT_FAILS(run(OT::ADD, {half, half, scalar(0)}));
  EXPECT_FAILS(run(OT::ADD, {f32({1}, {1}), f32({1}, {1})}));  // missing activation
}

TEST(Arithmetic, RankAboveFourFails) {
  const Tensor a = f32({1, 1, 1, 1, 2}, {1, 2});
  EXPECT_FAILS(run(OT::ADD, {a, f32({1}, {1}), scalar(0)}));
  EXPECT_OK(run(OT::ADD, {f32({1, 1, 1, 2}, {1, 2}), f32({1}, {1}), scalar(0)}));
}

TEST(Arithmetic, BroadcastSpecExample) {
  // {4,1,2} with {5,4,3,1} -> {5,4,3,2}
  std::vector<int32_t> a(8), b(60);
  for (int32_t i = 0; i < 8; ++i) a[i] = 1000 * (i + 1);
  for (int32_t i = 0; i < 60; ++i) b[i] = i;
  auto r = run(OT::SUB, {i32({4, 1, 2}, a), i32({5, 4, 3, 1}, b), scalar(0)});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{5, 4, 3, 2}));
  std::vector<int32_t> expected;
  for (int p = 0; p < 5; ++p) {
    for (int q = 0; q < 4; ++q) {
      for (int s = 0; s < 3; ++s) {
        for (int t = 0; t < 2; ++t) expected.push_back(a[q * 2 + t] - b[(p * 4 + q) * 3 + s]);
      }
    }
  }
  EXPECT_EQ(r.i32(), expected);
  EXPECT_EQ(expected[0], 1000);  // the reference itself: a[0][0][0] - b[0][0][0][0]
  EXPECT_EQ(expected[59], 4000 - 29);  // out[2][1][2][1] = a[1][0][1] - b[2][1][2][0]
}

TEST(Arithmetic, ScalarAgainstTensorBothSides) {
  auto left = run(OT::SUB, {f32({1}, {10}), f32({2, 2}, {1, 2, 3, 4}), scalar(0)});
  EXPECT_EQ(left.shape.dims, (Dimensions{2, 2}));
  EXPECT_EQ(left.f32(), (std::vector<float>{9, 8, 7, 6}));
  auto right = run(OT::SUB, {f32({2, 2}, {1, 2, 3, 4}), f32({1}, {10}), scalar(0)});
  EXPECT_EQ(right.f32(), (std::vector<float>{-9, -8, -7, -6}));
  // Rank-0 (scalar-shaped) tensors broadcast too.
  auto rank0 = run(OT::DIV, {i32({}, {7}), i32({3}, {2, -2, 0}), scalar(0)});
  EXPECT_EQ(rank0.shape.dims, (Dimensions{3}));
  EXPECT_EQ(rank0.i32(), (std::vector<int32_t>{3, -4, 0}));
  // One element each, different ranks: output takes the larger rank.
  auto single = run(OT::ADD, {i32({1, 1}, {2}), i32({1}, {3}), scalar(0)});
  EXPECT_EQ(single.shape.dims, (Dimensions{1, 1}));
  EXPECT_EQ(single.i32(), (std::vector<int32_t>{5}));
}

TEST(Arithmetic, RowAndColumnBroadcast) {
  // [2,3] + [3] (bias-like) and [2,1] * [3] (outer product shape).
  EXPECT_EQ(run(OT::ADD, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {10, 20, 30}), scalar(0)}).f32(),
            (std::vector<float>{11, 22, 33, 14, 25, 36}));
  auto outer = run(OT::MUL, {i32({2, 1}, {2, 3}), i32({3}, {1, 10, 100}), scalar(0)});
  EXPECT_EQ(outer.shape.dims, (Dimensions{2, 3}));
  EXPECT_EQ(outer.i32(), (std::vector<int32_t>{2, 20, 200, 3, 30, 300}));
  auto outerT = run(OT::SUB, {i32({3}, {1, 10, 100}), i32({2, 1}, {2, 3}), scalar(0)});
  EXPECT_EQ(outerT.i32(), (std::vector<int32_t>{-1, 8, 98, -2, 7, 97}));
}

TEST(Arithmetic, IncompatibleShapesFail) {
  EXPECT_FAILS(run(OT::ADD, {f32({2, 3}, std::vector<float>(6)), f32({3, 2}, std::vector<float>(6)),
                             scalar(0)}));
  EXPECT_FAILS(run(OT::ADD, {f32({2}, {1, 2}), f32({3}, {1, 2, 3}), scalar(0)}));
  EXPECT_FAILS(run(OT::MAXIMUM, {f32({4}, {1, 2, 3, 4}), f32({2, 2}, {1, 2, 3, 4})}));
}

TEST(Arithmetic, ZeroSizedAllowed) {
  auto r = run(OT::ADD, {f32({0, 3}, {}), f32({1, 3}, {1, 2, 3}), scalar(0)});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{0, 3}));
  EXPECT_TRUE(r.bytes.empty());
  auto both = run(OT::DIV, {i32({2, 0}, {}), i32({0}, {}), scalar(0)});
  EXPECT_OK(both);
  EXPECT_EQ(both.shape.dims, (Dimensions{2, 0}));
  auto scalarSide = run(OT::MUL, {f32({1}, {2}), f32({0}, {}), scalar(1)});
  EXPECT_OK(scalarSide);
  EXPECT_EQ(scalarSide.shape.dims, (Dimensions{0}));
  // 0 broadcasts only against 0 or 1.
  EXPECT_FAILS(run(OT::ADD, {f32({0}, {}), f32({2}, {1, 2}), scalar(0)}));
  EXPECT_FAILS(run(OT::SUB, {f32({0, 2}, {}), f32({3, 1}, {1, 2, 3}), scalar(0)}));
  // The activation is still checked.
  EXPECT_FAILS(run(OT::ADD, {f32({0}, {}), f32({0}, {}), scalar(9)}));
}

TEST(Arithmetic, ZeroSizedRejectedByOtherOps) {
  EXPECT_FAILS(run(OT::MAXIMUM, {f32({0}, {}), f32({1}, {1})}));
  EXPECT_FAILS(run(OT::MINIMUM, {i32({1}, {1}), i32({2, 0}, {})}));
  EXPECT_FAILS(run(OT::ABS, {f32({0, 2}, {})}));
  EXPECT_FAILS(run(OT::NEG, {i32({0}, {})}));
}

TEST(Arithmetic, MissingTensorValueFails) {
  Tensor a = f32({2}, {1, 2});
  a.noValue = true;
  EXPECT_FAILS(run(OT::ADD, {a, f32({2}, {1, 2}), scalar(0)}));
  Tensor shortBuffer = f32({2}, {1, 2});
  shortBuffer.bytes.resize(4);
  EXPECT_FAILS(run(OT::ADD, {shortBuffer, f32({2}, {1, 2}), scalar(0)}));
}

// Sizes no tensor can have are RESOURCE_EXHAUSTED_PERSISTENT, the status the
// executor's per-tensor limit gives too (docs/cpu-executor.md).
TEST(Arithmetic, AbsurdSizesArePersistentlyExhausted) {
  const auto exhausted = [](const auto& outcome) {
    EXPECT_EQ(outcome.status.code(), ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT) << outcome.status.message();
  };
  // 2^16 * 2^16 elements overflow uint32; nothing is allocated or read.
  Tensor big{OperandType::TENSOR_FLOAT32, {65536, 65536}, {}};
  exhausted(run(OT::ADD, {big, f32({1}, {1}), scalar(0)}));
  // Two fine inputs whose broadcast is too large.
  Tensor col{OperandType::TENSOR_INT32, {65536, 1}, std::vector<uint8_t>(65536 * 4)};
  Tensor row{OperandType::TENSOR_INT32, {1, 65536}, std::vector<uint8_t>(65536 * 4)};
  exhausted(run(OT::ADD, {col, row, scalar(0)}));
  // As in nnfab::elementCount, an overflow before a 0 dimension is too large.
  Tensor hugeEmpty{OperandType::TENSOR_FLOAT32, {65536, 65536, 0}, {}};
  exhausted(run(OT::ADD, {hugeEmpty, f32({1}, {1}), scalar(0)}));
}

TEST(MaxMin, FloatAndInt) {
  auto mx = run(OT::MAXIMUM, {f32({4}, {1, -2, 3, -4}), f32({4}, {0, 0, 5, -5})});
  EXPECT_OK(mx);
  EXPECT_EQ(mx.f32(), (std::vector<float>{1, 0, 5, -4}));
  EXPECT_EQ(run(OT::MINIMUM, {f32({4}, {1, -2, 3, -4}), f32({4}, {0, 0, 5, -5})}).f32(),
            (std::vector<float>{0, -2, 3, -5}));
  auto imx = run(OT::MAXIMUM, {i32({3}, {kMin, kMax, -1}), i32({1}, {0})});
  EXPECT_EQ(imx.shape.type, OperandType::TENSOR_INT32);
  EXPECT_EQ(imx.i32(), (std::vector<int32_t>{0, kMax, 0}));
  EXPECT_EQ(run(OT::MINIMUM, {i32({1}, {0}), i32({3}, {kMin, kMax, -1})}).i32(),
            (std::vector<int32_t>{kMin, 0, -1}));
  auto bc = run(OT::MAXIMUM, {i32({2, 1}, {5, -5}), i32({3}, {-10, 0, 10})});
  EXPECT_EQ(bc.shape.dims, (Dimensions{2, 3}));
  EXPECT_EQ(bc.i32(), (std::vector<int32_t>{5, 5, 10, -5, 0, 10}));
}

TEST(MaxMin, NaNAndSignedZeroFollowStdMaxMin) {
  // std::max(a, b) = a < b ? b : a; std::min(a, b) = b < a ? b : a.
  const Tensor a = f32({4}, {kNaN, 1, -0.0f, 0.0f});
  const Tensor b = f32({4}, {1, kNaN, 0.0f, -0.0f});
  const auto mx = run(OT::MAXIMUM, {a, b}).f32();
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_EQ(mx[1], 1.0f);
  EXPECT_TRUE(std::signbit(mx[2]));   // max(-0, +0) = -0 (first argument)
  EXPECT_FALSE(std::signbit(mx[3]));  // max(+0, -0) = +0
  const auto mn = run(OT::MINIMUM, {a, b}).f32();
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_EQ(mn[1], 1.0f);
  EXPECT_TRUE(std::signbit(mn[2]));
  EXPECT_FALSE(std::signbit(mn[3]));
  const auto inf = run(OT::MAXIMUM, {f32({2}, {kInf, -kInf}), f32({1}, {0})}).f32();
  EXPECT_EQ(inf, (std::vector<float>{kInf, 0}));
}

TEST(MaxMin, TypeErrors) {
  EXPECT_FAILS(run(OT::MAXIMUM, {f32({1}, {1}), i32({1}, {1})}));
  EXPECT_FAILS(run(OT::MINIMUM, {b8({1}, {1}), b8({1}, {1})}));
  EXPECT_FAILS(run(OT::MAXIMUM, {f32({1}, {1})}));
}

TEST(AbsNeg, Float) {
  const Tensor a = f32({6}, {-1.5f, 2, -0.0f, 0.0f, -kInf, kNaN});
  auto abs = run(OT::ABS, {a});
  EXPECT_OK(abs);
  EXPECT_EQ(abs.shape.dims, (Dimensions{6}));
  const auto av = abs.f32();
  EXPECT_EQ(bits({av[0], av[1], av[2], av[3], av[4]}), bits({1.5f, 2, 0.0f, 0.0f, kInf}));
  EXPECT_TRUE(std::isnan(av[5]));
  const auto nv = run(OT::NEG, {a}).f32();
  EXPECT_EQ(bits({nv[0], nv[1], nv[2], nv[3], nv[4]}), bits({1.5f, -2, 0.0f, -0.0f, kInf}));
  EXPECT_TRUE(std::isnan(nv[5]));
}

TEST(AbsNeg, Int32) {
  const Tensor a = i32({2, 3}, {kMin, kMin + 1, -7, 0, 7, kMax});
  auto abs = run(OT::ABS, {a});
  EXPECT_EQ(abs.shape.type, OperandType::TENSOR_INT32);
  EXPECT_EQ(abs.shape.dims, (Dimensions{2, 3}));
  EXPECT_EQ(abs.i32(), (std::vector<int32_t>{kMin, kMax, 7, 0, 7, kMax}));
  EXPECT_EQ(run(OT::NEG, {a}).i32(), (std::vector<int32_t>{kMin, kMax, 7, 0, -7, kMin + 1}));
}

TEST(AbsNeg, TypeErrors) {
  EXPECT_FAILS(run(OT::ABS, {b8({1}, {1})}));
  EXPECT_FAILS(run(OT::NEG, {f32({1}, {1}), f32({1}, {1})}));
}

}  // namespace
}  // namespace nnfab::cpu::test
