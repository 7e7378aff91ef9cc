// The oracle against hand-computed values, so that "cpu agrees with the
// oracle" means something.
#include <gtest/gtest.h>

#include <limits>

#include "differential/oracle.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab {
namespace {

using namespace nnfab::testing;
using differential::oracleRun;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

Model binaryModel(OperationType op, OperandType in, Dimensions a, Dimensions b, OperandType out,
                  Dimensions outDims) {
  SubgraphBuilder g;
  const uint32_t x = g.input(in, std::move(a));
  const uint32_t y = g.input(in, std::move(b));
  const uint32_t z = g.output(out, std::move(outDims));
  if (op == OperationType::ADD || op == OperationType::SUB || op == OperationType::MUL ||
      op == OperationType::DIV) {
    g.op(op, {x, y, g.scalar(0)}, {z});
  } else {
    g.op(op, {x, y}, {z});
  }
  Model m;
  m.main = g.build();
  return m;
}

std::vector<int32_t> runInt(const Model& m, const std::vector<TensorValue>& in) {
  auto out = oracleRun(m, in);
  EXPECT_TRUE(out.isOk()) << out.status().message();
  return out.isOk() ? values<int32_t>(out->at(0)) : std::vector<int32_t>{};
}

TEST(Oracle, BroadcastsTrailingDimensions) {
  // [2,1,3] + [4,1] -> [2,4,3]; out[i][j][k] = a[i][0][k] + b[j][0].
  const Model m = binaryModel(OperationType::ADD, I32, {2, 1, 3}, {4, 1}, I32, {2, 4, 3});
  auto out = oracleRun(m, {int32s({2, 1, 3}, {0, 1, 2, 10, 11, 12}), int32s({4, 1}, {100, 200, 300, 400})});
  ASSERT_TRUE(out.isOk()) << out.status().message();
  EXPECT_EQ(out->at(0).dimensions, (Dimensions{2, 4, 3}));
  const auto v = values<int32_t>(out->at(0));
  ASSERT_EQ(v.size(), 24u);
  EXPECT_EQ(v[0], 100);
  EXPECT_EQ(v[5], 202);    // [0][1][2]
  EXPECT_EQ(v[12], 110);   // [1][0][0]
  EXPECT_EQ(v[23], 412);   // [1][3][2]
}

TEST(Oracle, Int32DivisionEdgeCases) {
  const Model m = binaryModel(OperationType::DIV, I32, {6}, {6}, I32, {6});
  EXPECT_EQ(runInt(m, {int32s({6}, {kMin, 7, -7, 5, -5, kMax}), int32s({6}, {-1, 0, 2, -2, 2, -1})}),
            (std::vector<int32_t>{kMin, 0, -4, -3, -3, -kMax}));
}

TEST(Oracle, WrapsAddAndMulAndAbsOfMin) {
  const Model add = binaryModel(OperationType::ADD, I32, {2}, {2}, I32, {2});
  EXPECT_EQ(runInt(add, {int32s({2}, {kMax, kMin}), int32s({2}, {1, -1})}),
            (std::vector<int32_t>{kMin, kMax}));
  const Model mul = binaryModel(OperationType::MUL, I32, {1}, {1}, I32, {1});
  EXPECT_EQ(runInt(mul, {int32s({1}, {65536}), int32s({1}, {65536})}), (std::vector<int32_t>{0}));
  SubgraphBuilder g;
  const uint32_t x = g.input(I32, {2});
  const uint32_t y = g.output(I32, {2});
  g.op(OperationType::ABS, {x}, {y});
  Model abs;
  abs.main = g.build();
  EXPECT_EQ(runInt(abs, {int32s({2}, {kMin, -3})}), (std::vector<int32_t>{kMin, 3}));
}

TEST(Oracle, ComparesBool8AsRawBytes) {
  const Model m = binaryModel(OperationType::LESS, B8, {3}, {3}, B8, {3});
  auto out = oracleRun(m, {bools({3}, {1, 2, 0}), bools({3}, {2, 1, 255})});
  ASSERT_TRUE(out.isOk());
  EXPECT_EQ(values<uint8_t>(out->at(0)), (std::vector<uint8_t>{1, 0, 1}));
}

TEST(Oracle, RejectsAnInt32ActivationAndUnknownOperations) {
  SubgraphBuilder g;
  const uint32_t x = g.input(I32, {1});
  const uint32_t y = g.output(I32, {1});
  g.op(OperationType::ADD, {x, x, g.scalar(1)}, {y});
  Model m;
  m.main = g.build();
  EXPECT_FALSE(oracleRun(m, {int32s({1}, {1})}).isOk());
  m.main.operations[0].type = OperationType::FLOOR;
  EXPECT_FALSE(oracleRun(m, {int32s({1}, {1})}).isOk());
}

TEST(Oracle, RunsLoopsAndCountsIterations) {
  differential::OracleStats stats;
  auto out = oracleRun(counterLoop(true), {int32s({1}, {5})}, &stats);
  ASSERT_TRUE(out.isOk()) << out.status().message();
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{5}));
  EXPECT_EQ(values<int32_t>(out->at(1)), (std::vector<int32_t>{10}));
  EXPECT_EQ(stats.maxIterations, 5u);

  auto nested = oracleRun(nestedLoops(), {int32s({1}, {5})});
  ASSERT_TRUE(nested.isOk());
  EXPECT_EQ(values<int32_t>(nested->at(1)), (std::vector<int32_t>{10}));  // 5*4/2

  differential::OracleStats zero;
  auto none = oracleRun(counterLoop(false), {int32s({1}, {-3})}, &zero);
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(values<int32_t>(none->at(0)), (std::vector<int32_t>{0}));
  EXPECT_EQ(zero.zeroIterationLoops, 1u);

  EXPECT_FALSE(oracleRun(infiniteLoop(), {int32s({1}, {0})}, nullptr, 1000).isOk());
}

TEST(Oracle, RunsNestedIfs) {
  auto out = oracleRun(deepIfChain(3), {int32s({1}, {41})});
  ASSERT_TRUE(out.isOk());
  EXPECT_EQ(values<int32_t>(out->at(0)), (std::vector<int32_t>{42}));
}

}  // namespace
}  // namespace nnfab
