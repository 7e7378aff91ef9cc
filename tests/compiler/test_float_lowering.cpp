// FLOAT32 lowering (docs/compiler.md "What the fabric runs", ISA version 2):
// hand-built models compiled as one step, run on the hls core and compared
// bit for bit with the CPU reference, plus the shape of what is emitted
// (one-element FLOAT32 values in memory, a FLOAT32 comparison steering a
// branch through a load, FC's descriptor) and the support rules with and
// without FEATURES.FLOAT32.
#include <gtest/gtest.h>

#include <limits>

#include "compiler/disassembler.h"
#include "compiler_test_util.h"
#include "fabric_runner.h"

namespace nnfab::compiler::test {
namespace {

using testing::floats;
using testing::int32s;

void expectSameAsCpu(const Model& model, const std::vector<TensorValue>& inputs, const char* what) {
  const FabricRun fabric = runOnFabric(model, inputs);
  ASSERT_TRUE(fabric.compiled) << what << ": " << fabric.compileStatus.message();
  EXPECT_EQ(compareWithCpu(runOnCpu(model, inputs), fabric), "") << what;
}

uint32_t countOpcode(const Program& p, uint32_t opcode) {
  uint32_t n = 0;
  for (uint64_t w : p.code) n += (isa::decodeFields(w).opcode == opcode);
  return n;
}

TEST(FloatLowering, ElementwiseWithEveryActivationAndEdgeValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> a = {-0.0f, 1e-45f, 3.0f, -inf, 0.75f, -6.5f, 2e38f, std::numeric_limits<float>::quiet_NaN()};
  const std::vector<float> b = {0.0f, -1e-45f, 0.0f, inf, -0.25f, 7.0f, 2e38f, 1.0f};
  for (OperationType op : {OperationType::ADD, OperationType::SUB, OperationType::MUL, OperationType::DIV}) {
    for (int32_t act = 0; act < 4; ++act) {
      const Model m = singleOp(op, {{F32, {8}}, {F32, {8}}}, F32, act);
      expectSameAsCpu(m, {floats({8}, a), floats({8}, b)}, toString(op).data());
    }
  }
  for (OperationType op : {OperationType::MAXIMUM, OperationType::MINIMUM, OperationType::LESS,
                           OperationType::NOT_EQUAL, OperationType::GREATER_EQUAL}) {
    const OperandType out = op == OperationType::MAXIMUM || op == OperationType::MINIMUM ? F32 : B8;
    expectSameAsCpu(singleOp(op, {{F32, {8}}, {F32, {1}}}, out), {floats({8}, a), floats({1}, {0.5f})},
                    toString(op).data());
  }
  expectSameAsCpu(singleOp(OperationType::NEG, {{F32, {8}}}, F32), {floats({8}, a)}, "NEG");
  expectSameAsCpu(singleOp(OperationType::CAST, {{F32, {8}}}, I32), {floats({8}, a)}, "CAST to INT32");
  expectSameAsCpu(singleOp(OperationType::CAST, {{I32, {3}}}, F32), {int32s({3}, {16777217, -5, 0})},
                  "CAST to FLOAT32");
}

// while (i < n) i = i + 0.5: a [1] FLOAT32 counter, LESS on floats as the
// condition.
Model floatCounterLoop() {
  Model model;
  testing::SubgraphBuilder cond;
  const uint32_t ci = cond.input(F32, {1});
  const uint32_t cn = cond.input(F32, {1});
  const uint32_t go = cond.output(B8, {1});
  cond.op(OperationType::LESS, {ci, cn}, {go});
  model.referenced.push_back(cond.build());
  testing::SubgraphBuilder body;
  const uint32_t bi = body.input(F32, {1});
  body.input(F32, {1});
  const uint32_t next = body.output(F32, {1});
  body.op(OperationType::ADD, {bi, body.floatTensor({1}, {0.5f}), body.scalar(0)}, {next});
  model.referenced.push_back(body.build());
  testing::SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), b = main.subgraphRef(1);
  const uint32_t i0 = main.input(F32, {1});
  const uint32_t n = main.input(F32, {1});
  const uint32_t out = main.output(F32, {1});
  main.op(OperationType::WHILE, {c, b, i0, n}, {out});
  model.main = main.build();
  return model;
}

TEST(FloatLowering, OneElementFloatsLiveInMemoryAndAComparisonSteersAWhile) {
  const Model m = floatCounterLoop();
  const std::vector<TensorValue> inputs = {floats({1}, {1}), floats({1}, {5})};
  expectSameAsCpu(m, inputs, "float loop");
  const FabricRun run = runOnFabric(m, inputs);
  ASSERT_TRUE(run.compiled);
  // The FLOAT32 comparison is a tensor instruction whose BOOL8 result is
  // loaded into a register for the branch; no FLOAT32 scalar ALU exists.
  EXPECT_GE(countOpcode(run.program, uint32_t{isa::kClassTENSOR} | isa::kFnLT), 1u);
  EXPECT_GE(countOpcode(run.program, isa::kOpLDB), 1u);
  for (uint64_t w : run.program.code) {
    const isa::Fields f = isa::decodeFields(w);
    if ((f.opcode & isa::kClassMask) != isa::kClassTENSOR) {
      EXPECT_EQ(f.type, 0u) << disassembleInstruction(w);
    }
  }
}

Model fcModel(Dimensions in, uint32_t units, int32_t act) {
  testing::SubgraphBuilder main;
  const uint32_t x = main.input(F32, in);
  const uint32_t inputSize = in.back();
  std::vector<float> w(size_t{units} * inputSize), b(units);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.375f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i) - 1.5f;
  const uint32_t out = main.output(F32, {});
  main.op(OperationType::FULLY_CONNECTED,
          {x, main.floatTensor({units, inputSize}, w), main.floatTensor({units}, b), main.scalar(act)}, {out});
  Model model;
  model.main = main.build();
  return model;
}

TEST(FloatLowering, FullyConnectedFlattensTheInputAndTakesEveryActivation) {
  for (int32_t act = 0; act < 4; ++act) {
    // Rank 3 [2, 3, 5] flattens to batch 6 of input_size 5.
    std::vector<float> x(30);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 11) - 5) * 0.5f;
    const Model m = fcModel({2, 3, 5}, 4, act);
    expectSameAsCpu(m, {floats({2, 3, 5}, x)}, "FC rank 3");
    const FabricRun run = runOnFabric(m, {floats({2, 3, 5}, x)});
    ASSERT_TRUE(run.compiled);
    EXPECT_EQ(countOpcode(run.program, uint32_t{isa::kClassTENSOR} | isa::kFnFC), 1u);
    EXPECT_EQ(run.outputs[0].dimensions, (Dimensions{6, 4}));
  }
}

TEST(FloatLowering, ReshapeIsACopyWithTheNewShape) {
  testing::SubgraphBuilder main;
  const uint32_t x = main.input(F32, {2, 6});
  const uint32_t out = main.output(F32, {});
  main.op(OperationType::RESHAPE, {x, main.int32Tensor({3}, {3, -1, 2})}, {out});
  Model m;
  m.main = main.build();
  std::vector<float> v(12);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.25f;
  expectSameAsCpu(m, {floats({2, 6}, v)}, "RESHAPE");
}

TEST(FloatLowering, SupportFollowsTheFeatures) {
  const Model m = singleOp(OperationType::ADD, {{F32, {4}}, {F32, {4}}}, F32, 1);
  std::string why;
  EXPECT_FALSE(isOperationSupported(m, 0, 0, &why));  // the base ISA
  EXPECT_NE(why.find("FEATURES"), std::string::npos) << why;
  FabricFeatures f;
  f.float32 = true;
  EXPECT_TRUE(isOperationSupported(m, 0, 0, &why, f)) << why;
  // A fused activation the program cannot encode: not a constant.
  testing::SubgraphBuilder main;
  const uint32_t a = main.input(F32, {4});
  const uint32_t act = main.input(OperandType::INT32, {});
  const uint32_t out = main.output(F32, {});
  main.op(OperationType::ADD, {a, a, act}, {out});
  Model dynamicAct;
  dynamicAct.main = main.build();
  EXPECT_FALSE(isOperationSupported(dynamicAct, 0, 0, &why, f));
  EXPECT_NE(why.find("constant fused activation"), std::string::npos) << why;
  // FULLY_CONNECTED without FLOAT32 in FEATURES, with FLOAT32 but without
  // FEATURE_FC, and with both.
  EXPECT_FALSE(isOperationSupported(fcModel({1, 4}, 2, 0), 0, 0, &why));
  EXPECT_FALSE(isOperationSupported(fcModel({1, 4}, 2, 0), 0, 0, &why, f));
  EXPECT_NE(why.find("FEATURE_FC"), std::string::npos) << why;
  f.fc = true;
  EXPECT_TRUE(isOperationSupported(fcModel({1, 4}, 2, 0), 0, 0, &why, f)) << why;
}

// FULLY_CONNECTED without a bias (a NO_VALUE operand): a zero bias would be
// bit-identical numerically (the sum starts at +0 and adds rounded
// products, so it is never -0 and acc + (+0) = acc), but the CPU executor
// rejects the operation (host/cpu/kernels/fully_connected.cpp requires the
// bias, as NNAPI 1.3 does). The fabric must not succeed where the reference
// fails, so the operation stays on the CPU with a sentence saying why.
TEST(FloatLowering, FullyConnectedWithoutABiasStaysOnTheCpuBecauseTheCpuExecutorRejectsIt) {
  testing::SubgraphBuilder main;
  const uint32_t x = main.input(F32, {1, 4});
  const uint32_t out = main.output(F32, {});
  main.op(OperationType::FULLY_CONNECTED,
          {x, main.floatTensor({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), main.noValue(F32, {2}), main.scalar(0)}, {out});
  Model m;
  m.main = main.build();
  FabricFeatures f;
  f.float32 = true;
  f.fc = true;
  std::string why;
  EXPECT_FALSE(isOperationSupported(m, 0, 0, &why, f));
  EXPECT_NE(why.find("bias has no value"), std::string::npos) << why;
  EXPECT_NE(why.find("CPU executor"), std::string::npos) << why;
  const ExecutionResult cpu = runOnCpu(m, {floats({1, 4}, {1, -2, 3, -4})});
  EXPECT_FALSE(cpu.status.isOk()) << "the CPU executor ran FULLY_CONNECTED without a bias";
}

}  // namespace
}  // namespace nnfab::compiler::test
