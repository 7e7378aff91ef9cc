// Compiled programs run on the hls backend give exactly the CPU reference's
// results: control flow, every operation family with broadcasting and INT32
// edge values, loop-carried tensors, and the loop watchdog.
#include <gtest/gtest.h>

#include <climits>

#include "compiler_test_util.h"
#include "fabric_runner.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::compiler::test {
namespace {

using OT = OperationType;
using testing::SubgraphBuilder;

void expectSame(const Model& model, const std::vector<TensorValue>& inputs) {
  const ExecutionResult cpu = runOnCpu(model, inputs);
  ASSERT_TRUE(cpu.status.isOk()) << cpu.status.message();
  const FabricRun fabric = runOnFabric(model, inputs);
  EXPECT_EQ(compareWithCpu(cpu, fabric), "");
}

TEST(Execution, CounterLoop) {
  for (int32_t n : {-5, 0, 1, 2, 7, 1000}) {
    SCOPED_TRACE(n);
    expectSame(testing::counterLoop(), {testing::int32s({1}, {n})});
    expectSame(testing::counterLoop(true), {testing::int32s({1}, {n})});
  }
}

TEST(Execution, CounterLoopCostsTwoCyclesPerIteration) {
  const FabricRun small = runOnFabric(testing::counterLoop(), {testing::int32s({1}, {10})});
  const FabricRun large = runOnFabric(testing::counterLoop(), {testing::int32s({1}, {1010})});
  ASSERT_TRUE(small.status.isOk() && large.status.isOk());
  EXPECT_EQ(large.report.iterations - small.report.iterations, 1000u);
  EXPECT_EQ(large.report.cycles - small.report.cycles, 2000u);
  EXPECT_EQ(large.report.instret - small.report.instret, 2000u);
}

TEST(Execution, NestedLoopsAndChains) {
  for (int32_t n : {0, 1, 4, 30}) {
    SCOPED_TRACE(n);
    expectSame(testing::nestedLoops(), {testing::int32s({1}, {n})});
  }
  expectSame(testing::deepIfChain(30), {testing::int32s({1}, {41})});
  expectSame(testing::deepWhileChain(20), {testing::int32s({1}, {-3})});
}

TEST(Execution, InfiniteLoopTimesOutLikeTheCpu) {
  const auto timeout = std::chrono::milliseconds(20);
  const Model m = testing::infiniteLoop();
  const std::vector<TensorValue> in = {testing::int32s({1}, {1})};
  const ExecutionResult cpu = runOnCpu(m, in, timeout);
  const FabricRun fabric = runOnFabric(m, in, timeout);
  ASSERT_TRUE(fabric.compiled) << fabric.compileStatus.message();
  EXPECT_EQ(cpu.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  EXPECT_EQ(fabric.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << fabric.status.message();
}

std::vector<int32_t> edgeValues(size_t n, int32_t salt) {
  const int32_t edges[] = {INT32_MIN, INT32_MAX, -1, 0, 1, 7, -7, 2, -2, 100, INT32_MIN + 1, 3};
  std::vector<int32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = edges[(i * 5 + static_cast<size_t>(salt)) % 12];
  return v;
}

std::vector<uint8_t> boolValues(size_t n, int salt) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(((i + static_cast<size_t>(salt)) % 3) == 0 ? 0 : (i % 4 == 1 ? 9 : 1));
  return v;
}

size_t countOf(const Dimensions& d) {
  size_t n = 1;
  for (uint32_t x : d) n *= x;
  return n;
}

TensorValue valueFor(OperandType t, const Dimensions& d, int salt) {
  return t == I32 ? testing::int32s(d, edgeValues(countOf(d), salt)) : testing::bools(d, boolValues(countOf(d), salt));
}

TEST(Execution, EveryOperationWithBroadcasting) {
  struct Shapes {
    Dimensions a, b;
  };
  const std::vector<Shapes> shapes = {
      {{1}, {1}}, {{4}, {4}}, {{4}, {1}}, {{1}, {5}}, {{2, 3}, {3}}, {{2, 1, 3}, {4, 1}},
      {{3, 1}, {1, 4}}, {{2, 2, 2, 3}, {2, 1, 3}}, {{1, 2, 1, 3, 2}, {2}}, {{1, 1}, {1}},
  };
  const std::vector<OT> arithmetic = {OT::ADD, OT::SUB, OT::MUL, OT::DIV, OT::MAXIMUM, OT::MINIMUM};
  const std::vector<OT> comparisons = {OT::EQUAL, OT::NOT_EQUAL, OT::LESS, OT::LESS_EQUAL, OT::GREATER,
                                       OT::GREATER_EQUAL};
  int salt = 0;
  for (const Shapes& s : shapes) {
    const bool rank5 = s.a.size() > 4;
    for (OT op : arithmetic) {
      if (rank5 && op != OT::MAXIMUM && op != OT::MINIMUM) continue;  // the CPU refuses rank 5 arithmetic
      SCOPED_TRACE(std::string(toString(op)));
      expectSame(singleOp(op, {{I32, s.a}, {I32, s.b}}, I32), {valueFor(I32, s.a, salt), valueFor(I32, s.b, salt + 1)});
      ++salt;
    }
    for (OT op : comparisons) {
      for (OperandType t : {I32, B8}) {
        SCOPED_TRACE(std::string(toString(op)) + " " + std::string(toString(t)));
        expectSame(singleOp(op, {{t, s.a}, {t, s.b}}, B8), {valueFor(t, s.a, salt), valueFor(t, s.b, salt + 2)});
        ++salt;
      }
    }
    for (OT op : {OT::LOGICAL_AND, OT::LOGICAL_OR}) {
      SCOPED_TRACE(std::string(toString(op)));
      expectSame(singleOp(op, {{B8, s.a}, {B8, s.b}}, B8), {valueFor(B8, s.a, salt), valueFor(B8, s.b, salt + 1)});
      ++salt;
    }
    for (const Dimensions& d : {s.a, s.b}) {
      for (OT op : {OT::ABS, OT::NEG}) expectSame(singleOp(op, {{I32, d}}, I32), {valueFor(I32, d, salt++)});
      expectSame(singleOp(OT::LOGICAL_NOT, {{B8, d}}, B8), {valueFor(B8, d, salt++)});
      expectSame(singleOp(OT::CAST, {{I32, d}}, I32), {valueFor(I32, d, salt++)});
      expectSame(singleOp(OT::CAST, {{B8, d}}, B8), {valueFor(B8, d, salt++)});
      expectSame(singleOp(OT::SELECT, {{B8, d}, {I32, d}, {I32, d}}, I32),
                 {valueFor(B8, d, salt), valueFor(I32, d, salt + 1), valueFor(I32, d, salt + 2)});
      ++salt;
    }
  }
}

// A request cannot carry zero-sized values, but a step can receive them from
// an earlier CPU step: ADD/SUB/MUL/DIV then yield empty results.
TEST(Execution, ZeroSizedArithmetic) {
  const FabricRun a = runOnFabric(singleOp(OT::ADD, {{I32, {0}}, {I32, {1}}}, I32),
                                  {testing::int32s({0}, {}), testing::int32s({1}, {4})});
  ASSERT_TRUE(a.compiled && a.status.isOk()) << a.compileStatus.message() << a.status.message();
  EXPECT_EQ(a.outputs[0].dimensions, Dimensions{0});
  EXPECT_TRUE(a.outputs[0].data.empty());
  const FabricRun b = runOnFabric(singleOp(OT::MUL, {{I32, {2, 0}}, {I32, {1, 1}}}, I32),
                                  {testing::int32s({2, 0}, {}), testing::int32s({1, 1}, {4})});
  ASSERT_TRUE(b.compiled && b.status.isOk());
  EXPECT_EQ(b.outputs[0].dimensions, (Dimensions{2, 0}));
}

// Constants of every kind: scalar and tensor, in scalar and tensor ops.
TEST(Execution, Constants) {
  SubgraphBuilder main;
  const uint32_t x = main.input(I32, {3});
  const uint32_t s = main.input(I32, {1});
  const uint32_t c3 = main.int32Tensor({3}, {10, -20, INT32_MIN});
  const uint32_t c1 = main.int32Tensor({1}, {-3});
  const uint32_t t1 = main.temp(I32, {3});
  const uint32_t t2 = main.temp(I32, {3});
  const uint32_t y = main.output(I32, {3});
  const uint32_t z = main.output(I32, {1});
  const uint32_t w = main.output(I32, {3});
  const uint32_t none = main.scalar(0);
  main.op(OT::ADD, {x, c3, none}, {t1});
  main.op(OT::MUL, {t1, c1, none}, {t2});
  main.op(OT::DIV, {t2, s, none}, {y});
  main.op(OT::SUB, {s, c1, none}, {z});
  main.op(OT::CAST, {c3}, {w});  // an output that is a constant's copy
  Model m;
  m.main = main.build();
  expectSame(m, {testing::int32s({3}, {1, 2, 3}), testing::int32s({1}, {-2})});
  expectSame(m, {testing::int32s({3}, {INT32_MIN, 0, -1}), testing::int32s({1}, {0})});
}

// IF with scalar and tensor outputs; branches reading outer values.
Model ifModel() {
  Model m;
  {
    SubgraphBuilder t;
    const uint32_t x = t.input(I32, {4});
    const uint32_t k = t.input(I32, {1});
    const uint32_t y = t.output(I32, {4});
    const uint32_t r = t.output(I32, {1});
    t.op(OT::MUL, {x, k, t.scalar(0)}, {y});
    t.op(OT::NEG, {k}, {r});
    m.referenced.push_back(t.build());
  }
  {
    SubgraphBuilder e;
    const uint32_t x = e.input(I32, {4});
    const uint32_t k = e.input(I32, {1});
    const uint32_t y = e.output(I32, {4});
    const uint32_t r = e.output(I32, {1});
    e.op(OT::CAST, {x}, {y});
    e.op(OT::ADD, {k, e.int32Tensor({1}, {100}), e.scalar(0)}, {r});
    m.referenced.push_back(e.build());
  }
  SubgraphBuilder main;
  const uint32_t c = main.input(B8, {1});
  const uint32_t x = main.input(I32, {4});
  const uint32_t k = main.input(I32, {1});
  const uint32_t y = main.output(I32, {4});
  const uint32_t r = main.output(I32, {1});
  main.op(OT::IF, {c, main.subgraphRef(0), main.subgraphRef(1), x, k}, {y, r});
  m.main = main.build();
  return m;
}

TEST(Execution, IfBothWays) {
  for (uint8_t c : {0, 1, 200}) {
    SCOPED_TRACE(int{c});
    expectSame(ifModel(), {testing::bools({1}, {c}), testing::int32s({4}, {1, -2, 3, INT32_MIN}),
                           testing::int32s({1}, {-3})});
  }
}

// while (i < n) { i = i + 1; x = x * 2 + i } with x a tensor [8] (swapped
// buffers); the outputs are the final i and x.
Model tensorLoop(const Dimensions& xDims) {
  Model m;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  cond.input(I32, xDims);
  const uint32_t cn = cond.input(I32, {1});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OT::LESS, {ci, cn}, {co});
  m.referenced.push_back(cond.build());
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  const uint32_t x = body.input(I32, xDims);
  body.input(I32, {1});
  const uint32_t iNext = body.output(I32, {1});
  const uint32_t xNext = body.output(I32, xDims);
  const uint32_t twice = body.temp(I32, xDims);
  body.op(OT::ADD, {i, body.int32Tensor({1}, {1}), body.scalar(0)}, {iNext});
  body.op(OT::MUL, {x, body.int32Tensor({1}, {2}), body.scalar(0)}, {twice});
  body.op(OT::ADD, {twice, iNext, body.scalar(0)}, {xNext});
  m.referenced.push_back(body.build());
  SubgraphBuilder main;
  const uint32_t n = main.input(I32, {1});
  const uint32_t x0 = main.input(I32, xDims);
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t xOut = main.output(I32, xDims);
  main.op(OT::WHILE, {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0}), x0, n}, {iOut, xOut});
  m.main = main.build();
  return m;
}

TEST(Execution, LoopCarriedTensors) {
  for (int32_t n : {0, 1, 2, 3, 17}) {
    SCOPED_TRACE(n);
    expectSame(tensorLoop({8}), {testing::int32s({1}, {n}), testing::int32s({8}, edgeValues(8, n))});
    expectSame(tensorLoop({2, 3}), {testing::int32s({1}, {n}), testing::int32s({2, 3}, edgeValues(6, n))});
  }
}

// while (i < n) { i = i + 1; x[k] = x[k] + x[(k + 1) % K] } for K tensors of
// different shapes: all live in two blocks behind two base registers.
Model manyTensorsLoop(uint32_t K) {
  auto dims = [](uint32_t k) { return Dimensions{2, 1 + k % 3}; };
  Model m;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  for (uint32_t k = 0; k < K; ++k) cond.input(I32, dims(k));
  const uint32_t cn = cond.input(I32, {1});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OT::LESS, {ci, cn}, {co});
  m.referenced.push_back(cond.build());
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  std::vector<uint32_t> x;
  for (uint32_t k = 0; k < K; ++k) x.push_back(body.input(I32, dims(k)));
  body.input(I32, {1});
  const uint32_t iNext = body.output(I32, {1});
  body.op(OT::ADD, {i, body.int32Tensor({1}, {1}), body.scalar(0)}, {iNext});
  for (uint32_t k = 0; k < K; ++k) {
    const uint32_t out = body.output(I32, dims(k));
    // Another state tensor of the same shape where there is one (k + 3 has
    // the same shape unless it wraps), else the counter, broadcast.
    const uint32_t j = (k + 3) % K;
    const uint32_t other = dims(j) == dims(k) ? x[j] : i;
    body.op(OT::ADD, {x[k], other, body.scalar(0)}, {out});
  }
  m.referenced.push_back(body.build());
  SubgraphBuilder main;
  const uint32_t n = main.input(I32, {1});
  std::vector<uint32_t> in = {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0})};
  for (uint32_t k = 0; k < K; ++k) in.push_back(main.input(I32, dims(k)));
  in.push_back(n);
  std::vector<uint32_t> outs = {main.output(I32, {1})};
  for (uint32_t k = 0; k < K; ++k) outs.push_back(main.output(I32, dims(k)));
  main.op(OT::WHILE, in, outs);
  m.main = main.build();
  return m;
}

TEST(Execution, ManyLoopCarriedTensors) {
  const uint32_t K = 20;
  const Model m = manyTensorsLoop(K);
  for (int32_t n : {0, 1, 4}) {
    std::vector<TensorValue> in = {testing::int32s({1}, {n})};
    for (uint32_t k = 0; k < K; ++k) {
      const Dimensions d{2, 1 + k % 3};
      in.push_back(testing::int32s(d, edgeValues(countOf(d), static_cast<int32_t>(k))));
    }
    SCOPED_TRACE(n);
    expectSame(m, in);
  }
}

// A step inside a loop body (a referenced subgraph as the step's subgraph):
// the runtime compiles parts of interpreted subgraphs this way.
TEST(Execution, StepOfAReferencedSubgraph) {
  const Model m = testing::counterLoop(true);
  StepSpec step;
  step.subgraph = 2;  // the body: (i, acc, n) -> (i + 1, acc + i)
  step.operations = {0, 1};
  step.inputs = m.referenced[1].inputIndexes;
  step.outputs = m.referenced[1].outputIndexes;
  auto p = compile(m, step, {{1}, {1}, {1}});
  ASSERT_TRUE(p.isOk()) << p.status().message();
  EXPECT_EQ(p->inputs.size(), 3u);
  EXPECT_EQ(p->outputs.size(), 2u);
}

}  // namespace
}  // namespace nnfab::compiler::test
