// SLICE, FLOOR, RELU (docs/nnapi-semantics.md §2.12-§2.14).
#include <cmath>
#include <limits>

#include "kernel_test_util.h"

namespace nnfab::cpu::test {
namespace {

using OT = OperationType;
constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::nanf("");
constexpr float kMaxFloat = std::numeric_limits<float>::max();

TEST(Slice, BoxOfARank3Tensor) {
  // x[d0][d1][d2] = 100*d0 + 10*d1 + d2 over [2,3,4].
  std::vector<int32_t> x;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) x.push_back(100 * a + 10 * b + c);
  auto r = run(OT::SLICE, {i32({2, 3, 4}, x), i32({3}, {1, 1, 2}), i32({3}, {1, -1, 2})},
               OperandType::TENSOR_INT32);
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{1, 2, 2}));
  EXPECT_EQ(r.i32(), (std::vector<int32_t>{112, 113, 122, 123}));
}

TEST(Slice, FloatRowAndZeroSize) {
  const Tensor x = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  auto row = run(OT::SLICE, {x, i32({2}, {2, 0}), i32({2}, {1, -1})});
  EXPECT_OK(row);
  EXPECT_EQ(row.shape.dims, (Dimensions{1, 2}));
  EXPECT_EQ(row.f32(), (std::vector<float>{5, 6}));
  // size 0 (begin may equal the dimension): a zero-sized result, as a scan
  // output of a loop that ran zero times.
  auto none = run(OT::SLICE, {x, i32({2}, {0, 0}), i32({2}, {0, -1})});
  EXPECT_OK(none);
  EXPECT_EQ(none.shape.dims, (Dimensions{0, 2}));
  auto end = run(OT::SLICE, {x, i32({2}, {3, 0}), i32({2}, {-1, -1})});
  EXPECT_OK(end);
  EXPECT_EQ(end.shape.dims, (Dimensions{0, 2}));
  // A zero-sized input is accepted (§2.1).
  EXPECT_OK(run(OT::SLICE, {f32({0, 2}, {}), i32({2}, {0, 0}), i32({2}, {-1, -1})}));
}

TEST(Slice, OutOfRangeFails) {
  const Tensor x = f32({3}, {1, 2, 3});
  EXPECT_FAILS(run(OT::SLICE, {x, i32({1}, {4}), i32({1}, {0})}));   // begin > dim
  EXPECT_FAILS(run(OT::SLICE, {x, i32({1}, {-1}), i32({1}, {1})}));  // begin < 0
  EXPECT_FAILS(run(OT::SLICE, {x, i32({1}, {1}), i32({1}, {3})}));   // past the end
  EXPECT_FAILS(run(OT::SLICE, {x, i32({1}, {0}), i32({1}, {-2})}));  // negative size
  EXPECT_FAILS(run(OT::SLICE, {x, i32({2}, {0, 0}), i32({2}, {1, 1})}));  // rank mismatch
  EXPECT_FAILS(run(OT::SLICE, {b8({2}, {1, 0}), i32({1}, {0}), i32({1}, {1})}));  // BOOL8
  EXPECT_FAILS(run(OT::SLICE, {x, i32({1}, {0})}));  // arity
}

TEST(Floor, RoundsDownAndPassesSpecials) {
  auto r = run(OT::FLOOR, {f32({2, 3}, {1.5f, -1.5f, -0.0f, kInf, kNaN, 2.0f})});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{2, 3}));
  EXPECT_EQ(bits(r.f32()), bits({1.0f, -2.0f, -0.0f, kInf, kNaN, 2.0f}));
  EXPECT_FAILS(run(OT::FLOOR, {i32({1}, {1})}, OperandType::TENSOR_INT32));
  EXPECT_FAILS(run(OT::FLOOR, {f32({0}, {})}));
  EXPECT_FAILS(run(OT::FLOOR, {f32({1, 1, 1, 1, 1}, {1})}));  // rank 5
}

TEST(Relu, NnapiReferenceClamp) {
  auto r = run(OT::RELU, {f32({5}, {-2.0f, 3.5f, kInf, kNaN, -0.0f})});
  EXPECT_OK(r);
  // NNAPI's reluFloat: min(max(0, x), FLT_MAX).
  EXPECT_EQ(bits(r.f32()), bits({0.0f, 3.5f, kMaxFloat, 0.0f, 0.0f}));
  EXPECT_FAILS(run(OT::RELU, {i32({1}, {1})}, OperandType::TENSOR_INT32));
}

}  // namespace
}  // namespace nnfab::cpu::test
