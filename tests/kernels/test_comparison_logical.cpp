// EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_*.
#include <cmath>
#include <limits>

#include "kernel_test_util.h"

namespace nnfab::cpu::test {
namespace {

using OT = OperationType;
using Bytes = std::vector<uint8_t>;
constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::nanf("");
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

struct Expectation {
  OT op;
  Bytes result;
};

TEST(Comparison, Float) {
  // Pairs: (1,2) (2,2) (3,2) (NaN,1) (1,NaN) (NaN,NaN) (-0,+0) (-inf,inf)
  const Tensor x = f32({8}, {1, 2, 3, kNaN, 1, kNaN, -0.0f, -kInf});
  const Tensor y = f32({8}, {2, 2, 2, 1, kNaN, kNaN, 0.0f, kInf});
  const Expectation cases[] = {
      {OT::LESS, {1, 0, 0, 0, 0, 0, 0, 1}},          {OT::LESS_EQUAL, {1, 1, 0, 0, 0, 0, 1, 1}},
      {OT::GREATER, {0, 0, 1, 0, 0, 0, 0, 0}},       {OT::GREATER_EQUAL, {0, 1, 1, 0, 0, 0, 1, 0}},
      {OT::EQUAL, {0, 1, 0, 0, 0, 0, 1, 0}},         {OT::NOT_EQUAL, {1, 0, 1, 1, 1, 1, 0, 1}},
  };
  for (const auto& c : cases) {
    auto r = run(c.op, {x, y}, OperandType::TENSOR_BOOL8);
    EXPECT_OK(r);
    EXPECT_EQ(r.shape.type, OperandType::TENSOR_BOOL8) << toString(c.op);
    EXPECT_EQ(r.shape.dims, (Dimensions{8}));
    EXPECT_EQ(r.b8(), c.result) << toString(c.op);
  }
}

TEST(Comparison, Int32Signed) {
  const Tensor x = i32({5}, {kMin, -1, 0, kMax, 5});
  const Tensor y = i32({5}, {kMax, 1, 0, kMin, 5});
  const Expectation cases[] = {
      {OT::LESS, {1, 1, 0, 0, 0}},    {OT::LESS_EQUAL, {1, 1, 1, 0, 1}},
      {OT::GREATER, {0, 0, 0, 1, 0}}, {OT::GREATER_EQUAL, {0, 0, 1, 1, 1}},
      {OT::EQUAL, {0, 0, 1, 0, 1}},   {OT::NOT_EQUAL, {1, 1, 0, 1, 0}},
  };
  for (const auto& c : cases) EXPECT_EQ(run(c.op, {x, y}).b8(), c.result) << toString(c.op);
}

TEST(Comparison, Bool8RawBytes) {
  // BOOL8 compares the stored bytes: 2 and 1 are both "true" but not equal.
  const Tensor x = b8({4}, {2, 1, 0, 255});
  const Tensor y = b8({4}, {1, 1, 1, 0});
  EXPECT_EQ(run(OT::EQUAL, {x, y}).b8(), (Bytes{0, 1, 0, 0}));
  EXPECT_EQ(run(OT::GREATER, {x, y}).b8(), (Bytes{1, 0, 0, 1}));  // unsigned: 255 > 0
  EXPECT_EQ(run(OT::LESS, {x, y}).b8(), (Bytes{0, 0, 1, 0}));
  EXPECT_EQ(run(OT::NOT_EQUAL, {x, y}).b8(), (Bytes{1, 0, 1, 1}));
}

TEST(Comparison, Broadcast) {
  auto r = run(OT::LESS, {i32({1}, {3}), i32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{2, 3}));
  EXPECT_EQ(r.b8(), (Bytes{0, 0, 0, 1, 1, 1}));
  auto col = run(OT::GREATER_EQUAL, {f32({3, 1}, {1, 2, 3}), f32({1, 2}, {2, 1})});
  EXPECT_EQ(col.shape.dims, (Dimensions{3, 2}));
  EXPECT_EQ(col.b8(), (Bytes{0, 1, 1, 1, 1, 1}));
  // Single element, the loop-condition case.
  auto one = run(OT::LESS, {i32({1}, {4}), i32({1}, {5})});
  EXPECT_EQ(one.shape.dims, (Dimensions{1}));
  EXPECT_EQ(one.b8(), (Bytes{1}));
  // Rank above 4 is fine for comparisons.
  auto high = run(OT::EQUAL, {i32({1, 1, 1, 1, 2}, {1, 2}), i32({1}, {2})});
  EXPECT_OK(high);
  EXPECT_EQ(high.b8(), (Bytes{0, 1}));
}

TEST(Comparison, Errors) {
  EXPECT_FAILS(run(OT::LESS, {i32({2}, {1, 2}), i32({3}, {1, 2, 3})}));
  EXPECT_FAILS(run(OT::LESS, {i32({1}, {1}), f32({1}, {1})}));
  EXPECT_FAILS(run(OT::EQUAL, {i32({0}, {}), i32({1}, {1})}));  // zero-sized
  EXPECT_FAILS(run(OT::EQUAL, {i32({1}, {1}), i32({1}, {1}), scalar(0)}));
  Tensor q{OperandType::TENSOR_QUANT8_ASYMM, {1}, {3}};
  EXPECT_FAILS(run(OT::GREATER, {q, q}));
}

TEST(Logical, AndOrNot) {
  const Tensor x = b8({4}, {0, 0, 7, 255});
  const Tensor y = b8({4}, {0, 3, 0, 1});
  auto a = run(OT::LOGICAL_AND, {x, y}, OperandType::TENSOR_BOOL8);
  EXPECT_OK(a);
  EXPECT_EQ(a.shape.type, OperandType::TENSOR_BOOL8);
  EXPECT_EQ(a.b8(), (Bytes{0, 0, 0, 1}));
  EXPECT_EQ(run(OT::LOGICAL_OR, {x, y}).b8(), (Bytes{0, 1, 1, 1}));
  auto n = run(OT::LOGICAL_NOT, {x}, OperandType::TENSOR_BOOL8);
  EXPECT_EQ(n.shape.dims, (Dimensions{4}));
  EXPECT_EQ(n.b8(), (Bytes{1, 1, 0, 0}));
}

TEST(Logical, Broadcast) {
  auto r = run(OT::LOGICAL_AND, {b8({2, 1}, {0, 9}), b8({3}, {1, 0, 2})});
  EXPECT_EQ(r.shape.dims, (Dimensions{2, 3}));
  EXPECT_EQ(r.b8(), (Bytes{0, 0, 0, 1, 0, 1}));
  auto o = run(OT::LOGICAL_OR, {b8({1}, {0}), b8({2, 2}, {0, 4, 0, 1})});
  EXPECT_EQ(o.b8(), (Bytes{0, 1, 0, 1}));
  EXPECT_FAILS(run(OT::LOGICAL_OR, {b8({2}, {0, 1}), b8({3}, {0, 1, 1})}));
}

TEST(Logical, Errors) {
  EXPECT_FAILS(run(OT::LOGICAL_AND, {i32({1}, {1}), i32({1}, {1})}));
  EXPECT_FAILS(run(OT::LOGICAL_AND, {b8({1}, {1}), i32({1}, {1})}));
  EXPECT_FAILS(run(OT::LOGICAL_NOT, {f32({1}, {1})}));
  EXPECT_FAILS(run(OT::LOGICAL_NOT, {b8({0}, {})}));
  EXPECT_FAILS(run(OT::LOGICAL_OR, {b8({2, 0}, {}), b8({1}, {1})}));
}

}  // namespace
}  // namespace nnfab::cpu::test
