// Placement in the data region's windows (docs/compiler.md "Data windows",
// docs/isa.md "Memory model"): the vector engine's B operands in window B,
// its results in window D, every scalar load and store, every descriptor
// and everything else in window A; the layout [A][B][D] with 64-byte
// aligned starts; and the programs computing what the CPU does on the hls
// device, whose windows B and D lie apart from A.
#include <gtest/gtest.h>

#include <cstring>

#include "compiler/compiler_test_util.h"
#include "compiler/fabric_runner.h"
#include "isa/data_windows.h"
#include "support/model_builder.h"

namespace nnfab::compiler::test {
namespace {

using testing::SubgraphBuilder;
using OT = OperationType;

isa::WindowBounds boundsOf(const Program& p) {
  return isa::windowBounds(p.srcbStart, p.dstStart, static_cast<uint32_t>(p.dataBytes));
}

uint32_t windowOf(const Program& p, const IoSlot& slot) { return isa::windowOf(boundsOf(p), slot.offset); }

// Every absolute load and store (ra = r0) and every descriptor lies in
// window A: the core reaches nothing else with them.
void expectScalarsAndDescriptorsInA(const Program& p) {
  const isa::WindowBounds w = boundsOf(p);
  for (size_t pc = 0; pc < p.code.size(); ++pc) {
    const isa::Fields f = fields(p, pc);
    const bool word = f.opcode == isa::kOpLDW || f.opcode == isa::kOpSTW;
    const bool byte = f.opcode == isa::kOpLDB || f.opcode == isa::kOpSTB;
    if ((word || byte) && f.ra == 0) {
      EXPECT_LE(uint64_t{f.imm} + (word ? 4 : 1), w.end[isa::kWindowA]) << "pc " << pc;
    }
    if (opClass(f) == isa::kClassTENSOR) {
      EXPECT_LE(uint64_t{f.imm} + isa::kDESCRIPTOR_BYTES, w.end[isa::kWindowA]) << "pc " << pc;
    }
  }
}

TEST(Placement, AVectorAddsBOperandAndResultGoToWindowsBAndD) {
  const Model m = singleOp(OT::ADD, {{I32, {4, 16}}, {I32, {4, 16}}}, I32);
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  ASSERT_NE(p->srcbStart, isa::kNoWindowStart);
  ASSERT_NE(p->dstStart, isa::kNoWindowStart);
  // [A][B][D]: A holds the image, each start on a 64-byte boundary.
  EXPECT_EQ(p->srcbStart % 64, 0u);
  EXPECT_EQ(p->dstStart % 64, 0u);
  EXPECT_GE(p->srcbStart, p->dataImage.size());
  EXPECT_LT(p->srcbStart, p->dstStart);
  EXPECT_LE(uint64_t{p->dstStart} + 256, p->dataBytes);
  ASSERT_EQ(p->inputs.size(), 2u);
  EXPECT_EQ(windowOf(*p, p->inputs[0]), isa::kWindowA);
  EXPECT_EQ(windowOf(*p, p->inputs[1]), isa::kWindowB);
  EXPECT_EQ(windowOf(*p, p->outputs[0]), isa::kWindowD);
  expectScalarsAndDescriptorsInA(*p);

  const std::vector<TensorValue> in = {testing::int32s({4, 16}, std::vector<int32_t>(64, 7)),
                                       testing::int32s({4, 16}, std::vector<int32_t>(64, -3))};
  const FabricRun fabric = runOnFabric(m, in);
  EXPECT_EQ(compareWithCpu(runOnCpu(m, in), fabric), "");
}

TEST(Placement, AConstantOnlyTheVectorEngineReadsAsBGoesToWindowB) {
  // x * c with c a constant tensor: c at the start of window B, in the image.
  SubgraphBuilder main;
  const uint32_t x = main.input(I32, {16});
  std::vector<int32_t> values(16);
  for (int k = 0; k < 16; ++k) values[k] = 3 - k;
  const uint32_t c = main.int32Tensor({16}, values);
  const uint32_t out = main.output(I32, {});
  main.op(OT::MUL, {x, c, main.scalar(0)}, {out});
  Model m;
  m.main = main.build();
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  ASSERT_NE(p->srcbStart, isa::kNoWindowStart);
  ASSERT_GE(p->dataImage.size(), uint64_t{p->srcbStart} + 64);
  std::vector<int32_t> inB(16);
  std::memcpy(inB.data(), p->dataImage.data() + p->srcbStart, 64);
  EXPECT_EQ(inB, values);
  EXPECT_EQ(windowOf(*p, p->inputs[0]), isa::kWindowA);
  EXPECT_EQ(windowOf(*p, p->outputs[0]), isa::kWindowD);
  expectScalarsAndDescriptorsInA(*p);

  std::vector<int32_t> xs(16);
  for (int k = 0; k < 16; ++k) xs[k] = 1000 * k - 7;
  const std::vector<TensorValue> in = {testing::int32s({16}, xs)};
  EXPECT_EQ(compareWithCpu(runOnCpu(m, in), runOnFabric(m, in)), "");
}

TEST(Placement, ElementEngineOperandsStayInWindowA) {
  // DIV runs on the element engine: nothing leaves window A.
  const Model m = singleOp(OT::DIV, {{I32, {32}}, {I32, {32}}}, I32);
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  EXPECT_EQ(p->srcbStart, isa::kNoWindowStart);
  EXPECT_EQ(p->dstStart, isa::kNoWindowStart);
  // So does a broadcast B operand (stride 0: not contiguous); the result is
  // the vector engine's only if every source is contiguous.
  const Model b = singleOp(OT::ADD, {{I32, {8, 8}}, {I32, {8}}}, I32);
  auto q = compileMain(b);
  ASSERT_TRUE(q.isOk()) << q.status().message();
  EXPECT_EQ(q->srcbStart, isa::kNoWindowStart);
  EXPECT_EQ(q->dstStart, isa::kNoWindowStart);
}

// while (i < n) { i = i + 1; x = x + y }: the counter and n are scalars
// (LDW/STW), x is loop-carried (a block of window A), y is only the vector
// ADD's B operand.
Model counterWithVectorBody() {
  Model m;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  cond.input(I32, {16});
  cond.input(I32, {16});
  const uint32_t cn = cond.input(I32, {1});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OT::LESS, {ci, cn}, {co});
  m.referenced.push_back(cond.build());
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  const uint32_t x = body.input(I32, {16});
  const uint32_t y = body.input(I32, {16});
  body.input(I32, {1});
  const uint32_t iNext = body.output(I32, {1});
  const uint32_t xNext = body.output(I32, {16});
  body.op(OT::ADD, {i, body.int32Tensor({1}, {1}), body.scalar(0)}, {iNext});
  body.op(OT::ADD, {x, y, body.scalar(0)}, {xNext});
  m.referenced.push_back(body.build());
  SubgraphBuilder main;
  const uint32_t n = main.input(I32, {1});
  const uint32_t x0 = main.input(I32, {16});
  const uint32_t y0 = main.input(I32, {16});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t xOut = main.output(I32, {16});
  main.op(OT::WHILE, {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0}), x0, y0, n},
          {iOut, xOut});
  m.main = main.build();
  return m;
}

TEST(Placement, AWhileCounterStaysInWindowA) {
  const Model m = counterWithVectorBody();
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  ASSERT_EQ(p->inputs.size(), 3u);
  ASSERT_EQ(p->outputs.size(), 2u);
  EXPECT_EQ(windowOf(*p, p->inputs[0]), isa::kWindowA);   // n: a load
  EXPECT_EQ(windowOf(*p, p->outputs[0]), isa::kWindowA);  // the counter: a store
  EXPECT_EQ(windowOf(*p, p->inputs[2]), isa::kWindowB);   // y: the B operand only
  EXPECT_NE(p->srcbStart, isa::kNoWindowStart);
  expectScalarsAndDescriptorsInA(*p);

  std::vector<int32_t> x(16), y(16);
  for (int k = 0; k < 16; ++k) {
    x[k] = k;
    y[k] = 100 - 3 * k;
  }
  const std::vector<TensorValue> in = {testing::int32s({1}, {5}), testing::int32s({16}, x),
                                       testing::int32s({16}, y)};
  const FabricRun fabric = runOnFabric(m, in);
  EXPECT_TRUE(fabric.compiled);
  EXPECT_EQ(compareWithCpu(runOnCpu(m, in), fabric), "");
}

}  // namespace
}  // namespace nnfab::compiler::test
