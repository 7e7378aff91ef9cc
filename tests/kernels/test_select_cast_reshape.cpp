// SELECT, CAST, RESHAPE.
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

TEST(Select, FloatAndInt) {
  const Tensor mask = b8({2, 2}, {1, 0, 5, 0});
  auto f = run(OT::SELECT, {mask, f32({2, 2}, {1, 2, 3, -0.0f}), f32({2, 2}, {10, 20, 30, 40})});
  EXPECT_OK(f);
  EXPECT_EQ(f.shape.type, OperandType::TENSOR_FLOAT32);
  EXPECT_EQ(f.shape.dims, (Dimensions{2, 2}));
  EXPECT_EQ(f.f32(), (std::vector<float>{1, 20, 3, 40}));
  auto i = run(OT::SELECT, {mask, i32({2, 2}, {kMin, 2, 3, 4}), i32({2, 2}, {-1, kMax, -3, -4})},
               OperandType::TENSOR_INT32);
  EXPECT_EQ(i.shape.type, OperandType::TENSOR_INT32);
  EXPECT_EQ(i.i32(), (std::vector<int32_t>{kMin, kMax, 3, -4}));
  // Bit-exact: -0 and NaN payloads are selected unchanged.
  auto z = run(OT::SELECT, {b8({2}, {1, 0}), f32({2}, {-0.0f, 1}), f32({2}, {1, kNaN})});
  EXPECT_EQ(bits(z.f32()), bits({-0.0f, kNaN}));
}

TEST(Select, Mismatches) {
  const Tensor x = f32({2}, {1, 2});
  EXPECT_FAILS(run(OT::SELECT, {b8({3}, {1, 0, 1}), x, x}));              // mask shape
  EXPECT_FAILS(run(OT::SELECT, {b8({2}, {1, 0}), x, f32({1, 2}, {1, 2})}));  // rank differs
  EXPECT_FAILS(run(OT::SELECT, {b8({1}, {1}), f32({1}, {1}), f32({2}, {1, 2})}));  // no broadcast
  EXPECT_FAILS(run(OT::SELECT, {b8({2}, {1, 0}), x, i32({2}, {1, 2})}));  // types differ
  EXPECT_FAILS(run(OT::SELECT, {i32({2}, {1, 0}), x, x}));                // mask type
  EXPECT_FAILS(run(OT::SELECT, {b8({2}, {1, 0}), b8({2}, {1, 0}), b8({2}, {1, 0})}));
  EXPECT_FAILS(run(OT::SELECT, {b8({0}, {}), f32({0}, {}), f32({0}, {})}));  // zero-sized
  EXPECT_FAILS(run(OT::SELECT, {b8({2}, {1, 0}), x}));
}

TEST(Cast, FloatToInt32TruncatesAndSaturates) {
  auto r = run(OT::CAST,
               {f32({12}, {1.9f, -1.9f, 0.5f, -0.5f, kNaN, kInf, -kInf, 2147483648.0f,
                           -2147483648.0f, 3e9f, -3e9f, 2147483520.0f})},
               OperandType::TENSOR_INT32);
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.type, OperandType::TENSOR_INT32);
  EXPECT_EQ(r.shape.dims, (Dimensions{12}));
  EXPECT_EQ(r.i32(), (std::vector<int32_t>{1, -1, 0, 0, 0, kMax, kMin, kMax, kMin, kMax, kMin,
                                           2147483520}));
}

TEST(Cast, Int32ToFloatRoundsToNearest) {
  auto r = run(OT::CAST, {i32({2, 3}, {0, -7, 16777217, kMax, kMin, 16777219})},
               OperandType::TENSOR_FLOAT32);
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.type, OperandType::TENSOR_FLOAT32);
  EXPECT_EQ(r.shape.dims, (Dimensions{2, 3}));
  EXPECT_EQ(r.f32(), (std::vector<float>{0, -7, 16777216.0f, 2147483648.0f, -2147483648.0f,
                                          16777220.0f}));
}

TEST(Cast, Identity) {
  auto f = run(OT::CAST, {f32({3}, {kNaN, -0.0f, 1.5f})}, OperandType::TENSOR_FLOAT32);
  EXPECT_EQ(bits(f.f32()), bits({kNaN, -0.0f, 1.5f}));
  auto i = run(OT::CAST, {i32({1, 2}, {kMin, 3})}, OperandType::TENSOR_INT32);
  EXPECT_EQ(i.shape.dims, (Dimensions{1, 2}));
  EXPECT_EQ(i.i32(), (std::vector<int32_t>{kMin, 3}));
  auto b = run(OT::CAST, {b8({3}, {0, 1, 1})}, OperandType::TENSOR_BOOL8);
  EXPECT_EQ(b.shape.type, OperandType::TENSOR_BOOL8);
  EXPECT_EQ(b.b8(), (std::vector<uint8_t>{0, 1, 1}));
}

TEST(Cast, Unsupported) {
  EXPECT_FAILS(run(OT::CAST, {b8({1}, {1})}, OperandType::TENSOR_INT32));
  EXPECT_FAILS(run(OT::CAST, {f32({1}, {1})}, OperandType::TENSOR_BOOL8));
  EXPECT_FAILS(run(OT::CAST, {f32({1}, {1})}, OperandType::TENSOR_FLOAT16));
  EXPECT_FAILS(run(OT::CAST, {f32({0}, {})}, OperandType::TENSOR_INT32));  // zero-sized
}

TEST(Reshape, Basic) {
  auto r = run(OT::RESHAPE, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i32({3}, {3, 1, 2})});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.type, OperandType::TENSOR_FLOAT32);
  EXPECT_EQ(r.shape.dims, (Dimensions{3, 1, 2}));
  EXPECT_EQ(r.f32(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(Reshape, InfersMinusOne) {
  const Tensor in = f32({2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  EXPECT_EQ(run(OT::RESHAPE, {in, i32({2}, {-1, 6})}).shape.dims, (Dimensions{2, 6}));
  EXPECT_EQ(run(OT::RESHAPE, {in, i32({3}, {2, -1, 2})}).shape.dims, (Dimensions{2, 3, 2}));
  EXPECT_EQ(run(OT::RESHAPE, {in, i32({1}, {-1})}).shape.dims, (Dimensions{12}));
  auto r = run(OT::RESHAPE, {in, i32({4}, {1, 1, 12, -1})});
  EXPECT_EQ(r.shape.dims, (Dimensions{1, 1, 12, 1}));
  EXPECT_EQ(r.f32().back(), 12.0f);
}

TEST(Reshape, Errors) {
  const Tensor in = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({2}, {4, 2})}));      // count mismatch
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({2}, {-1, 4})}));     // 6 not divisible by 4
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({2}, {-1, -1})}));    // two -1
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({2}, {-2, -3})}));    // other negatives
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({3}, {-2, 1, -3})}));
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({2}, {0, -1})}));     // cannot infer next to 0
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({2}, {0, 6})}));
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({2}, {65536, 65536})}));  // product overflows
  EXPECT_FAILS(run(OT::RESHAPE, {in, i32({1, 2}, {2, 3})}));   // shape must be 1-D
  EXPECT_FAILS(run(OT::RESHAPE, {in, f32({2}, {2, 3})}));      // shape must be INT32
  Tensor noShape = i32({2}, {3, 2});
  noShape.noValue = true;
  EXPECT_FAILS(run(OT::RESHAPE, {in, noShape}));
  EXPECT_FAILS(run(OT::RESHAPE, {f32({0, 3}, {}), i32({2}, {3, 0})}));  // zero-sized input
  EXPECT_FAILS(run(OT::RESHAPE, {f32({1, 1, 1, 1, 6}, {1, 2, 3, 4, 5, 6}), i32({1}, {6})}));
}

TEST(Reshape, AnyElementSizeIsCopied) {
  // isSupported limits RESHAPE to TENSOR_FLOAT32; the kernel itself copies
  // bytes, so other element sizes come out right too.
  auto r = run(OT::RESHAPE, {b8({2, 2}, {1, 0, 0, 1}), i32({1}, {4})});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.type, OperandType::TENSOR_BOOL8);
  EXPECT_EQ(r.b8(), (std::vector<uint8_t>{1, 0, 0, 1}));
}

}  // namespace
}  // namespace nnfab::cpu::test
