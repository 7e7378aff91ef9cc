// isOperationSupported: every elementwise operation on every relevant type
// combination, the activation rule, and IF/WHILE with unsupported operations
// nested inside (the reason names the subgraph and the operation).
#include <gtest/gtest.h>

#include "compiler/compiler.h"
#include "compiler_test_util.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::compiler::test {
namespace {

using OT = OperationType;
using testing::SubgraphBuilder;

bool supported(const Model& m, std::string* why = nullptr) { return isOperationSupported(m, 0, 0, why); }

struct Case {
  OT op;
  std::vector<OperandType> in;
  OperandType out;
  bool expected;
};

TEST(Support, EveryElementwiseTypeCombination) {
  const std::vector<OT> binaryInt = {OT::ADD, OT::SUB, OT::MUL, OT::DIV, OT::MAXIMUM, OT::MINIMUM};
  const std::vector<OT> comparisons = {OT::EQUAL, OT::NOT_EQUAL, OT::LESS, OT::LESS_EQUAL, OT::GREATER,
                                       OT::GREATER_EQUAL};
  std::vector<Case> cases;
  for (OT op : binaryInt) {
    cases.push_back({op, {I32, I32}, I32, true});
    cases.push_back({op, {F32, F32}, F32, false});
    cases.push_back({op, {B8, B8}, B8, false});
    cases.push_back({op, {I32, F32}, I32, false});
  }
  for (OT op : {OT::ABS, OT::NEG}) {
    cases.push_back({op, {I32}, I32, true});
    cases.push_back({op, {F32}, F32, false});
    cases.push_back({op, {B8}, B8, false});
  }
  for (OT op : comparisons) {
    cases.push_back({op, {I32, I32}, B8, true});
    cases.push_back({op, {B8, B8}, B8, true});
    cases.push_back({op, {F32, F32}, B8, false});
    cases.push_back({op, {I32, B8}, B8, false});
  }
  for (OT op : {OT::LOGICAL_AND, OT::LOGICAL_OR}) {
    cases.push_back({op, {B8, B8}, B8, true});
    cases.push_back({op, {I32, I32}, B8, false});
  }
  cases.push_back({OT::LOGICAL_NOT, {B8}, B8, true});
  cases.push_back({OT::LOGICAL_NOT, {I32}, B8, false});
  cases.push_back({OT::SELECT, {B8, I32, I32}, I32, true});
  cases.push_back({OT::SELECT, {B8, F32, F32}, F32, false});
  cases.push_back({OT::SELECT, {B8, B8, B8}, B8, false});
  cases.push_back({OT::CAST, {I32}, I32, true});
  cases.push_back({OT::CAST, {B8}, B8, true});
  cases.push_back({OT::CAST, {I32}, F32, false});
  cases.push_back({OT::CAST, {F32}, I32, false});
  cases.push_back({OT::CAST, {F32}, F32, false});
  cases.push_back({OT::CAST, {I32}, B8, false});

  for (const Case& c : cases) {
    std::vector<std::pair<OperandType, Dimensions>> inputs;
    for (OperandType t : c.in) inputs.push_back({t, {2}});
    const Model m = singleOp(c.op, inputs, c.out);
    std::string why;
    EXPECT_EQ(supported(m, &why), c.expected)
        << toString(c.op) << " on " << toString(c.in[0]) << " -> " << toString(c.out) << ": " << why;
    if (!c.expected) {
      EXPECT_FALSE(why.empty()) << toString(c.op);
    }
  }
}

TEST(Support, ArithmeticNeedsConstantZeroActivation) {
  for (OT op : {OT::ADD, OT::SUB, OT::MUL, OT::DIV}) {
    EXPECT_TRUE(supported(singleOp(op, {{I32, {2}}, {I32, {2}}}, I32, 0))) << toString(op);
    for (int32_t act : {1, 2, 3, 7}) {
      std::string why;
      EXPECT_FALSE(supported(singleOp(op, {{I32, {2}}, {I32, {2}}}, I32, act), &why)) << toString(op) << act;
      EXPECT_NE(why.find("activation"), std::string::npos) << why;
    }
    // An activation supplied at run time: the fabric cannot know it is 0.
    SubgraphBuilder main;
    const uint32_t a = main.input(I32, {2}), b = main.input(I32, {2});
    const uint32_t act = main.input(OperandType::INT32, {});
    const uint32_t out = main.output(I32, {2});
    main.op(op, {a, b, act}, {out});
    Model m;
    m.main = main.build();
    EXPECT_FALSE(supported(m)) << toString(op);
  }
}

TEST(Support, OtherOperationsAreNot) {
  SubgraphBuilder main;
  const uint32_t x = main.input(F32, {2, 2});
  const uint32_t w = main.floatTensor({2, 2}, {1, 0, 0, 1});
  const uint32_t b = main.floatTensor({2}, {0, 0});
  const uint32_t y = main.output(F32, {2, 2});
  main.op(OT::FULLY_CONNECTED, {x, w, b, main.scalar(0)}, {y});
  Model m;
  m.main = main.build();
  std::string why;
  EXPECT_FALSE(supported(m, &why));
  EXPECT_NE(why.find("FULLY_CONNECTED"), std::string::npos) << why;

  SubgraphBuilder r;
  const uint32_t in = r.input(I32, {4});
  const uint32_t shape = r.int32Tensor({2}, {2, 2});
  const uint32_t out = r.output(I32, {2, 2});
  r.op(OT::RESHAPE, {in, shape}, {out});
  m.main = r.build();
  EXPECT_FALSE(supported(m));
}

TEST(Support, OutOfRangeIndexesAreNotSupported) {
  const Model m = testing::counterLoop();
  std::string why;
  EXPECT_FALSE(isOperationSupported(m, 7, 0, &why));
  EXPECT_FALSE(isOperationSupported(m, 0, 5, &why));
  Model broken = m;
  broken.main.operations[0].inputs.push_back(999);
  EXPECT_FALSE(isOperationSupported(broken, 0, 0, &why));
}

// IF whose then branch is ADD on INT32 (supported) and whose else branch is
// referenced[elseIndex].
Subgraph intAddBranch() {
  SubgraphBuilder b;
  const uint32_t x = b.input(I32, {2});
  const uint32_t y = b.output(I32, {2});
  b.op(OT::ADD, {x, b.int32Tensor({1}, {1}), b.scalar(0)}, {y});
  return b.build();
}
Subgraph floatAddBranch() {
  SubgraphBuilder b;
  const uint32_t x = b.input(I32, {2});
  const uint32_t f = b.floatTensor({2}, {1, 2});
  const uint32_t g = b.temp(F32, {2});
  const uint32_t y = b.output(I32, {2});
  b.op(OT::ADD, {f, f, b.scalar(0)}, {g});
  b.op(OT::CAST, {x}, {y});
  return b.build();
}
Model ifModel(Subgraph thenBranch, Subgraph elseBranch) {
  Model m;
  m.referenced.push_back(std::move(thenBranch));
  m.referenced.push_back(std::move(elseBranch));
  SubgraphBuilder main;
  const uint32_t c = main.input(B8, {1});
  const uint32_t x = main.input(I32, {2});
  const uint32_t y = main.output(I32, {2});
  main.op(OT::IF, {c, main.subgraphRef(0), main.subgraphRef(1), x}, {y});
  m.main = main.build();
  return m;
}

TEST(Support, IfNeedsBothBranchesSupported) {
  EXPECT_TRUE(supported(ifModel(intAddBranch(), intAddBranch())));
  std::string why;
  EXPECT_FALSE(supported(ifModel(intAddBranch(), floatAddBranch()), &why));
  EXPECT_NE(why.find("subgraph 2 (referenced[1])"), std::string::npos) << why;
  EXPECT_NE(why.find("operation 0 (ADD)"), std::string::npos) << why;
  EXPECT_NE(why.find("TENSOR_FLOAT32"), std::string::npos) << why;
}

TEST(Support, LoopsAreSupportedWhenEverythingInsideIs) {
  EXPECT_TRUE(supported(testing::counterLoop()));
  EXPECT_TRUE(supported(testing::counterLoop(true)));
  EXPECT_TRUE(supported(testing::nestedLoops()));
  EXPECT_TRUE(supported(testing::deepIfChain(50)));
}

TEST(Support, UnsupportedOperationDeepInsideWhileAndIf) {
  // main WHILE -> body (referenced[1]) has an IF -> else (referenced[3]) has
  // a FLOAT32 ADD.
  Model m = testing::counterLoop();
  const size_t thenIndex = m.referenced.size();
  m.referenced.push_back(intAddBranch());
  m.referenced.push_back(floatAddBranch());
  {
    Subgraph& body = m.referenced[1];
    SubgraphBuilder extra;  // append operands to the existing body
    (void)extra;
    Operand cond;
    cond.type = B8;
    cond.dimensions = {1};
    cond.lifetime = OperandLifeTime::CONSTANT_COPY;
    cond.value = {1};
    body.operands.push_back(cond);
    const uint32_t c = static_cast<uint32_t>(body.operands.size() - 1);
    Operand x;
    x.type = I32;
    x.dimensions = {2};
    x.lifetime = OperandLifeTime::CONSTANT_COPY;
    x.value.assign(8, 0);
    body.operands.push_back(x);
    const uint32_t xi = static_cast<uint32_t>(body.operands.size() - 1);
    Operand y;
    y.type = I32;
    y.dimensions = {2};
    body.operands.push_back(y);
    const uint32_t yi = static_cast<uint32_t>(body.operands.size() - 1);
    Operand t, e;
    t.type = e.type = OperandType::SUBGRAPH;
    t.lifetime = e.lifetime = OperandLifeTime::SUBGRAPH;
    t.subgraph = static_cast<uint32_t>(thenIndex);
    e.subgraph = static_cast<uint32_t>(thenIndex + 1);
    body.operands.push_back(t);
    body.operands.push_back(e);
    const uint32_t ti = static_cast<uint32_t>(body.operands.size() - 2);
    body.operations.push_back({OT::IF, {c, ti, ti + 1, xi}, {yi}});
  }
  std::string why;
  EXPECT_FALSE(supported(m, &why));
  EXPECT_NE(why.find("WHILE"), std::string::npos) << why;
  EXPECT_NE(why.find("subgraph 4 (referenced[3])"), std::string::npos) << why;
  EXPECT_NE(why.find("operation 0 (ADD)"), std::string::npos) << why;
  // The body's own IF is reported as unsupported when asked directly.
  EXPECT_FALSE(isOperationSupported(m, 2, static_cast<uint32_t>(m.referenced[1].operations.size() - 1), &why));
  EXPECT_NE(why.find("referenced[3]"), std::string::npos) << why;
}

TEST(Support, ControlFlowOperandsMustBeFabricTypes) {
  Model m;
  m.referenced.push_back(intAddBranch());
  SubgraphBuilder passFloat;  // a branch that ignores a FLOAT32 input
  const uint32_t x = passFloat.input(I32, {2});
  passFloat.input(F32, {2});
  const uint32_t y = passFloat.output(I32, {2});
  passFloat.op(OT::CAST, {x}, {y});
  m.referenced.push_back(passFloat.build());
  m.referenced.push_back(passFloat.build());
  SubgraphBuilder main;
  const uint32_t c = main.input(B8, {1});
  const uint32_t xi = main.input(I32, {2});
  const uint32_t f = main.input(F32, {2});
  const uint32_t yo = main.output(I32, {2});
  main.op(OT::IF, {c, main.subgraphRef(1), main.subgraphRef(2), xi, f}, {yo});
  m.main = main.build();
  std::string why;
  EXPECT_FALSE(supported(m, &why));
  EXPECT_NE(why.find("TENSOR_FLOAT32"), std::string::npos) << why;
}

TEST(Support, DeepNestingIsCheckedWithoutRecursion) {
  // 100k nested WHILEs: checked iteratively, in linear time.
  const Model m = testing::deepWhileChain(100000);
  EXPECT_TRUE(supported(m));
  Model broken = m;
  // The innermost body's ADD becomes FLOAT32: found 100k levels down.
  Subgraph& innermost = broken.referenced.back();
  for (Operand& o : innermost.operands) {
    if (o.type == I32) o.type = F32;
  }
  std::string why;
  const bool ok = supported(broken, &why);
  EXPECT_FALSE(ok);
  EXPECT_NE(why.find("referenced[" + std::to_string(broken.referenced.size() - 1) + "]"), std::string::npos)
      << why.substr(0, 300);
}

}  // namespace
}  // namespace nnfab::compiler::test
